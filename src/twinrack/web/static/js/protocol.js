// The table channel (docs/protocol.md): one WebSocket, reconnected with backoff on drop.

/** The version of the table protocol this page speaks (the server refuses another). */
export const PROTOCOL = 2;

/** A fresh message id. crypto.randomUUID needs a secure context (https or localhost); a page
 * served over plain http on a LAN falls back to getRandomValues, which is always there. */
export function newMsgId() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") {
    try {
      return crypto.randomUUID();
    } catch (_) { /* not a secure context */ }
  }
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Close codes after which reconnecting cannot help (no such table, bad token, a page of
 * another protocol version), and the errors that come before them. */
const FINAL_CODES = new Set([4403, 4404, 4426]);
const FINAL_ERRORS = new Set(["no_table", "bad_token", "protocol_version"]);

export class TableSocket {
  /**
   * @param {string} game
   * @param {string} token  ("" to spectate)
   * @param {{onMessage: Function, onStatus: Function, worker?: string}} handlers
   *   onStatus(status, detail): "connecting" | "open" | "reconnecting" | "closed";
   *   worker: in a cluster, the worker that runs the table (the page learnt it from the
   *   server): the proxy takes the socket straight to it (docs/deploy.md)
   */
  constructor(game, token, handlers) {
    this.game = game;
    this.token = token;
    this.handlers = handlers;
    this.worker = handlers.worker || "";
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.final = null;
    this.asking = false; // asking which worker runs the table, before reconnecting
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const w = this.worker ? `&w=${encodeURIComponent(this.worker)}` : "";
    const q = `?protocol=${PROTOCOL}${this.token ? `&token=${encodeURIComponent(this.token)}` : ""}${w}`;
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.game)}${q}`;
  }

  connect() {
    if (this.stopped) return;
    this.handlers.onStatus(this.attempt ? "reconnecting" : "connecting");
    if (this.attempt && this.worker) {
      // the table may have moved to another worker (a takeover, a drain): ask which one
      // runs it now; the old address still works (the proxy falls back to any worker)
      fetch(`/api/games/${encodeURIComponent(this.game)}/worker`, { cache: "no-store" })
        .then((r) => (r.ok ? r.json() : null))
        .then((j) => { if (j && "worker" in j) this.worker = j.worker || ""; })
        .catch(() => {})
        .finally(() => { this.asking = false; this.dial(); });
      this.asking = true;
      return;
    }
    this.dial();
  }

  dial() {
    if (this.stopped) return;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (_) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.handlers.onStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.sendRaw({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      if (msg && msg.type === "error" && FINAL_ERRORS.has(msg.code)) {
        this.final = msg;
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (FINAL_CODES.has(ev.code) || this.final) {
        this.stopped = true;
        this.handlers.onStatus("closed", this.final);
        return;
      }
      this.retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  retry() {
    if (this.stopped) return;
    this.attempt += 1;
    // 0.5 s, 1 s, 2 s, 4 s, ... at most 15 s, with some jitter so that a restarted
    // server is not hit by every browser at the same instant
    const base = Math.min(15000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    const delay = base * (0.75 + Math.random() * 0.5);
    this.handlers.onStatus("reconnecting", { delay, attempt: this.attempt });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Reconnect at once (a "retry now" button, or the page becoming visible again). */
  nudge() {
    if (this.stopped || this.asking || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.connect();
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  sendRaw(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  /** Send one action: returns its msg_id, or null when the socket is down. */
  sendAction(action, version) {
    const msg_id = newMsgId();
    return this.sendRaw({ type: "action", version, msg_id, action }) ? msg_id : null;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
