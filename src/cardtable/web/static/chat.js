// The table's chat panel: lines and quick phrases (shown in the page's language),
// the message field, and mutes per seat. Lines are always inserted as text
// (textContent, through h()), never as markup.

import { h } from "./util.js";
import { t } from "./i18n.js";

/** The quick phrase keys the server accepts (cardtable.server.chat.PHRASES). */
export const PHRASES = ["hi", "gl", "gg", "wp", "thanks", "oops", "wait", "bye"];
const HISTORY = 50;
const MAX_CHARS = 300;

export class ChatPanel {
  /** `page` is the TablePage: its connection, match, seat and seat names. */
  constructor(page) {
    this.page = page;
    this.lines = [];
    this.muted = []; // seats muted (null: the spectators), as the server last said
    this.draft = "";
  }

  /** Take a message from the server; true if it was a chat one (no more to do). */
  onMessage(msg) {
    if (msg.type === "state") {
      this.lines = Array.isArray(msg.chat) ? msg.chat.slice(-HISTORY) : [];
      return false;
    }
    if (msg.type === "chat") {
      if (!this.lines.some((l) => l.seq === msg.seq)) this.lines = [...this.lines, msg].slice(-HISTORY);
      return true;
    }
    if (msg.type === "muted") {
      this.muted = Array.isArray(msg.seats) ? msg.seats : [];
      return true;
    }
    return false;
  }

  /** Whether this page gets the chat: every reader with "all", the seats with "seats". */
  reads() {
    const mode = this.page.match && this.page.match.chat;
    return mode === "all" || (mode === "seats" && this.page.you !== null);
  }

  say(fields) {
    if (this.page.conn) this.page.conn.send({ type: "chat", ...fields });
  }

  sendDraft() {
    const text = this.draft.trim();
    if (!text) return;
    this.say({ text });
    this.draft = "";
    const input = document.getElementById("chat-input");
    if (input) input.value = ""; // (the render keeps a focused field's value)
    this.page.render();
  }

  toggleMute(seat) {
    const kind = this.muted.includes(seat) ? "unmute" : "mute";
    if (this.page.conn) this.page.conn.send({ type: kind, seat });
  }

  speaker(line) {
    if (line.from === null || line.from === undefined) return t("chat_spectator");
    if (line.from === this.page.you) return t("you");
    return line.name || this.page.seatName(line.from);
  }

  /** The panel (a fresh element each render), or null for a page without chat. */
  panel() {
    if (!this.reads()) return null;
    const box = h("section.chat", { "aria-label": t("chat") }, h("h2", null, t("chat")));
    const list = h("ol.chat-list", { "aria-live": "polite" });
    for (const line of this.lines) {
      if (this.muted.includes(line.from === undefined ? null : line.from)) continue;
      const body = line.phrase !== undefined
        ? h("span.chat-text.chat-phrase", { "data-phrase": line.phrase, text: t(`phrase_${line.phrase}`) })
        : h("span.chat-text", { text: line.text });
      list.append(h("li", { "data-seq": line.seq, "data-from": line.from === null ? "" : line.from },
        h("b.chat-who", { text: `${this.speaker(line)}: ` }), body));
    }
    box.append(h("div.chat-scroll", null, list));
    const phrases = h("div.chat-phrases");
    for (const key of PHRASES) {
      phrases.append(h("button.quiet", { type: "button", "data-phrase": key, onclick: () => this.say({ phrase: key }) },
        t(`phrase_${key}`)));
    }
    const input = h("input#chat-input", {
      type: "text", maxlength: String(MAX_CHARS), autocomplete: "off", value: this.draft,
      placeholder: t("chat_placeholder"), "aria-label": t("chat_placeholder"),
      oninput: (ev) => { this.draft = ev.target.value; },
      onkeydown: (ev) => { if (ev.key === "Enter") { ev.preventDefault(); this.sendDraft(); } },
    });
    const form = h("div.chat-form", null, input,
      h("button#chat-send", { type: "button", onclick: () => this.sendDraft() }, t("chat_send")));
    box.append(phrases, form, this.muteRow());
    return box;
  }

  muteRow() {
    const row = h("div.chat-mutes");
    const others = (this.page.match.seats || []).filter((s) => s.seat !== this.page.you && s.kind === "human");
    const targets = others.map((s) => s.seat);
    if (this.page.match.chat === "all") targets.push(null);
    for (const seat of targets) {
      const muted = this.muted.includes(seat);
      const who = seat === null ? t("chat_spectators") : this.page.seatName(seat);
      row.append(h("button.quiet.chat-mute", {
        type: "button", "aria-pressed": String(muted), "data-seat": seat === null ? "" : seat,
        onclick: () => this.toggleMute(seat),
      }, t(muted ? "chat_unmute" : "chat_mute", { who })));
    }
    return row;
  }
}
