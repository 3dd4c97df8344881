// The review of a finished match at /review/{match}?seat=N&step=K: the replay with
// every hand revealed (GET /api/matches/{id}/review, which the server refuses until
// the match is over) and the move analysis of a chosen seat (GET …/analysis?seat=N:
// each decision searched from that seat's information only, marked inaccuracy /
// mistake / blunder with the better move and the estimated loss, accuracy per round
// and for the match, and a chart of the estimated win chance).  Stepping — buttons,
// slider, keys, the move log — is the replay page's (ReviewPage extends ReplayPage).

import { h, clear, api, seatToken, seatParam, keepingFocus } from "./util.js";
import { t, tn, loadCatalog, percent, valueLabel } from "./i18n.js";
import { ReplayPage, stepParam } from "./replay.js";
import { loadGame, gameModule } from "./games/index.js";
import { winChart } from "./review_chart.js";

const MARKED = ["inaccuracy", "mistake", "blunder"];
const SYMBOL = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };

export class ReviewPage extends ReplayPage {
  constructor(root, matchId) {
    super(root, matchId);
    this.analyses = {}; // seat -> {data} | {error} | {loading: true}
    this.analysisSeat = 0;
  }

  async start() {
    this.seat = seatParam();
    this.token = seatToken(this.id, this.seat);
    document.addEventListener("keydown", this.onKey);
    this.render();
    const path = `/api/matches/${encodeURIComponent(this.id)}`;
    try {
      const [info, review] = await Promise.all([
        api("GET", path), api("GET", `${path}/review`, undefined, this.token), loadCatalog()]);
      await loadGame(info.game);
      this.info = info;
      this.replay = review;
      const wanted = stepParam();
      this.index = Math.min(wanted === null ? 0 : wanted, review.steps.length - 1);
      this.analysisSeat = review.you ?? (this.seat !== null && this.seat < info.seats.length ? this.seat : 0);
    } catch (err) {
      await loadCatalog().catch(() => {});
      this.error = err.message;
    }
    this.render();
    if (this.replay) this.analyse(this.analysisSeat);
  }

  /** Fetch (once per seat) the analysis of `seat`; the page shows it when it comes. */
  async analyse(seat) {
    this.analysisSeat = seat;
    const known = this.analyses[seat];
    if (known && !known.error) {
      this.render();
      return;
    }
    this.analyses[seat] = { loading: true };
    this.render();
    try {
      const data = await api("GET", `/api/matches/${encodeURIComponent(this.id)}/analysis?seat=${seat}`,
        undefined, this.token);
      this.analyses[seat] = { data };
    } catch (err) {
      this.analyses[seat] = { error: err.message };
    }
    this.render();
  }

  // --- rendering -----------------------------------------------------------------------
  /** Redraw the page; the control that had the focus (by its id) keeps it, and the
   * page stays scrolled where it was. */
  render() {
    const scrolled = window.scrollY;
    const before = document.activeElement;
    keepingFocus(() => this.draw());
    this.focusDialog(before);
    if (window.scrollY !== scrolled) window.scrollTo(0, scrolled);
  }

  draw() {
    const root = clear(this.root);
    root.className = "page table-page replay-page review-page";
    this.build(root);
    const list = root.querySelector(".log-list");
    const cur = list && list.querySelector(".is-current");
    if (list) list.scrollTop = cur ? cur.offsetTop - list.clientHeight / 2 : 0;
  }

  pageName() {
    return t("web.review.title");
  }

  errorPanel() {
    return [h("h2", null, this.pageName()), h("p", null, t("web.review.failed", { why: this.error })),
      h("div.actions", null, h("a.button", { href: `/play/${encodeURIComponent(this.id)}` }, t("back_to_table")),
        h("a.button", { href: "/" }, t("back_to_lobby")))];
  }

  mainExtras(_ctx, game) {
    return [this.handsPanel(game), this.analysisPanel(game)];
  }

  side(ctx, game) {
    return this.reviewSide(ctx, game);
  }

  reviewSide(ctx, game) {
    const q = this.replay.you === null ? "" : `?seat=${this.replay.you}`;
    const id = encodeURIComponent(this.id);
    const side = h("aside.side", null, h("div.tools", null,
      h("a.button#back-to-table", { href: `/play/${id}${q}` }, t("back_to_table")),
      h("a.button#open-replay", { href: `/replay/${id}${q}` }, "▶ ", t("replay")),
      h("button#scores", { type: "button", onclick: () => { this.modal = { kind: "scores" }; this.render(); } },
        t("scores"))));
    const log = this.logBox(ctx, game);
    this.markLog(log);
    side.append(log, h("p.keys-help.muted", null, t("replay_keys")));
    return side;
  }

  /** Every hand as it was at this step (the match is over: nothing is hidden any more). */
  handsPanel() {
    const step = this.replay.steps[this.index];
    const { chip } = gameModule(this.info.game);
    const list = h("ul.review-hands-list");
    step.hands.forEach((hand, seat) => {
      const phantoms = step.phantoms ? step.phantoms[seat].filter(Boolean) : [];
      list.append(h("li", { "data-seat": seat, class: seat === step.view.current_player ? "to-move" : "" },
        h("span.who", null, t("web.review.hand_of", { name: this.seatName(seat, { you: false }), n: hand.length })),
        h("span.review-cards", null, hand.map(chip)),
        phantoms.length ? h("span.review-phantoms", null, `${t("web.review.phantoms")}: `,
          phantoms.map(chip)) : null));
    });
    return h("section.panel.review-hands", { "aria-labelledby": "review-hands-title" },
      h("h2#review-hands-title", null, t("web.review.hands")),
      h("p.small.muted", null, t("web.review.hands_help")), list);
  }

