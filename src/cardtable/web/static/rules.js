// The rules pages (/rules, /rules/{game}): the server renders the text; this module
// draws the pictures' cards with the table's cards.js, keeps the language switch in
// step with the rest of the site, and folds the contents on narrow screens.

import { LANGS, lang as preferred, setLang } from "./i18n.js";
import { frenchCard, expeditionCard, cardBack } from "./cards.js";

const body = document.body;
const pageLang = body.dataset.lang;
const game = body.dataset.game;

// A rules link without ?lang= follows the language this browser chose elsewhere on the site.
const params = new URLSearchParams(location.search);
if (!params.has("lang") && LANGS.includes(preferred) && preferred !== pageLang) {
  params.set("lang", preferred);
  location.replace(`${location.pathname}?${params}${location.hash}`);
} else {
  setLang(pageLang);
}

for (const link of document.querySelectorAll(".lang-switch a[data-lang]")) {
  link.addEventListener("click", () => setLang(link.dataset.lang));
  link.href += location.hash;
}

function face(slot) {
  const name = slot.dataset.card;
  const opts = { size: "sm", last: slot.dataset.marked === "true", jokerWord: game === "lost-ranks" ? "spy" : "joker" };
  if (name === "??") return cardBack(opts);
  return game === "lost-cities" ? expeditionCard(name, opts) : frenchCard(name, opts);
}

for (const slot of document.querySelectorAll(".cards-picture .rules-card[data-card]")) {
  slot.replaceWith(face(slot));
}

const toc = document.querySelector(".rules-toc details");
if (toc && window.matchMedia("(max-width: 800px)").matches) toc.open = false;
for (const link of document.querySelectorAll(".rules-toc a")) {
  link.addEventListener("click", () => { if (window.matchMedia("(max-width: 800px)").matches) toc.open = false; });
}
