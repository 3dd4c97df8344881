// Cards drawn with HTML/CSS: rank, suit symbol AND suit letter, with distinct colours
// and shapes so that no distinction relies on colour alone.

import { h } from "./util.js";
import { t } from "./i18n.js";

export const SUITS = {
  C: { symbol: "♣", word: "clubs" },
  D: { symbol: "♦", word: "diamonds" },
  H: { symbol: "♥", word: "hearts" },
  S: { symbol: "♠", word: "spades" },
};

export const COLOURS = {
  Y: { glyph: "☀", word: "yellow" },
  B: { glyph: "≈", word: "blue" },
  W: { glyph: "❄", word: "white" },
  G: { glyph: "✿", word: "green" },
  R: { glyph: "▲", word: "red" },
  P: { glyph: "◆", word: "purple" },
};

export const JOKER = "JK";
const RANK_WORDS = { J: "jack", Q: "queen", K: "king", A: "ace" };

/** "10H" -> {rank: "10", suit: "H"}; "JK" -> {rank: "JK", suit: null}. */
export function parseFrench(name) {
  if (name === JOKER) return { rank: JOKER, suit: null };
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

/** "Y7" -> {colour: "Y", value: "7"}; "Yw" -> {colour: "Y", value: "w"}. */
export function parseExpedition(name) {
  return { colour: name[0], value: name.slice(1) };
}

export function frenchLabel(name, jokerWord = "joker") {
  const { rank, suit } = parseFrench(name);
  if (suit === null) return t(jokerWord);
  return t("card_of", { rank: t(`rank_${RANK_WORDS[rank] || rank}`), suit: t(`suit_${SUITS[suit].word}`) });
}

export function expeditionLabel(name) {
  const { colour, value } = parseExpedition(name);
  const c = t(`colour_${COLOURS[colour].word}`);
  return value === "w" ? t("wager_of", { colour: c }) : `${c} ${value}`;
}

/** A mark of a card's face ("10", "♥", "H"), drawn by CSS from `data-face`: the face
 * is a picture, so its marks are no text of the page (the card's name is its label). */
function face(tag, mark) {
  return h(tag, { "data-face": mark });
}

function shell(interactive, opts, classes, label, name) {
  const attrs = {
    class: [classes, opts.cls, opts.disabled ? "disabled" : "", opts.last ? "last" : "", opts.hint ? "hinted" : "",
      opts.selected ? "selected" : ""].filter(Boolean).join(" "),
    "data-card": name,
    title: opts.title || label,
  };
  if (interactive) {
    attrs.type = "button";
    attrs["aria-label"] = opts.ariaLabel || label;
    if (opts.disabled) attrs["aria-disabled"] = "true";
    if (opts.action !== undefined) attrs["data-action"] = opts.action;
    attrs.onclick = (ev) => {
      ev.preventDefault();
      if (!opts.disabled && opts.onClick) opts.onClick(ev);
    };
    return h("button", attrs);
  }
  attrs.role = "img";
  attrs["aria-label"] = label;
  return h("span", attrs);
}

/**
 * A French card ("10H", "QS", "JK").
 * opts: {onClick, disabled, action, key (shortcut badge), last, hint, size: "sm"|"md"|"lg",
 *        jokerWord ("joker"|"spy"), badge (string), cls}
 */
export function frenchCard(name, opts = {}) {
  const { rank, suit } = parseFrench(name);
  const interactive = Boolean(opts.onClick) || opts.disabled !== undefined;
  const jokerWord = opts.jokerWord || "joker";
  const label = frenchLabel(name, jokerWord);
  const size = opts.size || "md";
  if (suit === null) {
    const e = shell(interactive, opts, `card fr joker ${size}`, label, name);
    e.append(
      h("span.corner", { "aria-hidden": "true" }, face("b.rk", jokerWord === "spy" ? t("spy_short") : "JK"), face("span.sy", "★")),
      face("span.pip", "★"),
      face("span.sl", t(jokerWord === "spy" ? "spy" : "joker")),
    );
    decorate(e, opts);
    return e;
  }
  const sym = SUITS[suit].symbol;
  const e = shell(interactive, opts, `card fr s-${suit} ${size}`, label, name);
  e.append(
    h("span.corner", { "aria-hidden": "true" }, face("b.rk", rank), face("span.sy", sym)),
    face("span.pip", sym),
    face("span.sl", suit),
  );
  decorate(e, opts);
  return e;
}

/** A Lost Cities card ("Y7", "Bw"). Same opts as frenchCard. */
export function expeditionCard(name, opts = {}) {
  const { colour, value } = parseExpedition(name);
  const interactive = Boolean(opts.onClick) || opts.disabled !== undefined;
  const label = expeditionLabel(name);
  const size = opts.size || "md";
  const wager = value === "w";
  const glyph = COLOURS[colour].glyph;
  const e = shell(interactive, opts, `card lc c-${colour} ${size}${wager ? " wager" : ""}`, label, name);
  e.append(
    h("span.corner", { "aria-hidden": "true" }, face("b.rk", wager ? "×" : value), face("span.sy", glyph)),
    face("span.pip", wager ? "×" : glyph),
    face("span.sl", colour),
  );
  decorate(e, opts);
  return e;
}

function decorate(e, opts) {
  if (opts.key) {
    e.append(h("span.key", { "aria-hidden": "true", "data-face": opts.key }));
    e.setAttribute("aria-keyshortcuts", opts.key);
  }
  if (opts.badge) e.append(h("span.badge", { title: opts.badgeTitle || "" }, opts.badge));
}

/** The back of a card (a hidden card: no face, no name). */
export function cardBack(opts = {}) {
  const size = opts.size || "md";
  const interactive = Boolean(opts.onClick) || opts.disabled !== undefined;
  const attrs = {
    class: ["card back", size, opts.cls, opts.disabled ? "disabled" : "", opts.last ? "last" : "",
      opts.hint ? "hinted" : ""].filter(Boolean).join(" "),
    title: opts.title || t("hidden_card"),
  };
  let e;
  if (interactive) {
    attrs.type = "button";
    attrs["aria-label"] = opts.ariaLabel || opts.title || t("hidden_card");
    if (opts.disabled) attrs["aria-disabled"] = "true";
    if (opts.action !== undefined) attrs["data-action"] = opts.action;
    attrs.onclick = (ev) => {
      ev.preventDefault();
      if (!opts.disabled && opts.onClick) opts.onClick(ev);
    };
    e = h("button", attrs);
  } else {
    attrs.role = "img";
    attrs["aria-label"] = opts.title || t("hidden_card");
    e = h("span", attrs);
  }
  if (opts.count !== undefined) e.append(h("span.count", null, String(opts.count)));
  decorate(e, opts);
  return e;
}

/** The chip of a hidden card ("??"): no face, no name. */
export function hiddenChip() {
  return h("span.chip.hidden", { title: t("hidden_card") }, "??");
}

/** A small inline French card for texts (log lines, summaries); "??" is a hidden card.
 * `jokerWord` names the joker as frenchCard's option does. */
export function frenchChip(name, jokerWord = "joker") {
  if (!name || name === "??") return hiddenChip();
  const { rank, suit } = parseFrench(name);
  if (suit === null) {
    return h("span.chip.joker", { "data-card": name, title: t(jokerWord) }, `★${jokerWord === "spy" ? t("spy_short") : "JK"}`);
  }
  if (!SUITS[suit]) return document.createTextNode(name);
  return h(`span.chip.s-${suit}`, { "data-card": name, title: frenchLabel(name) }, `${rank}${SUITS[suit].symbol}`);
}

/** A small inline expedition card ("Y7", "Bw") for texts; "??" is a hidden card. */
export function expeditionChip(name) {
  if (!name || name === "??") return hiddenChip();
  const { colour, value } = parseExpedition(name);
  if (!COLOURS[colour]) return document.createTextNode(name);
  return h(`span.chip.lc.c-${colour}`, { "data-card": name, title: expeditionLabel(name) },
    `${COLOURS[colour].glyph}${colour}${value === "w" ? "×" : value}`);
}
