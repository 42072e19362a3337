// The American game's Charleston at the table (docs/protocol.md, the view's `charleston`):
// three tiles chosen from the hand and passed right, across or left (some of them blind on
// the last pass of each Charleston), the vote on a second Charleston, the courtesy offer
// and pass. The page only finds, among the legal actions the server sent, the one the
// player's choice makes: the rules are the engine's.
import { html, useState } from "/static/vendor/preact-htm.js";
import { seatTitle } from "./seats.js";
import { Tile, TileRow, splitTiles, tileLabel } from "../tiles.js";

const ARROWS = { right: "\u2192", across: "\u2191", left: "\u2190" };

/** The stages in order, as the engine names them (three players: no across, no courtesy). */
export function stagesOf(players) {
  if (players === 3) return ["first-right", "first-left", "vote", "second-left", "second-right"];
  return ["first-right", "first-across", "first-left", "vote", "second-left", "second-across",
    "second-right", "offer", "courtesy"];
}

function stageWords(stage) {
  if (stage === "vote") return "vote";
  if (stage === "offer") return "courtesy offer";
  if (stage === "courtesy") return "courtesy pass";
  const [which, dir] = stage.split("-");
  return `${which} ${dir}`;
}

const sameTiles = (a, b) => a.length === b.length
  && [...a].sort().every((t, i) => t === [...b].sort()[i]);

function names(f, seats) {
  return seats.map((s) => (s === f.me ? "you" : seatTitle(f.names, s))).join(", ");
}

/** Who stopped the second Charleston (or that everyone asked for it), once all voted. */
function votesWords(f, votes) {
  if (!votes || !votes.length) return null;
  const stoppers = votes.map((v, s) => [v, s]).filter(([v]) => v === "stop").map(([, s]) => s);
  if (!stoppers.length) return "Everyone voted again: the second Charleston is played.";
  return `The second Charleston was stopped by ${names(f, stoppers)}.`;
}

/** The prompt's words during the Charleston. */
export function charlestonPrompt(f) {
  const ch = f.v.charleston;
  if (!ch) return "The Charleston.";
  const waiting = f.v.to_act.filter((s) => s !== f.me);
  const others = waiting.length ? `Waiting for ${names(f, waiting)}.` : "";
  if (!f.iAnswer) return ch.mine ? `You chose: ${ch.mine}. ${others}` : `The Charleston: ${others}`;
  if (ch.kind === "charleston") {
    return `Charleston, ${stageWords(ch.stage)}: choose 3 tiles to pass ${ch.direction} ` +
      `to ${seatTitle(f.names, ch.to)}${ch.blind ? " (or pass some blind)" : ""}.`;
  }
  if (ch.kind === "vote") return "The first Charleston is over: play the second, or stop it?";
  if (ch.kind === "offer") return "Courtesy pass: how many tiles (0 to 3) would you pass across?";
  return `Courtesy pass: choose ${ch.owed} tile${ch.owed === 1 ? "" : "s"} to pass across.`;
}

/** The stages, the one under way marked. */
function Stages({ f, ch }) {
  const all = stagesOf(f.v.players);
  const at = all.indexOf(ch.stage);
  return html`<ol class="ch-stages" aria-label="The Charleston's stages">
    ${all.map((s, i) => html`<li class=${i === at ? "now" : i < at ? "done" : ""}
        aria-current=${i === at ? "step" : undefined}>
      ${ARROWS[s.split("-")[1]] || ""} ${stageWords(s)}</li>`)}
  </ol>`;
}

/** The hand as buttons: a click picks a tile to pass (or puts it back). */
function PickTiles({ hand, picked, toggle, passable, suggested, busy }) {
  return html`<div class="hand-tiles ch-hand" role="group" aria-label="Your tiles: pick the ones to pass">
    ${hand.map((t, i) => {
      const on = picked.includes(i);
      const can = passable.has(t);
      return html`<button type="button" class=${`hand-tile ch-tile ${on ? "picked" : ""} ` +
          `${suggested.has(i) ? "suggested" : ""}`} data-tile=${t} data-idx=${i}
          aria-pressed=${on ? "true" : "false"} disabled=${busy || !can}
          title=${can ? tileLabel(t) : `${tileLabel(t)}: cannot be passed`}
          onClick=${() => toggle(i)}>
        <${Tile} t=${t} size="l" />
      </button>`;
    })}
  </div>`;
}

/** Where the hint's tiles lie in the hand (the first copies of each kind). */
function hintIndexes(hand, tiles) {
  const out = new Set();
  for (const t of tiles || []) {
    const i = hand.findIndex((x, k) => x === t && !out.has(k));
    if (i >= 0) out.add(i);
  }
  return out;
}

