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

// --- the matches this browser plays (seat tokens stay in localStorage, keyed by match id)
const MATCHES = "cardtable.matches";
const NAME = "cardtable.name";

export function myMatches() {
  try {
    const value = JSON.parse(localStorage.getItem(MATCHES) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

export function myMatch(id) {
  return myMatches()[id] || null;
}

export function saveMatch(id, data) {
  const all = myMatches();
  all[id] = { ...(all[id] || {}), ...data };
  localStorage.setItem(MATCHES, JSON.stringify(all));
  return all[id];
}

export function forgetMatch(id) {
  const all = myMatches();
  delete all[id];
  localStorage.setItem(MATCHES, JSON.stringify(all));
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
