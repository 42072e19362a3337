"""Element boxes, not pixels: what a layout check reads of a page.

:data:`LAYOUT_JS` returns the problems of the page as it is shown: a horizontal overflow
of the document, a box of the table (a seat, a rack of yours, the hints column, the middle)
overlapping another one, a piece (a tile, a badge, a rack name) standing out of the box it
belongs to, a rack name wrapping onto two lines. Only boxes on screen (not hidden, with an
area) count.
"""

from __future__ import annotations

from typing import Any

#: the boxes that must not overlap each other (any two of them, neither inside the other)
BLOCKS = [".seat", ".my-rack", ".side", ".centre", ".decision", ".choices", ".my-discards"]
#: the pieces that must lie inside their box: [piece, its box]
PIECES = [[".seat .badge, .seat .rack-public, .seat .pool-tile, .seat h3", ".seat"],
          [".my-rack .hand-tile, .my-rack .rack-public, .my-rack .badge", ".my-rack"],
          [".side .hint-line, .side h2, .side p", ".side"],
          [".controls button", ".decision"]]

LAYOUT_JS = """([blocks, pieces]) => {
  const out = [];
  const W = document.documentElement.clientWidth;
  const shown = (e) => { const r = e.getBoundingClientRect();
    return e.offsetParent !== null && r.width > 0 && r.height > 0 ? r : null; };
  const name = (e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}` +
    (e.dataset.seat !== undefined ? `[seat ${e.dataset.seat}]` : '') +
    (e.dataset.rack !== undefined ? `[rack ${e.dataset.rack}]` : '');
  if (document.documentElement.scrollWidth > W + 1)
    out.push(`horizontal overflow: ${document.documentElement.scrollWidth} > ${W}`);
  for (const e of document.querySelectorAll('body *')) {
    const r = shown(e);
    if (r && r.right > W + 1 && !e.closest('.card-drawer')) {
      out.push(`${name(e)} ends at ${Math.round(r.right)} > ${W}`); break; }
  }
  const boxes = [...document.querySelectorAll(blocks.join(','))].map((e) => [e, shown(e)])
    .filter(([, r]) => r);
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, ra] = boxes[i]; const [b, rb] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (x > 1 && y > 1)
      out.push(`${name(a)} overlaps ${name(b)} (${Math.round(x)}x${Math.round(y)})`);
  }
  for (const [sel, box] of pieces) for (const e of document.querySelectorAll(sel)) {
    const r = shown(e); const owner = e.closest(box); const o = owner && shown(owner);
    if (!r || !o) continue;
    const scrolls = /auto|scroll/.test(getComputedStyle(owner).overflowY);  // a scroll box's own
    const lift = e.classList.contains('selected') ? 10 : 1;  // a selected tile stands raised
    if (r.left < o.left - 1 || r.right > o.right + 1
        || (!scrolls && (r.top < o.top - lift || r.bottom > o.bottom + 1)))
      out.push(`${name(e)} stands out of ${name(owner)}`);
  }
  for (const e of document.querySelectorAll('.rack-name')) {
    const r = shown(e);
    if (r && r.height > 2.2 * parseFloat(getComputedStyle(e).fontSize))
      out.push(`${name(e)} wraps`);
  }
  return [...new Set(out)].slice(0, 20);
}"""


def layout_problems(page: Any) -> list[str]:
    """The layout problems of ``page`` now (an empty list: none)."""
    found: list[str] = page.evaluate(LAYOUT_JS, [BLOCKS, PIECES])
    return found
