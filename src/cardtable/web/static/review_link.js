// The link to a finished match's review (/review/{match}?seat=N), for the end-of-match
// dialog, the table's tools, the lobby's finished matches and the profile page.

import { h } from "./util.js";
import { t, loadCatalog, catalogLoaded } from "./i18n.js";

/** The review's address, from `seat`'s side (null: a spectator's). */
export function reviewHref(matchId, seat) {
  return `/review/${encodeURIComponent(matchId)}${seat === null || seat === undefined ? "" : `?seat=${seat}`}`;
}

/** An `<a class="button review-link">` to the review; its words arrive with the
 * message catalog if the page has not loaded it yet. */
export function reviewLink(id, matchId, seat, { small = false } = {}) {
  const label = document.createTextNode(catalogLoaded() ? t("web.review.open") : "");
  const a = h(`a.button.review-link${small ? ".small" : ""}${id ? `#${id}` : ""}`, {
    href: reviewHref(matchId, seat), title: catalogLoaded() ? t("web.review.open_help") : null,
  }, "◎ ", label);
  if (!catalogLoaded()) {
    // a morphing redraw may have kept an earlier copy of the link: each one gets its words
    loadCatalog().then(() => {
      for (const link of new Set([a, ...document.querySelectorAll("a.review-link")])) {
        if (link.lastChild && !link.lastChild.textContent) link.lastChild.textContent = t("web.review.open");
        link.title = t("web.review.open_help");
      }
    }, () => {});
  }
  return a;
}
