// Lost Cities: both expedition rows with running per-colour scores, the discard
// piles, the draw pile, and the two phases of a turn (LC-3 play, LC-4 draw).

import { h } from "../util.js";
import { t, tn } from "../i18n.js";
import { expeditionCard, cardBack, expeditionChip, COLOURS } from "../cards.js";
import { signed, num, recentBox, roundsTable } from "./common.js";

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const colourWord = (letter) => t(`colour_${COLOURS[letter].word}`);

function seats(ctx) {
  const me = ctx.me;
  return { me, opp: 1 - me };
}

function handSize(v, seat) {
  if (v.player === null || v.player === undefined) return (v.hand_sizes || [0, 0])[seat];
  return seat === v.player ? v.hand.length : v.opponent_hand_size;
}

function knownOf(v, seat) {
  if (v.player === null || v.player === undefined) return (v.known || [[], []])[seat];
  return seat === v.player ? [] : v.opponent_known;
}

/** Cards and piles touched by the recent moves. */
function marks(ctx) {
  const out = { exp: [new Set(), new Set()], piles: new Set(), deck: false, took: new Set() };
  for (const e of ctx.recent) {
    const [verb, arg] = e.move.split(" ");
    if (verb === "play") out.exp[e.seat].add(arg);
    else if (verb === "discard") out.piles.add(arg);
    else if (verb === "draw" && arg === "deck" && e.seat !== ctx.you) out.deck = true;
    else if (verb === "draw") out.took.add(arg);
  }
  return out;
}

function board(ctx) {
  const v = ctx.view;
  const { me, opp } = seats(ctx);
  const C = v.colors.length;
  const mk = marks(ctx);
  const root = h("div.lc-board", { style: { "--cols": String(C) } });
  const recent = recentBox(ctx, api);
  if (recent) root.append(recent);
  root.append(opponentHand(ctx, opp));
  root.append(expeditionRow(ctx, opp, mk, "top"));
  root.append(middleRow(ctx, mk));
  root.append(expeditionRow(ctx, me, mk, "bottom"));
  root.append(ctx.spectator ? opponentHand(ctx, me) : myHand(ctx));
  return root;
}

function opponentHand(ctx, seat) {
  const v = ctx.view;
  const size = handSize(v, seat);
  const known = knownOf(v, seat);
  const row = h("div.opp-hand", { "data-seat": seat },
    h("span.who", null, ctx.name(seat)), " ",
    h("span.muted", null, t("cards_n", { n: size })));
  const fan = h("div.fan");
  for (const c of known) fan.append(expeditionCard(c, { size: "sm", title: t("lc_known", { card: c }), cls: "known" }));
  for (let i = known.length; i < size; i++) fan.append(cardBack({ size: "sm" }));
  row.append(fan);
  if (known.length) row.append(h("span.muted.small", null, t("lc_known_note")));
  return row;
}

function expeditionRow(ctx, seat, mk, where) {
  const v = ctx.view;
  const row = h(`div.exp-row.${where}`, { "data-seat": seat, "aria-label": t("lc_expeditions_of", { who: ctx.name(seat) }) });
  v.colors.forEach((letter, c) => {
    const cards = v.expeditions[seat][letter];
    const score = v.expedition_scores[seat][c];
    const col = h(`div.exp-col.c-${letter}`, { "data-colour": letter });
    const pill = h(`span.exp-score${cards.length ? "" : ".empty"}${score < 0 ? ".neg" : ""}`,
      { title: t("lc_col_score", { colour: colourWord(letter) }) }, cards.length ? signed(score) : "·");
    const stack = h("div.stack");
    if (!cards.length) stack.append(h(`span.slot.c-${letter}`, { "aria-hidden": "true" }, COLOURS[letter].glyph));
    let marked = false;
    for (let i = cards.length - 1; i >= 0; i--) {
      // the last copy of a recently played card gets the highlight
      const isLast = !marked && mk.exp[seat].has(cards[i]);
      if (isLast) marked = true;
      stack.prepend(expeditionCard(cards[i], { size: "sm", last: isLast }));
    }
    if (cards.length >= 8) col.classList.add("bonus");
    if (where === "top") col.append(pill, stack);
    else col.append(stack, pill);
    row.append(col);
  });
  const total = sum(v.expedition_scores[seat]);
  row.append(h("div.exp-total", { title: t("lc_round_so_far") },
    h("span.muted.small", null, t("lc_this_round")), h("b", null, signed(total))));
  return row;
}

