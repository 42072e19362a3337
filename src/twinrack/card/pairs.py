"""Two racks sharing one holding: the best pairs of ways, and what each discard leaves.

The method (from the compiled card's notes, card/compiled.py): two racks sharing one holding
make a pair of ways. Each held tile goes to one slot of one rack, so the pair is filled like
one way with the summed demand, and its ``U`` and ``V`` are the two racks' own values less
what they compete for:

    U_pair = U1 + U2 - sum_t max(0, min(c_t, tot1_t) + min(c_t, tot2_t) - c_t)

and likewise ``V`` with ``nat``. The loss term is a sum of products of 0/1 features,
``max(0, x + y - c) = sum_{i=1..c} [x >= i] [y >= c + 1 - i]`` for ``x, y <= c``, so the
tiles away of a whole block of way pairs is two small matrix products. Since the losses are
never negative, ``max(T - J - U1 - U2, T - V1 - V2)`` is a lower bound for a pair; only the
ways that can reach the threshold at all enter the block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from twinrack.card.demand import (
    COLS,
    HAND_SIZE,
    IMPOSSIBLE,
    BoolArray,
    CountsLike,
    FloatArray,
    IntArray,
    RackDemand,
    split_holding,
)
from twinrack.card.exposure import Exposure
from twinrack.card.model import Hand, Way
from twinrack.tiles import JOKER, NUM_KINDS

if TYPE_CHECKING:
    from twinrack.card.compiled import CompiledCard


@dataclass(frozen=True)
class PairPlan:
    """Two lines, one per rack, that one shared holding can make together."""

    hands: tuple[Hand, Hand]
    ways: tuple[Way, Way]
    away: int

    @property
    def value(self) -> int:
        return self.hands[0].value + self.hands[1].value


class DiscardScore(NamedTuple):
    """What discarding one tile of a kind leaves a two-rack holding: the best pair tiles
    away, and the best total value of a line pair at that tiles away (0 when no pair is
    possible, with ``away == IMPOSSIBLE``)."""

    tile: int
    away: int
    value: int


#: the most multiply-adds OpenBLAS does on the calling thread (it hands bigger products to
#: its thread pool, whose wake-ups cost milliseconds on a small machine)
_GEMM_ONE_THREAD = 1 << 18


def _product(a: FloatArray, b: FloatArray) -> FloatArray:
    """``a @ b.T``, in row chunks small enough for one thread (exact: small integers)."""
    m, k = a.shape
    n = b.shape[0]
    step = max(8, _GEMM_ONE_THREAD // max(1, n * k))
    if step >= m:
        return a @ b.T
    out = np.empty((m, n), dtype=np.float32)
    bt = b.T
    for i in range(0, m, step):
        np.matmul(a[i:i + step], bt, out=out[i:i + step])
    return out


@dataclass
class _Block:
    """Exact tiles away of every pair of some ways (rows: rack 1, columns: rack 2)."""

    rows: IntArray  # way indices, ascending
    cols: IntArray
    x: FloatArray  # T - J - U of each pair
    y: FloatArray  # T - V of each pair

    @property
    def away(self) -> FloatArray:
        return np.maximum(self.x, self.y)


#: ways per rack in the first, small block that estimates the threshold
_PROBE = 48
_FAR = 10 * IMPOSSIBLE
_GRID = HAND_SIZE + 1  # U and V of one rack are at most 14


class PairSearch:
    """Best pairs of ways for a shared two-rack holding (see the module docstring).

    A small block of each rack's most promising ways gives the tiles away ``theta`` of
    some line pairs; every way pair whose lower bound is at most ``theta`` is then scored
    in one block, which therefore holds every line pair that can rank.
    """

    def __init__(self, cc: CompiledCard, counts: CountsLike,
                 exposures1: Sequence[Exposure], exposures2: Sequence[Exposure]) -> None:
        self.cc = cc
        self.c, self.jokers = split_holding(counts)
        self.r1 = cc.rack(exposures1)
        self.r2 = cc.rack(exposures2)
        self.symmetric = self.r1.key == self.r2.key
        self.total = 2 * HAND_SIZE - self.r1.exposed - self.r2.exposed
        self.alive = self.r1.alive and self.r2.alive
        if not self.alive:
            return
        u1, v1 = cc.uv(self.r1, self.c)
        self.u1 = u1.astype(np.int64)
        self.v1 = v1.astype(np.int64)
        if self.symmetric:
            self.u2, self.v2 = self.u1, self.v1
        else:
            u2, v2 = cc.uv(self.r2, self.c)
            self.u2 = u2.astype(np.int64)
            self.v2 = v2.astype(np.int64)
        # per way, the two parts of the pair lower bound max(T - J - U1 - U2, T - V1 - V2)
        self.need_u1 = self.total - self.jokers - self.u1
        self.need_v1 = self.total - self.v1
        if self.symmetric:
            self.need_u2, self.need_v2 = self.need_u1, self.need_v1
        else:
            self.need_u2 = self.total - self.jokers - self.u2
            self.need_v2 = self.total - self.v2
        self.best_v2 = self._best_v(self.u2, self.v2, self.r2)
        self.best_v1 = self.best_v2 if self.symmetric else self._best_v(self.u1, self.v1,
                                                                         self.r1)

        # One factor row per way: for each held natural kind t and i = 1..c_t the 0/1
        # feature [tot_t >= i] (rack 2: [tot_t >= c_t + 1 - i]), then two columns for the
        # rack's own U; then the same for nat and V. Pad columns (kind 36, threshold 0)
        # come out as the constant 1; the value columns are written over.
        held = np.flatnonzero(self.c[:NUM_KINDS] > 0)
        reps = self.c.take(held).astype(np.int64)
        self.kinds = held
        kind = np.repeat(held, reps)
        self.nf = nf = len(kind)
        thr = np.arange(1, nf + 1) - np.repeat(np.cumsum(reps) - reps, reps)
        thr_rev = np.repeat(reps, reps) + 1 - thr
        pad = np.array([COLS - 1, COLS - 1])
        self.columns = np.concatenate([kind, pad, kind + COLS, pad])
        #: thresholds of rack 1 (row 0) and rack 2 (row 1)
        self.thr = np.zeros((2, 2 * nf + 4), dtype=np.int8)
        self.thr[0, :nf] = self.thr[0, nf + 2:2 * nf + 2] = thr
        self.thr[1, :nf] = self.thr[1, nf + 2:2 * nf + 2] = thr_rev

    @staticmethod
    def _best_v(u: IntArray, v: IntArray, rack: RackDemand) -> IntArray:
        """Per u = 0..15, the best V among the rack's ways with U at least u (-99 if none)."""
        if rack.restricted:
            u, v = u[rack.fit], v[rack.fit]
        seen = np.zeros(_GRID * _GRID, dtype=bool)
        seen[u * _GRID + v] = True
        cells = np.flatnonzero(seen)  # U rising, then V rising
        suffix = np.maximum.accumulate((cells % _GRID)[::-1])[::-1]
        at = np.searchsorted(cells // _GRID, np.arange(_GRID + 1))
        return np.concatenate([suffix, [-IMPOSSIBLE]]).take(at)

    @staticmethod
    def _reach(theta: int, need_u: IntArray, need_v: IntArray, other_best_v: IntArray,
               rack: RackDemand) -> BoolArray:
        """The ways of one rack that some way of the other rack takes to a pair lower bound
        of at most ``theta``: one with U at least ``need_u - theta`` and V at least
        ``need_v - theta``."""
        at = np.clip(need_u - theta, 0, _GRID)
        ok: BoolArray = other_best_v.take(at) >= need_v - theta
        if rack.restricted:
            ok &= rack.fit
        return ok

    def _block(self, rows: IntArray, cols: IntArray) -> _Block:
        """Score every pair of these ways exactly, by two small matrix products."""
        nf = self.nf
        g1 = self.r1.bank.take(rows, axis=0).take(self.columns, axis=1)
        if self.symmetric and cols is rows:
            both = np.empty((len(rows), 2, g1.shape[1]), dtype=np.float32)
            np.greater_equal(g1[:, None, :], self.thr, out=both, casting="unsafe")
            a, b = both[:, 0, :], both[:, 1, :]
        else:
            a = np.empty(g1.shape, dtype=np.float32)
            np.greater_equal(g1, self.thr[0], out=a, casting="unsafe")
            g2 = self.r2.bank.take(cols, axis=0).take(self.columns, axis=1)
            b = np.empty(g2.shape, dtype=np.float32)
            np.greater_equal(g2, self.thr[1], out=b, casting="unsafe")
        a[:, nf] = self.need_u1.take(rows)
        a[:, 2 * nf + 2] = self.need_v1.take(rows)
        b[:, nf + 1] = -self.u2.take(cols)
        b[:, 2 * nf + 3] = -self.v2.take(cols)
        half = nf + 2
        x = _product(a[:, :half], b[:, :half])
        y = _product(a[:, half:], b[:, half:])
        return _Block(rows, cols, x, y)

    def _probe(self) -> _Block:
        """The block of each rack's ``_PROBE`` most promising ways: those that need the
        fewest tiles even with the other rack's best U and best V."""
        rows = self._most_promising(self.need_u1, self.need_v1, self.u2, self.v2, self.r1,
                                    self.r2)
        if self.symmetric:
            return self._block(rows, rows)
        cols = self._most_promising(self.need_u2, self.need_v2, self.u1, self.v1, self.r2,
                                    self.r1)
        return self._block(rows, cols)

    @staticmethod
    def _most_promising(need_u: IntArray, need_v: IntArray, other_u: IntArray,
                        other_v: IntArray, rack: RackDemand, other: RackDemand) -> IntArray:
        """The ``_PROBE`` ways of least score (ties: the first in card order), ascending."""
        if other.restricted:
            other_u, other_v = other_u[other.fit], other_v[other.fit]
        score = np.maximum(need_u - int(other_u.max()), need_v - int(other_v.max()))
        if rack.restricted:
            score[rack.unfit] = _FAR
        # scores are small whole numbers: count them to find the cut
        cut = np.searchsorted(np.cumsum(np.bincount(np.clip(score, 0, _GRID * 2))), _PROBE)
        inside = np.flatnonzero(score < cut)
        if cut >= _GRID * 2:
            return inside
        tied = np.flatnonzero(score == cut)[:_PROBE - len(inside)]
        return np.sort(np.concatenate([inside, tied]))

    def _within(self, theta: int) -> _Block:
        """The block of every way pair whose lower bound is at most ``theta``."""
        rows = np.flatnonzero(self._reach(theta, self.need_u1, self.need_v1, self.best_v2,
                                          self.r1))
        cols = rows if self.symmetric else np.flatnonzero(
            self._reach(theta, self.need_u2, self.need_v2, self.best_v1, self.r2))
        return self._block(rows, cols)

    def _line_best(self, block: _Block, away: FloatArray) -> FloatArray:
        """The best tiles away of each line pair in a block (``inf`` where a symmetric
        pair is listed the other way round)."""
        hr = self.cc.way_hand.take(block.rows)
        hc = self.cc.way_hand.take(block.cols)
        rs = np.flatnonzero(np.concatenate([[True], hr[1:] != hr[:-1]]))
        cs = np.flatnonzero(np.concatenate([[True], hc[1:] != hc[:-1]]))
        lp = np.minimum.reduceat(np.minimum.reduceat(away, rs, axis=0), cs, axis=1)
        if self.symmetric:
            lp[np.tril_indices(len(rs), -1)] = np.inf
        return lp

    def top(self, n: int) -> list[PairPlan]:
        if n <= 0 or not self.alive:
            return []
        probe = self._probe()
        known = np.sort(self._line_best(probe, probe.away), axis=None)
        known = known[np.isfinite(known)]
        # the probe's n-th line pair is within reach, so the n best are at most that far
        theta = int(known[n - 1]) if len(known) >= n else self.total
        block = self._within(theta)
        away = block.away.ravel()
        at = np.flatnonzero(away <= theta)
        width = len(block.cols)
        ii = at // width
        jj = at % width
        if self.symmetric:
            keep = ii <= jj
            at, ii, jj = at[keep], ii[keep], jj[keep]
        w1 = block.rows.take(ii)
        w2 = block.cols.take(jj)
        a = away.take(at).astype(np.int64)
        h1 = self.cc.way_hand.take(w1)
        h2 = self.cc.way_hand.take(w2)
        # the first way pair (card order) of each line pair at its best tiles away
        order = np.lexsort((a, h2, h1))
        h1s, h2s = h1[order], h2[order]
        starts = order[np.concatenate([[True], (h1s[1:] != h1s[:-1]) | (h2s[1:] != h2s[:-1])])]
        value = self.cc.hand_value.take(h1[starts]) + self.cc.hand_value.take(h2[starts])
        ranked = starts[np.lexsort((h2[starts], h1[starts], -value, a[starts]))][:n]
        hands = self.cc.card.hands
        ways = self.cc.ways
        return [PairPlan((hands[h1[k]], hands[h2[k]]), (ways[w1[k]], ways[w2[k]]), int(a[k]))
                for k in ranked.tolist()]

    def discards(self) -> list[DiscardScore]:
        if not self.alive:
            tiles = np.flatnonzero(self.c[:NUM_KINDS] > 0).tolist()
            tiles += [JOKER] if self.jokers else []
            return [DiscardScore(t, IMPOSSIBLE, 0) for t in tiles]
        tiles = self.kinds.tolist() + ([JOKER] if self.jokers else [])
        # the best pair is at most the probe's best; the best after a discard is at most
        # one more, and only pairs within one of the best can reach that
        block = self._within(int(self._probe().away.min()) + 1)
        away = block.away.ravel()
        at = np.flatnonzero(away <= away.min() + 1)
        width = len(block.cols)
        w1 = block.rows.take(at // width)
        w2 = block.cols.take(at % width)
        x = block.x.ravel().take(at)[:, None]  # T - J - U
        y = block.y.ravel().take(at)[:, None]  # T - V
        # one natural fewer costs U (V) a tile when the pair uses every copy held of it
        m = len(self.kinds)
        columns = np.concatenate([self.kinds, self.kinds + COLS])
        demand = (self.r1.bank.take(w1, axis=0).take(columns, axis=1).astype(np.int16)
                  + self.r2.bank.take(w2, axis=0).take(columns, axis=1))
        short = demand >= self.c.take(columns % COLS)
        after = np.maximum(x + short[:, :m], y + short[:, m:])
        if self.jokers:  # one Joker fewer costs U + J a tile
            after = np.concatenate([after, np.maximum(x + 1, y)], axis=1)
        value = (self.cc.way_value.take(w1) + self.cc.way_value.take(w2))[:, None]
        scale = int(value.max()) + 1
        pick = (after * scale - value).min(axis=0).astype(np.int64)
        aways = (pick + scale - 1) // scale
        values = aways * scale - pick
        return [DiscardScore(t, a, val)
                for t, a, val in zip(tiles, aways.tolist(), values.tolist(), strict=True)]
