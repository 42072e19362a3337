// The bar over the table (variant, wall, turn, connection, the hints and keys buttons) and
// the banners under it (reconnecting, waiting for the database, a refusal).
import { html } from "/static/vendor/preact-htm.js";
import { CardButton } from "./card.js";

const STATUS = {
  open: "connected", connecting: "connecting...", reconnecting: "reconnecting...",
  closed: "disconnected",
};

export function StatusBar({ f, conn, nudge, hintsOn, toggleHints, openHelp, sound, alwaysAsk,
  setAlwaysAsk }) {
  const { v } = f;
  return html`<div class="status-bar">
    <span class="variant">${v.variant[0].toUpperCase() + v.variant.slice(1)}, ${v.revision} rules</span>
    <span>Turn ${v.turn}</span>
    ${!f.seated && html`<span class="badge">spectating</span>`}
    <span class=${`conn conn-${conn.status}`} role="status" id="conn-status">${STATUS[conn.status]}
      ${conn.status === "reconnecting" && html` <button type="button" class="link"
        onClick=${nudge}>retry now</button>`}</span>
    <span class="spacer"></span>
    ${f.seated && html`<button type="button" id="btn-hints" aria-pressed=${hintsOn ? "true" : "false"}
      aria-keyshortcuts="H" onClick=${toggleHints}>Hints: ${hintsOn ? "on" : "off"}</button>`}
    ${f.seated && !f.over && html`<button type="button" id="btn-always-ask"
      aria-pressed=${alwaysAsk ? "true" : "false"} onClick=${() => setAlwaysAsk(!alwaysAsk)}
      title="Off: when you cannot claim a discard, the page passes for you at once. On: you are asked every time, so the others cannot tell when you could have claimed.">
      Always ask: ${alwaysAsk ? "on" : "off"}</button>`}
    <${CardButton} />
    <button type="button" id="btn-sound" aria-pressed=${sound.on ? "true" : "false"}
      onClick=${sound.toggle}>Sound: ${sound.on ? "on" : "off"}</button>
    <button type="button" id="btn-help" aria-keyshortcuts="?" onClick=${openHelp}>
      Keys <span aria-hidden="true">(?)</span></button>
  </div>`;
}

/** What the connection's status says before there is a table to show. */
export function connWords(conn) {
  if (conn.status === "closed") return (conn.detail && conn.detail.message) || "The table is closed.";
  return conn.status === "reconnecting" ? "reconnecting..." : "Connecting to the table...";
}

export function Banners({ conn, paused, notice, dismiss }) {
  return html`
    ${conn.status !== "open" && html`<div class="banner reconnecting" role="status">
      ${conn.status === "closed" ? (conn.detail && conn.detail.message) || "The connection is closed."
        : "reconnecting..."}</div>`}
    ${paused && html`<div class="banner reconnecting" role="status" id="paused">
      The table is waiting for its database; play goes on by itself as soon as it answers.</div>`}
    ${notice && html`<div class=${`banner notice ${notice.kind}`} role="alert">
      ${notice.text} <button type="button" class="link" aria-label="dismiss the message"
        onClick=${dismiss}>\u00d7</button></div>`}`;
}
