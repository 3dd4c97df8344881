// Lost Ranks: the Trump Card, active Lost Soldiers marked, the trick in the middle,
// partner across, captured soldiers and scores; phantom decks and draw-two (2 players).

import { h } from "../util.js";
import { t, tn } from "../i18n.js";
import { frenchCard, cardBack, frenchChip, hiddenChip, SUITS } from "../cards.js";
import { joined, recentBox, roundsTable, KeyPad, signed } from "./common.js";

const cardIn = (c) => frenchChip(c, "spy");
const SUIT_LETTER = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };
const ARMY_SUITS = { red: "♥♦", black: "♠♣" };
const isSoldier = (c) => c === "JK" || (c && c[0] === "J" && c.length === 2);

function armyTag(army, extra = "") {
  if (!army) return null;
  return h(`span.army.army-${army}`, { title: t(`army_${army}`) }, `${ARMY_SUITS[army]} ${t(`army_${army}_short`)}${extra}`);
}

function soldierBadge(v, card) {
  if (!isSoldier(card)) return {};
  const active = v.active_soldiers.includes(card);
  return active
    ? { badge: "★", badgeTitle: t("lr_active_soldier") }
    : { badge: "☆", badgeTitle: t("lr_inactive_soldier") };
}

function cardOpts(v, card, extra = {}) {
  return { jokerWord: "spy", ...soldierBadge(v, card), ...extra };
}

/** Position of a seat around the table as seen from `me`. */
function where(v, me, seat) {
  const n = v.players;
  const rel = (seat - me + n) % n;
  if (n === 2) return rel === 0 ? "south" : "north";
  return ["south", "west", "north", "east"][rel];
}

function board(ctx) {
  const v = ctx.view;
  const root = h(`div.lr-board.lr-${v.players}p`);
  const recent = recentBox(ctx, api);
  if (recent) root.append(recent);
  root.append(infoBar(ctx));
  root.append(tableArea(ctx));
  root.append(capturedBox(ctx));
  if (!ctx.spectator) root.append(myArea(ctx));
  else if (v.players === 2) root.append(h("div.my-area", null, phantomRow(ctx, 0)));
  return root;
}

function infoBar(ctx) {
  const v = ctx.view;
  const trump = h("div.trump", null,
    frenchCard(v.trump_card, { size: "md", jokerWord: "spy", title: t("lr_trump_card"), cls: "trump-card" }),
    h("div.trump-text", null,
      h("div", null, h("b", null, t("lr_trump")), " ", h(`span.suitword.s-${SUIT_LETTER[v.trump_suit]}`, null,
        `${SUITS[SUIT_LETTER[v.trump_suit]].symbol} ${t(`suit_${v.trump_suit}`)}`)),
      h("div", null, h("b", null, t("lr_active")), " ", v.active_soldiers.map((c) => h("span.soldier", null, "★", cardIn(c)))),
      h("div.small.muted", null, t("lr_spy_note", { army: t(`army_${v.trump_colour}_short`) }))));
  const red = v.army_scores.red;
  const black = v.army_scores.black;
  const mine = v.army || null;
  const scores = h("div.armies", null,
    h(`div.army-score${mine === "red" ? ".mine" : ""}`, null, armyTag("red"), h("b", null, String(red)),
      h("span.small.muted", null, ` ${t("lr_round_pts", { n: v.round_points.red })}`)),
    h(`div.army-score${mine === "black" ? ".mine" : ""}`, null, armyTag("black"), h("b", null, String(black)),
      h("span.small.muted", null, ` ${t("lr_round_pts", { n: v.round_points.black })}`)),
    h("div.small.muted", null, v.target ? t("lr_target", { n: v.target }) : t("lr_rounds_fixed", { n: v.max_rounds }),
      v.tiebreak_round ? ` · ${t("lr_tiebreak")}` : ""));
  const trick = h("div.trick-count", null, t("lr_trick_of", { n: Math.min(v.trick_number, v.tricks_per_round), of: v.tricks_per_round }),
    h("div.small.muted", null, t("lr_tricks_won", { red: v.tricks_won.red, black: v.tricks_won.black })));
  return h("div.lr-info", null, trump, scores, trick);
}

