// Helpers shared by the game boards.

import { h } from "../util.js";
import { t } from "../i18n.js";

/** A number with a real minus sign: -5 -> "−5". */
export function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}

/** Items joined by "; " (each an array of strings and nodes). */
export function joined(parts) {
  return parts.flatMap((part, i) => (i ? ["; ", ...part] : part));
}

/** A line listing what happened since this seat's previous turn. */
export function recentBox(ctx, game) {
  const others = ctx.recent.filter((e) => e.seat !== ctx.you);
  if (!others.length || ctx.spectator) {
    if (!ctx.spectator || !ctx.recent.length) return null;
  }
  const events = ctx.spectator ? ctx.recent : others;
  const box = h("div.recent", { "data-history": "recent" }, h("span.recent-title", null, t("match.last_moves")));
  let lastSeat = null;
  for (const e of events.slice(-8)) {
    const item = h("span.recent-item");
    if (e.seat !== lastSeat) item.append(h("b", null, ctx.name(e.seat)), " ");
    item.append(game.describe(e, ctx, { short: true }));
    box.append(item);
    // after a result (a trick won, a round over) the next move is named again
    lastSeat = item.querySelector(".note") ? null : e.seat;
  }
  return box;
}

/** A table of per-round scores: columns are seats (or armies), rows rounds, then totals. */
export function roundsTable(heads, rows, totals, { highlight = [] } = {}) {
  const table = h("table.scores-table");
  table.append(h("thead", null, h("tr", null, h("th", null, t("round")),
    heads.map((x, i) => h("th", { class: highlight.includes(i) ? "me" : "" }, x)))));
  const body = h("tbody");
  rows.forEach((r, i) => body.append(h("tr", null, h("th", { scope: "row" }, String(i + 1)),
    r.map((x, j) => h("td", { class: highlight.includes(j) ? "me" : "" }, signed(x))))));
  if (!rows.length) body.append(h("tr", null, h("td", { colspan: heads.length + 1, class: "muted" }, t("no_rounds_yet"))));
  table.append(body);
  if (totals) {
    table.append(h("tfoot", null, h("tr", null, h("th", null, t("total")),
      totals.map((x, j) => h("td", { class: highlight.includes(j) ? "me" : "" }, num(x))))));
  }
  return table;
}

/** Walk the legal moves in order, giving key badges 1..9, 0 to the ones shown. */
export class KeyPad {
  constructor(ctx) {
    this.ctx = ctx;
    this.n = 0;
  }

  next(action, shift = false) {
    if (!this.ctx.myTurn || action === undefined || this.n >= 10) return undefined;
    this.n += 1;
    const digit = String(this.n % 10);
    this.ctx.keys[(shift ? "S-" : "") + digit] = action;
    return digit;
  }
}
