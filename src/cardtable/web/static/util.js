// Small DOM and storage helpers shared by the lobby and the table.

/** h("div.a.b", {attr: value, onclick: fn}, ...children) -> Element */
export function h(tag, attrs, ...children) {
  let spec = tag;
  let id = null;
  const hash = spec.indexOf("#");
  if (hash >= 0) {
    id = spec.slice(hash + 1);
    spec = spec.slice(0, hash);
  }
  const [name, ...classes] = spec.split(".");
  const e = document.createElement(name || "div");
  if (classes.length) e.className = classes.join(" ");
  if (id) e.id = id;
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = e.className ? `${e.className} ${v}` : v;
      else if (k === "text") e.textContent = v;
      else if (k === "style" && typeof v === "object") {
        for (const [prop, val] of Object.entries(v)) {
          if (prop.startsWith("--")) e.style.setProperty(prop, val);
          else e.style[prop] = val;
        }
      }
      else if (k === "dataset") Object.assign(e.dataset, v);
      else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
      else if (k === "value" && "value" in e) e.value = v;
      else if (k === "checked") e.checked = Boolean(v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
  }
  append(e, children);
  return e;
}

export function append(parent, children) {
  for (const c of [children].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    parent.append(c instanceof Node ? c : String(c));
  }
  return parent;
}

export function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
  return e;
}

/** Run `rebuild` (which replaces part of the page) without taking the keyboard away:
 * the element that had the focus is found again by its id and gets the focus back,
 * a text field with the text as typed (spaces included) and its caret or selection. */
export function keepingFocus(rebuild) {
  const before = document.activeElement;
  const typed = before && typeof before.selectionStart === "number"
    ? { value: before.value, start: before.selectionStart, end: before.selectionEnd } : null;
  rebuild();
  const again = before && before.id ? document.getElementById(before.id) : null;
  if (!again || again === before || again.tagName !== before.tagName) return;
  if (typed && typeof again.selectionStart === "number") {
    again.value = typed.value;
    again.setSelectionRange(typed.start, typed.end);
  }
  again.focus({ preventScroll: true });
}

// --- the seats this browser holds (seat tokens stay in localStorage)
// cardtable.matches = {matchId: {game, created, host, invites, seats: [{seat, token}]}}:
// one entry per match, and in it every seat this browser was given (a person may
// sit in several matches, or in two seats of one match, each in its own tab).
const MATCHES = "cardtable.matches";
const NAME = "cardtable.name";

function normalise(entry) {
  if (!entry || typeof entry !== "object") return null;
  const out = { ...entry };
  let seats = Array.isArray(entry.seats) ? entry.seats : [];
  if (typeof entry.token === "string") { // the older one-token-per-match layout
    seats = [...seats, { seat: entry.seat ?? null, token: entry.token }];
  }
  delete out.token;
  delete out.seat;
  out.seats = [];
  for (const s of seats) {
    if (!s || typeof s.token !== "string" || out.seats.some((x) => x.token === s.token)) continue;
    out.seats.push({ seat: Number.isInteger(s.seat) ? s.seat : null, token: s.token });
  }
  return out;
}

function readAll() {
  try {
    const value = JSON.parse(localStorage.getItem(MATCHES) || "{}");
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    const out = {};
    for (const [id, entry] of Object.entries(value)) {
      const m = normalise(entry);
      if (m) out[id] = m;
    }
    return out;
  } catch {
    return {};
  }
}

function writeAll(all) {
  localStorage.setItem(MATCHES, JSON.stringify(all));
}

/** Every match this browser holds a seat (or the host token) of: {id: entry}. */
export function myMatches() {
  return readAll();
}

export function myMatch(id) {
  return readAll()[id] || null;
}

/** One row per seat held: [{id, seat, token, game, created, ...}], newest match first. */
export function mySeats() {
  const out = [];
  for (const [id, m] of Object.entries(readAll())) {
    for (const s of m.seats) out.push({ ...m, seats: undefined, id, seat: s.seat, token: s.token, many: m.seats.length > 1 });
  }
  out.sort((a, b) => (b.created || 0) - (a.created || 0) || (a.seat ?? 99) - (b.seat ?? 99));
  return out;
}

/** Match-level facts (game, created, host token, invite links), merged into the entry. */
export function saveMatch(id, data) {
  const all = readAll();
  all[id] = normalise({ created: Date.now(), ...(all[id] || {}), ...data, seats: (all[id] || {}).seats || [] });
  writeAll(all);
  return all[id];
}

/** Remember a seat token; `seat` may be null until the server says which seat it is.
 * A token for a seat replaces an older token of the same seat. */
export function saveSeat(id, token, seat = null) {
  const all = readAll();
  const m = all[id] || normalise({ created: Date.now(), seats: [] });
  const known = m.seats.find((s) => s.token === token);
  if (known) {
    if (seat !== null) known.seat = seat;
  } else {
    m.seats.push({ seat, token });
  }
  if (seat !== null) m.seats = m.seats.filter((s) => s.token === token || s.seat !== seat);
  m.seats.sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99));
  all[id] = m;
  writeAll(all);
  return m;
}

/** The token to use for `id`: the one of `seat`, else the first seat held (or null). */
export function seatToken(id, seat = null) {
  const m = readAll()[id];
  if (!m || !m.seats.length) return null;
  if (seat !== null && seat !== undefined) {
    const s = m.seats.find((x) => x.seat === seat);
    return s ? s.token : null;
  }
  return m.seats[0].token;
}

/** Forget one seat of a match (or the whole match when `seat` is undefined). */
export function forgetMatch(id, seat) {
  const all = readAll();
  if (all[id] && seat !== undefined) {
    all[id].seats = all[id].seats.filter((s) => s.seat !== seat);
    if (!all[id].seats.length) delete all[id];
  } else {
    delete all[id];
  }
  writeAll(all);
}

/** Forget a seat token the server refused (a seat taken by someone else, say). */
export function forgetToken(id, token) {
  const all = readAll();
  if (!all[id]) return;
  all[id].seats = all[id].seats.filter((s) => s.token !== token);
  if (!all[id].seats.length && !all[id].host) delete all[id];
  writeAll(all);
}

/** `?seat=N` of the current address, or null. */
export function seatParam() {
  const v = new URLSearchParams(location.search).get("seat");
  return v !== null && /^\d+$/.test(v) ? Number(v) : null;
}

export function getName() {
  return localStorage.getItem(NAME) || "";
}

export function setName(name) {
  localStorage.setItem(NAME, name.trim().slice(0, 40));
}

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    const err = new Error((data && data.message) || `${r.status} ${r.statusText}`);
    err.code = data && data.code;
    err.status = r.status;
    throw err;
  }
  return data;
}

export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = h("textarea", { readonly: true }, text);
  document.body.append(area);
  area.select();
  try {
    document.execCommand("copy");
  } finally {
    area.remove();
  }
  return Promise.resolve();
}

/** Save the JSON record of a finished match (GET /api/matches/{id}/record with a seat
 * token) as a file: the format `cardtable replay` reads. */
export async function downloadRecord(id, token) {
  const record = await api("GET", `/api/matches/${encodeURIComponent(id)}/record`, undefined, token);
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: `cardtable-${record.game}-${id}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return record;
}

const SVG = "http://www.w3.org/2000/svg";

/** svg("circle", {cx: 1, cy: 2, r: 3}) -> an SVG element (for the small plots). */
export function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}
