// The tile selected on the player's racks (by click or by the arrow keys), kept as "the nth
// tile of this kind on this rack" so that it survives the hand changing around it.
import { useEffect, useLayoutEffect, useRef, useState } from "/static/vendor/preact-htm.js";
import { splitTiles } from "../tiles.js";

function count(list, t) {
  let n = 0;
  for (const x of list) if (x === t) n += 1;
  return n;
}

function nthIndex(list, t, nth) {
  let seen = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === t) {
      if (seen === nth) return i;
      seen += 1;
    }
  }
  return -1;
}

/** The selection `{rack, tile, nth}` resolved in the hand as `{rack, idx, tile}`, or null. */
function resolve(sel, hand) {
  if (!sel || !hand[sel.rack]) return null;
  let idx = nthIndex(hand[sel.rack], sel.tile, sel.nth);
  if (idx < 0) idx = hand[sel.rack].indexOf(sel.tile);
  return idx >= 0 ? { rack: sel.rack, idx, tile: sel.tile } : null;
}

/** Where the tile just picked or claimed lies: on the rack the view says (`placed`). */
function freshTile(v, hand) {
  if (!v || v.acquired === null || v.placed === null || !hand[v.placed]) return null;
  return { rack: v.placed, idx: hand[v.placed].lastIndexOf(v.acquired) };
}

export function useSelection(v) {
  const [sel, setSel] = useState(null); // {rack, tile, nth, byHand}
  const focus = useRef(false);
  const hand = v && v.hand ? v.hand.map(splitTiles) : [];
  const fresh = freshTile(v, hand);
  // the fresh tile is selected once, when it comes (before the page is painted)
  useLayoutEffect(() => {
    if (fresh) setSel({ rack: fresh.rack, tile: v.acquired, nth: count(hand[fresh.rack], v.acquired) - 1,
      byHand: false });
  }, [v && v.turn, v && v.acquired]);
  // the focus follows a selection made with the keyboard
  useEffect(() => {
    if (!focus.current) return;
    focus.current = false;
    const el = document.querySelector(".hand-tile[aria-pressed='true']");
    if (el) el.focus();
  });
  const selected = resolve(sel, hand);
  const pick = (rack, idx) => setSel({ rack, tile: hand[rack][idx],
    nth: count(hand[rack].slice(0, idx), hand[rack][idx]), byHand: true });
  return {
    hand,
    fresh,
    selected,
    /** The selection was made by the player (not the fresh tile selected for them). */
    byHand: !!(selected && sel.byHand),
    select: pick,
    /** Select the last tile of kind `tile` on the first rack holding it (the hint's). */
    jump(tile) {
      const rack = hand.findIndex((r) => r.includes(tile));
      if (rack >= 0) { pick(rack, hand[rack].lastIndexOf(tile)); focus.current = true; }
    },
    /** The tile went to rack `rack` (a move): it stays selected there. */
    follow: (rack, tile) => setSel({ rack, tile, nth: 0, byHand: true }),
    /** The previous (-1) or next (1) tile, from one rack on to the next. */
    step(d) {
      const flat = hand.flatMap((r, ri) => r.map((_, i) => [ri, i]));
      if (!flat.length) return;
      let pos = selected ? flat.findIndex(([r, i]) => r === selected.rack && i === selected.idx) : -1;
      pos = pos < 0 ? (d > 0 ? 0 : flat.length - 1) : (pos + d + flat.length) % flat.length;
      pick(...flat[pos]);
      focus.current = true;
    },
  };
}
