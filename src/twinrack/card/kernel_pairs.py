"""Two racks sharing one holding, in the compiled kernel: the best pairs of lines and what
every discard leaves (the questions of card/pairs.py, with the same answers).

Both start from each rack's ``U`` and ``V`` per way (card/kernel.py). A way pair fills
like one way with the summed demand, so its tiles away is at least
``max(T - J - U1 - U2, T - V1 - V2)`` (the two ways compete for the held tiles, which only
lowers their sums). For a threshold ``theta`` only the pairs whose bound is at most
``theta`` are scored, exactly, over the kinds held; the fit ways of rack 2 are kept in a
*ladder*, sorted by ``U`` then ``V`` falling, so the pairs of a rack-1 way under the bound
are read off it without looking at any other.

``theta`` comes from a probe: every pair of each rack's :data:`PROBE` most promising ways
is scored. For the best ``n`` pairs, the probe's ``n``-th line pair is within reach, so the
``n`` best are at most that far; for every discard, the best pair is at most the probe's
best, and a discard costs any pair at most one tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from twinrack.card.demand import HAND_SIZE, IMPOSSIBLE, CountsLike, holding_vector
from twinrack.card.exposure import Exposure
from twinrack.card.kernel import (
    COLS,
    BoolArray,
    IntArray,
    SmallArray,
    TinyArray,
    check,
    jit,
    sums,
)
from twinrack.card.pairs import DiscardScore, PairPlan
from twinrack.tiles import JOKER

if TYPE_CHECKING:
    from twinrack.card.compiled import CompiledCard

#: U and V of one rack are 0..14
GRID = HAND_SIZE + 1
#: ways per rack in the probe that sets the threshold
PROBE = 32
_FAR = 1 << 30
#: the two questions a scan answers
PAIRS, DISCARDS = 0, 1

#: a rack as the card layer hands it over: (touched kinds, bank, big_sum, fit, exposed,
#: entry_tot, entry_nat)
RackArgs = tuple[IntArray, TinyArray, SmallArray, BoolArray, int, SmallArray, SmallArray]
#: a rack with its sums: (bank, big_sum, fit, U, V, need_u = T - J - U, need_v = T - V)
Rack = tuple[TinyArray, SmallArray, BoolArray, IntArray, IntArray, IntArray, IntArray]


@jit
def _rack(counts: IntArray, table: TinyArray, most: int, touched: IntArray,
          bank: TinyArray, big_sum: SmallArray, fit: BoolArray, total: int,
          jokers: int) -> Rack:
    acc = sums(counts, table, most, touched, bank)
    n = bank.shape[0]
    u = np.empty(n, dtype=np.int64)
    v = np.empty(n, dtype=np.int64)
    for w in range(n):
        u[w] = acc[w]
        v[w] = acc[n + w] + big_sum[w]
    return bank, big_sum, fit, u, v, total - jokers - u, total - v


@jit
def _ladder(u: IntArray, v: IntArray, fit: BoolArray) -> tuple[IntArray, IntArray, IntArray]:
    """The fit ways by U falling, then V falling, then card order; where each (U, V) cell
    starts in that order (cell ``(14 - U) * GRID + 14 - V``); per ``a``, the best V of a
    way with U at least ``a`` (-IMPOSSIBLE when none)."""
    n = u.shape[0]
    cells = GRID * GRID
    start = np.zeros(cells + 1, dtype=np.int64)
    for w in range(n):
        if fit[w]:
            start[(HAND_SIZE - min(u[w], HAND_SIZE)) * GRID + HAND_SIZE
                  - min(v[w], HAND_SIZE) + 1] += 1
    for k in range(cells):
        start[k + 1] += start[k]
    order = np.empty(start[cells], dtype=np.int64)
    put = start[:cells].copy()
    for w in range(n):
        if fit[w]:
            k = (HAND_SIZE - min(u[w], HAND_SIZE)) * GRID + HAND_SIZE - min(v[w], HAND_SIZE)
            order[put[k]] = w
            put[k] += 1
    best_v = np.full(GRID + 1, -IMPOSSIBLE, dtype=np.int64)
    for a in range(GRID - 1, -1, -1):
        best_v[a] = best_v[a + 1]
        for k in range((HAND_SIZE - a) * GRID, (HAND_SIZE - a + 1) * GRID):
            if start[k + 1] > start[k]:  # the first non-empty cell has U == a's best V
                best_v[a] = max(best_v[a], HAND_SIZE - (k - (HAND_SIZE - a) * GRID))
                break
    return order, start, best_v


@jit
def _within(theta: int, need_u: IntArray, need_v: IntArray, fit: BoolArray, v2: IntArray,
            ladder: tuple[IntArray, IntArray, IntArray],
            symmetric: bool) -> tuple[IntArray, IntArray]:
    """Every way pair whose bound is at most ``theta`` (rack 1's ways ascending; on a
    symmetric holding only ``w2 >= w1``), read off the ladder of rack 2: counted, then
    written."""
    order, start, best_v = ladder
    first = np.empty(0, dtype=np.int64)
    second = np.empty(0, dtype=np.int64)
    for write in range(2):
        m = 0
        for a in range(need_u.shape[0]):
            lo_u = max(need_u[a] - theta, 0)
            lo_v = need_v[a] - theta
            if not fit[a] or lo_u > HAND_SIZE or best_v[lo_u] < lo_v:
                continue
            for x in range(HAND_SIZE, lo_u - 1, -1):
                row = (HAND_SIZE - x) * GRID
                for p in range(start[row], start[row + GRID]):
                    b = order[p]
                    if v2[b] < lo_v:
                        break
                    if symmetric and b < a:
                        continue
                    if write:
                        first[m] = a
                        second[m] = b
                    m += 1
        if not write:
            first = np.empty(m, dtype=np.int64)
            second = np.empty(m, dtype=np.int64)
    return first, second


@jit
def _probe(rows: IntArray, cols: IntArray, symmetric: bool) -> tuple[IntArray, IntArray]:
    """Every pair of the probe's ways (on a symmetric holding only ``w2 >= w1``)."""
    m = 0
    for a in rows:
        for b in cols:
            m += not symmetric or b >= a
    first = np.empty(m, dtype=np.int64)  # (exactly: a slice would be another type)
    second = np.empty(m, dtype=np.int64)
    m = 0
    for a in rows:
        for b in cols:
            if not symmetric or b >= a:
                first[m] = a
                second[m] = b
                m += 1
    return first, second


