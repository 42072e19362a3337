// The hints panel (shape: docs/protocol.md, from twinrack.bots.hints): what matters now
// first (a Mah Jongg, the discard on offer, the suggested discard), then the best plan rack
// by rack with what each rack still needs, then other lines and plans. And a short "How
// Siamese works" for first games.
import { html, useEffect } from "/static/vendor/preact-htm.js";
import { Tile, TileRow, tileLabel } from "../tiles.js";
import { LineLink, Linked } from "./card.js";

function needsWords(needs) {
  return needs.map((n) => `${tileLabel(n.tile)}${(n.count || 1) > 1 ? ` \u00d7${n.count}` : ""}` +
    ` (${n.unseen} unseen)`).join(", ");
}

/** The plan's line for a rack: tiles away on this rack and what it needs. */
function PlanLine({ line }) {
  const needs = line.needs || [];
  const tiles = needs.flatMap((n) => Array(n.count || 1).fill(n.tile));
  return html`<p class="hint-line plan-line">
    <span class="hint-hand"><${LineLink} id=${line.id} /></span>
    <span class="muted"> (${line.section}, ${line.value} points${line.concealed ? ", concealed" : ""})</span>:
    <strong>${line.away} away</strong>
    ${tiles.length > 0 && html`<br /><span class="hint-needed">needs <${TileRow} tiles=${tiles} size="xs"
      label=${`needs ${needsWords(needs)}`} /> <span class="muted">${needsWords(needs)}</span></span>`}
  </p>`;
}

function Instead({ lines }) {
  if (!lines.length) return null;
  return html`<details class="instead"><summary>instead (${lines.length})</summary><ul>
    ${lines.map((l) => html`<li class="hint-line"><span class="hint-hand"><${LineLink} id=${l.id} /></span>
      <span class="muted"> (${l.value} points)</span>: ${l.away} away on this rack${
        l.plan_away !== null && l.plan_away !== undefined ? `, ${l.plan_away} in all` : ""}${
        (l.needs || []).length ? html`; needs ${needsWords(l.needs)}` : ""}</li>`)}
  </ul></details>`;
}

/** The one line to read first, for the prompt's side too (the phone shows it there). */
export function hintNow(hints) {
  if (!hints) return null;
  if (hints.mahjongg) return { kind: "mahjongg", text: hints.mahjongg.text };
  if (hints.action && hints.action.verb === "exchange") return { kind: "exchange", text: hints.action.reason };
  if (hints.claim) return { kind: hints.claim.helps ? "helps" : "no", text: hints.claim.reason };
  if (hints.discard) return { kind: "discard", tile: hints.discard.tile, text: hints.discard.reason };
  return hints.summary ? { kind: "plan", text: hints.summary } : null;
}

/** Warnings before a discard that may give an opponent its hand (from what the table
 * shows), each naming the opponent. */
export function Warnings({ warnings, names, tile }) {
  const mine = (warnings || []).filter((w) => w.tile === tile);
  if (!mine.length) return null;
  return html`<ul class="hint-warnings" id="hint-warnings">${mine.map((w) => html`<li
    class=${`hint-warn ${w.wins ? "wins" : ""}`} data-tile=${w.tile} role="note"><${Tile} t=${w.tile} size="xs" />
    <${Linked} text=${w.text.replace("{who}", (names && names[w.seat]) || `seat ${w.seat + 1}`)} /></li>`)}</ul>`;
}