function middleRow(ctx, mk) {
  const v = ctx.view;
  const row = h("div.middle-row");
  const drawing = ctx.myTurn && v.phase === "draw";
  let key = 1;
  const deckAction = ctx.legalByMove.get("draw deck");
  const deckKey = drawing && deckAction !== undefined ? String(key++) : null;
  if (deckKey) ctx.keys[deckKey] = deckAction;
  v.colors.forEach((letter) => {
    const pile = v.discards[letter];
    const action = ctx.legalByMove.get(`draw ${letter}`);
    const cell = h(`div.pile.c-${letter}`, { "data-colour": letter });
    const banned = v.banned === letter && v.phase === "draw";
    const title = pile.length
      ? t("lc_pile_title", { colour: colourWord(letter), cards: pile.join(" ") })
      : t("lc_pile_empty", { colour: colourWord(letter) });
    if (pile.length) {
      const top = pile[pile.length - 1];
      let k = null;
      if (drawing && action !== undefined) {
        k = String(key++);
        ctx.keys[k] = action;
      }
      const clickable = drawing && action !== undefined;
      cell.append(expeditionCard(top, {
        size: "md", title, last: mk.piles.has(top),
        hint: ctx.hint && ctx.hint.action === action,
        action: clickable ? action : undefined,
        disabled: drawing ? !clickable : undefined,
        onClick: clickable ? () => ctx.act(action) : undefined,
        ariaLabel: clickable ? t("lc_take_from", { card: top, colour: colourWord(letter) }) : undefined,
        key: k,
      }));
      if (pile.length > 1) cell.append(h("span.pile-count", { title }, `${pile.length}`));
    } else {
      cell.append(h(`span.slot.md.c-${letter}`, { title }, COLOURS[letter].glyph));
    }
    if (banned) cell.append(h("span.banned", { title: t("lc_banned", { colour: colourWord(letter) }) }, "⊘"));
    if (mk.took.has(letter)) cell.classList.add("taken");
    row.append(cell);
  });
  const deckClickable = drawing && deckAction !== undefined;
  row.append(h("div.deck", null, cardBack({
    size: "md", count: v.draw_pile, title: t("count.draw_pile", { n: v.draw_pile }),
    action: deckClickable ? deckAction : undefined,
    disabled: drawing ? !deckClickable : undefined,
    onClick: deckClickable ? () => ctx.act(deckAction) : undefined,
    ariaLabel: t("lc_draw_deck_n", { n: v.draw_pile }),
    last: mk.deck, hint: ctx.hint && ctx.hint.action === deckAction, key: deckKey, cls: "deck-card",
  }), h("span.small.muted", null, t("lc_deck_label"))));
  const wrap = h("div.middle", null, phaseBar(ctx), row);
  return wrap;
}

function phaseBar(ctx) {
  const v = ctx.view;
  if (v.phase === "over") return h("div.phases");
  const who = v.current_player === ctx.you ? t("you") : ctx.name(v.current_player);
  return h("div.phases", { "aria-label": t("lc_phases") },
    h("span.who", null, who, ":"),
    h(`span.phase${v.phase === "play" ? ".on" : ""}`, null, h("b", null, "1"), " ", t("lc_phase_play")),
    h("span.arrow", { "aria-hidden": "true" }, "→"),
    h(`span.phase${v.phase === "draw" ? ".on" : ""}`, null, h("b", null, "2"), " ", t("lc_phase_draw")));
}

