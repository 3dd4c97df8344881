// The live connection of a table: one WebSocket to /ws speaking protocol v1
// (docs/server-protocol.md), reconnecting with back-off and resynchronising on gaps.

const FATAL = new Set(["unsupported_version", "no_such_match", "auth_failed", "spectators_disallowed", "corrupt"]);
const RESYNC = new Set(["stale", "duplicate"]);

export class Connection {
  /**
   * @param {string} matchId
   * @param {string|null} token  seat token, or null to spectate
   * @param {string} name        display name sent with hello
   * @param {(msg: object) => void} onMessage  every server message, in order
   * @param {(status: string, detail?: object) => void} onStatus  "connecting" | "open" | "closed" | "fatal"
   */
  constructor(matchId, token, name, onMessage, onStatus) {
    this.matchId = matchId;
    this.token = token;
    this.name = name;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.seq = -1;
    this.nextId = 1;
    this.pendingMove = null; // id of the move awaiting its ack/error
    this.stopped = false;
    this.retry = 0;
    this.pingTimer = null;
  }

  open() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // ?match= lets a proxy route by match id (docs/scaling.md); the server reads the hello
    const ws = new WebSocket(`${proto}//${location.host}/ws?match=${encodeURIComponent(this.matchId)}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.retry = 0;
      const hello = { type: "hello", v: 1, match: this.matchId, token: this.token || null };
      if (this.name) hello.name = this.name;
      ws.send(JSON.stringify(hello));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.pendingMove = null;
      if (this.stopped) return;
      this.onStatus("closed");
      const delay = Math.min(8000, 400 * 2 ** this.retry++);
      setTimeout(() => this.open(), delay);
    };
  }

  handle(msg) {
    switch (msg.type) {
      case "welcome":
        // claiming a seat by its invite link gives this player a fresh token of their own
        // (revision 3): reconnect with it, the invite's token no longer works
        if (typeof msg.token === "string" && msg.token) this.token = msg.token;
        this.onStatus("open", msg);
        break;
      case "state":
        this.seq = msg.seq;
        this.pendingMove = null;
        break;
      case "update":
        if (this.seq >= 0 && msg.seq !== this.seq + 1) {
          if (msg.seq > this.seq + 1) this.sync(); // a gap: ask for the full state
          return; // an old or out-of-order update is dropped
        }
        this.seq = msg.seq;
        break;
      case "ack":
        if (msg.id === this.pendingMove) this.pendingMove = null;
        break;
      case "error":
        if (msg.id !== undefined && msg.id === this.pendingMove) this.pendingMove = null;
        if (RESYNC.has(msg.code)) this.sync();
        if (FATAL.has(msg.code)) {
          this.stopped = true;
          this.onStatus("fatal", msg);
        }
        break;
      default:
        break;
    }
    this.onMessage(msg);
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = msg.id ?? `c${this.nextId++}`;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  /** Send a move (an action id of `legal`) for the current seq; ignored while one is in flight. */
  move(action) {
    if (this.pendingMove !== null) return false;
    const id = this.send({ type: "move", seq: this.seq, action });
    if (id === null) return false;
    this.pendingMove = id;
    return true;
  }

  sync() {
    this.send({ type: "sync" });
  }

  close() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