function HintsBody({ hints, names, tile }) {
  if (!hints) return html`<p class="muted">Hints appear when you have a decision to make.</p>`;
  const racks = hints.racks || [];
  const plans = hints.plans || [];
  const discard = hints.discard;
  return html`<div class="hints-body">
    ${hints.mahjongg && html`<p class="hint-mj"><strong><${Linked} text=${hints.mahjongg.text} /></strong></p>`}
    ${hints.claim && html`<p class=${`hint-claim ${hints.claim.helps ? "helps" : ""}`}>
      <${Tile} t=${hints.claim.tile} size="xs" /> <${Linked} text=${hints.claim.reason} /></p>`}
    ${hints.exchange && hints.exchange.reason !== hints.summary && html`<p class="hint-exchange" id="hint-exchange"><${Linked} text=${hints.exchange.reason} /></p>`}
    ${discard && html`<p class="hint-discard">Suggested discard:${" "}<${Tile} t=${discard.tile} size="xs" />
      <strong>${tileLabel(discard.tile)}</strong>
      ${discard.reason && html`<br /><span class="muted"><${Linked} text=${discard.reason} /></span>`}</p>`}
    ${tile && (!discard || tile !== discard.tile) && html`<${Warnings} warnings=${hints.warnings}
      names=${names} tile=${tile} />`}
    ${hints.summary && !hints.mahjongg && html`<p class="hint-plan"><${Linked} text=${hints.summary} /></p>`}
    ${!hints.summary && plans.length > 0 && html`<p class="hint-plan">Best plan:
      <strong>${plans[0].ids.map((id, i) => html`${i ? " + " : ""}<${LineLink} id=${id} />`)}</strong>
      <span class="muted">(${plans[0].away} away, ${plans[0].value} points)</span></p>`}
    ${racks.map((r) => html`<div class="hint-rack">
        <h4>Rack ${r.rack}</h4>
        ${r.lines.length ? html`<${PlanLine} line=${r.lines[0]} /><${Instead} lines=${r.lines.slice(1)} />`
          : html`<p class="muted">no line of the card in reach</p>`}
      </div>`)}
    ${plans.length > 1 && html`<details class="other-plans"><summary>other plans</summary><ul>
      ${plans.slice(1).map((p) => html`<li>${p.ids.map((id, i) => html`${i ? " + " : ""}<${LineLink} id=${id} />`)} <span class="muted">(${p.away}
        away, ${p.value} points)</span></li>`)}</ul></details>`}
  </div>`;
}

export function Hints({ hints, names, tile }) {
  return html`<section class="hints" aria-labelledby="hints-title">
    <h2 id="hints-title">Hints</h2>
    <${HintsBody} hints=${hints} names=${names} tile=${tile} />
  </section>`;
}

const HOWTO_KEY = "twinrack.howto";

function seenHowTo() {
  try { return window.localStorage.getItem(HOWTO_KEY) === "seen"; } catch (_e) { return false; }
}

function rememberHowTo() {
  try { window.localStorage.setItem(HOWTO_KEY, "seen"); } catch (_e) { /* private mode */ }
}

/** A game played to its end at a seat: the explanation starts closed from then on. */
export function useFirstGameOver(seatedOver) {
  useEffect(() => { if (seatedOver) rememberHowTo(); }, [seatedOver]);
}

/** One holding, two racks, two Mah Jonggs: open on a first game, closed after. */
export function HowItWorks({ racks }) {
  const open = !seenHowTo();
  const remember = (e) => {
    if (!e.currentTarget.open) rememberHowTo();
  };
  const n = racks === 4 ? "four" : "two";
  return html`<details class="howto" id="howto" open=${open} onToggle=${remember}>
    <summary><h2>How Siamese works</h2></summary>
    <ul>
      <li><strong>One holding, ${n} racks.</strong> All your concealed tiles are one pool. The
        racks only show how you have arranged them: any tile can serve either rack, and you
        can move tiles between racks at any time, on your turn or not (nobody else sees
        it).</li>
      <li><strong>${racks === 4 ? "Four" : "Two"} Mah Jonggs.</strong> Each rack becomes its
        own hand of the card (14 tiles). After a first Mah Jongg you play on toward the next;
        a Mah Jongg on every rack wins the game.</li>
      <li><strong>Exposures belong to a rack.</strong> A claimed tile is exposed in a group on
        one rack; if that rack's exposures fit no line of the card, the rack is dead.</li>
      <li>The hints split what your holding lacks between the racks: their needs add up to the
        plan's tiles away.</li>
    </ul>
  </details>`;
}
