// The table of one match: connection, shared chrome (turn box, players, hints,
// move log, summaries, keyboard) and the game's own board (games/<game>.js, loaded
// by name).  Each render is morphed into the page (util.morphInto): what stays
// keeps its focus; turns and moves are said through one live region (feedback.js).

import {
  h, api, myMatch, saveMatch, saveSeat, seatToken, seatParam, forgetToken, getName, setName, copyText, downloadRecord,
  keepingFocus, morphInto,
} from "./util.js";
import { t, gameTitle, agentLabel, agentHelp, loadCatalog, refusalNodes, refusalTitle, rulesHref } from "./i18n.js";
import { Connection } from "./net.js";
import { onLifecycleMessage, lifecycleTools, resignDialog, endingVerdict } from "./lifecycle.js";
import { ChatPanel } from "./chat.js";
import { MatchClock } from "./clock.js";
import { topbar, givenName, optionsSummary } from "./lobby.js";
import { loadGames, loadGame, gameModule } from "./games/index.js";
import {
  announcer, announce, animateMoves, cardPlaces, yourTurn, soundOn, setSound, notifyOn, setNotify,
} from "./feedback.js";
import { hintChances } from "./hint_chances.js";
import { dialogBox, DialogFocus } from "./dialogs.js";
import { reviewLink } from "./review_link.js";

const QUIET_ERRORS = new Set(["stale", "duplicate"]);

/** The events of the log a player wants highlighted: what the others did since
 * this seat's previous turn, plus this seat's moves of the turn in progress. */
export function recentEvents(log, you) {
  if (!log.length) return [];
  if (you === null || you === undefined) return log.slice(-4);
  const out = [];
  let i = log.length - 1;
  while (i >= 0 && log[i].seat === you) out.unshift(log[i--]);
  while (i >= 0 && log[i].seat !== you) out.unshift(log[i--]);
  return out.slice(-16);
}

/** The words of a text, a node or a list of both (for the live region). */
function textOf(x) {
  if (x === null || x === undefined || x === false) return "";
  if (Array.isArray(x)) return x.map(textOf).join("");
  return x instanceof Node ? x.textContent : String(x);
}

/** The name of a pressed key as the boards' `ctx.keys` name it ("1", "S-1", "d"). */
export function keyName(ev) {
  const m = /^(?:Digit|Numpad)(\d)$/.exec(ev.code || "");
  if (m) return (ev.shiftKey ? "S-" : "") + m[1];
  if (ev.key && ev.key.length === 1) return ev.key.toLowerCase();
  return ev.key || "";
}

/** Extra parts of the table from other modules (a clock, say): `fn(page, ctx)` returns
 * an element (or null) drawn at `where`: "main" (under the board) or "side" (under
 * the players).  Registered once at import time. */
const PANELS = { main: [], side: [] };

export function addTablePanel(where, fn) {
  PANELS[where].push(fn);
}

function panels(where, page, ctx) {
  return PANELS[where].map((fn) => fn(page, ctx));
}

export class TablePage {
  constructor(root, matchId) {
    this.root = root;
    this.id = matchId;
    this.dialogFocus = new DialogFocus();
    this.conn = null;
    this.you = null;
    this.role = null;
    this.match = null;
    this.view = null;
    this.legal = [];
    this.refused = []; // why each card of my hand cannot be played now: [{action, move, rule, reason}]
    this.log = [];
    this.status = null;
    this.result = null;
    this.seq = -1;
    this.hint = null;
    this.hintBusy = false;
    this.connStatus = "connecting";
    this.fatal = null;
    this.toast = null;
    this.modal = null;
    this.roundsSeen = null;
    this.finishShown = false;
    this.keys = {};
    this.frame = 0;
    this.onKey = (ev) => this.key(ev);
    this.onCardClick = (ev) => this.explainRefusal(ev);
    this.chat = new ChatPanel(this);
    this.matchClock = new MatchClock(this);
  }

