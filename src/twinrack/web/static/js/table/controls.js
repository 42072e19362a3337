// The action buttons: discard, move, claim, pass (the choices with tiles are in choices.js).
// A claim button says before it is pressed what the claim would do (the server's `advice`,
// worked out by the engine: docs/protocol.md).
import { html } from "/static/vendor/preact-htm.js";
import { tileLabel } from "../tiles.js";
import { coachChoices } from "./choices.js";

function MoveButtons({ legal, selected, racks, busy, moveTo }) {
  const targets = selected ? legal.moveTargets(selected.rack, selected.tile) : [];
  if (racks <= 2) {
    const b = selected ? (selected.rack === 0 ? 1 : 0) : 1;
    const ok = selected && targets.includes(b) && !busy;
    return html`<button type="button" class="btn-move" id="btn-move" disabled=${!ok}
      onClick=${() => ok && moveTo(selected.rack, selected.tile, b)} aria-keyshortcuts="M">
      ${selected ? `Move ${tileLabel(selected.tile)} to rack ${b + 1}` : "Move to other rack"}</button>`;
  }
  // three or four racks: one button per rack the selected tile may go to
  if (!targets.length) {
    return html`<button type="button" class="btn-move" id="btn-move" disabled>
      ${selected ? `${tileLabel(selected.tile)} cannot move` : "Move (select a tile)"}</button>`;
  }
  return targets.map((b) => html`<button type="button" class="btn-move" id=${`btn-move-${b + 1}`}
      disabled=${busy} onClick=${() => moveTo(selected.rack, selected.tile, b)}
      aria-label=${`Move ${tileLabel(selected.tile)} to rack ${b + 1}`}
      aria-keyshortcuts=${b === targets[0] ? "M" : undefined}>${`To rack ${b + 1}`}</button>`);
}

function ActButton({ id, action, busy, act, keys, children, coach, cls = "" }) {
  const advice = action && action.advice;
  const c = action && coach ? coach.get(action.text) : null;
  return html`<button type="button" id=${id} aria-keyshortcuts=${keys}
      class=${`${cls} ${advice ? `with-advice ${advice.warn ? "warn" : ""}` : ""} ${c && c.best ? "best" : ""}`}
      data-best=${c && c.best ? "true" : "false"}
      disabled=${busy || !action} onClick=${() => act(action)}
      aria-describedby=${advice ? `${id}-advice` : undefined}>
    ${children}${c && c.line ? `: ${c.line}, ${c.points} points` : ""}
    ${c && c.best && html` <span class="badge hint-pick">hint</span>`}
    ${advice && html`<small class="advice" id=${`${id}-advice`}>${advice.says}${advice.withdraw
      ? " (you may withdraw before exposing)" : ""}</small>`}
  </button>`;
}

/** The tile D and the Discard button discard: the player's own selection, else the hint's
 * (when the hints suggest one), else the tile selected for them (the fresh one). */
export function discardTile(selection, hints, legal) {
  const hinted = hints && hints.discard && legal.discard(hints.discard.tile) ? hints.discard.tile : null;
  if (selection.byHand || !hinted) return selection.selected ? selection.selected.tile : null;
  return hinted;
}

export function Controls({ f, legal, selection, busy, act, moveTo, hints, arrange }) {
  const selected = selection.selected;
  const tile = discardTile(selection, hints, legal);
  const discard = tile ? legal.discard(tile) : null;
  const coach = coachChoices(hints);
  const feeds = !!(tile && hints && (hints.warnings || []).some((w) => w.tile === tile));
  const double = legal.claim("double");
  const window = f.v.phase === "window" || f.v.phase === "declare";
  return html`<div class="controls" role="toolbar" aria-label="Actions" data-phase=${f.v.phase}>
    ${!window && html`<button type="button" id="btn-discard" aria-keyshortcuts="D"
      class=${`primary ${feeds ? "with-advice warn" : ""}`} data-feeds=${feeds ? "true" : "false"}
      title=${feeds ? "this discard may help an opponent finish an exposed hand: see the hints" : undefined}
      disabled=${busy || !discard} onClick=${() => act(discard)}>
      ${tile ? `Discard ${tileLabel(tile)}` : "Discard (select a tile)"}${tile && !selection.byHand
        && hints && hints.discard && hints.discard.tile === tile ? " (hint)" : ""}${feeds
        ? html`<small class="advice">may help an opponent: see the hints</small>` : ""}</button>`}
    ${f.v.phase !== "declare" && f.v.racks > 1 && html`<${MoveButtons} legal=${legal} selected=${selected}
      racks=${f.v.racks} busy=${busy} moveTo=${moveTo} />`}
    <${ActButton} id="btn-claim-expose" keys="C" action=${legal.claim("expose")} busy=${busy} cls="claim-btn"
      coach=${coach} act=${act}>Claim for exposure</${ActButton}>
    <${ActButton} id="btn-claim-mahjongg" action=${legal.claim("mahjongg")} busy=${busy} cls="claim-btn"
      coach=${coach} act=${act}>Claim for Mah Jongg</${ActButton}>
    ${double && html`<${ActButton} id="btn-claim-double" action=${double} busy=${busy} cls="claim-btn"
      coach=${coach} act=${act}>Claim Double Mah Jongg</${ActButton}>`}
    <${ActButton} id="btn-pass" keys="P" action=${legal.one("pass")} busy=${busy}
      act=${act} coach=${coach}>${f.v.phase === "declare" ? "Pass (no declaration)" : "Pass"}</${ActButton}>
    ${arrange && html`<button type="button" id="btn-arrange" aria-keyshortcuts="A" disabled=${busy}
      onClick=${arrange} title="move your tiles so that each rack shows the line the hint plans for it">
      Arrange as the plan</button>`}
  </div>`;
}
