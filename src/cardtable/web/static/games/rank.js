// Ранг (Rank): the pile, the stock, every opponent's card count, the chain of the
// current turn, pull-back (RG-6) and Anti-Rank (RG-8) shown in words.

import { h } from "../util.js";
import { t, tn, ordinal } from "../i18n.js";
import { frenchCard, cardBack, frenchChip } from "../cards.js";
import { joined, recentBox, KeyPad } from "./common.js";

const PILE_SHOWN = 8;
const cardIn = (c) => frenchChip(c);

function board(ctx) {
  const v = ctx.view;
  const root = h("div.rank-board");
  const recent = recentBox(ctx, api);
  if (recent) root.append(recent);
  root.append(opponents(ctx));
  root.append(center(ctx));
  root.append(ctx.spectator ? h("div.my-area.spectating", null, h("p.muted", null, t("spectator_no_hand"))) : myArea(ctx));
  return root;
}

function seatStatus(ctx, seat) {
  const v = ctx.view;
  const place = v.finished.indexOf(seat);
  if (place >= 0) return h("span.tag.out", null, t("rk_out_place", { place: ordinal(place + 1) }));
  if (v.loser === seat) return h("span.tag.loser", null, t("rk_loser"));
  return null;
}

function opponents(ctx) {
  const v = ctx.view;
  const n = v.players;
  const row = h("div.rank-opponents");
  for (let i = 1; i <= n; i++) {
    const seat = (ctx.me + i) % n;
    if (seat === ctx.you) continue;
    if (i === n && !ctx.spectator) continue;
    row.append(seatBox(ctx, seat));
  }
  return row;
}

function seatBox(ctx, seat) {
  const v = ctx.view;
  const size = v.hand_sizes[seat];
  const moving = v.current_player === seat && ctx.status === "active";
  const box = h(`div.rank-seat${moving ? ".to-move" : ""}${v.finished.includes(seat) ? ".is-out" : ""}`, { "data-seat": seat },
    h("div.rank-seat-head", null, h("b.pname", null, ctx.name(seat)),
      v.dealer === seat ? h("span.tag.dealer", { title: t("dealer") }, t("dealer_short")) : null,
      seatStatus(ctx, seat)));
  const fan = h("div.fan.tight", { title: t("cards_n", { n: size }) });
  for (let i = 0; i < Math.min(size, 8); i++) fan.append(cardBack({ size: "xs" }));
  box.append(h("div.rank-count", null, fan, h("span.count-text", { "data-count": size }, t("cards_n", { n: size }))));
  if (moving && v.turn) {
    const bits = [];
    if (v.turn.drew) bits.push(t("count.drew", { n: v.turn.drew }));
    if (bits.length) box.append(h("div.small.muted", null, bits.join(", ")));
  }
  return box;
}

function center(ctx) {
  const v = ctx.view;
  const box = h("div.rank-center");
  const drawAction = ctx.legalByMove.get("draw");
  const stock = h("div.stock", null,
    cardBack({
      size: "lg", count: v.stock, title: t("count.stock", { n: v.stock }),
      action: drawAction,
      disabled: ctx.myTurn ? drawAction === undefined : undefined,
      onClick: ctx.myTurn && drawAction !== undefined ? () => ctx.act(drawAction) : undefined,
      ariaLabel: t("count.stock", { n: v.stock }),
      hint: ctx.hint && ctx.hint.action === drawAction,
      cls: v.stock ? "" : "empty",
    }),
    h("span.small", null, t("rk_stock_label", { n: v.stock })));
  const plays = ctx.recent.filter((e) => e.move.startsWith("play ")).length;
  const pile = h("div.pile-fan", { "aria-label": t("count.pile", { n: v.pile.length }) });
  const start = Math.max(0, v.pile.length - PILE_SHOWN);
  const chain = v.turn ? v.turn.plays.length : 0;
  for (let i = start; i < v.pile.length; i++) {
    const top = i === v.pile.length - 1;
    pile.append(frenchCard(v.pile[i], {
      size: top ? "lg" : "md",
      last: i >= v.pile.length - plays,
      cls: [top ? "top" : "under", i >= v.pile.length - chain ? "chain" : ""].filter(Boolean).join(" "),
    }));
  }
  const pileBox = h("div.pile-box", null, pile, h("span.small", null, t("rk_pile_label", { n: v.pile.length }),
    v.pile.length > PILE_SHOWN ? h("button.link.small", {
      type: "button", onclick: (e) => { e.target.replaceWith(h("span.pile-all", null, v.pile.map(cardIn))); },
    }, t("rk_show_pile")) : null));
  box.append(h("div.rank-table", null, stock, pileBox));
  box.append(...banners(ctx));
  return box;
}