  start() {
    // The seat token: from an invite link's fragment (then kept in localStorage and
    // removed from the address), else the one this browser keeps for ?seat=N, else
    // the first seat it holds in this match, else none (watching).
    const frag = new URLSearchParams(location.hash.slice(1));
    const token = frag.get("token");
    let fresh = false;
    const wanted = seatParam();
    if (token) {
      const old = myMatch(this.id);
      fresh = !old || !old.seats.some((s) => s.token === token);
      saveSeat(this.id, token, null);
      this.token = token;
      history.replaceState(null, "", location.pathname + location.search);
    } else {
      this.token = seatToken(this.id, wanted);
    }
    this.mine = myMatch(this.id);
    document.addEventListener("keydown", this.onKey);
    this.root.addEventListener("click", this.onCardClick);
    announcer(); // the live region is there before anything is said in it
    loadCatalog().then(() => this.schedule(), (err) => console.warn("cardtable: no refusal catalog", err));
    loadGames().then((games) => { this.games = games; this.schedule(); }, () => {});
    if (fresh && !getName()) {
      this.askName = true;
      // what the link is for: its seat and the match, to say so above the name field
      api("GET", `/api/matches/${encodeURIComponent(this.id)}/invite`, undefined, token)
        .then((r) => { this.invite = r; this.schedule(); }, () => {});
      this.render();
      return;
    }
    this.connect();
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
    this.root.removeEventListener("click", this.onCardClick);
    if (this.conn) this.conn.close();
  }

  connect(spectate = false) {
    this.askName = false;
    const token = spectate ? null : this.token || null;
    this.conn = new Connection(this.id, token, getName(), (m) => this.onMessage(m), (s, d) => this.onStatus(s, d));
    this.conn.open();
    this.render();
  }

  onStatus(status, detail) {
    this.connStatus = status;
    if (status === "fatal") {
      this.fatal = detail;
      // a token the server does not know (its seat was given to someone else): drop it
      if (detail && detail.code === "auth_failed" && this.token) {
        forgetToken(this.id, this.token);
        this.token = null;
      }
    }
    this.schedule();
  }

  onMessage(msg) {
    if (this.chat.onMessage(msg) || this.matchClock.onMessage(msg)) {
      this.schedule();
      return;
    }
    onLifecycleMessage(this, msg);
    switch (msg.type) {
      case "welcome":
        this.you = msg.you;
        this.role = msg.role;
        if (msg.you !== null && typeof msg.token === "string" && msg.token) {
          // claiming the seat voided the invite's token: the fresh one replaces it
          if (this.token) saveSeat(this.id, this.token, msg.you);
          this.token = msg.token;
        }
        if (msg.you !== null && this.token) {
          this.mine = saveSeat(this.id, this.token, msg.you);
          // the address names the seat, so a reload (or a bookmark) finds this seat again
          if (seatParam() !== msg.you) history.replaceState(null, "", `${location.pathname}?seat=${msg.you}`);
        }
        break;
      case "state":
        this.match = msg.match;
        this.status = msg.status;
        this.view = msg.view;
        this.legal = msg.legal || [];
        this.refused = msg.refused || [];
        this.log = msg.log || [];
        this.result = msg.result;
        this.seq = msg.seq;
        if (this.mine && this.mine.seats.length && !this.mine.game) this.mine = saveMatch(this.id, { game: msg.match.game });
        if (gameModule(msg.match.game)) this.afterChange(true);
        else this.loadRenderer(msg.match.game);
        break;
      case "update":
        if (msg.seq !== this.conn.seq) break; // dropped by the connection (gap or old)
        if (msg.event && !this.log.some((e) => e.seq === msg.event.seq)) this.log.push(msg.event);
        this.status = msg.status;
        this.view = msg.view;
        this.legal = msg.legal || [];
        this.refused = msg.refused || [];
        if ("result" in msg) this.result = msg.result;
        this.seq = msg.seq;
        if (this.match) {
          this.match.seq = msg.seq;
          this.match.status = msg.status;
          this.match.current_player = msg.status === "finished" ? null : msg.view.current_player;
        }
        this.afterChange(false);
        this.animate = true;
        break;
      case "seats":
        if (this.match) this.match.seats = msg.seats;
        break;
      case "hint":
        this.hintBusy = false;
        if (msg.seq === this.seq) this.hint = msg;
        break;
      case "error":
        if (msg.code === "not_your_turn" || msg.code === "hints_off") this.hintBusy = false;
        if (QUIET_ERRORS.has(msg.code)) break;
        // an illegal move's reason is rendered (in the page's language) when the toast is drawn
        this.showToast(msg.reason ? { refusal: msg } : msg.message || msg.code);
        break;
      default:
        break;
    }
    this.noteTurn();
    this.schedule();
  }

