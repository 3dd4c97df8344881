// What a player notices without looking: one persistent live region that screen
// readers announce (turns, moves), a short tone on your turn, a browser notification
// when your turn comes while the tab is in the background, and the played cards
// moving to their places.  Sound and notifications are off until asked for.

const SOUND = "cardtable.sound";
const NOTIFY = "cardtable.notify";
const MOTION_MS = 260;

/** The page's one `aria-live` region (outside the redrawn page, so it is never
 * recreated and screen readers keep hearing it). */
export function announcer() {
  let region = document.getElementById("announcer");
  if (!region) {
    region = document.createElement("div");
    region.id = "announcer";
    region.className = "sr-only";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    document.body.append(region);
  }
  return region;
}

/** Say `text` through the live region (the same text twice is said twice). */
export function announce(text) {
  if (!text) return;
  const region = announcer();
  const same = region.textContent.replace(/\u00a0$/, "") === text;
  region.textContent = same && !region.textContent.endsWith("\u00a0") ? `${text}\u00a0` : text;
  region.dataset.count = String(Number(region.dataset.count || 0) + 1);
}

export function soundOn() {
  return localStorage.getItem(SOUND) === "on";
}

export function setSound(on) {
  localStorage.setItem(SOUND, on ? "on" : "off");
}

export function notifyOn() {
  return localStorage.getItem(NOTIFY) === "on" && "Notification" in window && Notification.permission === "granted";
}

/** Turn the notifications on (asking the browser's permission, once, on this click)
 * or off; resolves to whether they are on. */
export async function setNotify(on) {
  if (!on || !("Notification" in window)) {
    localStorage.setItem(NOTIFY, "off");
    return false;
  }
  const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  localStorage.setItem(NOTIFY, permission === "granted" ? "on" : "off");
  return permission === "granted";
}

let audio = null;

/** A short two-note tone (WebAudio, generated: no file). */
export function playTone() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  audio = audio || new Context();
  const start = audio.currentTime;
  [660, 880].forEach((freq, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + i * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.12 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.11);
    osc.connect(gain).connect(audio.destination);
    osc.start(start + i * 0.12);
    osc.stop(start + i * 0.12 + 0.12);
  });
  return true;
}

/** It became this player's turn: the tone (if on), a notification (if on and the
 * tab is hidden).  `document.body.dataset` counts both, for the tests. */
export function yourTurn(title, body) {
  const data = document.body.dataset;
  if (soundOn() && playTone()) data.tones = String(Number(data.tones || 0) + 1);
  if (document.hidden && notifyOn()) {
    const note = new Notification(title, { body, tag: "cardtable-turn" });
    note.onclick = () => { window.focus(); note.close(); };
    data.notified = String(Number(data.notified || 0) + 1);
  }
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where each card of `root` (outside the history parts) is now: {name: rect}, for
 * names shown once (a card two packs hold twice cannot be followed). */
export function cardPlaces(root) {
  const seen = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    if (el.closest("[data-history]") || el.classList.contains("chip")) continue;
    const name = el.dataset.card;
    seen.set(name, seen.has(name) ? null : { rect: el.getBoundingClientRect(), inHand: Boolean(el.closest(".hand")) });
  }
  return seen;
}

/** Move the cards that changed place since `before` (cardPlaces) from their old place
 * to the new one, and let the cards new on the board come in; nothing moves when
 * the person asked for reduced motion.  Returns how many cards were animated. */
export function animateMoves(root, before) {
  if (!before || reducedMotion() || typeof Element.prototype.animate !== "function") return 0;
  let moved = 0;
  for (const [name, now] of cardPlaces(root)) {
    if (!now) continue;
    const el = [...root.querySelectorAll(`[data-card="${CSS.escape(name)}"]`)].find((e) => !e.closest("[data-history]") && !e.classList.contains("chip"));
    if (!el) continue;
    const was = before.get(name);
    if (was === undefined && !now.inHand) {
      el.animate([{ opacity: 0, transform: "translateY(-12px) scale(0.92)" }, { opacity: 1, transform: "none" }],
        { duration: MOTION_MS, easing: "ease-out" });
      moved += 1;
    } else if (was && was.inHand !== now.inHand) {
      const dx = was.rect.left - now.rect.left;
      const dy = was.rect.top - now.rect.top;
      if (Math.abs(dx) + Math.abs(dy) < 2) continue;
      el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: MOTION_MS, easing: "ease-out" });
      moved += 1;
    }
  }
  if (moved) document.body.dataset.moved = String(Number(document.body.dataset.moved || 0) + moved);
  return moved;
}