@jit
def _exact(first: IntArray, second: IntArray, counts: IntArray,
           one: tuple[TinyArray, IntArray, IntArray],
           two: tuple[SmallArray, SmallArray, SmallArray], sparse: tuple[IntArray, IntArray],
           base: tuple[int, int]) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Per way pair: ``x = T - J - U`` and ``y = T - V`` of the pair (its tiles away is the
    larger), and as bits (one per kind held, ascending) the kinds of which the pair uses
    every copy held, for U and for V: one fewer of those costs that sum a tile.

    The pair's sums are rack 1's own (``one``: its demand rows, U and V) plus what rack
    2's way adds on the kinds it uses (``two``: its sparse demand, ``sparse``: the card's
    entries per way), ``min(c, d1 + d2) - min(c, d1)`` per kind: a few kinds a pair, not
    every kind held."""
    bank1, u1, v1 = one
    tot2, nat2, big2 = two
    start, entry_tile = sparse
    total_u, total_v = base
    slot = np.full(COLS, -1, dtype=np.int64)  # each held kind's bit
    k = 0
    for t in range(JOKER):
        if counts[t] > 0:
            slot[t] = k
            k += 1
    m = first.shape[0]
    x = np.empty(m, dtype=np.int64)
    y = np.empty(m, dtype=np.int64)
    short_u = np.zeros(m, dtype=np.int64)
    short_v = np.zeros(m, dtype=np.int64)
    a = -1
    own_u = 0
    own_v = 0
    for i in range(m):
        if first[i] != a:  # the pairs come grouped by rack 1's way: its own bits once
            a = first[i]
            own_u = 0
            own_v = 0
            for t in range(JOKER):
                if slot[t] >= 0:
                    own_u |= (bank1[a, t] >= counts[t]) << slot[t]
                    own_v |= (bank1[a, COLS + t] >= counts[t]) << slot[t]
        b = second[i]
        u = u1[a]
        v = v1[a] + big2[b]
        su = own_u
        sv = own_v
        stop = start[b + 1] if b + 1 < start.shape[0] else entry_tile.shape[0]
        for e in range(start[b], stop):
            t = entry_tile[e]
            j = slot[t]
            if j < 0:
                continue
            c = counts[t]
            d = bank1[a, t]
            u += min(c, d + tot2[e]) - min(c, d)
            su |= (d + tot2[e] >= c) << j
            d = bank1[a, COLS + t]
            v += min(c, d + nat2[e]) - min(c, d)
            sv |= (d + nat2[e] >= c) << j
        x[i] = total_u - u
        y[i] = total_v - v
        short_u[i] = su
        short_v[i] = sv
    return x, y, short_u, short_v


@jit
def _lines(first: IntArray, second: IntArray, x: IntArray, y: IntArray, theta: int,
           way_hand: IntArray, lines: int, table: tuple[IntArray, IntArray, IntArray],
           nt: int) -> int:
    """Keep each pair within ``theta`` as its line pair's best if it is nearer, or as near
    and earlier in card order (``table``: best tiles away per line pair, its first way
    pair, the line pairs touched); how many line pairs are touched now."""
    best, ways, touched = table
    for i in range(first.shape[0]):
        away = max(x[i], y[i])
        if away > theta:
            continue
        a = first[i]
        b = second[i]
        li = way_hand[a] * lines + way_hand[b]
        cur = best[li]
        if away < cur or (away == cur and (a < ways[2 * li] or (
                a == ways[2 * li] and b < ways[2 * li + 1]))):
            if cur == _FAR:
                touched[nt] = li
                nt += 1
            best[li] = away
            ways[2 * li] = a
            ways[2 * li + 1] = b
    return nt


@jit
def _promising(need_u: IntArray, need_v: IntArray, other_u: IntArray, other_v: IntArray,
               fit: BoolArray, other_fit: BoolArray) -> IntArray:
    """The :data:`PROBE` fit ways needing the fewest tiles even with the other rack's best
    U and best V (ties: card order), ascending."""
    top_u = 0
    top_v = 0
    for w in range(other_u.shape[0]):
        if other_fit[w]:
            top_u = max(top_u, other_u[w])
            top_v = max(top_v, other_v[w])
    n = need_u.shape[0]
    span = 2 * GRID + 1
    tally = np.zeros(span, dtype=np.int64)
    score = np.empty(n, dtype=np.int64)
    for w in range(n):
        s = min(max(max(need_u[w] - top_u, need_v[w] - top_v), 0), span - 1)
        score[w] = s if fit[w] else span
        if fit[w]:
            tally[s] += 1
    cut = 0
    taken = 0
    while cut < span and taken + tally[cut] < PROBE:
        taken += tally[cut]
        cut += 1
    room = min(PROBE - taken, tally[cut]) if cut < span else 0
    out = np.empty(taken + room, dtype=np.int64)
    m = 0
    for w in range(n):
        if score[w] < cut or (score[w] == cut and room > 0):
            if score[w] == cut:
                room -= 1
            out[m] = w
            m += 1
    return out


@jit
def _nth(best: IntArray, touched: IntArray, nt: int, top: int, total: int) -> int:
    """The ``top``-th smallest tiles away among the touched line pairs (``total`` when
    there are fewer)."""
    if nt < top:
        return total
    tally = np.zeros(total + 2, dtype=np.int64)
    for i in range(nt):
        tally[min(best[touched[i]], total + 1)] += 1
    seen = 0
    for a in range(total + 2):
        seen += tally[a]
        if seen >= top:
            return a
    return total


@jit
def _least(keys: IntArray, top: int) -> IntArray:
    """The positions of the ``top`` least keys (all different), least first: an insertion
    into a list kept sorted (``top`` is small; numba's own sort takes seconds to
    compile)."""
    k = min(top, keys.shape[0])
    out = np.empty(k, dtype=np.int64)
    m = 0
    for i in range(keys.shape[0]):
        if m == k and keys[i] >= keys[out[k - 1]]:
            continue
        j = m if m < k else k - 1
        while j > 0 and keys[out[j - 1]] > keys[i]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i
        m = min(m + 1, k)
    return out


@jit
def _ranked(table: tuple[IntArray, IntArray, IntArray], nt: int, theta: int,
            hand_value: IntArray, top: int) -> tuple[IntArray, IntArray, IntArray]:
    """The ``top`` line pairs within ``theta``: nearest, then the higher value, then card
    order (rack 1's line, then rack 2's). Their indices (``h1 * lines + h2``), first way
    pairs (two per line pair) and tiles away."""
    best, ways, touched = table
    lines = hand_value.shape[0]
    most = 0
    for h in range(lines):
        most = max(most, hand_value[h])
    span = 2 * most + 1
    keys = np.empty(nt, dtype=np.int64)
    picked = np.empty(nt, dtype=np.int64)
    m = 0
    for i in range(nt):
        li = touched[i]
        if best[li] <= theta:
            value = hand_value[li // lines] + hand_value[li % lines]
            keys[m] = (best[li] * span + (2 * most - value)) * lines * lines + li
            picked[m] = li
            m += 1
    order = _least(keys[:m], top)
    k = order.shape[0]
    out = np.empty(k, dtype=np.int64)
    first = np.empty(2 * k, dtype=np.int64)
    aways = np.empty(k, dtype=np.int64)
    for i in range(k):
        li = picked[order[i]]
        out[i] = li
        first[2 * i] = ways[2 * li]
        first[2 * i + 1] = ways[2 * li + 1]
        aways[i] = best[li]
    return out, first, aways


@jit
def _both(counts: IntArray, table: TinyArray, most: int, rack1: RackArgs, rack2: RackArgs,
          symmetric: bool) -> tuple[Rack, Rack, tuple[int, int], IntArray, IntArray]:
    """Each rack's sums (rack 2 the same as rack 1 on a symmetric holding), the pair's
    ``(T - J, T)``, and the probe's pairs."""
    jokers = check(counts)
    total = 2 * HAND_SIZE - rack1[4] - rack2[4]
    r1 = _rack(counts, table, most, rack1[0], rack1[1], rack1[2], rack1[3], total, jokers)
    r2 = r1 if symmetric else _rack(counts, table, most, rack2[0], rack2[1], rack2[2],
                                    rack2[3], total, jokers)
    rows = _promising(r1[5], r1[6], r2[3], r2[4], r1[2], r2[2])
    cols = rows if symmetric else _promising(r2[5], r2[6], r1[3], r1[4], r2[2], r1[2])
    first, second = _probe(rows, cols, symmetric)
    return r1, r2, (total - jokers, total), first, second