function myHand(ctx) {
  const v = ctx.view;
  const playing = ctx.myTurn && v.phase === "play";
  const hand = h(`div.hand.lc-hand${playing ? "" : ".idle"}`, { "aria-label": t("your_hand") });
  v.hand.forEach((c, i) => {
    const place = ctx.legalByMove.get(`play ${c}`);
    const discard = ctx.legalByMove.get(`discard ${c}`);
    const digit = i < 9 ? String(i + 1) : null;
    if (playing && digit) {
      if (place !== undefined) ctx.keys[digit] = place;
      if (discard !== undefined) ctx.keys[`S-${digit}`] = discard;
    }
    const slot = h("div.hand-slot");
    slot.append(expeditionCard(c, {
      size: "lg",
      disabled: !(playing && place !== undefined),
      action: place,
      onClick: () => ctx.act(place),
      ariaLabel: place !== undefined && playing ? t("lc_place", { card: c }) : undefined,
      title: playing && place === undefined ? ctx.refusedByMove.get(`play ${c}`) : undefined,
      key: playing && digit ? digit : null,
      hint: ctx.hint && ctx.hint.action === place,
      cls: "in-hand",
    }));
    slot.append(h("button.discard", {
      type: "button",
      class: ctx.hint && ctx.hint.action === discard ? "hinted" : "",
      "data-action": discard,
      "data-card-ref": c,
      "aria-disabled": playing && discard !== undefined ? null : "true",
      disabled: playing && discard !== undefined ? null : true,
      title: t("lc_discard_title", { card: c }),
      "aria-label": t("lc_discard_title", { card: c }),
      onclick: () => ctx.act(discard),
    }, h("span.icon", { "aria-hidden": "true" }, "↓"), h("span.lbl", null, t("lc_discard"))));
    hand.append(slot);
  });
  return h("div.my-area", null, h("div.area-title", null, h("b", null, t("your_hand")),
    playing ? h("span.muted.small", null, " — ", t("lc_hand_help")) : null,
    playing ? h("span.muted.small.keys", null, t("lc_hand_keys")) : null), hand);
}

function status(ctx) {
  const v = ctx.view;
  if (ctx.status === "finished") return verdict(ctx);
  const cur = v.current_player;
  if (ctx.you !== null && cur === ctx.you) {
    return v.phase === "play" ? t("lc_your_play") : t("lc_your_draw");
  }
  return t(v.phase === "play" ? "lc_waiting_play" : "lc_waiting_draw", { name: ctx.name(cur) });
}

function verdict(ctx) {
  const r = ctx.result;
  if (!r) return t("match.over");
  const [a, b] = r.scores;
  if (r.winner === null || r.winner === undefined) return t("match.verdict", { outcome: "draw", score: `${num(a)}:${num(b)}` });
  if (ctx.you !== null) {
    const mine = r.scores[ctx.you];
    const theirs = r.scores[1 - ctx.you];
    return t("match.verdict", { outcome: r.winner === ctx.you ? "win" : "lose", score: `${num(mine)}:${num(theirs)}` });
  }
  return t("match.verdict", { outcome: "other", name: ctx.name(r.winner),
    score: `${num(r.scores[r.winner])}:${num(r.scores[1 - r.winner])}` });
}

function scoreline(ctx) {
  const v = ctx.view;
  const { me, opp } = seats(ctx);
  return [
    h("span.round", null, t("round_of", { n: v.round, of: v.rounds })),
    h("span.match-score", { title: t("match_totals") },
      h("span", null, ctx.name(me), " ", h("b", null, num(v.scores[me]))), " : ",
      h("span", null, h("b", null, num(v.scores[opp])), " ", ctx.name(opp))),
  ];
}

function cardIn(text) {
  return expeditionChip(text);
}

/** An event from its typed details (docs/server-protocol.md, Lost Cities). */
function describe(e, ctx) {
  const person = e.seat === ctx.you ? "you" : "other";
  const out = [];
  for (const d of e.details || []) {
    if (d.kind === "card_played") {
      out.push(...tn(d.to === "discard" ? "event.lost-cities.discard" : "event.lost-cities.play", { person, card: cardIn(d.card) }));
    } else if (d.kind === "card_drawn" && d.source === "deck") {
      out.push(...tn("event.lost-cities.draw_deck", { person }));
    } else if (d.kind === "card_drawn") {
      out.push(...tn("event.lost-cities.take", { person, card: cardIn(d.card), colour: colourWord(d.source) }));
    } else if (d.kind === "round_ended") {
      out.push(" — ", t("note.lost-cities.round_over", { n: d.round }));
    }
  }
  if (!out.length) out.push(e.move);
  return h("span.ev", null, out);
}

