// The match clock on the table page (docs/server-protocol.md, "Clocks"): each
// seat's time left, counted down here from the server's `remaining` — never from
// this browser's own idea of the time against the deadline — and the
// "cardtable:your-turn" event for whoever notifies the player (a background tab).
// The table calls onMessage for every message and places node() in its page.

import { h } from "./util.js";
import { t } from "./i18n.js";

const LOW_SECONDS = 10;

/** Seconds as the clock shows them: 0:07, 4:05, 1:02:03; days and hours from a day up. */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return t("clock_days_hours", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** A clock's time in words: 15 s, 5 min, 8 h, 3 d. */
export function durationLabel(seconds) {
  if (seconds < 60) return t("clock_dur_s", { n: seconds });
  if (seconds < 3600) return t("clock_dur_min", { n: Math.round(seconds / 60) });
  if (seconds < 86400) return t("clock_dur_h", { n: Math.round(seconds / 3600) });
  return t("clock_dur_d", { n: Math.round(seconds / 86400) });
}

/** What kind of clock a match has, in words (lobby lists, the clock's title). */
export function clockSummary(clock) {
  if (!clock) return t("clock_none");
  const time = durationLabel(clock.seconds);
  const kind = clock.per === "match" ? t("clock_per_match", { time }) : t("clock_per_move", { time });
  return `${kind}, ${t(clock.on_timeout === "lose" ? "clock_then_lose" : "clock_then_ai")}`;
}

export class MatchClock {
  /** `page` is the TablePage: its match id, seat (`you`), seat names and render. */
  constructor(page) {
    this.page = page;
    this.clock = null; // the server's clock as last sent
    this.at = 0; // performance.now() when it came
    this.timer = null;
    this.outOfTime = null; // the seat whose AI plays the turn that ran out
    this.turnOf = undefined; // the seat to move as last seen, for the your-turn event
  }

  /** Take a message from the server; true if it was a clock one (no more to do). */
  onMessage(msg) {
    if (msg.type === "state" || msg.type === "update" || msg.type === "clock") {
      if ("clock" in msg) this.set(msg.clock || null);
      if (msg.type !== "clock") this.noticeTurn(msg);
      return msg.type === "clock";
    }
    if (msg.type === "timeout") {
      this.outOfTime = msg.seat;
      this.page.showToast(msg.seat === this.page.you ? t("clock_your_time_ran_out")
        : t("clock_their_time_ran_out", { name: this.page.seatName(msg.seat) }));
      return true;
    }
    return false;
  }

  set(clock) {
    this.clock = clock;
    this.at = performance.now();
    if (!clock || clock.seat !== this.outOfTime) this.outOfTime = null;
    const running = Boolean(clock && clock.seat !== null && clock.deadline !== null);
    if (running && !this.timer) this.timer = setInterval(() => this.tick(), 250);
    if (!running && this.timer) { clearInterval(this.timer); this.timer = null; }
  }

  /** Tell the page's listeners when the turn comes to this seat (any match, clock or not). */
  noticeTurn(msg) {
    const match = msg.match || this.page.match;
    const cur = msg.status === "finished" ? null
      : (msg.match ? msg.match.current_player : msg.view && msg.view.current_player);
    const was = this.turnOf;
    this.turnOf = cur;
    if (this.page.you === null || cur !== this.page.you || was === cur) return;
    window.dispatchEvent(new CustomEvent("cardtable:your-turn", { detail: {
      match: this.page.id, seat: this.page.you, game: match && match.game,
      deadline: this.clock ? this.clock.deadline : null, left: this.clock ? this.left(this.page.you) : null,
    } }));
  }

  /** Seconds left to `seat` now (null: it has no clock). */
  left(seat) {
    const c = this.clock;
    if (!c || !Array.isArray(c.remaining) || c.remaining[seat] === null || c.remaining[seat] === undefined) return null;
    const spent = seat === c.seat && c.deadline !== null ? (performance.now() - this.at) / 1000 : 0;
    return Math.max(0, c.remaining[seat] - spent);
  }

  /** Refresh the shown times in place (no redraw of the page). */
  tick() {
    for (const el of document.querySelectorAll(".match-clock [data-clock-seat]")) {
      const seat = Number(el.dataset.clockSeat);
      const left = this.left(seat);
      if (left === null) continue;
      const text = formatClock(left);
      if (el.textContent !== text) el.textContent = text;
      el.closest(".clock-seat").classList.toggle("low", seat === this.clock.seat && left <= LOW_SECONDS);
    }
  }

  /** The clock box: one line per seat with a clock, the running one marked. */
  node() {
    const c = this.clock;
    if (!c) return null;
    const box = h("div.match-clock", { title: clockSummary(c), "data-per": c.per,
      "data-correspondence": String(Boolean(c.correspondence)) });
    c.remaining.forEach((rest, seat) => {
      if (rest === null) return;
      const left = this.left(seat);
      const running = seat === c.seat && c.deadline !== null;
      const name = seat === this.page.you ? t("you") : this.page.seatName(seat);
      box.append(h(`div.clock-seat${running ? ".running" : ""}${running && left <= LOW_SECONDS ? ".low" : ""}`,
        { "data-seat": seat },
        h("span.clock-name", null, name),
        h("span.clock-time", { "data-clock-seat": seat, role: running ? "timer" : null }, formatClock(left)),
        this.outOfTime === seat ? h("span.clock-flag", null, t("clock_ai_moves")) : null));
    });
    return box;
  }
}

// --- the lobby: the clock of a new match, and the "your turn" news ---------------------

/** The clock choices of the new-match form: [value, per, seconds], "" for none. */
export const CLOCK_CHOICES = [
  ["", null, 0],
  ["move:15", "move", 15], ["move:30", "move", 30], ["move:60", "move", 60], ["move:120", "move", 120],
  ["match:300", "match", 300], ["match:600", "match", 600], ["match:1200", "match", 1200],
  ["move:3600", "move", 3600], ["move:28800", "move", 28800], ["move:86400", "move", 86400],
  ["move:259200", "move", 259200],
];

/** The `clock` of POST /api/matches for the form's choice (null: none). */
export function clockOption(form) {
  const choice = CLOCK_CHOICES.find(([value]) => value === (form.clock || ""));
  if (!choice || !choice[1]) return null;
  return { per: choice[1], seconds: choice[2], on_timeout: form.onTimeout === "lose" ? "lose" : "ai" };
}

function choiceLabel(per, seconds) {
  if (!per) return t("clock_none");
  const time = durationLabel(seconds);
  if (per === "match") return t("clock_per_match", { time });
  return seconds >= 3600 ? t("clock_correspondence", { time }) : t("clock_per_move", { time });
}

/** The new-match form's clock fields: the clock, and what happens when time runs out. */
export function clockFields(form, rerender) {
  const select = h("select#clock-choice", {
    onchange: (e) => { form.clock = e.target.value; rerender(); },
  }, ...CLOCK_CHOICES.map(([value, per, seconds]) =>
    h("option", { value, selected: value === (form.clock || "") ? true : null }, choiceLabel(per, seconds))));
  const box = h("div.clock-fields", null, h("label.field", null, h("span", null, t("clock")), select));
  if (form.clock) {
    box.append(h("label.field", null, h("span", null, t("clock_on_timeout")),
      h("select#clock-on-timeout", { onchange: (e) => { form.onTimeout = e.target.value; } },
        h("option", { value: "ai", selected: form.onTimeout !== "lose" ? true : null }, t("clock_then_ai")),
        h("option", { value: "lose", selected: form.onTimeout === "lose" ? true : null }, t("clock_then_lose")))));
  }
  return box;
}

/** Hear when one of `seats` ({id, seat} of "Your matches") comes to a new turn, ends or
 * changes seats (GET /api/turns/events); `onNews` gets the news, and a turn that comes to
 * the seat fires "cardtable:your-turn" on window.  When the feed reconnects, `onNews` gets
 * null: news sent while it was down is lost, so look again.  Returns the EventSource (or null). */
export function listenTurns(seats, onNews) {
  const ids = [...new Set(seats.map((s) => s.id))].slice(0, 50);
  if (!window.EventSource || !ids.length) return null;
  const feed = new EventSource(`/api/turns/events?matches=${ids.map(encodeURIComponent).join(",")}`);
  let opened = false;
  feed.onopen = () => {
    if (opened) onNews(null);
    opened = true;
  };
  feed.addEventListener("turn", (ev) => {
    let news;
    try { news = JSON.parse(ev.data); } catch { return; }
    for (const s of seats) {
      if (news.change === "seats") break; // somebody joined or left: not a new turn
      if (s.id !== news.match || s.seat === null || news.current_player !== s.seat) continue;
      window.dispatchEvent(new CustomEvent("cardtable:your-turn", { detail: {
        match: news.match, seat: s.seat, game: s.game, deadline: news.clock ? news.clock.deadline : null,
        left: news.clock && news.clock.remaining ? news.clock.remaining[s.seat] : null,
      } }));
    }
    onNews(news);
  });
  return feed;
}