function banners(ctx) {
  const v = ctx.view;
  const out = [];
  if (v.anti_rank && v.anti_rank.active) {
    out.push(h("div.banner.anti", { role: "status" }, h("b", null, t("rk_anti_title")), " ",
      t("rk_anti_text", { name: ctx.name(v.anti_rank.declared_by) })));
  }
  const pb = v.pull_back;
  if (pb && pb.event === "pull-back") {
    out.push(h("div.banner.pull", { role: "status" }, t(pb.seat === ctx.you ? "rk_pull_back_you" : "rk_pull_back", {
      who: ctx.name(pb.seat), by: ctx.name(pb.by, { lower: true }), n: pb.cards,
    })));
  } else if (pb && pb.event === "out") {
    out.push(h("div.banner.pull", { role: "status" }, t(pb.seat === ctx.you ? "rk_out_you" : "rk_out_by", {
      who: ctx.name(pb.seat), by: ctx.name(pb.by, { lower: true }), place: ordinal(pb.place),
    })));
  }
  if (v.turn && v.turn.plays.length && ctx.status === "active") {
    out.push(h("div.chain-line", null, tn("rk_chain", { who: ctx.name(v.turn.seat) }), " ",
      v.turn.plays.map(cardIn)));
  }
  return out;
}

function myArea(ctx) {
  const v = ctx.view;
  const pad = new KeyPad(ctx);
  const hand = h(`div.hand.rank-hand${ctx.myTurn ? "" : ".idle"}`, { "aria-label": t("your_hand") });
  let hinted = false;
  for (const c of v.hand) {
    const action = ctx.legalByMove.get(`play ${c}`);
    const enabled = ctx.myTurn && action !== undefined;
    const isHint = !hinted && ctx.hint && ctx.hint.action === action && action !== undefined;
    if (isHint) hinted = true;
    hand.append(frenchCard(c, {
      size: "lg", disabled: !enabled, action, key: enabled ? pad.next(action) : null,
      onClick: () => ctx.act(action), hint: isHint, cls: "in-hand",
      ariaLabel: enabled ? t("rk_play_card", { card: c }) : undefined,
      title: ctx.myTurn && !enabled ? ctx.refusedByMove.get(`play ${c}`) : undefined,
    }));
  }
  const buttons = h("div.move-buttons");
  const draw = ctx.legalByMove.get("draw");
  const pass = ctx.legalByMove.get("pass");
  if (draw !== undefined && ctx.myTurn) {
    ctx.keys.d = draw;
    const k = pad.next(draw);
    buttons.append(h("button.primary#draw", { type: "button", "data-action": draw, class: ctx.hint && ctx.hint.action === draw ? "hinted" : "",
      onclick: () => ctx.act(draw) }, t("rk_draw"), h("kbd", null, k || "D")));
  }
  if (pass !== undefined && ctx.myTurn) {
    ctx.keys.p = pass;
    const k = pad.next(pass);
    buttons.append(h("button.primary#pass", { type: "button", "data-action": pass, class: ctx.hint && ctx.hint.action === pass ? "hinted" : "",
      onclick: () => ctx.act(pass) }, t("rk_pass"), h("kbd", null, k || "P")));
  }
  const out = v.finished.indexOf(ctx.you);
  const title = h("div.area-title", null, h("b", null, t("your_hand")), " ",
    h("span.muted", null, t("cards_n", { n: v.hand.length })),
    out >= 0 ? h("span.tag.out", null, t("rk_you_out", { place: ordinal(out + 1) })) : null,
    v.dealer === ctx.you ? h("span.tag.dealer", null, t("dealer")) : null);
  return h("div.my-area", null, title, hand, buttons);
}

function status(ctx) {
  const v = ctx.view;
  if (ctx.status === "finished") return verdict(ctx);
  const cur = v.current_player;
  if (ctx.you !== null && cur === ctx.you) {
    if (v.anti_rank && v.anti_rank.active) return t("rk_your_anti");
    if (ctx.legalByMove.has("draw")) return t("rk_your_draw");
    if (ctx.legalByMove.has("pass")) return t("rk_your_pass");
    if (v.turn && v.turn.plays.length) return t("rk_your_more");
    return t("rk_your_play", { card: v.top });
  }
  return t("waiting_for_move", { name: ctx.name(cur) });
}