  analysisPanel(game) {
    const seat = this.analysisSeat;
    const select = h("select#analysis-seat", { onchange: (e) => this.analyse(Number(e.target.value)) },
      this.info.seats.map((s) => h("option", { value: s.seat, selected: s.seat === seat ? true : null },
        `${this.seatName(s.seat, { you: false })} (${t("seat_n", { n: s.seat + 1 })})`)));
    const panel = h("section.panel.review-analysis", { "aria-labelledby": "analysis-title", "aria-busy": "false" },
      h("h2#analysis-title", null, t("web.review.analysis")),
      h("label.field.inline", null, h("span", null, t("web.review.seat")), " ", select));
    const state = this.analyses[seat] || { loading: true };
    const name = this.seatName(seat, { you: false });
    if (state.loading) {
      panel.setAttribute("aria-busy", "true");
      panel.append(h("p.analysing", { role: "status" }, h("span.spinner", { "aria-hidden": "true" }), " ",
        t("web.review.analysing", { name })));
    } else if (state.error) {
      panel.append(h("p.error", { role: "alert" }, t("web.review.analysis_failed", { why: state.error }), " ",
        h("button.small#analysis-retry", { type: "button", onclick: () => this.analyse(seat) }, t("web.review.retry"))));
    } else {
      panel.append(...this.analysisBody(state.data, game, name).filter(Boolean));
    }
    return panel;
  }

  analysisBody(a, game, name) {
    const label = valueLabel(a.value_label);
    if (!a.decisions.length) return [h("p.muted", null, t("web.review.no_decisions", { name }))];
    const counts = MARKED.filter((c) => a.counts[c]).map((c) =>
      h(`span.tag.mark-${c}`, null, SYMBOL[c], " ", t(`web.review.count.${c}`, { n: a.counts[c] })));
    const rounds = h("ul.review-rounds", null, a.rounds.map((r) =>
      h("li", { "data-round": r.round }, t("web.review.round_accuracy", { n: r.round, pct: percent(r.accuracy / 100) }))));
    const chart = winChart(a, {
      steps: this.last, at: this.index, pct: percent,
      title: t("web.review.chart", { label, name }),
      pick: (step) => { this.pause(); this.go(step); },
      describe: (d) => `${t("web.review.move_n", { n: d.ply + 1 })}: ${d.played} — ${percent(d.win_played)}`,
    });
    return [
      h("p.small.muted", null, t("web.review.analysis_help", { label })),
      h("p.review-accuracy", null, h("b#match-accuracy", { title: t("web.review.accuracy_help", { label }) },
        t("web.review.accuracy", { pct: percent(a.accuracy / 100) })), " · ",
        t("web.review.decisions", { n: a.decisions.length }), " ", ...counts),
      rounds,
      this.decisionHere(a, game, label),
      h("figure.review-chart", null, chart, h("figcaption.small.muted", null, t("web.review.chart_help", { label, name }))),
      this.markedList(a, game, label),
    ];
  }

  /** A move named as the table names it, in the context of the step it was chosen at. */
  moveNode(game, move, ply) {
    return game.describeMove(move, this.context(ply), this.analysisSeat);
  }

  /** What the analysis says of the move on the board now, if it was a decision of the seat. */
  decisionHere(a, game, label) {
    const d = a.decisions.find((x) => x.ply + 1 === this.index);
    if (!d) return null;
    return h(`div.review-here.mark-${d.category}`, null,
      h("b", null, t("web.review.here", { mark: `${SYMBOL[d.category]} ${t(`web.review.mark.${d.category}`)}` })), " ",
      ...tn("web.review.here_detail", { label, played: percent(d.win_played),
        best: this.moveNode(game, d.best, d.ply), bestpct: percent(d.win_best) }));
  }

  /** The inaccuracies, mistakes and blunders, each a way to its step. */
  markedList(a, game, label) {
    const marked = a.decisions.filter((d) => MARKED.includes(d.category));
    const box = h("section.review-marked", null, h("h3", null, t("web.review.marked")));
    if (!marked.length) {
      box.append(h("p.muted", null, t("web.review.none_marked")));
      return box;
    }
    const list = h("ol.review-marked-list");
    for (const d of marked) {
      const step = d.ply + 1;
      list.append(h("li", { class: `mark-${d.category}${step === this.index ? " is-current" : ""}`, "data-step": step },
        h(`button.link#marked-${step}`, { type: "button", onclick: () => { this.pause(); this.go(step); } },
          h("b", null, t("web.review.move_n", { n: step })), " ",
          h("span.mark", null, SYMBOL[d.category], " ", t(`web.review.mark.${d.category}`)), ": ",
          ...tn("web.review.played", { move: this.moveNode(game, d.played, d.ply) }), "; ",
          ...tn("web.review.better", { move: this.moveNode(game, d.best, d.ply) }), " ",
          h("span.loss", null, t("web.review.loss", { loss: percent(d.loss), label })))));
    }
    box.append(list);
    return box;
  }

  /** The marks of the analysed seat's moves in the move log. */
  markLog(log) {
    const state = this.analyses[this.analysisSeat];
    if (!state || !state.data) return;
    for (const d of state.data.decisions) {
      if (!MARKED.includes(d.category)) continue;
      const li = log.querySelector(`li[data-step="${d.ply + 1}"]`);
      if (!li) continue;
      li.classList.add(`mark-${d.category}`);
      (li.querySelector("button") || li).append(h("span.log-mark", { title: t(`web.review.mark.${d.category}`) },
        ` ${SYMBOL[d.category]}`));
    }
  }
}
