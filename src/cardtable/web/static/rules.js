// The rules pages (/rules, /rules/{game}): the server renders the text; this module
// draws the pictures' cards with the game's own module (as the table does), keeps the language switch in
// step with the rest of the site, and folds the contents on narrow screens.

import { LANGS, lang as preferred, setLang } from "./i18n.js";
import { cardBack } from "./cards.js";
import { loadGame } from "./games/index.js";

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

function face(slot, renderer) {
  const name = slot.dataset.card;
  const opts = { size: "sm", last: slot.dataset.marked === "true" };
  return name === "??" ? cardBack(opts) : renderer.card(name, opts);
}

// the pictures' cards are drawn by the game's own module, as on the table
const slots = document.querySelectorAll(".cards-picture .rules-card[data-card]");
if (game && slots.length) {
  loadGame(game).then((renderer) => {
    for (const slot of slots) slot.replaceWith(face(slot, renderer));
  }, (err) => console.warn("cardtable: no card pictures", err));
}

const toc = document.querySelector(".rules-toc details");
if (toc && window.matchMedia("(max-width: 800px)").matches) toc.open = false;
for (const link of document.querySelectorAll(".rules-toc a")) {
  link.addEventListener("click", () => { if (window.matchMedia("(max-width: 800px)").matches) toc.open = false; });
}
