// The hints panel: for each rack the card lines in reach, the best plan, a suggested
// discard (shape: docs/protocol.md, from twinrack.bots.hints).
import { html } from "/static/vendor/preact-htm.js";
import { Tile, TileRow, tileLabel, tilesLabel } from "../tiles.js";

/** One card line for a rack: tiles away, and the tiles needed with how many are unseen. */
function HintLine({ line }) {
  const needs = line.needs || [];
  const tiles = needs.map((n) => n.tile);
  const unseen = needs.map((n) => `${tileLabel(n.tile)}: ${n.unseen} unseen`).join(", ");
  return html`<li class="hint-line">
    <span class="hint-hand">${line.id}</span>
    <span class="muted"> (${line.section}, ${line.value} points${line.concealed ? ", concealed" : ""})</span>:
    <strong>${line.away} away</strong>
    ${tiles.length > 0 && html`<span class="hint-needed">, needs${" "}<${TileRow} tiles=${tiles} size="xs" label=${`needs ${tilesLabel(tiles)}`} /></span>`}
    ${unseen && html` <span class="muted">(${unseen})</span>`}
  </li>`;
}

function HintsBody({ hints }) {
  if (!hints) return html`<p class="muted">Hints appear when you have a decision to make.</p>`;
  const racks = hints.racks || [];
  const plans = hints.plans || [];
  const discard = hints.discard;
  return html`<div class="hints-body">
    ${plans.length > 0 && html`<p class="hint-plan">Best plan: <strong>${plans[0].ids.join(" + ")}</strong>
      <span class="muted">(${plans[0].away} away, ${plans[0].value} points)</span></p>`}
    ${racks.map((r) => html`<div class="hint-rack">
        <h4>Rack ${r.rack}</h4>
        ${r.lines.length ? html`<ul>${r.lines.map((l) => html`<${HintLine} line=${l} />`)}</ul>`
          : html`<p class="muted">no line of the card in reach</p>`}
      </div>`)}
    ${discard && html`<p class="hint-discard">Suggested discard:${" "}<${Tile} t=${discard.tile} size="xs" /> <strong>${tileLabel(discard.tile)}</strong>
      ${discard.reason && html`<br /><span class="muted">${discard.reason}</span>`}</p>`}
  </div>`;
}

export function Hints({ hints }) {
  return html`<section class="hints" aria-labelledby="hints-title">
    <h2 id="hints-title">Hints</h2>
    <${HintsBody} hints=${hints} />
  </section>`;
}