function seatBox(ctx, seat) {
  const v = ctx.view;
  const moving = v.current_player === seat && ctx.status === "active";
  const box = h(`div.lr-seat.${where(v, ctx.me, seat)}${moving ? ".to-move" : ""}`, { "data-seat": seat },
    h("div.lr-seat-head", null, h("b.pname", null, ctx.name(seat)), " ", armyTag(v.armies[seat]),
      v.players === 4 && !ctx.spectator && seat === v.partner ? h("span.tag", null, t("partner")) : null,
      v.dealer === seat ? h("span.tag.dealer", { title: t("dealer") }, t("dealer_short")) : null));
  const size = v.hand_sizes[seat];
  const fan = h("div.fan.tight");
  for (let i = 0; i < Math.min(size, 13); i++) fan.append(cardBack({ size: "xs" }));
  box.append(h("div.lr-count", null, fan, h("span.count-text", null, t("cards_n", { n: size }))));
  const voids = v.voids[seat] || [];
  if (voids.length) {
    box.append(h("div.small.muted", null, t("lr_void"), " ",
      voids.map((s) => h(`span.suitword.s-${SUIT_LETTER[s]}`, null, SUITS[SUIT_LETTER[s]].symbol))));
  }
  if (v.players === 2 && seat !== ctx.me) box.append(phantomRow(ctx, seat));
  return box;
}

function tableArea(ctx) {
  const v = ctx.view;
  const grid = h("div.lr-table");
  for (let s = 0; s < v.players; s++) {
    if (!ctx.spectator && s === ctx.you) continue;
    grid.append(seatBox(ctx, s));
  }
  const center = h("div.lr-trick", { "aria-label": t("lr_trick"), "data-fit-top": "" });
  let cards = v.trick;
  let done = null;
  if (!cards.length && v.last_trick) {
    cards = v.last_trick.trick;
    done = v.last_trick.winner;
    center.classList.add("finished");
  }
  for (const play of cards) {
    const pos = where(v, ctx.me, play.seat);
    const recent = !done && ctx.recent.some((e) => e.seat === play.seat);
    center.append(h(`div.trick-slot.${pos}`, { "data-seat": play.seat },
      frenchCard(play.card, cardOpts(v, play.card, {
        size: "md", last: recent || (done !== null && play.seat === done),
        title: `${ctx.name(play.seat)}: ${play.card}${play.source === "phantom" ? ` (${t("lr_from_phantom")})` : ""}`,
      })),
      play.source === "phantom" ? h("span.src", { title: t("lr_from_phantom") }, "◈") : null));
  }
  const label = h("div.trick-label");
  if (done !== null || (v.last_trick && !v.trick.length)) {
    if (done === null) label.append(t("lr_no_winner"));
    else label.append(done === ctx.you ? t("lr_won_by_you") : t("lr_won_by", { name: ctx.name(done) }));
  } else if (v.led_suit) {
    label.append(t("lr_led"), " ", h(`span.suitword.s-${SUIT_LETTER[v.led_suit]}`, null,
      `${SUITS[SUIT_LETTER[v.led_suit]].symbol} ${t(`suit_${v.led_suit}`)}`));
  } else if (v.first_lead && v.phase === "lead") {
    label.append(...tn("lr_first_lead", { card: cardIn(v.first_lead) }));
  }
  center.append(label);
  grid.append(center);
  const me = h("div.lr-seat.south.me", null, h("b.pname", null, ctx.spectator ? ctx.name(0) : t("you")), " ",
    armyTag(ctx.spectator ? v.armies[0] : v.army));
  if (!ctx.spectator) grid.append(me);
  if (v.phase === "choose" && v.drawn && v.drawn.player !== ctx.you) {
    grid.append(h("div.drawn-other", null, tn("lr_other_choosing", { name: ctx.name(v.drawn.player) }), " ",
      v.drawn.cards.map((c) => (c ? cardIn(c) : hiddenChip()))));
  }
  return grid;
}

function capturedBox(ctx) {
  const v = ctx.view;
  const box = h("div.captured", { "data-history": "captured" });
  for (const army of ["red", "black"]) {
    const cards = v.captured[army];
    const soldiers = cards.filter(isSoldier);
    box.append(h(`div.captured-army${v.army === army ? ".mine" : ""}`, null, armyTag(army), " ",
      h("span.small", null, t("lr_captured_n", { n: cards.length })), " ",
      soldiers.length ? soldiers.map((c) => h(`span.soldier${v.active_soldiers.includes(c) ? ".active" : ""}`, null,
        v.active_soldiers.includes(c) ? "★" : "☆", cardIn(c))) : h("span.small.muted", null, t("lr_no_soldiers"))));
  }
  if (v.discards.length) {
    box.append(h("div.captured-army", null, h("span.small", null, t("lr_discarded")), " ",
      v.discards.filter(isSoldier).map(cardIn), " ", h("span.small.muted", null, t("cards_n", { n: v.discards.length }))));
  }
  return box;
}

