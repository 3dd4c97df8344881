// The replay of a match at /replay/{match}?seat=N&step=K: every state as that seat
// saw it (GET /api/matches/{id}/replay with the seat's token: the server's per-seat
// projection, never more), or the public view without a token. Step with the
// buttons, the slider, the move log or the keys; export the JSON record.

import { h, api, seatToken, seatParam, downloadRecord, morphInto } from "./util.js";
import { t, gameTitle } from "./i18n.js";
import { topbar } from "./lobby.js";
import { loadGame, gameModule } from "./games/index.js";
import { dialogBox, DialogFocus } from "./dialogs.js";

const AUTOPLAY_MS = 700;

export function stepParam() {
  const v = new URLSearchParams(location.search).get("step");
  return v !== null && /^\d+$/.test(v) ? Number(v) : null;
}

export class ReplayPage {
  constructor(root, matchId) {
    this.root = root;
    this.id = matchId;
    this.dialogFocus = new DialogFocus();
    this.info = null;
    this.replay = null;
    this.index = 0;
    this.error = null;
    this.modal = null;
    this.timer = null;
    this.onKey = (ev) => this.key(ev);
  }

  async start() {
    this.seat = seatParam();
    this.token = seatToken(this.id, this.seat);
    document.addEventListener("keydown", this.onKey);
    this.render();
    try {
      const [info, replay] = await Promise.all([
        api("GET", `/api/matches/${encodeURIComponent(this.id)}`),
        api("GET", `/api/matches/${encodeURIComponent(this.id)}/replay`, undefined, this.token),
      ]);
      await loadGame(info.game);
      this.info = info;
      this.replay = replay;
      const wanted = stepParam();
      this.index = Math.min(wanted === null ? 0 : wanted, replay.steps.length - 1);
    } catch (err) {
      this.error = t("replay_failed", { why: err.message });
    }
    this.render();
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
    this.pause();
  }

  get last() {
    return this.replay ? this.replay.steps.length - 1 : 0;
  }

  go(index) {
    if (!this.replay) return;
    const i = Math.max(0, Math.min(this.last, index));
    if (i === this.index && this.root.querySelector(".replay-page-board")) return;
    this.index = i;
    const q = new URLSearchParams(location.search);
    q.set("step", String(i));
    history.replaceState(null, "", `${location.pathname}?${q}`);
    if (i >= this.last) this.pause();
    this.render();
  }

