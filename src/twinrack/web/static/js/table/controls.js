// The action buttons: discard, move, claim, pass (the choices with tiles are in choices.js).
import { html } from "/static/vendor/preact-htm.js";
import { tileLabel } from "../tiles.js";

function MoveButtons({ legal, selected, racks, busy, moveTo }) {
  const targets = selected ? legal.moveTargets(selected.rack, selected.tile) : [];
  const shown = racks <= 2 ? [selected ? (selected.rack === 0 ? 1 : 0) : 1]
    : [...Array(racks).keys()].filter((b) => !selected || b !== selected.rack);
  return shown.map((b) => {
    const ok = selected && targets.includes(b) && !busy;
    return html`<button type="button" class="btn-move" id=${racks <= 2 ? "btn-move" : `btn-move-${b + 1}`}
      disabled=${!ok} onClick=${() => ok && moveTo(selected.rack, selected.tile, b)}
      aria-keyshortcuts="M">
      ${selected ? `Move ${tileLabel(selected.tile)} to rack ${b + 1}` : "Move to other rack"}</button>`;
  });
}

function ActButton({ id, action, busy, act, keys, children }) {
  return html`<button type="button" id=${id} aria-keyshortcuts=${keys}
    disabled=${busy || !action} onClick=${() => act(action)}>${children}</button>`;
}

export function Controls({ f, legal, selected, busy, act, moveTo }) {
  const discard = selected ? legal.discard(selected.tile) : null;
  const double = legal.claim("double");
  return html`<div class="controls" role="toolbar" aria-label="Actions">
    <button type="button" id="btn-discard" class="primary" aria-keyshortcuts="D"
      disabled=${busy || !discard} onClick=${() => act(discard)}>
      ${selected ? `Discard ${tileLabel(selected.tile)}` : "Discard (select a tile)"}</button>
    <${MoveButtons} legal=${legal} selected=${selected} racks=${f.v.racks} busy=${busy}
      moveTo=${moveTo} />
    <${ActButton} id="btn-claim-expose" keys="C" action=${legal.claim("expose")} busy=${busy}
      act=${act}>Claim for exposure</${ActButton}>
    <${ActButton} id="btn-claim-mahjongg" action=${legal.claim("mahjongg")} busy=${busy}
      act=${act}>Claim for Mah Jongg</${ActButton}>
    ${double && html`<${ActButton} id="btn-claim-double" action=${double} busy=${busy}
      act=${act}>Claim Double Mah Jongg</${ActButton}>`}
    <${ActButton} id="btn-pass" keys="P" action=${legal.one("pass")} busy=${busy} act=${act}>
      ${f.v.phase === "declare" ? "Pass (no declaration)" : "Pass"}</${ActButton}>
  </div>`;
}