function phantomRow(ctx, seat) {
  const v = ctx.view;
  const cards = v.phantoms ? v.phantoms[seat] : [];
  const up = v.phantom_face_up ? v.phantom_face_up[seat] : [];
  const row = h("div.phantom", { "data-seat": seat },
    h("span.small", null, h("b", null, "◈ "), t("lr_phantom_deck_n", { n: cards.length }),
      cards.length > 1 ? h("span.muted", null, ` ${t("lr_top_first")}`) : null));
  const fan = h("div.fan.phantom-cards");
  cards.forEach((c, i) => {
    const title = `${i === 0 ? t("lr_top") : ""}${up[i] ? ` ${t("lr_face_up")}` : ""}`.trim();
    if (c) fan.append(frenchCard(c, cardOpts(v, c, { size: "sm", cls: up[i] ? "face-up" : "private", title: title || c })));
    else fan.append(cardBack({ size: "sm" }));
  });
  row.append(fan);
  return row;
}

function myArea(ctx) {
  const v = ctx.view;
  const pad = new KeyPad(ctx);
  const area = h("div.my-area");
  if (v.phase === "choose" && v.drawn && v.drawn.player === ctx.you) {
    const choice = h("div.drawn-choice", null, h("div.area-title", null, h("b", null, t("lr_choose_title")), " ",
      h("span.small.muted", null, t("lr_choose_help"))));
    const row = h("div.hand");
    for (const c of v.drawn.cards) {
      const action = ctx.legalByMove.get(`phantom ${c}`);
      const enabled = ctx.myTurn && action !== undefined;
      row.append(frenchCard(c, cardOpts(v, c, {
        size: "lg", disabled: !enabled, action, key: enabled ? pad.next(action) : null,
        onClick: () => ctx.act(action), hint: ctx.hint && ctx.hint.action === action,
      })));
    }
    choice.append(row);
    area.append(choice);
  }
  const hand = h(`div.hand.lr-hand${ctx.myTurn ? "" : ".idle"}`, { "aria-label": t("your_hand") });
  for (const c of v.hand) {
    const action = ctx.legalByMove.get(`play ${c}`);
    const enabled = ctx.myTurn && action !== undefined;
    hand.append(frenchCard(c, cardOpts(v, c, {
      size: "lg", disabled: !enabled, action, key: enabled ? pad.next(action) : null,
      onClick: () => ctx.act(action), hint: ctx.hint && ctx.hint.action === action, cls: "in-hand",
      ariaLabel: enabled ? t("lr_play_card", { card: c }) : undefined,
      title: ctx.myTurn && !enabled ? ctx.refusedByMove.get(`play ${c}`) : undefined,
    })));
  }
  area.append(h("div.area-title", null, h("b", null, t("your_hand")), " ", h("span.muted", null, t("cards_n", { n: v.hand.length })),
    " ", armyTag(v.army), v.players === 4 ? h("span.small.muted", null, " ", t("lr_partner_is", { name: ctx.name(v.partner) })) : null));
  area.append(hand);
  if (v.players === 2) {
    const draw = ctx.legalByMove.get("draw two");
    const row = h("div.phantom-mine", null, phantomRow(ctx, ctx.me));
    if (draw !== undefined && ctx.myTurn) {
      const k = pad.next(draw);
      ctx.keys.d = draw;
      row.append(h("button.primary#draw-two", {
        type: "button", "data-action": draw, class: ctx.hint && ctx.hint.action === draw ? "hinted" : "",
        onclick: () => ctx.act(draw),
      }, t("lr_draw_two"), h("kbd", null, k || "D")));
    }
    area.append(row);
  }
  return area;
}

function status(ctx) {
  const v = ctx.view;
  if (ctx.status === "finished") return verdict(ctx);
  const cur = v.current_player;
  if (ctx.you === null || cur !== ctx.you) return t("waiting_for_move", { name: ctx.name(cur) });
  if (v.phase === "choose") return t("lr_your_choose");
  if (v.phase === "lead") {
    if (v.first_lead) return t("lr_your_first_lead", { card: v.first_lead });
    return t(v.players === 2 ? "lr_your_lead_2p" : "lr_your_lead");
  }
  const fromPhantom = ctx.legalByMove.has("draw two") && ![...ctx.legalByMove.keys()].some((m) => m.startsWith("play "));
  if (fromPhantom) return t("lr_your_follow_phantom");
  return t("lr_your_follow", { suit: t(`suit_${v.led_suit}`) });
}

