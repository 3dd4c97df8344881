// The link to a finished match's review (/review/{match}?seat=N), for the end-of-match
// dialog, the table's tools, the lobby's finished matches and the profile page.

import { h } from "./util.js";
import { loadMessages, messagesLoaded, msg } from "./messages.js";

/** The review's address, from `seat`'s side (null: a spectator's). */
export function reviewHref(matchId, seat) {
  return `/review/${encodeURIComponent(matchId)}${seat === null || seat === undefined ? "" : `?seat=${seat}`}`;
}

/** An `<a class="button review-link">` to the review; its words arrive with the
 * message catalog if the page has not loaded it yet. */
export function reviewLink(id, matchId, seat, { small = false } = {}) {
  const label = document.createTextNode(messagesLoaded() ? msg("web.review.open") : "");
  const a = h(`a.button.review-link${small ? ".small" : ""}${id ? `#${id}` : ""}`, {
    href: reviewHref(matchId, seat), title: messagesLoaded() ? msg("web.review.open_help") : null,
  }, "◎ ", label);
  if (!messagesLoaded()) {
    loadMessages().then(() => {
      label.textContent = msg("web.review.open");
      a.title = msg("web.review.open_help");
    }, () => {});
  }
  return a;
}
