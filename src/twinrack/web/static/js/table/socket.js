// The table channel as a hook: the latest state, the log, the connection's status, the
// command in flight; reconnects (protocol.js) and resyncs (every connection starts with a
// full state), and sends again an action refused while the table waited for its database.
import { useEffect, useRef, useState } from "/static/vendor/preact-htm.js";
import { PROTOCOL, TableSocket } from "../protocol.js";

const STALE = "The table moved on before your action arrived: here is the current state.";
const OUT_OF_DATE = "This page is out of date: load it again.";

/** The log after a state: the lines it brings, from `log_start` on. */
function mergeLog(prev, m) {
  const start = m.log_start || 0;
  return (start === 0 ? [] : prev.slice(0, start)).concat(m.log || []);
}

/** The players, each takeover countdown turned into a time by this browser's clock. */
function withTimes(players) {
  const now = Date.now();
  return (players || []).map((p) => ({ ...p, takeover_at: p.takeover_ms === null
    || p.takeover_ms === undefined ? null : now + p.takeover_ms }));
}

const ASK_KEY = "twinrack.always_ask";

function askStored() {
  try { return window.localStorage.getItem(ASK_KEY) === "on"; } catch (_e) { return false; }
}

function onState(t, m) {
  if (m.protocol !== PROTOCOL) {
    t.setConn({ status: "closed", detail: { message: OUT_OF_DATE } });
    t.sock.current.close();
    return;
  }
  m.deadline_at = m.deadline_ms === null || m.deadline_ms === undefined ? null
    : Date.now() + m.deadline_ms;
  t.setMsg(m);
  t.setPlayers(withTimes(m.players));
  t.setLog((prev) => mergeLog(prev, m));
  t.setPending((p) => (p && m.version > p.version ? null : p));
  // an action refused while the table waited for its database goes again, with the same
  // msg_id (the server applies it once), as soon as the table plays on
  const again = t.retry.current;
  if (again && !m.paused) {
    t.retry.current = null;
    if (m.version === again.version && t.sock.current.sendRaw({ type: "action",
      version: again.version, msg_id: again.msgId, action: again.action.text })) {
      t.setPending(again);
    }
  }
}

function onError(t, m) {
  if (m.retryable) {
    t.setPending((p) => {
      if (p && p.msgId === m.msg_id) t.retry.current = p;
      return null;
    });
    return;
  }
  t.setPending(null);
  const stale = m.code === "stale_version";
  t.setNotice({ kind: stale ? "info" : "error", text: stale ? STALE : m.message || m.code });
}

/** Whether a message is the chat panel's (chat.js): lines, the quiet switch, its errors. */
function forChat(m) {
  return m.type === "chat" || m.type === "chat_quiet" || (m.type === "error"
    && typeof m.msg_id === "string" && m.msg_id.startsWith("chat-"));
}

function onMessage(t, m) {
  if (forChat(m)) { if (t.chat.current) t.chat.current(m); } else if (m.type === "state") onState(t, m);
  else if (m.type === "players") t.setPlayers(withTimes(m.players));
  else if (m.type === "ack") t.setPending((p) => (p && p.msgId === m.msg_id ? null : p));
  else if (m.type === "hints") {
    t.setMsg((prev) => (prev && prev.version === m.version ? { ...prev, hints: m.hints } : prev));
  } else if (m.type === "error") onError(t, m);
}

/** Open the socket for the life of the page; `t` holds the setters and refs. */
function connect(t, game, token, worker) {
  const s = new TableSocket(game, token, {
    worker,
    onMessage: (m) => onMessage(t, m),
    onStatus(status, detail) {
      t.setConn({ status, detail });
      if (status === "open") {
        t.setPending(null);
        // hints are off on the server until asked for (they cost it some work)
        s.sendRaw({ type: "hints", on: t.hints.current });
        // "always ask": keep claim windows open even when passing is all one may do
        if (askStored()) s.sendRaw({ type: "always_ask", on: true });
        // the lines said while this page was away (chat.js)
        if (t.chat.current) t.chat.current({ type: "reconnected" });
      }
    },
  });
  t.sock.current = s;
  window.__twinrack = { socket: s }; // a handle for tests and debugging
  s.connect();
  const wake = () => { if (document.visibilityState === "visible") s.nudge(); };
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
  return () => {
    document.removeEventListener("visibilitychange", wake);
    window.removeEventListener("online", wake);
    s.close();
  };
}

export function useTableSocket(game, token, hintsOn, worker = "") {
  const [msg, setMsg] = useState(null);
  const [players, setPlayers] = useState(null);
  const [log, setLog] = useState([]);
  const [conn, setConn] = useState({ status: "connecting" });
  const [notice, setNotice] = useState(null);
  const [pending, setPending] = useState(null); // {msgId, version, action}
  const sock = useRef(null);
  const retry = useRef(null); // an action to send again once the table plays on
  const hints = useRef(hintsOn);
  hints.current = hintsOn;
  const chat = useRef(null); // the chat panel's handler of its messages (chat.js)
  const t = { setMsg, setPlayers, setLog, setConn, setNotice, setPending, sock, retry, hints, chat };
  useEffect(() => connect(t, game, token, worker), []);
  // a command that got no answer (lost connection) must not block the buttons for ever
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(() => setPending(null), 8000);
    return () => clearTimeout(timer);
  }, [pending]);

  function send(action) {
    if (!action || pending || !sock.current || !msg) return;
    const msgId = sock.current.sendAction(action.text, msg.version);
    if (msgId) {
      setPending({ msgId, version: msg.version, action });
      setNotice(null);
    } else {
      setNotice({ kind: "error", text: "Not connected: the action was not sent." });
    }
  }
  const raw = (obj) => sock.current && sock.current.sendRaw(obj);
  const nudge = () => sock.current && sock.current.nudge();
  const setAlwaysAsk = (on) => {
    try { window.localStorage.setItem(ASK_KEY, on ? "on" : "off"); } catch (_e) { /* private */ }
    raw({ type: "always_ask", on });
  };
  return { msg, players, log, conn, notice, setNotice, pending, send, raw, nudge, setAlwaysAsk, chat };
}