@jit
def pairs_kernel(counts: IntArray, top: int, table: TinyArray, most: int, rack1: RackArgs,
                 rack2: RackArgs, symmetric: bool, sparse: tuple[IntArray, IntArray],
                 way_hand: IntArray,
                 hand_value: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The best ``top`` line pairs (see :func:`_ranked`)."""
    r1, r2, base, first, second = _both(counts, table, most, rack1, rack2, symmetric)
    one = (r1[0], r1[3], r1[4])
    two = (rack2[5], rack2[6], rack2[2])
    lines = hand_value.shape[0]
    found = (np.full(lines * lines, _FAR, dtype=np.int64),
             np.empty(2 * lines * lines, dtype=np.int64),
             np.empty(lines * lines, dtype=np.int64))
    x, y, _su, _sv = _exact(first, second, counts, one, two, sparse, base)
    nt = _lines(first, second, x, y, base[1], way_hand, lines, found, int(np.int64(0)))
    theta = _nth(found[0], found[2], nt, top, base[1])
    first, second = _within(theta, r1[5], r1[6], r1[2], r2[4], _ladder(r2[3], r2[4], r2[2]),
                            symmetric)
    x, y, _su, _sv = _exact(first, second, counts, one, two, sparse, base)
    nt = _lines(first, second, x, y, theta, way_hand, lines, found, nt)
    return _ranked(found, nt, theta, hand_value, top)


@jit
def discards_kernel(counts: IntArray, table: TinyArray, most: int, rack1: RackArgs,
                    rack2: RackArgs, symmetric: bool, sparse: tuple[IntArray, IntArray],
                    way_value: IntArray) -> tuple[IntArray, IntArray]:
    """Per natural kind held (ascending, then the Joker if held): the best pair tiles
    away after discarding one, and the best value of a pair at that tiles away."""
    r1, r2, base, first, second = _both(counts, table, most, rack1, rack2, symmetric)
    one = (r1[0], r1[3], r1[4])
    two = (rack2[5], rack2[6], rack2[2])
    x, y, _su, _sv = _exact(first, second, counts, one, two, sparse, base)
    theta = int(np.int64(_FAR))  # (not a constant: a function compiles once per constant)
    for i in range(x.shape[0]):
        theta = min(theta, max(x[i], y[i]) + 1)
    first, second = _within(theta, r1[5], r1[6], r1[2], r2[4], _ladder(r2[3], r2[4], r2[2]),
                            symmetric)
    x, y, short_u, short_v = _exact(first, second, counts, one, two, sparse, base)
    k = 0
    for t in range(JOKER):
        k += counts[t] > 0
    jokers = counts[JOKER]
    best = np.full(k + (jokers > 0), _FAR, dtype=np.int64)
    worth = np.zeros(k + (jokers > 0), dtype=np.int64)
    for i in range(x.shape[0]):
        if max(x[i], y[i]) > theta:
            continue
        value = way_value[first[i]] + way_value[second[i]]
        for j in range(k + (jokers > 0)):
            if j < k:
                after = max(x[i] + ((short_u[i] >> j) & 1), y[i] + ((short_v[i] >> j) & 1))
            else:  # one Joker fewer costs U + J a tile
                after = max(x[i] + 1, y[i])
            if after < best[j] or (after == best[j] and value > worth[j]):
                best[j] = after
                worth[j] = value
    return best, worth


# ---------------------------------------------------------------------------- the card's


def _racks(cc: CompiledCard, exposures1: Sequence[Exposure],
           exposures2: Sequence[Exposure]) -> tuple[RackArgs, RackArgs, bool, bool]:
    r1 = cc.rack(exposures1)
    r2 = cc.rack(exposures2)
    return ((r1.touched_kinds, r1.bank, r1.big_sum, r1.fit, r1.exposed, r1.entry_tot,
             r1.entry_nat),
            (r2.touched_kinds, r2.bank, r2.big_sum, r2.fit, r2.exposed, r2.entry_tot,
             r2.entry_nat),
            r1.key == r2.key, r1.alive and r2.alive)


def best_pairs(cc: CompiledCard, counts: CountsLike, exposures1: Sequence[Exposure],
               exposures2: Sequence[Exposure], top: int) -> list[PairPlan]:
    """``CompiledCard.best_pairs`` in the kernel."""
    vec = holding_vector(counts)
    rack1, rack2, symmetric, alive = _racks(cc, exposures1, exposures2)
    if top <= 0 or not alive:
        check(vec)
        return []
    picked, ways, aways = pairs_kernel(vec, top, cc.table, cc.most, rack1, rack2, symmetric,
                                        (cc.way_entry_start, cc.entry_tile), cc.way_hand,
                                        cc.hand_value)
    lines = len(cc.card.hands)
    hands = cc.card.hands
    out: list[PairPlan] = []
    for i, (li, away) in enumerate(zip(picked.tolist(), aways.tolist(), strict=True)):
        h1, h2 = divmod(li, lines)
        out.append(PairPlan((hands[h1], hands[h2]),
                            (cc.ways[int(ways[2 * i])], cc.ways[int(ways[2 * i + 1])]), away))
    return out


def discard_scores(cc: CompiledCard, counts: CountsLike, exposures1: Sequence[Exposure],
                   exposures2: Sequence[Exposure]) -> list[DiscardScore]:
    """``CompiledCard.discard_scores`` in the kernel."""
    vec = holding_vector(counts)
    rack1, rack2, symmetric, alive = _racks(cc, exposures1, exposures2)
    jokers = check(vec)
    tiles = np.flatnonzero(vec[:JOKER] > 0).tolist() + ([JOKER] if jokers else [])
    if not alive:
        return [DiscardScore(t, IMPOSSIBLE, 0) for t in tiles]
    aways, values = discards_kernel(vec, cc.table, cc.most, rack1, rack2, symmetric,
                                     (cc.way_entry_start, cc.entry_tile), cc.way_value)
    return [DiscardScore(t, a, v)
            for t, a, v in zip(tiles, aways.tolist(), values.tolist(), strict=True)]
