// A chat panel (docs/protocol.md, "Chat") for any page: the table mounts it on its
// WebSocket, the room on a named channel over HTTP. Every line is shown as text
// (textContent), never as HTML. Mutes are kept in this browser and, for a signed-in
// player, on the server too; each line of another sender has Mute and Report buttons.
import { csrfHeaders } from "./csrf.js";

const MUTES_KEY = "twinrack.chat.mutes";
const WORDS = {
  chat_too_long: "That line is too long: shorten it (at most 200 characters).",
  chat_rate_limited: "You are sending lines too fast: wait a moment.",
  chat_quiet: "This is a quiet table: only the fixed phrases may be said.",
  chat_empty: "There is nothing to send.",
  chat_bad_text: "A chat line is one line of plain text.",
  storage_unavailable: "The line could not be stored: send it again in a moment.",
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function loadMutes() {
  try { return JSON.parse(window.localStorage.getItem(MUTES_KEY) || "{}") || {}; } catch (_e) { return {}; }
}

function storeMutes(all) {
  try { window.localStorage.setItem(MUTES_KEY, JSON.stringify(all)); } catch (_e) { /* private */ }
}

async function postJSON(url, body) {
  const r = await fetch(url, { method: "POST", headers: csrfHeaders({ "Content-Type": "application/json" }),
    body: JSON.stringify(body), credentials: "same-origin" });
  let data = {};
  try { data = await r.json(); } catch (_e) { /* not JSON */ }
  return { ok: r.ok, data };
}

/** The panel's elements, built once. */
function build(root) {
  root.textContent = "";
  const box = el("section", "chat");
  box.setAttribute("aria-label", "Chat");
  const title = el("h2", "chat-title", "Chat");
  const list = el("ol", "chat-lines");
  list.setAttribute("aria-live", "polite");
  const muted = el("p", "chat-muted-note");
  muted.hidden = true;
  const error = el("p", "chat-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  const form = el("form", "chat-form");
  const input = el("input", "chat-input");
  input.type = "text";
  input.setAttribute("aria-label", "Chat message");
  input.placeholder = "Say something";
  const sendBtn = el("button", "chat-send", "Send");
  sendBtn.type = "submit";
  form.append(input, sendBtn);
  const phrases = el("div", "chat-phrases");
  phrases.hidden = true;
  const quietLabel = el("label", "chat-quiet-host");
  const quietBox = el("input");
  quietBox.type = "checkbox";
  quietLabel.append(quietBox, " Quiet table (only the fixed phrases)");
  quietLabel.hidden = true;
  box.append(title, list, muted, error, form, phrases, quietLabel);
  root.append(box);
  return { box, title, list, muted, error, form, input, phrases, quietLabel, quietBox };
}

export class ChatPanel {
  /** `opts`: channel, linesUrl, token (a seat's, for reports), say(text, msgId) (else a
   * POST to linesUrl), setQuiet(on) (the table's host), poll (ms, for HTTP channels). */
  constructor(root, opts) {
    this.opts = opts;
    this.ui = build(root);
    this.lines = new Map();
    this.lastId = 0;
    this.me = null;
    this.quiet = false;
    this.phraseList = [];
    this.mutes = new Set((loadMutes()[opts.channel]) || []);
    this.signedIn = false;
    this.n = 0;
    this.ui.form.addEventListener("submit", (ev) => { ev.preventDefault(); this.send(this.ui.input.value); });
    this.ui.quietBox.addEventListener("change", () => this.opts.setQuiet && this.opts.setQuiet(this.ui.quietBox.checked));
    this.load(true);
    this.loadMutes();
    if (opts.poll) this.timer = setInterval(() => this.load(false), opts.poll);
  }

  destroy() { if (this.timer) clearInterval(this.timer); }

  async load(whole) {
    const after = whole ? 0 : this.lastId;
    const sep = this.opts.linesUrl.includes("?") ? "&" : "?";
    let data;
    try {
      const r = await fetch(`${this.opts.linesUrl}${sep}after=${after}`, { credentials: "same-origin" });
      if (!r.ok) return;
      data = await r.json();
    } catch (_e) { return; }
    if (whole) { this.lines.clear(); this.ui.list.textContent = ""; this.lastId = 0; }
    this.me = data.me;
    this.phraseList = data.phrases || [];
    this.setTitle(data);
    this.setQuiet(!!data.quiet, !!data.host);
    for (const line of data.lines) this.add(line);
  }

  async loadMutes() {
    try {
      const r = await fetch(`/api/chat/mutes?channel=${encodeURIComponent(this.opts.channel)}`,
        { credentials: "same-origin" });
      const data = await r.json();
      this.signedIn = !!data.signed_in;
      for (const k of data.mutes || []) this.mutes.add(k);
    } catch (_e) { return; }
    this.refresh();
  }

  setTitle(data) {
    const during = data.over === false;
    this.ui.title.textContent = !during ? "Chat"
      : (data.seat === null || data.seat === undefined ? "Spectators' chat" : "Players' chat");
    this.ui.box.dataset.audience = !during ? "all" : (data.seat === null ? "spectators" : "players");
  }

  /** A message of the table's channel (or anything this panel was handed). */
  receive(m) {
    if (m.type === "chat") this.add(m.line);
    else if (m.type === "chat_quiet") this.setQuiet(m.on, this.host);
    else if (m.type === "error") this.showError(WORDS[m.code] || m.message || m.code);
    else if (m.type === "reconnected") this.load(false);
  }

  setQuiet(on, host) {
    this.quiet = on;
    this.host = host;
    this.ui.box.dataset.quiet = on ? "true" : "false";
    this.ui.form.hidden = on;
    this.ui.phrases.hidden = !on;
    this.ui.quietLabel.hidden = !host;
    this.ui.quietBox.checked = on;
    if (on && !this.ui.phrases.childElementCount) {
      for (const p of this.phraseList) {
        const b = el("button", "chat-phrase", p);
        b.type = "button";
        b.addEventListener("click", () => this.send(p));
        this.ui.phrases.append(b);
      }
    }
  }

  showError(text) {
    this.ui.error.textContent = text;
    this.ui.error.hidden = !text;
  }

  async send(text) {
    if (!text.trim()) return;
    this.showError("");
    this.n += 1;
    if (this.opts.say) {
      if (this.opts.say(text, `chat-${this.n}`)) this.ui.input.value = "";
      else this.showError("Not connected: the line was not sent.");
      return;
    }
    const { ok, data } = await postJSON(this.opts.linesUrl, { text });
    if (!ok) { this.showError(WORDS[data.code] || data.error || "The line was not sent."); return; }
    this.ui.input.value = "";
    this.add(data.line);
  }

  add(line) {
    if (this.lines.has(line.id)) return;
    this.lastId = Math.max(this.lastId, line.id);
    const li = el("li", "chat-line");
    li.dataset.id = String(line.id);
    li.dataset.key = line.key;
    li.append(el("span", "chat-from", line.from), el("span", "chat-text", line.text));
    if (line.key !== this.me) {
      const mute = el("button", "chat-mute", "Mute");
      mute.type = "button";
      mute.title = `Hide every line of ${line.from}`;
      mute.addEventListener("click", () => this.mute(line.key, true));
      const report = el("button", "chat-report", "Report");
      report.type = "button";
      report.title = "Report this line to the site's operator";
      report.addEventListener("click", () => this.report(line.id, report));
      li.append(mute, report);
    }
    this.lines.set(line.id, { line, li });
    const ids = [...this.lines.keys()].sort((a, b) => a - b);
    const next = ids.find((i) => i > line.id);
    this.ui.list.insertBefore(li, next === undefined ? null : this.lines.get(next).li);
    this.refresh();
    this.ui.list.scrollTop = this.ui.list.scrollHeight;
  }

  async mute(key, on) {
    if (on) this.mutes.add(key); else this.mutes.delete(key);
    const all = loadMutes();
    all[this.opts.channel] = [...this.mutes];
    storeMutes(all);
    this.refresh();
    if (this.signedIn) await postJSON("/api/chat/mutes", { channel: this.opts.channel, key, on });
  }

  refresh() {
    const hiddenBy = new Map();
    for (const { line, li } of this.lines.values()) {
      li.hidden = this.mutes.has(line.key);
      if (li.hidden) hiddenBy.set(line.key, line.from);
    }
    const note = this.ui.muted;
    note.textContent = "";
    note.hidden = this.mutes.size === 0;
    if (note.hidden) return;
    note.append(`Muted: `);
    for (const key of this.mutes) {
      const b = el("button", "chat-unmute", `Unmute ${hiddenBy.get(key) || key}`);
      b.type = "button";
      b.addEventListener("click", () => this.mute(key, false));
      note.append(b, " ");
    }
  }

  async report(id, button) {
    button.disabled = true;
    const { ok, data } = await postJSON("/api/chat/report", { line: id, token: this.opts.token || "" });
    button.textContent = ok ? "Reported" : "Report";
    button.disabled = ok;
    if (!ok) this.showError(data.error || "The report was not sent.");
  }
}

/** A panel on a named channel over HTTP (the room): its lines polled every few seconds. */
export function mountChannel(root, name, poll = 3000) {
  return new ChatPanel(root, { channel: name, linesUrl: `/api/chat/c/${encodeURIComponent(name)}/lines`, poll });
}
