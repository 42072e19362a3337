// The player's own racks: what is exposed on each, and the concealed tiles as buttons
// (click to select, double-click to discard, drag onto another rack to move).
import { html, useRef, useState } from "/static/vendor/preact-htm.js";
import { RackPublic } from "../board.js";
import { tileLabel } from "../tiles.js";

function HandTile({ t, ri, i, p, drag }) {
  const { selection, legal, busy, act, claimed, suggest } = p;
  const suggested = suggest && suggest.rack === ri && suggest.idx === i;
  const sel = selection.selected;
  const isSel = sel && sel.rack === ri && sel.idx === i;
  const fresh = selection.fresh && selection.fresh.rack === ri && selection.fresh.idx === i;
  const movable = legal.moveTargets(ri, t).length > 0;
  return html`<button type="button"
      class=${`hand-tile ${isSel ? "selected" : ""} ${fresh ? "acquired" : ""} ${suggested ? "suggested" : ""}`}
      data-suggested=${suggested ? "true" : undefined}
      aria-pressed=${isSel ? "true" : "false"} tabindex=${isSel || (!sel && ri === 0 && i === 0) ? 0 : -1}
      data-tile=${t} data-rack=${ri + 1} data-idx=${i} data-acquired=${fresh ? "true" : undefined}
      data-discardable=${legal.discard(t) ? "true" : "false"}
      draggable=${movable && !busy ? "true" : "false"}
      onClick=${() => selection.select(ri, i)}
      onDblClick=${() => { selection.select(ri, i); act(legal.discard(t)); }}
      onDragStart=${(e) => {
        drag.start(ri, t);
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", `${t} ${ri + 1}`);
        selection.select(ri, i);
      }}
      onDragEnd=${drag.end}>
    <img class="tile-img tile-l" src=${`/static/tiles/${t}.svg`} alt=${tileLabel(t)} draggable="false" />
    ${fresh && html`<span class="acq-mark" aria-hidden="true">new</span>`}
    ${fresh && html`<span class="sr-only"> (just ${claimed ? "claimed" : "picked"})</span>`}
    ${suggested && html`<span class="hint-mark" aria-hidden="true">hint</span>
      <span class="sr-only"> (the hints suggest discarding it)</span>`}
  </button>`;
}

function MyRack({ tiles, ri, rack, p, drag }) {
  return html`<div class=${`my-rack ${drag.over === ri ? "drop-target" : ""} ${rack.dead ? "is-dead" : ""}`}
      data-rack=${ri + 1} onDragOver=${(e) => drag.overRack(e, ri)} onDrop=${(e) => drag.drop(e, ri)}
      onDragLeave=${(e) => { if (!e.currentTarget.contains(e.relatedTarget)) drag.leave(); }}>
    <div class="my-rack-public"><${RackPublic} rack=${rack} index=${ri} showEmpty=${false} /></div>
    <div class="hand-tiles" role="group" aria-label=${`Rack ${ri + 1}: your concealed tiles (${tiles.length})`}>
      ${tiles.map((t, i) => html`<${HandTile} t=${t} ri=${ri} i=${i} p=${p} drag=${drag} />`)}
      ${!tiles.length && html`<span class="muted empty-rack">no concealed tiles on this rack</span>`}
    </div>
  </div>`;
}

/** Dragging a tile onto another rack: a move, when it is legal. */
function useDrag(legal, busy, moveTo) {
  const [over, setOver] = useState(null);
  const dragging = useRef(null);
  const allowed = (d, ri) => d && d.rack !== ri && !busy && legal.move(d.tile, d.rack, ri);
  return {
    over,
    start: (rack, tile) => { dragging.current = { rack, tile }; },
    end: () => { dragging.current = null; setOver(null); },
    leave: () => setOver(null),
    overRack(e, ri) {
      if (!allowed(dragging.current, ri)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "move";
      if (over !== ri) setOver(ri);
    },
    drop(e, ri) {
      e.preventDefault();
      const d = dragging.current;
      dragging.current = null;
      setOver(null);
      if (d && d.rack !== ri) moveTo(d.rack, d.tile, ri);
    },
  };
}

/** Where the suggested discard lies: the last tile of its kind on the first rack holding it. */
function suggestedTile(hand, tile) {
  if (!tile) return null;
  const rack = hand.findIndex((r) => r.includes(tile));
  return rack < 0 ? null : { rack, idx: hand[rack].lastIndexOf(tile) };
}

export function MyRacks({ seat, selection, legal, busy, act, moveTo, claimed, suggest }) {
  const drag = useDrag(legal, busy, moveTo);
  const p = { selection, legal, busy, act, claimed,
    suggest: suggest && legal.discard(suggest) ? suggestedTile(selection.hand, suggest) : null };
  return html`<section class="my-racks" aria-label="Your racks">
    ${selection.hand.map((tiles, ri) => html`<${MyRack} tiles=${tiles} ri=${ri}
      rack=${seat.racks[ri]} p=${p} drag=${drag} />`)}
  </section>`;
}
