// The shared messages of the front ends (the "messages" table of
// src/cardtable/i18n/{en,ru}.json, which the terminal uses too), as the server hands
// them out with the refusal catalog (GET /api/i18n).  ICU-style: {name} placeholders
// and {n, plural, one {# card} other {# cards}} choices by the CLDR plural category of
// the page's language (Intl.PluralRules), the same rules as cardtable.i18n.messages.

import { lang, loadRefusals } from "./i18n.js";

let catalog = null;
const missing = window.__cardtableMissing || new Set();

/** Fetch the catalog once (shared with the refusals); resolves when it is there. */
export async function loadMessages() {
  if (!catalog) catalog = await loadRefusals();
  return catalog;
}

/** Whether the catalog has arrived (msg() falls back to the key before that). */
export function messagesLoaded() {
  return catalog !== null;
}

function closing(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === "{") depth += 1;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  throw new Error(`unbalanced braces in message ${text}`);
}

function plural(body, value, params) {
  const branches = {};
  let i = 0;
  while (i < body.length) {
    if (/\s/.test(body[i])) { i += 1; continue; }
    const brace = body.indexOf("{", i);
    const end = closing(body, brace);
    branches[body.slice(i, brace).trim()] = body.slice(brace + 1, end);
    i = end + 1;
  }
  const category = new Intl.PluralRules(lang).select(value);
  const chosen = branches[`=${value}`] ?? branches[category] ?? branches.other;
  return format(chosen.replaceAll("#", String(value)), params);
}

/** A message template with its placeholders filled (see the module comment). */
export function format(template, params = {}) {
  let out = "";
  let i = 0;
  while (i < template.length) {
    if (template[i] !== "{") { out += template[i]; i += 1; continue; }
    const end = closing(template, i);
    const inner = template.slice(i + 1, end);
    const comma = inner.indexOf(",");
    const rest = comma < 0 ? "" : inner.slice(comma + 1).trim();
    if (rest.startsWith("plural,")) {
      out += plural(rest.slice("plural,".length), Number(params[inner.slice(0, comma).trim()]), params);
    } else {
      const v = params[inner.trim()];
      out += v === undefined || v === null ? `{${inner}}` : String(v);
    }
    i = end + 1;
  }
  return out;
}

/** The message `key` in the page's language (English when the language lacks it). */
export function msg(key, params = {}) {
  if (!catalog) return key;
  const own = (catalog[lang] || {}).messages || {};
  let template = own[key];
  if (template === undefined) {
    if (!missing.has(`${lang}:${key}`)) console.warn(`cardtable: missing translation ${lang}:${key}`);
    missing.add(`${lang}:${key}`);
    template = (catalog.en.messages || {})[key];
  }
  return template === undefined ? key : format(template, params);
}

/** Like msg(), but params may be DOM nodes: a list of strings and nodes (no plurals
 * around the nodes: a node stands in a plain {name} placeholder). */
export function msgNodes(key, params = {}) {
  const strings = {};
  const nodes = [];
  for (const [k, v] of Object.entries(params)) {
    if (v instanceof Node) {
      strings[k] = `\u0000${nodes.length}\u0000`;
      nodes.push(v);
    } else {
      strings[k] = v;
    }
  }
  return msg(key, strings).split(/\u0000(\d+)\u0000/).map((part, i) => (i % 2 ? nodes[Number(part)] : part))
    .filter((part) => part !== "");
}

/** What a win chance means in a game, in words: the analysis and hints send the
 * English label of cardtable.agents.knowledge ("win", "chance not to lose"). */
export function valueLabel(label) {
  return msg(label === "chance not to lose" ? "web.value.not_lose" : "web.value.win");
}

/** A chance in [0, 1] as a whole percentage in the page's language ("62 %"). */
export function percent(x) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(x);
}