function describeMove(move, ctx) {
  const [verb, arg] = move.split(" ");
  if (verb === "play") return h("span", null, tn("lc_hint_play", { card: cardIn(arg) }));
  if (verb === "discard") return h("span", null, tn("lc_hint_discard", { card: cardIn(arg) }));
  if (arg === "deck") return h("span", null, t("lc_hint_deck"));
  const pile = ctx.view.discards[arg] || [];
  return h("span", null, tn("lc_hint_take", { card: cardIn(pile[pile.length - 1] || "??"), colour: colourWord(arg) }));
}

function roundsDone(v) {
  return (v.round_summaries || []).length;
}

function roundSummary(ctx, index) {
  const v = ctx.view;
  const s = v.round_summaries[index];
  if (!s) return h("p", null, t("no_rounds_yet"));
  const { me, opp } = seats(ctx);
  const mc = ctx.spectator ? "" : ".me";
  const table = h("table.lc-summary");
  table.append(h("thead", null, h("tr", null, h("th", null, t("colour")),
    h(`th${mc}`, { colspan: 2 }, ctx.name(me)), h("th", { colspan: 2 }, ctx.name(opp)))));
  const body = h("tbody");
  v.colors.forEach((letter, c) => {
    const mine = s.expeditions[me][letter] || [];
    const theirs = s.expeditions[opp][letter] || [];
    body.append(h("tr", null,
      h("th", { scope: "row" }, h(`span.chip.lc.c-${letter}`, null, `${COLOURS[letter].glyph}${letter}`)),
      h("td.cards", null, mine.map(cardIn)),
      h(`td.num${mc}`, null, mine.length ? signed(s.expedition_scores[me][c]) : "·"),
      h("td.num", null, theirs.length ? signed(s.expedition_scores[opp][c]) : "·"),
      h("td.cards", null, theirs.map(cardIn))));
  });
  table.append(body);
  table.append(h("tfoot", null, h("tr", null, h("th", null, t("lc_round_total")), h("td", null, ""),
    h(`td.num${mc}`, null, h("b", null, signed(s.scores[me]))), h("td.num", null, h("b", null, signed(s.scores[opp]))),
    h("td", null, ""))));
  const totals = [0, 0];
  for (const r of v.round_scores.slice(0, index + 1)) { totals[0] += r[0]; totals[1] += r[1]; }
  return h("div.summary", null, table,
    h("p.totals", null, t("match.after_round", { n: index + 1 }), " ",
      h("b", null, `${ctx.name(me)} ${num(totals[me])} : ${num(totals[opp])} ${ctx.name(opp)}`)),
    index + 1 < v.rounds && ctx.status !== "finished"
      ? h("p.muted", null, t("match.next_round", { person: v.starter === ctx.you ? "you" : "other", name: ctx.name(v.starter) }))
      : null);
}

function scoresTable(ctx) {
  const v = ctx.view;
  const { me, opp } = seats(ctx);
  const rows = v.round_scores.map((r) => [r[me], r[opp]]);
  return h("div.summary", null, roundsTable([ctx.name(me), ctx.name(opp)], rows, [v.scores[me], v.scores[opp]],
    { highlight: ctx.spectator ? [] : [0] }),
  h("p.muted", null, t("lc_scoring_rule")));
}

function matchSummary(ctx) {
  const v = ctx.view;
  const last = roundsDone(v) - 1;
  return h("div.summary", null, h("p.verdict", null, verdict(ctx)), scoresTable(ctx),
    last >= 0 ? h("h3", null, t("round_n", { n: last + 1 })) : null,
    last >= 0 ? roundSummary(ctx, last) : null);
}

/** A card face for the rules pages' pictures. */
function card(name, opts) {
  return expeditionCard(name, opts);
}

const api = {
  card, chip: cardIn, board, status, scoreline, describe, describeMove, roundsDone, roundSummary, matchSummary, scoresTable,
};
export default api;