/** A pass of the Charleston, or the courtesy pass: pick the tiles, then send. */
function PassChoice({ f, ch, legal, busy, act, hint }) {
  const [picked, setPicked] = useState([]);
  const [blind, setBlind] = useState(0);
  const verb = ch.kind;
  const hand = splitTiles((f.v.hand || []).join(" "));
  const options = legal.of(verb);
  const passable = new Set(options.flatMap((a) => a.tiles));
  const want = verb === "courtesy" ? ch.owed : 3 - blind;
  const tiles = picked.map((i) => hand[i]);
  const action = options.find((a) => (a.blind || 0) === (verb === "courtesy" ? 0 : blind)
    && sameTiles(a.tiles, tiles)) || null;
  const toggle = (i) => setPicked(picked.includes(i) ? picked.filter((x) => x !== i)
    : picked.length < want ? [...picked, i] : picked);
  const chooseBlind = (b) => { setBlind(b); setPicked(picked.slice(0, 3 - b)); };
  const where = verb === "courtesy" ? "across" : ch.direction;
  const words = `Pass ${where} ${ARROWS[where]}` + (tiles.length ? `: ${tiles.map(tileLabel).join(", ")}` : "") +
    (blind ? `${tiles.length ? " and" : ":"} ${blind} blind` : "");
  const useHint = hint && options.find((a) => a.text === hint.action);
  return html`<div class="ch-pass">
    <${PickTiles} hand=${hand} picked=${picked} toggle=${toggle} passable=${passable}
      suggested=${hintIndexes(hand, hint && hint.tiles)} busy=${busy} />
    ${ch.blind && html`<fieldset class="ch-blind"><legend>Blind pass: tiles you receive now,
        passed on unseen</legend>
      ${[0, 1, 2, 3].map((b) => html`<label><input type="radio" name="blind" value=${b}
        checked=${blind === b} onChange=${() => chooseBlind(b)} /> ${b}</label>`)}
    </fieldset>`}
    <p class="ch-count muted">${tiles.length} of ${want} chosen${blind ? `, ${blind} blind` : ""}</p>
    <div class="ch-buttons">
      <button type="button" class="primary" id="btn-charleston" disabled=${busy || !action}
        onClick=${() => act(action)}>${words}</button>
      ${useHint && html`<button type="button" id="btn-charleston-hint" disabled=${busy}
        onClick=${() => act(useHint)}>Pass what the hint says</button>`}
    </div>
  </div>`;
}

function VoteChoice({ legal, busy, act }) {
  const again = legal.of("vote").find((a) => a.again);
  const stop = legal.of("vote").find((a) => !a.again);
  return html`<div class="ch-buttons">
    <button type="button" id="btn-vote-again" disabled=${busy || !again} onClick=${() => act(again)}>
      Play the second Charleston</button>
    <button type="button" id="btn-vote-stop" disabled=${busy || !stop} onClick=${() => act(stop)}>
      Stop: no second Charleston</button>
  </div>`;
}

function OfferChoice({ legal, busy, act }) {
  return html`<div class="ch-buttons">
    ${legal.of("offer").map((a) => html`<button type="button" id=${`btn-offer-${a.count}`}
      disabled=${busy} onClick=${() => act(a)}>${a.count === 0 ? "Offer nothing"
        : `Offer ${a.count} tile${a.count === 1 ? "" : "s"}`}</button>`)}
  </div>`;
}

/** The courtesy negotiation as this seat sees it: its own offer, the partner's once both
 * are in, and what they agreed. */
function Offers({ f, ch }) {
  const mine = ch.offers[f.me];
  if (mine === null || mine === undefined) return null;
  const partner = (f.me + 2) % 4;
  const theirs = ch.offers[partner];
  const who = seatTitle(f.names, partner);
  if (theirs === null || theirs === undefined) {
    return html`<p class="ch-offers">You offered ${mine}; ${who} has not offered yet.</p>`;
  }
  const agreed = Math.min(mine, theirs);
  return html`<p class="ch-offers">You offered ${mine}, ${who} offered ${theirs}:
    ${agreed ? `you pass each other ${agreed} tile${agreed === 1 ? "" : "s"}.` : "no courtesy pass."}</p>`;
}

function ChoiceNow({ f, ch, legal, busy, act, hint }) {
  if (!f.iAnswer) {
    const hand = splitTiles((f.v.hand || []).join(" "));
    return html`<div class="ch-hand hand-tiles" aria-label="Your tiles">
      ${hand.map((t) => html`<${Tile} t=${t} size="l" />`)}</div>`;
  }
  if (ch.kind === "vote") return html`<${VoteChoice} legal=${legal} busy=${busy} act=${act} />`;
  if (ch.kind === "offer") return html`<${OfferChoice} legal=${legal} busy=${busy} act=${act} />`;
  return html`<${PassChoice} key=${ch.stage} f=${f} ch=${ch} legal=${legal} busy=${busy}
    act=${act} hint=${hint} />`;
}

/** The Charleston panel: shown instead of the racks while the Charleston lasts. */
export function CharlestonPanel({ f, msg, legal, busy, act, hintsOn }) {
  const ch = f.v.charleston;
  if (!ch) return null;
  const hint = hintsOn && msg.hints ? msg.hints.charleston : null;
  const voted = votesWords(f, ch.votes);
  const done = ch.chosen.filter((s) => s !== f.me);
  return html`<section class="charleston" id="charleston" aria-label="The Charleston"
      data-stage=${ch.stage} data-kind=${ch.kind}>
    <header><h3>The Charleston</h3><${Stages} f=${f} ch=${ch} /></header>
    ${ch.direction && html`<p class="ch-direction" id="ch-direction">
      <span class="ch-arrow" aria-hidden="true">${ARROWS[ch.direction]}</span>
      Pass <strong>${ch.direction}</strong> to ${seatTitle(f.names, ch.to)}</p>`}
    ${voted && html`<p class="ch-votes" id="ch-votes">${voted}</p>`}
    ${ch.kind !== "charleston" && ch.kind !== "vote" && html`<${Offers} f=${f} ch=${ch} />`}
    ${ch.mine && html`<p class="ch-mine">Your choice: <strong>${ch.mine}</strong>
      ${ch.kind === "charleston" || ch.kind === "courtesy"
        ? html` <${TileRow} tiles=${splitTiles(ch.mine.replace(/^\S+\s*/, "").replace(/blind \d/, ""))}
          size="xs" />` : ""}</p>`}
    ${done.length > 0 && html`<p class="muted ch-chosen">Chosen already: ${names(f, done)}${" "}
      (what they chose stays secret until the tiles move).</p>`}
    <${ChoiceNow} f=${f} ch=${ch} legal=${legal} busy=${busy} act=${act} hint=${hint} />
  </section>`;
}