  /** Whether the turn came to this seat with this message (renders are batched: a
   * turn that went away and came back within one frame still counts). */
  noteTurn() {
    const mine = this.myTurn();
    if (mine && this.turnWas === false) this.turnCame = true;
    if (this.match) this.turnWas = mine;
  }

  /** Fetch the game's module (once), then take in the state that waited for it. */
  loadRenderer(name) {
    loadGame(name).then(() => {
      this.afterChange(true);
      this.schedule();
    }, (err) => {
      this.fatal = { code: "no_renderer", message: err.message };
      this.schedule();
    });
  }

  afterChange(full) {
    if (this.hint && this.hint.seq !== this.seq) this.hint = null;
    const game = this.match && gameModule(this.match.game);
    if (!game) return;
    const rounds = game.roundsDone ? game.roundsDone(this.view) : 0;
    if (this.roundsSeen === null) {
      // a reload: a round summary not yet closed in this tab is shown again
      const closed = this.roundsClosed();
      if (closed !== null && rounds > closed && this.status !== "finished") this.modal = { kind: "round", index: rounds - 1 };
      else this.closeRounds(rounds);
      this.roundsSeen = rounds;
    } else if (full) {
      if (rounds > this.roundsSeen && this.status !== "finished") this.modal = { kind: "round", index: rounds - 1 };
      this.roundsSeen = rounds;
    } else if (rounds > this.roundsSeen) {
      this.roundsSeen = rounds;
      if (this.status !== "finished") this.modal = { kind: "round", index: rounds - 1 };
    }
    if (this.status === "finished" && !this.finishShown) {
      this.finishShown = true;
      this.modal = { kind: "match" };
    }
  }

  /** How many round summaries were closed in this tab (sessionStorage: a reload keeps it). */
  roundsClosed() {
    const v = sessionStorage.getItem(`cardtable.rounds-closed.${this.id}`);
    return v === null ? null : Number(v);
  }

  closeRounds(n) {
    sessionStorage.setItem(`cardtable.rounds-closed.${this.id}`, String(n));
  }

  toastBody() {
    const r = this.toast.refusal;
    return r ? refusalNodes(r.reason, r.rule, this.match.game, r.message || r.reason.key) : this.toast;
  }

