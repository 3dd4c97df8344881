// The tutorial page: "/tutorial" lists the games, "/tutorial/{game}" walks one game's
// tutorial (cardtable.tutorials) on the table's own board (games/*.js), step by step.
//
// The server keeps no session (GET/POST /api/tutorials/…, docs/server-protocol.md): the
// page holds the step number (also in the address, ?step=N, so a reload resumes there),
// asks for the table at a step and sends the learner's moves to be judged by the
// engine — an illegal move comes back as the engine's refusal record, a legal move
// off the lesson as the step's hint. The last step offers a real match against "easy".
// Its words come from the shared catalog (GET /api/i18n, keys "tutorial.*").

import { h, clear, api, getName, saveMatch, saveSeat, keepingFocus } from "./util.js";
import { t, lang, setLang, gameTitle, loadRefusals, catalogLoaded, refusalNodes, refusalTitle, ruleHref } from "./i18n.js";
import { topbar } from "./lobby.js";
import { recentEvents, keyName } from "./table.js";
import { loadGame, gameModule } from "./games/index.js";

const FIRST_GAME_AGENT = "easy";


/** A link to a game's tutorial (the lobby's game tiles, the rules pages). */
export function tutorialLink(game) {
  const link = h("a.tile-tutorial", { href: `/tutorial/${game}`, "data-game": game }, catalogLoaded() ? t("tutorial.learn") : "…");
  if (!catalogLoaded()) {
    // the page may have been redrawn (morphed) meanwhile: every such link on it gets the text
    loadRefusals().then(() => {
      for (const e of [link, ...document.querySelectorAll("a.tile-tutorial")]) e.textContent = t("tutorial.learn");
    }, () => {});
  }
  return link;
}

