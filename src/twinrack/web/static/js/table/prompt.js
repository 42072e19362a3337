// What the player is asked to do now, and the claim countdown.
import { html, useEffect, useState } from "/static/vendor/preact-htm.js";
import { charlestonPrompt } from "./charleston.js";
import { seatTitle as seatName } from "./seats.js";
import { Tile, tileLabel } from "../tiles.js";

function turnPrompt(v) {
  if (v.must === "expose" && v.claim) {
    return `You took ${tileLabel(v.claim.tile)}: expose a group with it (choose below)` +
      (v.verbs.includes("withdraw") ? ", or withdraw the claim." : ".");
  }
  if ((v.must === "mahjongg" || v.must === "double") && v.claim) {
    return `You took ${tileLabel(v.claim.tile)} for Mah Jongg: declare it (choose below).`;
  }
  if (v.must === "error") {
    return "Your Mah Jongg claim was in error: expose the group the discard completes, or withdraw the claim.";
  }
  return "Your turn: select a tile, then Discard (or press D).";
}

/** The prompt's words for the seat `f` (the facts of app.js: view, seat, names). */
export function promptText(f) {
  const { v, me, names } = f;
  const others = v.to_act.filter((s) => s !== me).map((s) => seatName(names, s)).join(", ");
  if (f.over) return "The game is over.";
  if (v.phase === "charleston") return charlestonPrompt(f);
  if (v.phase === "declare") {
    return f.iAnswer ? "Declaration round: declare a special hand now, or pass."
      : `Waiting for ${others} to declare or pass.`;
  }
  if (v.phase === "window" && v.window) {
    const who = v.window.discarder === me ? "You" : seatName(names, v.window.discarder);
    return html`<span>${who} discarded</span> <${Tile} t=${v.window.tile} size="s" />
      <span><strong>${tileLabel(v.window.tile)}</strong>.${f.iAnswer ? " Claim it or pass."
        : ` Waiting for ${others} to claim or pass.`}</span>`;
  }
  if (f.myTurn) return turnPrompt(v);
  return `${f.seated ? "" : "You are watching. "}${seatName(names, v.current)} is playing.`;
}

/** Time left to claim (`at`: when the call timer runs out, by this browser's clock). */
export function Countdown({ at, seconds }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [at]);
  const remaining = Math.max(0, at - Math.max(now, Date.now()));
  const total = (seconds || 10) * 1000;
  return html`<div class="countdown" role="timer" aria-label="time left to claim" id="countdown">
    <span class="countdown-text">${(remaining / 1000).toFixed(1)} s</span>
    <span class="countdown-bar" aria-hidden="true"><span style=${`width:${Math.min(100, 100 * remaining / total)}%`}></span></span>
  </div>`;
}

export function Prompt({ f, msg }) {
  const timed = msg.deadline_at !== null && msg.deadline_at !== undefined && f.v.phase === "window";
  // the words are read out when they change (aria-live); the countdown is not
  return html`<div class="prompt" id="prompt"><span class="prompt-text" aria-live="polite"
      aria-atomic="true" id="prompt-text">${promptText(f)}</span> ${timed
    && html`<${Countdown} at=${msg.deadline_at} seconds=${msg.call_seconds} />`}</div>`;
}