  showToast(text) {
    this.toast = text;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.toast = null;
      this.schedule();
    }, 5000);
  }

  /** Render once for a burst of messages: at the next frame, or after a short
   * timeout when frames are not running (a background tab still updates its title). */
  schedule() {
    if (this.frame) return;
    const run = () => {
      if (!this.frame) return;
      cancelAnimationFrame(this.frame);
      clearTimeout(this.frameTimer);
      this.frame = 0;
      this.render();
    };
    this.frame = requestAnimationFrame(run);
    this.frameTimer = setTimeout(run, 150);
  }

  // --- actions ---------------------------------------------------------------
  myTurn() {
    return this.you !== null && this.status === "active" && this.legal.length > 0;
  }

  act(action) {
    if (!this.myTurn() || !this.legal.some((l) => l.action === action)) return;
    if (this.conn.move(action)) {
      this.hint = null;
      this.render();
    }
  }

  /** A click or tap on a card of the hand that cannot be played: say why (the
   * server's refusal for it, in the page's language, its ruling linked). */
  explainRefusal(ev) {
    const card = ev.target.closest && ev.target.closest(".hand button.card[aria-disabled]");
    if (!card || !this.myTurn()) return;
    const refusal = this.refused.find((r) => r.move.split(" ").slice(1).join(" ") === card.dataset.card);
    if (!refusal) return;
    this.showToast({ refusal });
    this.render();
  }

  askHint() {
    if (!this.myTurn() || this.hintBusy) return;
    this.hintBusy = true;
    this.conn.send({ type: "hint" });
    this.render();
  }

  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const name = keyName(ev);
    if (name === "Escape" && this.modal) {
      if (this.modal.kind === "round") this.closeRounds(this.modal.index + 1);
      this.modal = null;
      this.render();
      return;
    }
    if (name === "h" && this.canHint()) {
      ev.preventDefault();
      this.askHint();
      return;
    }
    if (this.modal && ["leave", "resign"].includes(this.modal.kind)) return; // the dialog's own keys only
    const action = this.keys[name];
    if (action !== undefined) {
      ev.preventDefault();
      this.act(action);
    }
  }

  canHint() {
    return Boolean(this.match && this.match.hints && this.you !== null && this.mySeat() && this.mySeat().kind === "human");
  }

  mySeat() {
    return this.match && this.you !== null ? this.match.seats[this.you] : null;
  }

  seatName(seat, { you = true, lower = false } = {}) {
    if (seat === null || seat === undefined) return "";
    if (you && seat === this.you) return t(lower ? "you_lc" : "you");
    const s = this.match && this.match.seats[seat];
    if (!s) return t("seat_n", { n: seat + 1 });
    if (s.kind === "ai" && (!s.name || s.name === s.agent)) return `${t("ai")} ${seat + 1}`;
    if (s.open) return t("seat_open", { n: seat + 1 });
    if (!s.claimed && s.kind === "human") return givenName(s) || t("seat_free", { n: seat + 1 });
    return s.name || t("seat_n", { n: seat + 1 });
  }

  context() {
    const legalByMove = new Map(this.legal.map((l) => [l.move, l.action]));
    const refusedByMove = new Map(this.refused.map((r) => [r.move, refusalTitle(r.reason, r.rule, undefined)]));
    const keys = {};
    const pending = Boolean(this.conn && this.conn.pendingMove !== null);
    return {
      page: this,
      game: this.match.game,
      match: this.match,
      view: this.view,
      legal: this.legal,
      legalByMove,
      refusedByMove,
      you: this.you,
      me: this.you === null ? 0 : this.you,
      spectator: this.you === null,
      myTurn: this.myTurn() && !pending,
      pending,
      status: this.status,
      result: this.result,
      log: this.log,
      recent: recentEvents(this.log, this.you),
      hint: this.hint && this.hint.seq === this.seq ? this.hint : null,
      keys,
      name: (seat, opts) => this.seatName(seat, opts),
      act: (action) => this.act(action),
      rerender: () => this.render(),
    };
  }

  // --- rendering ---------------------------------------------------------------
  /** Redraw the page; a field being typed in (the join form's name) keeps its text,
   * caret and focus, whatever arrives meanwhile (the refusal catalog, a message). */
  render() {
    const scrolled = window.scrollY;
    const before = document.activeElement;
    const places = this.animate ? cardPlaces(this.root) : null;
    this.animate = false;
    keepingFocus(() => this.draw());
    this.focusDialog(before);
    if (places) animateMoves(this.root, places);
    // a redraw that changed the page's height keeps where the person had scrolled to
    if (window.scrollY !== scrolled) window.scrollTo(0, scrolled);
    if (this.turnToFit) this.fitTurn();
    this.turnToFit = false;
  }

  /** A dialog that opens takes the focus; when it closes the focus goes back (dialogs.js). */
  focusDialog(before) {
    this.dialogFocus.update(this.root, this.modal, before);
  }

  draw() {
    const game = this.match && gameModule(this.match.game);
    const page = `page table-page${game ? ` game-${this.match.game}` : ""}`;
    document.body.dataset.seq = String(this.seq);
    document.body.dataset.status = this.status || "";
    document.body.dataset.conn = this.connStatus;
    if (this.askName) {
      morphInto(this.root, [topbar(), this.joinForm()], page);
      return;
    }
    if (this.fatal) {
      morphInto(this.root, [topbar(), this.fatalPanel()], page);
      return;
    }
    if (!this.match || !this.view || !game) {
      morphInto(this.root, [topbar(), h("main.loading", null, h("p", null, t("connecting")))], page);
      return;
    }
    const ctx = this.context();
    document.body.dataset.turn = this.status === "finished" ? "over" : (ctx.myTurn ? "me" : "other");
    document.body.dataset.pending = String(ctx.pending);
    document.title = `${this.myTurn() ? "● " : ""}${gameTitle(this.match.game)} — cardtable`;
    const board = game.board(ctx);
    this.keys = ctx.keys;
    const mainCol = h("section.main-col", null, this.turnBox(ctx, game), this.matchClock.node(), board, panels("main", this, ctx));
    morphInto(this.root, [
      topbar([
        h("h1.page-title", null, gameTitle(this.match.game)),
        h("a.rules-link", { href: rulesHref(this.match.game), target: "_blank", rel: "noopener",
          title: t("rules_of", { game: gameTitle(this.match.game) }) }, t("rules")),
        h("div.scoreline", null, game.scoreline(ctx)),
        this.connBadge(),
      ]),
      h("main.table-layout", null, mainCol, this.sidePanel(ctx, game)),
      this.toast ? h("div.toast", { role: "alert" }, this.toastBody()) : null,
      this.modal ? this.modalBox(ctx, game) : null,
    ], `${page}${ctx.myTurn ? " turn-me" : ""}`);
    const log = this.root.querySelector(".log-list");
    if (log) log.scrollTop = log.scrollHeight;
    this.tell(ctx, game);
    this.turnToFit = ctx.myTurn && !this.wasMyTurn;
    this.wasMyTurn = ctx.myTurn;
  }

  /** Say what is new through the live region: the others' moves since the last
   * render, then the turn when it becomes this seat's, or the match's end; on your
   * turn the tone and the background notification (if they are on). */
  tell(ctx, game) {
    const last = this.log.length ? this.log[this.log.length - 1].seq : 0;
    const first = this.heardSeq === undefined;
    const fresh = first ? [] : this.log.filter((e) => e.seq > this.heardSeq && e.seat !== this.you);
    const parts = fresh.map((e) => `${this.seatName(e.seat)}: ${textOf(game.describe(e, ctx))}`);
    const came = Boolean(this.turnCame) && this.myTurn();
    const ended = this.status === "finished" && this.heardStatus !== "finished";
    if (came || ended || (first && (ctx.spectator || this.myTurn()))) parts.push(textOf(endingVerdict(this) || game.status(ctx)));
    this.heardSeq = last;
    this.heardStatus = this.status;
    this.turnCame = false;
    if (parts.length) announce(parts.join(". "));
    if (came) yourTurn(document.title, textOf(game.status(ctx)));
  }

  /** When the player must act: scroll (if needed) so that the board's part to watch
   * (`[data-fit-top]`, say the trick) down to the bottom of the hand is on screen,
   * below the banner that stays at the top. */
  fitTurn() {
    const bottom = this.root.querySelector(".my-area");
    if (!bottom) return;
    const top = this.root.querySelector("[data-fit-top]") || bottom;
    const banner = this.root.querySelector(".turnbox");
    const cover = banner ? banner.offsetHeight + 6 : 0;
    const upper = top.getBoundingClientRect().top;
    const lower = bottom.getBoundingClientRect().bottom;
    const room = window.innerHeight - 4;
    if (upper >= cover && lower <= room) return;
    const dy = Math.min(lower - room, upper - cover);
    window.scrollBy(0, dy);
  }

  connBadge() {
    const s = this.connStatus;
    return h(`span.conn.conn-${s}`, { title: t(`conn_${s}`), role: "status" },
      h("span.dot", { "aria-hidden": "true" }), h("span.conn-text", null, t(`conn_${s}`)));
  }

  turnBox(ctx, game) {
    // not a live region itself: the page's one live region says the turn (tell)
    const box = h("div.turnbox");
    if (ctx.spectator) box.append(h("span.tag", null, t("watching")), " ");
    const seat = this.mySeat();
    if (seat && seat.kind === "ai" && this.status === "active") {
      box.classList.add("ai-seat");
      box.append(h("span", null, t("ai_plays_for_you")), " ",
        h("button#reclaim", { type: "button", onclick: () => this.conn.send({ type: "reclaim" }) }, t("reclaim")));
      return box;
    }
    const cur = this.status === "active" && this.match.seats[this.view.current_player];
    if (cur && cur.kind === "human" && !cur.claimed && cur.seat !== this.you) {
      box.append(h("span.turn-text", null, t("waiting_to_join", { n: cur.seat + 1 })));
      return box;
    }
    if (ctx.myTurn || (this.myTurn() && ctx.pending)) box.classList.add("mine");
    box.append(h("span.turn-text", null, endingVerdict(this) || game.status(ctx)));
    if (ctx.pending) box.append(h("span.spinner", { "aria-hidden": "true" }));
    return box;
  }

  sidePanel(ctx, game) {
    const side = h("aside.side");
    const tools = h("div.tools");
    if (this.canHint() && this.status === "active") {
      tools.append(h("button#hint", {
        type: "button", disabled: !this.myTurn() || this.hintBusy ? true : null,
        title: t("hint_help"), onclick: () => this.askHint(),
      }, this.hintBusy ? t("thinking") : t("hint"), h("kbd", null, "H")));
    }
    if (game.extraTools) tools.append(...game.extraTools(ctx));
    tools.append(h("button#scores", { type: "button", onclick: () => { this.modal = { kind: "scores" }; this.render(); } },
      t("scores")));
    if (this.status === "finished") tools.append(...this.replayTools());
    tools.append(...lifecycleTools(this));
    if (!ctx.spectator && this.status === "active") tools.append(...this.feedbackTools().filter(Boolean));
    const seat = this.mySeat();
    if (seat && seat.kind === "human" && this.status === "active") {
      tools.append(h("button.quiet#leave", {
        type: "button", title: t("leave_help"),
        onclick: () => this.openModal({ kind: "leave", agent: this.matchLevel() }),
      }, t("leave")));
    }
    side.append(tools);
    if (ctx.hint) {
      side.append(h("div.hintbox", { role: "status" }, h("b", null, t("hint_says")), " ",
        game.describeMove(ctx.hint.move, ctx, this.you),
        ...hintChances(ctx.hint, (move) => game.describeMove(move, ctx, this.you))));
    }
    side.append(this.playersBox(ctx, game));
    side.append(...panels("side", this, ctx).filter(Boolean));
    side.append(this.logBox(ctx, game));
    const chat = this.chat.panel();
    if (chat) side.append(chat);
    if (!ctx.spectator) side.append(h("p.keys-help.muted", null, t("keys_help")));
    return side;
  }

  /** The toggles of the turn's sound and background notification (both off until
   * the person turns them on; the notification asks the browser's permission then). */
  feedbackTools() {
    const sound = soundOn();
    const notify = notifyOn();
    return [
      h("button.quiet#sound-toggle", {
        type: "button", "aria-pressed": String(sound), title: t("turn_sound_help"),
        onclick: () => { setSound(!sound); this.render(); },
      }, t(sound ? "turn_sound_on" : "turn_sound_off")),
      "Notification" in window ? h("button.quiet#notify-toggle", {
        type: "button", "aria-pressed": String(notify), title: t("turn_notify_help"),
        onclick: () => setNotify(!notify).then((on) => {
          if (!on && !notify) this.showToast(t("turn_notify_denied"));
          this.render();
        }),
      }, t(notify ? "turn_notify_on" : "turn_notify_off")) : null,
    ];
  }

  playersBox(ctx, game) {
    const box = h("section.players", null, h("h2", null, t("players")));
    const list = h("ul");
    const invites = (this.mine && this.mine.invites) || {};
    for (const s of this.match.seats) {
      const li = h("li", { "data-seat": s.seat, class: [
        s.seat === this.view.current_player && this.status === "active" ? "to-move" : "",
        s.seat === this.you ? "me" : ""].filter(Boolean).join(" ") });
      li.append(h(`span.dot${s.kind === "ai" || s.connected ? ".on" : ""}`, {
        title: s.kind === "ai" ? t("ai") : (s.connected ? t("online") : t("offline")), "aria-hidden": "true" }));
      li.append(h("span.pname", null, this.seatName(s.seat, { you: false })));
      if (s.seat === this.you) li.append(h("span.tag", null, t("you")));
      if (s.kind === "ai") li.append(h("span.tag.ai", null, `${t("ai")}: ${agentLabel(s.agent)}`));
      if (game.seatExtra) li.append(game.seatExtra(ctx, s.seat));
      if (s.seat === this.view.current_player && this.status === "active") li.append(h("span.arrow", { title: t("to_move") }, "◀"));
      if (s.open && this.you === null && this.status === "active") {
        li.append(h("button.small.primary.sit-here", { type: "button", title: t("gets_open"),
          onclick: () => this.takeSeat(s.seat) }, t("sit_here")));
      } else if (s.open) {
        li.append(h("span.tag.open", { title: t("gets_open") }, t("open_seat")));
      }
      if (s.kind === "human" && !s.claimed && invites[s.seat]) {
        const url = invites[s.seat];
        li.append(h("button.small", { type: "button", title: url, onclick: (e) => { copyText(url); e.target.textContent = t("copied"); } },
          t("copy_invite")));
      } else if (s.kind === "human" && s.claimed && !s.connected && this.you !== null && s.seat !== this.you && this.status === "active") {
        li.append(h("button.small", { type: "button", title: t("takeover_help"),
          onclick: () => this.conn.send({ type: "takeover", seat: s.seat }) }, t("takeover")));
      }
      list.append(li);
    }
    box.append(list);
    return box;
  }

  logBox(ctx, game) {
    const details = h("details.logbox", { open: window.innerWidth > 820 ? true : null },
      h("summary", null, t("match.move_log"), h("span.muted", null, ` (${this.log.length})`)));
    const shown = this.log.slice(-300);
    // numbered by the move's own number, with room for its digits
    const last = shown.length ? shown[shown.length - 1].seq : 0;
    const list = h("ol.log-list", { "data-history": "log", start: shown.length ? shown[0].seq : null,
      style: { "--digits": String(String(last).length) } });
    const recent = new Set(ctx.recent.map((e) => e.seq));
    for (const e of shown) {
      list.append(h("li", { class: recent.has(e.seq) ? "is-recent" : "", "data-seq": e.seq },
        h("span.who", null, this.seatName(e.seat)), " ", game.describe(e, ctx)));
    }
    details.append(list);
    return details;
  }

  openModal(modal) {
    this.modal = modal;
    this.render();
  }

  /** The AI level to offer for this seat: the strongest AI already in the match, else medium. */
  matchLevel() {
    const order = this.agentsOfGame();
    const here = this.match.seats.filter((s) => s.kind === "ai").map((s) => s.agent);
    const best = here.sort((a, b) => order.indexOf(b) - order.indexOf(a))[0];
    return best || "medium";
  }

  /** The game's AI levels, weakest first (GET /api/games). */
  agentsOfGame() {
    const g = (this.games || []).find((x) => x.name === this.match.game);
    return g ? g.agents : ["random", "easy", "heuristic", "medium", "hard"];
  }

  leaveDialog(close) {
    const select = h("select#leave-agent", {
      "aria-describedby": "leave-agent-help",
      onchange: (e) => { this.modal.agent = e.target.value; this.render(); },
    }, this.agentsOfGame().map((a) => h("option", { value: a, selected: a === this.modal.agent ? true : null }, agentLabel(a))));
    const body = h("div", null, h("p", null, t("leave_confirm")),
      h("label.field", null, h("span", null, t("leave_level")), select),
      h("p.muted.small#leave-agent-help", null, agentHelp(this.modal.agent)));
    const go = () => {
      this.conn.send({ type: "leave", agent: this.modal.agent });
      close();
    };
    return [t("leave_title"), body, [
      h("button#leave-cancel", { type: "button", onclick: close }, t("cancel")),
      h("button.primary#leave-go", { type: "button", onclick: go }, t("leave_go"))]];
  }

  /** A dialog in which Tab and Shift+Tab stay (dialogs.js). */
  dialog(title, ...children) {
    return dialogBox(title, ...children);
  }

  modalBox(ctx, game) {
    const close = () => {
      if (this.modal && this.modal.kind === "round") this.closeRounds(this.modal.index + 1);
      this.modal = null;
      this.render();
    };
    let title;
    let body;
    if (this.modal.kind === "leave" || this.modal.kind === "resign") {
      const ask = this.modal.kind === "leave" ? this.leaveDialog(close) : resignDialog(this, close);
      const [leaveTitle, leaveBody, buttons] = ask;
      const dialog = this.dialog(leaveTitle, leaveBody, h("div.actions", null, buttons));
      return h("div.backdrop", { onclick: (e) => { if (e.target === e.currentTarget) close(); } }, dialog);
    }
    if (this.modal.kind === "round") {
      title = t("match.round_over", { n: this.modal.index + 1 });
      body = game.roundSummary(ctx, this.modal.index);
    } else if (this.modal.kind === "match") {
      title = t("match.over");
      const ending = endingVerdict(this);
      body = ending ? h("div.summary", null, h("p.verdict", null, ending), game.scoresTable(ctx)) : game.matchSummary(ctx);
    } else {
      title = t("scores");
      body = game.scoresTable(ctx);
    }
    const dialog = this.dialog(title, body,
      h("div.actions", null,
        this.modal.kind === "match" ? h("a.button", { href: "/" }, t("back_to_lobby")) : null,
        this.modal.kind === "match" ? h("a.button#modal-replay", { href: this.replayHref() }, "▶ ", t("open_replay")) : null,
        this.modal.kind === "match" ? reviewLink("modal-review", this.id, this.you) : null,
        h("button.primary#close-modal", { type: "button", onclick: close }, t(this.modal.kind === "round" ? "continue" : "close"))));
    return h("div.backdrop", { onclick: (e) => { if (e.target === e.currentTarget) close(); } }, dialog);
  }

  replayHref() {
    return `/replay/${encodeURIComponent(this.id)}${this.you === null ? "" : `?seat=${this.you}`}`;
  }

  /** The finished match's replay (from this seat's point of view) and its record. */
  replayTools() {
    const out = [h("a.button#open-replay", { href: this.replayHref() }, "▶ ", t("replay")), reviewLink("open-review", this.id, this.you)];
    if (this.you !== null && this.token) {
      out.push(h("button#export", {
        type: "button", title: t("export_help"),
        onclick: () => downloadRecord(this.id, this.token).catch((err) => this.showToast(t("export_failed", { why: err.message }))),
      }, "⤓ ", t("export_record")));
    }
    return out;
  }

  /** A spectator takes an open seat (POST /api/matches/{id}/join) and plays from it. */
  async takeSeat(seat) {
    try {
      const r = await api("POST", `/api/matches/${encodeURIComponent(this.id)}/join`, { seat, name: getName() || t("player") });
      saveMatch(this.id, { game: r.info.game });
      saveSeat(this.id, r.token, r.seat);
      history.replaceState(null, "", `${location.pathname}?seat=${r.seat}`);
      this.token = r.token;
      this.mine = myMatch(this.id);
      this.conn.close();
      // the public view shown so far is not this seat's: wait for the seat's own state
      this.you = null;
      this.view = null;
      this.match = null;
      this.legal = [];
      this.refused = [];
      this.log = [];
      this.fatal = null;
      this.connect();
    } catch (err) {
      this.showToast(t("join_failed", { why: err.message }));
      this.render();
    }
  }

  joinForm() {
    const go = () => {
      setName(document.getElementById("join-name").value || t("player"));
      this.connect();
    };
    const input = h("input#join-name", {
      type: "text", maxlength: 40, placeholder: t("name_placeholder"), autocomplete: "nickname",
      onkeydown: (e) => { if (e.key === "Enter") go(); },
    });
    if (!this.joinFocused) { // the field takes the focus once, when the form first shows
      this.joinFocused = true;
      setTimeout(() => { const f = document.getElementById("join-name"); if (f) f.focus(); }, 0);
    }
    return h("main.lobby", null, h("section.panel.join", null, ...this.inviteFacts(),
      h("label.field", null, h("span", null, t("your_name")), input),
      h("div.actions", null, h("button.primary#join", { type: "button", onclick: go }, t("join")))));
  }

  /** The join page's heading: the game, who invites, which seat, the options, who else plays. */
  inviteFacts() {
    const inv = this.invite;
    if (!inv) return [h("h2", null, t("join_title"))];
    const info = inv.info;
    const host = info.seats.find((s) => s.seat !== inv.seat && givenName(s));
    const g = (this.games || []).find((x) => x.name === info.game);
    const others = info.seats.filter((s) => s.seat !== inv.seat).map((s) => (s.kind === "ai"
      ? `${t("ai")} (${agentLabel(s.agent)})` : givenName(s) || t("join_seat_of", { n: s.seat + 1 })));
    return [
      h("h2#join-heading", null, t("join_game_title", { game: gameTitle(info.game) })),
      host ? h("p.join-host", null, t("join_invited_by", { name: host.name })) : null,
      h("p.join-seat", null, t("join_your_seat", { seat: t("join_seat_of", { n: inv.seat + 1 }) })),
      g ? h("p.join-options.muted", null, t("join_options"), " ", optionsSummary(g.description, info.config)) : null,
      h("p.join-players.muted", null, t("join_players"), " ", others.join(", ")),
    ];
  }

  fatalPanel() {
    const code = this.fatal.code;
    const panel = h("section.panel.fatal", { role: "alert" }, h("h2", null, t(`fatal_${code}`) || code),
      h("p", null, this.fatal.message || ""));
    const actions = h("div.actions", null, h("a.button", { href: "/" }, t("back_to_lobby")));
    if (code === "auth_failed") {
      actions.append(h("button", { type: "button", onclick: () => { this.fatal = null; this.connect(true); } }, t("watch")));
    }
    panel.append(actions);
    return h("main.lobby", null, panel);
  }
}