function verdict(ctx) {
  const v = ctx.view;
  const r = ctx.result || {};
  const winner = v.winner ?? r.winner;
  const score = `${v.army_scores.red}:${v.army_scores.black}`;
  if (!winner) return t("match.army_verdict", { outcome: "draw", score });
  return t("match.army_verdict", { outcome: v.army && winner === v.army ? "win" : "other", army: winner, score });
}

function scoreline(ctx) {
  const v = ctx.view;
  return [
    h("span.round", null, v.max_rounds && !v.tiebreak_round ? t("round_of", { n: v.round, of: v.max_rounds }) : t("round_n", { n: v.round })),
    h("span.match-score", null, armyTag("red"), " ", h("b", null, String(v.army_scores.red)), " : ",
      h("b", null, String(v.army_scores.black)), " ", armyTag("black")),
  ];
}

/** An event from its typed details (docs/server-protocol.md, Lost Ranks). */
function describe(e, ctx) {
  const person = (seat) => (seat === ctx.you ? "you" : "other");
  const out = [];
  const notes = [];
  for (const d of e.details || []) {
    if (d.kind === "card_played") {
      out.push(...tn(d.source === "phantom" ? "event.lost-ranks.play_phantom" : "event.lost-ranks.play",
        { person: person(e.seat), card: cardIn(d.card) }));
    } else if (d.kind === "phantom_drawn") out.push(...tn("event.lost-ranks.draw_two", { person: person(e.seat) }));
    else if (d.kind === "card_face_up") notes.push(tn("note.lost-ranks.face_up", { card: cardIn(d.card) }));
    else if (d.kind === "trick_won") {
      notes.push([t("note.lost-ranks.trick_won", { person: person(d.seat), who: ctx.name(d.seat) })]);
    } else if (d.kind === "no_winner_trick") notes.push([t("note.lost-ranks.no_winner")]);
    else if (d.kind === "round_ended") notes.push([t("note.lost-ranks.round_over", { n: d.round, red: d.points[0], black: d.points[1] })]);
    else if (d.kind === "match_ended") {
      notes.push([d.winner ? t("note.lost-ranks.match_won", { army: d.winner }) : t("note.lost-ranks.match_draw")]);
    }
  }
  if (!out.length) out.push(e.move);
  if (notes.length) out.push(h("span.note", null, " — ", ...joined(notes)));
  return h("span.ev", null, out);
}

function describeMove(move, ctx) {
  const [verb, arg] = move.split(" ");
  if (verb === "play") return h("span", null, tn("lr_hint_play", { card: cardIn(arg) }));
  if (verb === "phantom") return h("span", null, tn("lr_hint_phantom", { card: cardIn(arg) }));
  return h("span", null, t("lr_hint_draw_two"));
}

function roundsDone(v) {
  return (v.round_scores || []).length;
}

function armyRows(v) {
  // round_scores are per seat (each seat shows its army's points)
  const red = v.armies.indexOf("red");
  const black = v.armies.indexOf("black");
  return v.round_scores.map((r) => [r[red], r[black]]);
}

function scoresTable(ctx) {
  const v = ctx.view;
  const mine = v.army === "red" ? [0] : v.army === "black" ? [1] : [];
  return h("div.summary", null,
    roundsTable([t("army_red"), t("army_black")], armyRows(v), [v.army_scores.red, v.army_scores.black], { highlight: mine }),
    h("p.muted", null, t("lr_scoring_rule")));
}

function roundSummary(ctx, index) {
  const v = ctx.view;
  const rows = armyRows(v);
  const r = rows[index] || [0, 0];
  return h("div.summary", null,
    h("p", null, t("lr_round_points", { red: signed(r[0]), black: signed(r[1]) })),
    scoresTable(ctx),
    ctx.status === "active"
      ? h("p.muted", null, v.dealer === ctx.you ? t("lr_next_round_you") : t("lr_next_round", { name: ctx.name(v.dealer) }))
      : null);
}

function matchSummary(ctx) {
  return h("div.summary", null, h("p.verdict", null, verdict(ctx)), scoresTable(ctx));
}

/** A card face for the rules pages' pictures (the joker is the spy). */
function card(name, opts) {
  return frenchCard(name, { ...opts, jokerWord: "spy" });
}

const api = { card, chip: cardIn, board, status, scoreline, describe, describeMove, roundsDone, roundSummary, matchSummary, scoresTable };
export default api;