function verdict(ctx) {
  const v = ctx.view;
  const loser = v.loser ?? (ctx.result && ctx.result.loser);
  if (loser === null || loser === undefined) return t("match.over");
  if (loser === ctx.you) return t("rk_you_lose");
  if (ctx.you !== null) return t("rk_you_safe", { name: ctx.name(loser) });
  return t("rk_loses", { name: ctx.name(loser) });
}

function scoreline(ctx) {
  const v = ctx.view;
  return [
    h("span", null, t("rk_players_packs", { n: v.players, packs: v.packs })),
    h("span", null, t("rk_stock_label", { n: v.stock })),
  ];
}

/** An event from its typed details (docs/server-protocol.md, Ранг). */
function describe(e, ctx) {
  const person = (seat) => (seat === ctx.you ? "you" : "other");
  const out = [];
  const notes = [];
  const note = (key, seat, more = {}) => notes.push([t(key, { person: person(seat), who: ctx.name(seat, { lower: true }), ...more })]);
  for (const d of e.details || []) {
    if (d.kind === "card_played") out.push(...tn("event.rank.play", { person: person(e.seat), card: cardIn(d.card), anti: "no" }));
    else if (d.kind === "card_drawn") {
      const mine = (ctx.view.log || []).find((x) => x.event === "draw" && x.move === e.seq && x.card);
      const playable = d.playable ? "yes" : "no";
      if (mine) out.push(...tn("event.rank.drew_card", { person: person(e.seat), card: cardIn(mine.card), playable }));
      else out.push(...tn("event.rank.drew", { person: person(e.seat), playable }));
    } else if (d.kind === "passed") out.push(...tn("event.rank.pass", { person: person(e.seat) }));
    else if (d.kind === "pull_back") {
      note("note.rank.pull", d.seat, { by_person: person(d.by), by: ctx.name(d.by, { lower: true }), n: d.count });
    } else if (d.kind === "player_out") {
      const by = d.by === null ? { by_person: "stock" } : { by_person: person(d.by), by: ctx.name(d.by, { lower: true }) };
      note("note.rank.out", d.seat, { place: d.place, ...by });
    } else if (d.kind === "anti_rank_declared") note("note.rank.anti", d.seat);
    else if (d.kind === "anti_rank_over") note("note.rank.anti_over", d.seat);
    else if (d.kind === "match_ended") note("note.rank.lose", d.loser);
  }
  if (!out.length) out.push(e.move);
  if (notes.length) out.push(h("span.note", null, " — ", ...joined(notes)));
  return h("span.ev", null, out);
}

function describeMove(move, ctx) {
  const [verb, arg] = move.split(" ");
  if (verb === "play") return h("span", null, tn("rk_hint_play", { card: cardIn(arg) }));
  if (verb === "draw") return h("span", null, t("rk_hint_draw"));
  return h("span", null, t("rk_hint_pass"));
}

function roundsDone() {
  return 0;
}

function scoresTable(ctx) {
  const v = ctx.view;
  const list = h("ol.finish-order");
  for (const s of v.finished) list.append(h("li", null, ctx.name(s)));
  if (v.loser !== null && v.loser !== undefined) list.append(h("li.loser", null, ctx.name(v.loser), " — ", t("rk_loser")));
  const still = v.in_game.filter((s) => s !== v.loser);
  return h("div.summary", null,
    h("h3", null, t("rk_order")),
    v.finished.length || v.loser !== null ? list : h("p.muted", null, t("rk_nobody_out")),
    still.length && ctx.status !== "finished"
      ? h("p", null, t("rk_still_in"), " ", still.map((s) => `${ctx.name(s)} (${t("cards_n", { n: v.hand_sizes[s] })})`).join(", "))
      : null,
    h("p.muted", null, t("rk_rule_summary")));
}

function matchSummary(ctx) {
  return h("div.summary", null, h("p.verdict", null, verdict(ctx)), scoresTable(ctx),
    h("p.muted", null, t("count.moves", { n: ctx.view.moves })));
}

function roundSummary(ctx) {
  return scoresTable(ctx);
}

/** A card face for the rules pages' pictures. */
function card(name, opts) {
  return frenchCard(name, opts);
}

const api = { card, chip: cardIn, board, status, scoreline, describe, describeMove, roundsDone, roundSummary, matchSummary, scoresTable };
export default api;