export class TutorialPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.data = null; // the last answer: {tutorial, step, finished, view, legal, refused, log}
    this.verdict = null; // the verdict on the learner's last move, until the next step
    this.events = []; // what the last accepted move and the replies did
    this.error = null;
    this.busy = false;
    this.shownLang = null;
    this.keys = {}; // the board's keys of this step: key name → action
    this.onClick = (ev) => this.clickRefused(ev);
    this.onKey = (ev) => this.key(ev);
  }

  async start() {
    const q = new URLSearchParams(location.search);
    if (q.get("lang")) setLang(q.get("lang"));
    this.root.addEventListener("click", this.onClick);
    document.addEventListener("keydown", this.onKey);
    try {
      await loadRefusals();
      if (!this.game) {
        this.list = await api("GET", "/api/tutorials");
        this.render();
        return;
      }
      await loadGame(this.game);
      await this.load(Math.max(0, Number(q.get("step")) || 0));
    } catch (err) {
      this.error = t("tutorial.unavailable", { why: err.message });
      this.render();
    }
  }

  stop() {
    this.root.removeEventListener("click", this.onClick);
    document.removeEventListener("keydown", this.onKey);
  }

  /** The keys the board shows on its cards play them, as at a table. */
  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const action = this.keys[keyName(ev)];
    if (action === undefined) return;
    ev.preventDefault();
    this.act(action);
  }

  async load(step) {
    this.busy = true;
    const r = await api("GET", `/api/tutorials/${encodeURIComponent(this.game)}?step=${step}&lang=${lang}`);
    this.busy = false;
    this.show(r, []);
  }

  show(r, events) {
    if (r.tutorial) this.tutorial = r.tutorial;
    this.data = r;
    this.events = events;
    this.verdict = null;
    this.shownLang = lang;
    history.replaceState(null, "", `${location.pathname}?step=${r.step}`);
    this.render();
    const go = this.root.querySelector("#tutorial-next, #tutorial-play-easy");
    if (go) go.focus({ preventScroll: true });
  }

  /** Send a move (an action id) to be judged at the current step. */
  async act(action) {
    if (this.busy || !this.data || this.data.finished) return;
    this.busy = true;
    this.render();
    try {
      const r = await api("POST", `/api/tutorials/${encodeURIComponent(this.game)}/moves?lang=${lang}`,
        typeof action === "number" ? { step: this.data.step, action } : { step: this.data.step, move: action });
      this.busy = false;
      if (r.verdict.kind === "ok") {
        this.show(r, r.events);
        return;
      }
      this.verdict = r.verdict;
    } catch (err) {
      this.busy = false; // the step stays: the learner may try again
      this.verdict = { kind: "error", text: t("tutorial.unavailable", { why: err.message }) };
    }
    this.render();
  }

  /** A card of the hand that cannot be played: the engine says why (as the server judges it). */
  clickRefused(ev) {
    const card = ev.target.closest && ev.target.closest(".hand button.card[aria-disabled]");
    if (!card || !this.data) return;
    const refused = this.data.refused.find((r) => r.move.split(" ").slice(1).join(" ") === card.dataset.card);
    if (refused) this.act(refused.action);
  }

  step() {
    return this.data && !this.data.finished ? this.tutorial.steps[this.data.step] : null;
  }

  context() {
    const d = this.data;
    const you = this.tutorial.seat;
    const step = this.step();
    const legalByMove = new Map(d.legal.map((l) => [l.move, l.action]));
    // after a move off the lesson, the lesson's move is highlighted like a hint
    const wanted = this.verdict && this.verdict.kind === "off_lesson" && step ? legalByMove.get(step.expect[0]) : undefined;
    return {
      page: this,
      game: this.game,
      match: { game: this.game, seats: [] },
      view: d.view,
      legal: d.legal,
      legalByMove,
      refusedByMove: new Map(d.refused.map((r) => [r.move, refusalTitle(r.reason, r.rule, undefined)])),
      you,
      me: you,
      spectator: false,
      myTurn: d.legal.length > 0 && !this.busy,
      pending: this.busy,
      status: d.status,
      result: d.result,
      log: d.log,
      recent: recentEvents(d.log, you),
      hint: wanted === undefined ? null : { action: wanted },
      keys: {},
      name: (seat, opts = {}) => (seat === you ? t(opts.lower ? "you_lc" : "you") : `${t("ai")} ${seat + 1}`),
      act: (action) => this.act(action),
      rerender: () => this.render(),
    };
  }

  render() {
    if (this.game && this.data && this.shownLang !== lang) {
      this.load(this.data.step); // the step texts come from the server in the page's language
      return;
    }
    keepingFocus(() => this.draw());
  }

  draw() {
    const root = clear(this.root);
    root.className = `page table-page tutorial-page${this.game ? ` game-${this.game}` : ""}`;
    document.body.dataset.tutorialStep = this.data ? String(this.data.step) : "";
    document.body.dataset.busy = String(this.busy);
    const title = this.tutorial ? this.tutorial.title : t("tutorial.learn");
    document.title = `${title} — cardtable`;
    root.append(topbar([h("h1.page-title", null, title)]));
    if (this.error) {
      root.append(h("main.lobby", null, h("p.error", { role: "alert" }, this.error)));
      return;
    }
    if (!this.game) {
      root.append(this.listPanel());
      return;
    }
    this.keys = {};
    if (!this.data) {
      root.append(h("main.loading", null, h("p", null, t("loading"))));
      return;
    }
    const board = gameModule(this.game);
    const ctx = this.context();
    const main = h("section.main-col", null, this.stepBox(ctx), board.board(ctx));
    this.keys = ctx.keys;
    root.append(h("main.table-layout", null, main, this.sidePanel(ctx, board)));
  }

  listPanel() {
    const list = h("ul.tutorial-list");
    for (const item of this.list || []) {
      list.append(h("li", null, h("a.button", { href: `/tutorial/${item.game}`, "data-game": item.game },
        item.title[lang] || item.title.en)));
    }
    return h("main.lobby", null, h("section.panel", null, h("h2", null, t("tutorial.learn")),
      h("p.muted", null, t("tutorial.choose")), list));
  }

  /** The step: its text and ruling, the verdict on the last move, and what to do next
   * (the page's one live region: a screen reader hears each step and each verdict). */
  stepBox(ctx) {
    const box = h("div.turnbox.tutorial-step", { role: "status", "aria-live": "polite" });
    const step = this.step();
    const count = this.tutorial.steps.length;
    if (!step) {
      box.append(h("h2", null, t("tutorial.done")), h("p#tutorial-say", null, this.tutorial.outro),
        h("div.actions", null,
          h("button.primary#tutorial-play-easy", { type: "button", onclick: () => this.playEasy() }, t("tutorial.play_easy")),
          h("a.button#tutorial-again", { href: `/tutorial/${this.game}?step=0` }, t("tutorial.again"))));
      return box;
    }
    box.classList.toggle("mine", !step.reading);
    box.append(h("div.tutorial-head", null,
      h("span.tutorial-count", null, t("tutorial.step", { n: this.data.step + 1, of: count })), " · ",
      h("a.rule-link", { href: ruleHref(this.game, step.rule), target: "_blank", rel: "noopener" },
        t("tutorial.rule", { rule: step.rule }))));
    if (this.data.step === 0) box.append(h("p.tutorial-intro.muted", null, this.tutorial.intro));
    box.append(h("p#tutorial-say", { "data-step": step.id }, step.say));
    if (this.events.length) box.append(h("p.tutorial-ok", null, t("tutorial.well_done"), " ", this.eventsText(ctx)));
    if (this.verdict) box.append(this.verdictLine());
    if (step.try.length) {
      box.append(h("p.tutorial-try", null, t("tutorial.try", { moves: "" }),
        ...step.try.map((a) => h("button.small.try-move", { type: "button", "data-move": a.move,
          onclick: () => this.act(a.move) }, a.move))));
    }
    if (step.reading) {
      box.append(h("div.actions", null, h("button.primary#tutorial-next", {
        type: "button", onclick: () => this.load(this.data.step + 1) }, t("tutorial.continue"))));
    }
    return box;
  }

  verdictLine() {
    const v = this.verdict;
    if (v.kind === "error") return h("p.tutorial-verdict.refused", null, v.text);
    if (v.kind === "illegal" && v.refusal) {
      const text = refusalNodes(v.refusal, v.rule, this.game, v.refusal.key);
      return h("p.tutorial-verdict.refused", { "data-rule": v.rule || "" }, t("tutorial.refused", { reason: "" }), ...text);
    }
    return h("p.tutorial-verdict.off-lesson", { "data-rule": v.rule || "" },
      t("tutorial.off_lesson", { hint: v.hint || "", rule: v.rule }));
  }

  eventsText(ctx) {
    const board = gameModule(this.game);
    const parts = [];
    for (const e of this.events) {
      if (parts.length) parts.push("; ");
      parts.push(h("span.who", null, ctx.name(e.seat)), " ", board.describe(e, ctx));
    }
    return h("span.tutorial-events", null, ...parts);
  }

  sidePanel(ctx, board) {
    const side = h("aside.side");
    const list = h("ol.log-list", { "data-history": "log" });
    for (const e of this.data.log) {
      list.append(h("li", { "data-seq": e.seq }, h("span.who", null, ctx.name(e.seat)), " ", board.describe(e, ctx)));
    }
    side.append(h("details.logbox", { open: window.innerWidth > 820 ? true : null },
      h("summary", null, t("match.move_log"), h("span.muted", null, ` (${this.data.log.length})`)), list));
    side.append(h("p.muted.small", null, h("a", { href: `/rules/${this.game}?lang=${lang}`, target: "_blank", rel: "noopener" },
      t("rules_of", { game: gameTitle(this.game) }))));
    return side;
  }

  /** The first real match: the learner against the easy AI in every other seat, with the
   * tutorial's options (the table just learned on). */
  async playEasy() {
    try {
      const seats = [{ kind: "human", name: getName() || t("player") }];
      for (let i = 1; i < this.tutorial.players; i++) seats.push({ kind: "ai", agent: FIRST_GAME_AGENT });
      const r = await api("POST", "/api/matches", { game: this.game, config: this.tutorial.options, seats });
      saveMatch(r.match, { host: r.host_token, game: this.game, created: Date.now(), invites: {} });
      saveSeat(r.match, r.seats[0].token, 0);
      location.assign(`/play/${encodeURIComponent(r.match)}?seat=0`);
    } catch (err) {
      this.error = t("tutorial.unavailable", { why: err.message });
      this.render();
    }
  }
}

// the page's own layout (loaded once, with the page)
if (!document.querySelector('link[href="/static/tutorial.css"]')) {
  document.head.append(h("link", { rel: "stylesheet", href: "/static/tutorial.css" }));
}
