// Who plays each seat (server/table/presence.py), as notices above the table: the waiting room
// (the host's Start), absent players' countdowns (the host may hand a seat to the computer
// at once), this seat's turn timer, "pass unless the claim helps my plan" and the rematch
// offer. Everything shown comes from the state and players messages (docs/protocol.md).
import { html, useEffect, useState } from "/static/vendor/preact-htm.js";
import { CSRF } from "../csrf.js";

/** A clock ticking every half second while `on`. */
function useTick(on) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!on) return undefined;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

const seconds = (at, now) => Math.max(0, Math.ceil((at - now) / 1000));

/** The players with this browser's times for their countdowns (the takeover's is made by
 * socket.js; the turn timer's here, from when the message came). */
function useTurnTimes(players) {
  const [times, setTimes] = useState({});
  useEffect(() => {
    const now = Date.now();
    const out = {};
    for (const p of players || []) {
      if (p.turn_ms !== null && p.turn_ms !== undefined) out[p.seat] = now + p.turn_ms;
    }
    setTimes(out);
  }, [players]);
  return times;
}

function HandOver({ player, raw }) {
  return html`<button type="button" class="small" id=${`hand-over-${player.seat}`}
    onClick=${() => raw({ type: "hand_over", seat: player.seat })}>Let the computer play
    for ${player.name} now</button>`;
}

function WaitingRoom({ msg, players, raw }) {
  const people = players.filter((p) => p.kind === "human");
  const absent = people.filter((p) => !p.connected && !p.bot_playing);
  return html`<section class="banner notice info presence" id="waiting-room" role="status">
    <strong>Waiting for everyone.</strong> The game starts once every player is at the table
    ${msg.host ? " or when you press Start" : ", or when the host starts it"}.
    <ul class="waiting-list">${people.map((p) => html`<li data-seat=${p.seat}>${`${p.name}: ${
      p.connected ? "here" : p.bot_playing ? "played by the computer" : "not here yet"}`}
      ${msg.host && !p.connected && !p.bot_playing && html` <${HandOver} player=${p} raw=${raw} />`}</li>`)}
    </ul>
    ${msg.host && html`<button type="button" class="primary" id="start-game"
      onClick=${() => raw({ type: "start" })}>Start${absent.length
        ? ` (the computer plays for ${absent.map((p) => p.name).join(", ")} until they come)`
        : ""}</button>`}
  </section>`;
}

function Absent({ msg, players, now, raw }) {
  const waiting = players.filter((p) => p.kind === "human" && !p.connected && !p.bot_playing
    && p.takeover_at !== null && p.takeover_at !== undefined);
  if (!waiting.length) return null;
  return html`<section class="banner notice info presence" id="absent-seats" role="status">
    ${waiting.map((p) => html`<p class="takeover-notice" data-seat=${p.seat}>
      ${`${p.name} is not at the table: the computer plays for them in `}
      <span role="timer">${`${seconds(p.takeover_at, now)} s`}</span>${", until they come back."}
      ${msg.host && html` <${HandOver} player=${p} raw=${raw} />`}</p>`)}
  </section>`;
}

function TurnTimer({ at, now }) {
  if (!at) return null;
  return html`<p class="banner notice info presence" id="turn-timer" role="timer">
    ${`Your move: ${seconds(at, now)} s left, then the computer makes this move for you.`}</p>`;
}

function ClaimCheck({ check }) {
  if (!check || check.result !== "pass") return null;
  return html`<p class="banner notice info presence" id="claim-check" role="status">
    ${`Passing for you when the call timer runs out: ${check.reason
      || "this claim does not help your plan"}. You may still claim it below.`}</p>`;
}

function AutoPass({ msg, raw }) {
  if (msg.auto_pass === null || msg.auto_pass === undefined || msg.view.players < 3
      || msg.view.phase === "over") return null;
  return html`<label class="check presence-setting" id="auto-pass-setting">
    <input type="checkbox" id="auto-pass" checked=${!!msg.auto_pass}
      onChange=${(e) => raw({ type: "auto_pass", on: e.target.checked })} />
    Pass for me unless the claim helps my plan</label>`;
}

function RematchNotice({ msg, game, token }) {
  if (!msg.rematch || msg.seat === null || msg.seat === undefined) return null;
  return html`<form method="post" action=${`/t/${encodeURIComponent(game)}/rematch`}
      class="banner notice info presence" id="rematch-notice" role="status">
    <input type="hidden" name="token" value=${token} />
    <input type="hidden" name="csrf" value=${CSRF} />
    <strong>A rematch is ready:</strong> the same seats, a new shuffle.
    <button type="submit" class="primary small" id="rematch-notice-join">Join the rematch</button>
  </form>`;
}

export function SeatsPanel({ msg, players, raw, game, token }) {
  const list = players || [];
  const turns = useTurnTimes(players);
  const mine = msg.seat !== null && msg.seat !== undefined ? turns[msg.seat] : null;
  const ticking = !!mine || list.some((p) => p.takeover_at);
  const now = useTick(ticking);
  return html`<div class="presence-panel" id="presence">
    ${msg.waiting ? html`<${WaitingRoom} msg=${msg} players=${list} raw=${raw} />`
      : html`<${Absent} msg=${msg} players=${list} now=${Math.max(now, Date.now())} raw=${raw} />`}
    <${TurnTimer} at=${mine} now=${Math.max(now, Date.now())} />
    <${ClaimCheck} check=${msg.claim_check} />
    <${RematchNotice} msg=${msg} game=${game} token=${token} />
    <${AutoPass} msg=${msg} raw=${raw} />
  </div>`;
}
