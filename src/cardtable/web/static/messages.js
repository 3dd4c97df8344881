// ICU-style messages of the shared catalog (src/cardtable/i18n/{en,ru}.json, served at
// GET /api/i18n), formatted in the browser exactly as cardtable.i18n.messages formats
// them for the terminal:
//   {name}                                  the parameter (a string, a number or a DOM node)
//   {n, plural, one {# card} other {# cards}}   a CLDR plural (Intl.PluralRules), # = n
//   {person, select, you {…} other {…}}      a branch chosen by a word parameter
// Branches nest.  A missing parameter stays as "{name}" (visible, never a crash).

/** The index of the "}" closing the "{" at `start`. */
function matching(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === "{") depth += 1;
    else if (text[i] === "}") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error(`unbalanced braces in message ${JSON.stringify(text)}`);
}

/** selector -> text of the branches of a plural or select body ("one {…} other {…}"). */
function branches(body) {
  const found = {};
  let i = 0;
  while (i < body.length) {
    if (/\s/.test(body[i])) { i += 1; continue; }
    const brace = body.indexOf("{", i);
    if (brace < 0) break;
    const end = matching(body, brace);
    found[body.slice(i, brace).trim()] = body.slice(brace + 1, end);
    i = end + 1;
  }
  return found;
}

function pushValue(out, value, placeholder) {
  if (value === undefined || value === null) out.push(placeholder);
  else if (Array.isArray(value)) out.push(...value);
  else if (typeof Node !== "undefined" && value instanceof Node) out.push(value);
  else out.push(String(value));
}

/** `template` formatted in `lang`: a list of strings and DOM nodes (adjacent strings joined). */
export function formatParts(template, lang, params = {}) {
  const out = [];
  let i = 0;
  while (i < template.length) {
    const brace = template.indexOf("{", i);
    if (brace < 0) { out.push(template.slice(i)); break; }
    if (brace > i) out.push(template.slice(i, brace));
    const end = matching(template, brace);
    const inner = template.slice(brace + 1, end);
    const [name, kind, ...rest] = inner.split(",");
    const body = rest.join(",");
    const key = name.trim();
    if (kind !== undefined && kind.trim() === "plural") {
      const n = Number(params[key]);
      const table = branches(body);
      const chosen = table[`=${n}`] ?? table[new Intl.PluralRules(lang).select(n)] ?? table.other ?? "";
      out.push(...formatParts(chosen.replaceAll("#", String(n)), lang, params));
    } else if (kind !== undefined && kind.trim() === "select") {
      const table = branches(body);
      out.push(...formatParts(table[String(params[key])] ?? table.other ?? "", lang, params));
    } else {
      pushValue(out, params[key], `{${inner}}`);
    }
    i = end + 1;
  }
  const joined = [];
  for (const part of out) {
    if (typeof part === "string" && typeof joined[joined.length - 1] === "string") joined[joined.length - 1] += part;
    else if (part !== "") joined.push(part);
  }
  return joined;
}

/** `template` formatted in `lang` as one string (every parameter a string or number). */
export function formatText(template, lang, params = {}) {
  return formatParts(template, lang, params).map((p) => (typeof p === "string" ? p : p.textContent)).join("");
}