  play() {
    if (this.timer || !this.replay) return;
    if (this.index >= this.last) this.index = 0;
    this.timer = setInterval(() => this.go(this.index + 1), AUTOPLAY_MS);
    this.render();
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    if (this.replay) this.render();
  }

  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (ev.key === "Escape" && this.modal) {
      this.modal = null;
      this.render();
      return;
    }
    const big = ev.shiftKey ? 10 : 1;
    const moves = {
      ArrowRight: this.index + big, ArrowLeft: this.index - big, PageDown: this.index + 10, PageUp: this.index - 10,
      Home: 0, End: this.last,
    };
    if (ev.key in moves) {
      ev.preventDefault();
      this.pause();
      this.go(moves[ev.key]);
    } else if (ev.key === " " && tag !== "BUTTON") {
      ev.preventDefault();
      if (this.timer) this.pause();
      else this.play();
    }
  }

  // --- what the board needs ----------------------------------------------------------
  seatName(seat, { you = true, lower = false } = {}) {
    if (seat === null || seat === undefined) return "";
    if (you && seat === this.replay.you) return t(lower ? "you_lc" : "you");
    const s = this.info && this.info.seats[seat];
    if (!s) return t("seat_n", { n: seat + 1 });
    if (s.kind === "ai" && (!s.name || s.name === s.agent)) return `${t("ai")} ${seat + 1}`;
    if (!s.claimed && s.kind === "human") return t("seat_n", { n: seat + 1 });
    return s.name || t("seat_n", { n: seat + 1 });
  }

  context(i) {
    const steps = this.replay.steps;
    const step = steps[i];
    const you = this.replay.you;
    const end = i === this.last && this.replay.status === "finished";
    return {
      page: this,
      game: this.info.game,
      match: this.info,
      view: step.view,
      legal: [],
      legalByMove: new Map(),
      you,
      me: you === null ? 0 : you,
      spectator: you === null,
      myTurn: false,
      pending: false,
      status: end ? "finished" : "active",
      result: end ? this.replay.result : null,
      log: steps.slice(1, i + 1).map((s) => s.event),
      recent: step.event ? [step.event] : [],
      hint: null,
      keys: {},
      name: (seat, opts) => this.seatName(seat, opts),
      act: () => {},
      rerender: () => this.render(),
    };
  }

  // --- rendering -----------------------------------------------------------------------
  /** Redraw by morphing (util.morphInto): a step keeps the focus where it was (the
   * button or slider just used), so the keyboard can go on stepping. */
  render() {
    const before = document.activeElement;
    const root = document.createElement("div");
    root.className = "page table-page replay-page";
    this.build(root);
    morphInto(this.root, [...root.childNodes], root.className);
    this.focusDialog(before);
    const list = this.root.querySelector(".log-list");
    const cur = list && list.querySelector(".is-current");
    if (list) list.scrollTop = cur ? cur.offsetTop - list.clientHeight / 2 : 0;
  }

  /** A dialog that opens takes the focus; when it closes the focus goes back (dialogs.js). */
  focusDialog(before) {
    this.dialogFocus.update(this.root, this.modal, before);
  }

  /** The page's name, in its title and heading. */
  pageName() {
    return t("replay");
  }

  /** What the fatal-error panel says (`this.error`) and where it leads. */
  errorPanel() {
    return [h("h2", null, this.pageName()), h("p", null, this.error),
      h("div.actions", null, h("a.button", { href: "/" }, t("back_to_lobby")))];
  }

  /** Panels of the main column below the board (none in a replay). */
  mainExtras(_ctx, _game) {
    return [];
  }

  /** The side column: tools and the move log. */
  side(ctx, game) {
    return this.sidePanel(ctx, game);
  }

  build(root) {
    if (this.error) {
      root.append(topbar(), h("main.lobby", null, h("section.panel.fatal", { role: "alert" }, ...this.errorPanel())));
      return;
    }
    const game = this.info && gameModule(this.info.game);
    if (!this.replay || !game) {
      root.append(topbar(), h("main.loading", null, h("p", null, t("loading"))));
      return;
    }
    root.classList.add(`game-${this.info.game}`);
    document.body.dataset.step = String(this.index);
    document.body.dataset.steps = String(this.last);
    document.body.dataset.seq = String(this.replay.steps[this.index].seq);
    document.title = `${this.pageName()}: ${gameTitle(this.info.game)} — cardtable`;
    const ctx = this.context(this.index);
    const board = game.board(ctx);
    board.classList.add("replay-page-board");
    root.append(topbar([
      h("h1.page-title", null, `${this.pageName()}: ${gameTitle(this.info.game)}`),
      h("div.scoreline", null, game.scoreline(ctx)),
    ]));
    const mainCol = h("section.main-col", null, this.controls(), this.nowLine(ctx, game), board,
      ...this.mainExtras(ctx, game));
    root.append(h("main.table-layout", null, mainCol, this.side(ctx, game)));
    if (this.modal) root.append(this.modalBox(ctx, game));
  }

  controls() {
    const i = this.index;
    const btn = (id, label, title, target, disabled) => h(`button#${id}`, {
      type: "button", title, "aria-label": title, disabled: disabled ? true : null,
      onclick: () => { this.pause(); this.go(target); },
    }, label);
    const slider = h("input#replay-slider", {
      type: "range", min: 0, max: this.last, value: i, "aria-label": t("replay_slider"),
      oninput: (e) => { this.pause(); this.go(Number(e.target.value)); },
    });
    return h("div.replay-controls", { role: "toolbar", "aria-label": t("replay") },
      btn("replay-first", "|◀", t("replay_first"), 0, i === 0),
      btn("replay-prev", "◀", t("replay_prev"), i - 1, i === 0),
      h("button#replay-play", {
        type: "button", "aria-pressed": String(Boolean(this.timer)),
        title: this.timer ? t("replay_pause") : t("replay_play"),
        onclick: () => (this.timer ? this.pause() : this.play()),
      }, this.timer ? t("replay_pause_short") : t("replay_play_short")),
      btn("replay-next", "▶", t("replay_next"), i + 1, i >= this.last),
      btn("replay-last", "▶|", t("replay_last"), this.last, i >= this.last),
      slider,
      h("span.replay-pos", { "aria-live": "polite" }, t("replay_step", { n: i, of: this.last })));
  }

  nowLine(ctx, game) {
    const step = this.replay.steps[this.index];
    const box = h("div.turnbox.replay-now", { "data-history": "now" });
    if (!step.event) {
      box.append(h("span", null, t("replay_deal")));
    } else {
      box.append(h("b", null, `${step.event.seq}. `), h("b", null, this.seatName(step.event.seat)), " ",
        game.describe(step.event, ctx));
    }
    if (this.index > 0 && game.roundsDone) {
      const before = game.roundsDone(this.replay.steps[this.index - 1].view);
      const after = game.roundsDone(step.view);
      if (after > before && ctx.status !== "finished") {
        box.append(" ", h("button.small#round-summary", { type: "button", onclick: () => { this.modal = { kind: "round", index: after - 1 }; this.render(); } },
          t("match.round_over", { n: after })));
      }
    }
    if (ctx.status === "finished") {
      box.classList.add("mine");
      box.append(h("span.replay-verdict", null, " — ", game.status(ctx)), " ",
        h("button.small#match-summary", { type: "button", onclick: () => { this.modal = { kind: "match" }; this.render(); } },
          t("summary")));
    }
    return box;
  }

  sidePanel(ctx, game) {
    const side = h("aside.side");
    const tools = h("div.tools");
    const q = this.replay.you === null ? "" : `?seat=${this.replay.you}`;
    tools.append(h("a.button#back-to-table", { href: `/play/${encodeURIComponent(this.id)}${q}` }, t("back_to_table")));
    tools.append(h("button#scores", { type: "button", onclick: () => { this.modal = { kind: "scores" }; this.render(); } }, t("scores")));
    if (this.replay.status === "finished" && this.token && this.replay.you !== null) {
      tools.append(h("button#export", {
        type: "button", title: t("export_help"),
        onclick: () => downloadRecord(this.id, this.token).catch((err) => {
          this.notice = t("export_failed", { why: err.message });
          this.render();
        }),
      }, "⤓ ", t("export_record")));
    }
    side.append(tools);
    if (this.notice) side.append(h("p.error", { role: "alert" }, this.notice));
    side.append(h("section.viewpoint", null, h("b", null, t("replay_viewpoint")), " ",
      this.replay.you === null ? t("replay_public")
        : t("replay_as", { name: `${this.seatName(this.replay.you, { you: false })} (${t("seat_n", { n: this.replay.you + 1 })})` }),
      h("p.small.muted", null, t(this.replay.you === null ? "replay_public_help" : "replay_viewpoint_help"))));
    side.append(this.logBox(ctx, game));
    side.append(h("p.keys-help.muted", null, t("replay_keys")));
    return side;
  }

  logBox(ctx, game) {
    const events = this.replay.steps.slice(1).map((s) => s.event);
    const details = h("details.logbox", { open: true },
      h("summary", null, t("match.move_log"), h("span.muted", null, ` (${events.length})`)));
    const list = h("ol.log-list.replay-log", { "data-history": "log" });
    list.append(h("li.deal", { class: this.index === 0 ? "is-current" : "", "data-step": 0 },
      h("button.link", { type: "button", onclick: () => { this.pause(); this.go(0); } }, t("replay_deal_short"))));
    // only what this seat had seen by the current step: later moves are listed without their texts
    events.forEach((e, k) => {
      const step = k + 1;
      const seen = step <= this.index;
      list.append(h("li", { class: step === this.index ? "is-current" : (seen ? "" : "future"), "data-step": step, value: step },
        h("button.link", { type: "button", onclick: () => { this.pause(); this.go(step); } },
          h("span.who", null, this.seatName(e.seat)), seen ? " " : null, seen ? game.describe(e, ctx) : null)));
    });
    details.append(list);
    return details;
  }

  modalBox(ctx, game) {
    const close = () => { this.modal = null; this.render(); };
    let title;
    let body;
    if (this.modal.kind === "round") {
      title = t("match.round_over", { n: this.modal.index + 1 });
      body = game.roundSummary(ctx, this.modal.index);
    } else if (this.modal.kind === "match") {
      title = t("match.over");
      body = game.matchSummary(ctx);
    } else {
      title = t("scores");
      body = game.scoresTable(ctx);
    }
    const dialog = dialogBox(title, body,
      h("div.actions", null, h("button.primary#close-modal", { type: "button", onclick: close }, t("close"))));
    return h("div.backdrop", { onclick: (e) => { if (e.target === e.currentTarget) close(); } }, dialog);
  }
}
