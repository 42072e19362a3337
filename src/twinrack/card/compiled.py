"""A card compiled into numpy arrays for fast Mah Jongg checks and tiles-away analysis.

Every concrete way of every line is split, per tile kind ``t``, into

* ``nat_t``: tiles in singles and pairs, which must be natural, and
* ``big_t``: tiles in groups of 3 or more, which a held Joker may fill;
  ``tot_t = nat_t + big_t``.

For a holding of natural counts ``c`` and ``J`` Jokers the most slots of a way it fills is
``min(U + J, V)`` with

    U = sum_t min(c_t, tot_t)             (naturals that fit anywhere in the way)
    V = sum_t min(c_t, nat_t) + sum_t big_t

because naturals go first to the singles and pairs (nothing else fills them), then to the
big groups, and Jokers fill what the big groups still lack: per kind, the naturals placed
plus the Joker-fillable shortfall is ``min(c_t, nat_t) + big_t``, so the Jokers add
``min(J, V - U)``. Tiles away is what the way still holds minus that. An exposure fills one
whole group of its tile and size, so it removes that group from the demand.

Two racks sharing one holding make a pair of ways. Each held tile goes to one slot of one
rack, so the pair is filled like one way with the summed demand, and its ``U`` and ``V``
are the two racks' own values less what they compete for:

    U_pair = U1 + U2 - sum_t max(0, min(c_t, tot1_t) + min(c_t, tot2_t) - c_t)

and likewise ``V`` with ``nat``. The loss term is a sum of products of 0/1 features,
``max(0, x + y - c) = sum_{i=1..c} [x >= i] [y >= c + 1 - i]`` for ``x, y <= c``, so the
tiles away of a whole block of way pairs is two small matrix products. Since the losses are
never negative, ``max(T - J - U1 - U2, T - V1 - V2)`` is a lower bound for a pair; only the
ways that can reach the threshold at all enter the block.

The plain, loop-by-loop version of the same definitions lives in the tests as the oracle
(tests/card/oracle.py); the fast code here must agree with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from twinrack.card.exposure import Exposure
from twinrack.card.model import Card, Hand, Way
from twinrack.tiles import JOKER, NUM_KINDS

IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int16]
TinyArray = npt.NDArray[np.int8]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]
CountsLike = Sequence[int] | npt.NDArray[np.integer]

HAND_SIZE = 14
#: tiles away reported for a way the rack can no longer make (an exposure does not fit it)
IMPOSSIBLE = 99
#: rack demands kept per compiled card (one per distinct set of exposures seen)
_RACK_CACHE = 512
_COLS = NUM_KINDS + 1  # tile kinds plus a zero pad

ExposureKey = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class HandAway:
    """How far a holding is from one line: its best way and the natural tiles it needs."""

    hand: Hand
    away: int
    way: Way
    needs: tuple[int, ...]


@dataclass(frozen=True)
class Match:
    """A line that a 14-tile rack makes, with the concrete way used."""

    hand: Hand
    way: Way
    jokerless: bool
    closed: bool


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


def exposure_key(exposures: Iterable[Exposure]) -> ExposureKey:
    """What matters of a rack's exposures for matching: their tiles and sizes."""
    return tuple(sorted((x.tile, x.size) for x in exposures))


def _counts36(counts: CountsLike) -> tuple[SmallArray, int]:
    """Split a 36-long count vector into natural counts (Jokers zeroed, plus a pad) and J."""
    arr = np.asarray(counts)
    if arr.shape != (NUM_KINDS,):
        raise ValueError(f"a holding is a vector of {NUM_KINDS} counts, not {arr.shape}")
    c = np.zeros(NUM_KINDS + 1, dtype=np.int16)
    c[:NUM_KINDS] = arr
    if (c < 0).any():
        raise ValueError("a holding cannot hold a negative number of tiles")
    jokers = int(c[JOKER])
    c[JOKER] = 0
    return c, jokers


@dataclass(frozen=True)
class RackDemand:
    """What each way still asks of one rack once that rack's exposures are placed.

    Rows of ways the exposures do not fit (``fit`` false) hold meaningless numbers.
    """

    key: ExposureKey
    fit: BoolArray
    exposed: int
    bank: TinyArray  # ways x 74: per kind, tot (nat + big) still to fill, then nat
    big_sum: SmallArray  # per way: tiles of big groups still to fill
    touched: tuple[int, ...]  # kinds whose demand the exposures changed
    entry_tot: SmallArray  # tot and nat again, sparse: per (way, kind) entry of the card
    entry_nat: SmallArray

    @property
    def tot(self) -> TinyArray:
        return self.bank[:, :_COLS]

    @property
    def nat(self) -> TinyArray:
        return self.bank[:, _COLS:]

    @property
    def alive(self) -> bool:
        return bool(self.fit.any())


class CompiledCard:
    """The arrays of one card. Build once per card (cheap), then query many holdings."""

    def __init__(self, card: Card) -> None:
        self.card = card
        ways: list[Way] = []
        way_hand: list[int] = []
        hand_start: list[int] = []
        for h in card.hands:
            hand_start.append(len(ways))
            for w in h.ways:
                ways.append(w)
                way_hand.append(h.number)
        self.ways: list[Way] = ways
        self.way_hand = np.array(way_hand, dtype=np.int64)
        self.hand_start = np.array(hand_start, dtype=np.int64)
        self.hand_value = np.array([h.value for h in card.hands], dtype=np.int64)
        n = len(ways)
        self.n_ways = n
        self.way_value = self.hand_value[self.way_hand]
        self.way_concealed = np.array([card.hands[h].concealed for h in way_hand], dtype=bool)

        # dense demand (ways x 37, the last column a zero pad)
        nat = np.zeros((n, NUM_KINDS + 1), dtype=np.int8)
        big = np.zeros((n, NUM_KINDS + 1), dtype=np.int8)
        for i, w in enumerate(ways):
            for g in w.groups:
                if g.takes_jokers:
                    big[i, g.tile] += g.size
                else:
                    nat[i, g.tile] += g.size
        self.nat = nat
        self.big = big

        # sparse entries, one per (way, kind used), in way order
        ew, et = np.nonzero((nat + big) > 0)
        self.entry_way = ew.astype(np.int64)
        self.entry_tile = et.astype(np.int64)
        self.way_entry_start = np.searchsorted(self.entry_way, np.arange(n)).astype(np.int64)
        #: entries of each tile kind (for incremental updates)
        self.entries_of_tile: list[IntArray] = [
            np.nonzero(self.entry_tile == t)[0].astype(np.int64) for t in range(NUM_KINDS + 1)]

        # exposure fitting: how many groups of each (tile, size) each way has
        keys: dict[tuple[int, int], int] = {}
        for w in ways:
            for g in w.groups:
                keys.setdefault((g.tile, g.size), len(keys))
        self.group_keys = keys
        gc = np.zeros((n, max(len(keys), 1)), dtype=np.int8)
        for i, w in enumerate(ways):
            for g in w.groups:
                gc[i, keys[(g.tile, g.size)]] += 1
        self.group_count = gc
        self._racks: dict[ExposureKey, RackDemand] = {}

        # per kind t and count k held: min(k, tot_t) and min(k, nat_t) of every way, so
        # that U and V of the whole card are one gather and one sum over the held kinds
        tot = (nat + big).astype(np.int8)
        self.most = max(int(tot.max(initial=0)), 1)  # more copies held than this never count
        k = np.arange(self.most + 1, dtype=np.int8)
        table = np.empty((_COLS, self.most + 1, 2 * n), dtype=np.int8)
        table[:, :, :n] = np.minimum(k[None, :, None], tot.T[:, None, :])
        table[:, :, n:] = np.minimum(k[None, :, None], nat.T[:, None, :])
        self.table = table.reshape(_COLS * (self.most + 1), 2 * n)  # row: kind, count

    # ------------------------------------------------------------------ exposures

    def _fit(self, key: ExposureKey) -> BoolArray:
        mask = np.ones(self.n_ways, dtype=bool)
        if not key:
            return mask
        mask &= ~self.way_concealed
        for group, count in Counter(key).items():
            col = self.group_keys.get(group)
            if col is None:
                return np.zeros(self.n_ways, dtype=bool)
            mask &= self.group_count[:, col] >= count
        return mask

    def fitting(self, exposures: Sequence[Exposure]) -> BoolArray:
        """Which ways can hold all these exposures, each filling one whole group of its
        tile and size (and so are still possible for that rack). A concealed line admits
        no exposure."""
        return self._fit(exposure_key(exposures)).copy()

    def rack_alive(self, exposures: Sequence[Exposure]) -> bool:
        """True when some line of the card can still be made on a rack with these exposures
        (an exposure that fits no line kills its rack)."""
        return bool(self._fit(exposure_key(exposures)).any())

    def rack(self, exposures: Iterable[Exposure] = ()) -> RackDemand:
        """The demand of every way on a rack with these exposures (cached per card)."""
        key = exposure_key(exposures)
        found = self._racks.get(key)
        if found is not None:
            return found
        fit = self._fit(key)
        e_small = np.zeros(_COLS, dtype=np.int8)
        e_big = np.zeros(_COLS, dtype=np.int8)
        for tile, size in key:
            if size >= 3:
                e_big[tile] += size
            else:
                e_small[tile] += size
        nat = np.maximum(self.nat - e_small, 0).astype(np.int8)
        big = np.maximum(self.big - e_big, 0).astype(np.int8)
        tot = (nat + big).astype(np.int8)
        demand = RackDemand(
            key=key, fit=fit, exposed=sum(size for _tile, size in key),
            bank=np.ascontiguousarray(np.concatenate([tot, nat], axis=1)),
            big_sum=big.sum(axis=1, dtype=np.int16),
            touched=tuple(sorted({tile for tile, _size in key})),
            entry_tot=tot[self.entry_way, self.entry_tile].astype(np.int16),
            entry_nat=nat[self.entry_way, self.entry_tile].astype(np.int16))
        if len(self._racks) >= _RACK_CACHE:
            self._racks.clear()
        self._racks[key] = demand
        return demand

    # ------------------------------------------------------------------ one rack

    def _uv(self, rack: RackDemand, c: SmallArray) -> tuple[SmallArray, SmallArray]:
        """Per way: ``U`` (naturals that fit anywhere) and ``V`` (naturals in singles and
        pairs plus the big groups' size); the way is filled ``min(U + J, V)``."""
        n = self.n_ways
        plain = c
        if rack.touched:
            plain = c.copy()
            plain[list(rack.touched)] = 0
        held = np.flatnonzero(plain)
        rows = held * (self.most + 1) + np.minimum(plain.take(held), self.most)
        uv = self.table.take(rows, axis=0).sum(axis=0, dtype=np.int16)
        for t in rack.touched:  # kinds the exposures changed: straight from the demand
            if c[t]:
                uv[:n] += np.minimum(c[t], rack.bank[:, t])
                uv[n:] += np.minimum(c[t], rack.bank[:, _COLS + t])
        return uv[:n], uv[n:] + rack.big_sum

    def way_aways(self, counts: CountsLike, exposures: Sequence[Exposure] = ()) -> IntArray:
        """Tiles away from every concrete way (``IMPOSSIBLE`` where exposures do not fit).

        ``counts`` is the concealed holding (Jokers included) as a 36-long count vector.
        """
        c, jokers = _counts36(counts)
        rack = self.rack(exposures)
        u, v = self._uv(rack, c)
        away = (HAND_SIZE - rack.exposed) - np.minimum(u + jokers, v).astype(np.int64)
        if rack.key:
            away[~rack.fit] = IMPOSSIBLE
        return away

    def hand_aways(self, counts: CountsLike, exposures: Sequence[Exposure] = ()) -> IntArray:
        """Tiles away from every line of the card (the best of its ways), in card order."""
        return np.minimum.reduceat(self.way_aways(counts, exposures), self.hand_start)

    def needs(self, way_index: int, counts: CountsLike,
              exposures: Sequence[Exposure] = ()) -> tuple[int, ...]:
        """The natural tiles still missing from one way once held Jokers fill what they
        can (Jokers go to the biggest shortfalls first), sorted."""
        c, jokers = _counts36(counts)
        rack = self.rack(exposures)
        nat = rack.nat[way_index].astype(np.int64)
        big = rack.tot[way_index].astype(np.int64) - nat
        short_nat = np.maximum(nat - c, 0)
        spare = np.maximum(c - nat, 0)
        short_big = big - np.minimum(big, spare)
        order = sorted(range(NUM_KINDS), key=lambda t: (-short_big[t], t))
        for t in order:
            if jokers <= 0:
                break
            use = min(jokers, int(short_big[t]))
            short_big[t] -= use
            jokers -= use
        out: list[int] = []
        for t in range(NUM_KINDS):
            out.extend([t] * int(short_nat[t] + short_big[t]))
        return tuple(out)

    def nearest(self, counts: CountsLike, exposures: Sequence[Exposure] = (),
                top: int | None = None) -> list[HandAway]:
        """Lines ordered nearest first, then higher value, then card order."""
        aways = self.way_aways(counts, exposures)
        per_hand = np.minimum.reduceat(aways, self.hand_start)
        order = sorted(range(len(self.card.hands)),
                       key=lambda h: (int(per_hand[h]), -self.card.hands[h].value, h))
        order = [h for h in order if per_hand[h] < IMPOSSIBLE]
        if top is not None:
            order = order[:top]
        out: list[HandAway] = []
        for h in order:
            start = int(self.hand_start[h])
            stop = start + len(self.card.hands[h].ways)
            w = start + int(np.argmin(aways[start:stop]))
            out.append(HandAway(self.card.hands[h], int(per_hand[h]), self.ways[w],
                                self.needs(w, counts, exposures)))
        return out

    # ------------------------------------------------------------------ Mah Jongg

    def matches(self, concealed: CountsLike, exposures: Sequence[Exposure] = ()) -> list[Match]:
        """Every line that a 14-tile rack (concealed counts plus exposures) makes, in card
        order, each with the first of its ways that the rack makes."""
        c, jokers = _counts36(concealed)
        rack = self.rack(exposures)
        if int(c.sum()) + jokers + rack.exposed != HAND_SIZE:
            return []
        u, v = self._uv(rack, c)
        made = np.minimum(u + jokers, v) == HAND_SIZE - rack.exposed
        if rack.key:
            made &= rack.fit
        hits = np.flatnonzero(made)
        if not len(hits):
            return []
        jokerless = jokers == 0 and all(x.jokers == 0 for x in exposures)
        out: list[Match] = []
        last = -1
        for w in hits.tolist():
            h = int(self.way_hand[w])
            if h != last:
                last = h
                out.append(Match(self.card.hands[h], self.ways[w], jokerless, not exposures))
        return out

    # ------------------------------------------------------------------ two racks

    def pair_aways(self, counts: CountsLike, w1: IntArray, w2: IntArray,
                   exposures1: Sequence[Exposure] = (),
                   exposures2: Sequence[Exposure] = ()) -> IntArray:
        """Exact tiles away of the way pairs ``(w1[i], w2[i])`` for one shared holding
        (``IMPOSSIBLE`` where a rack's exposures do not fit its way)."""
        c, jokers = _counts36(counts)
        r1 = self.rack(exposures1)
        r2 = self.rack(exposures2)
        w1 = np.asarray(w1, dtype=np.int64)
        w2 = np.asarray(w2, dtype=np.int64)
        tot = r1.tot[w1].astype(np.int16) + r2.tot[w2]
        nat = r1.nat[w1].astype(np.int16) + r2.nat[w2]
        u = np.minimum(c, tot).sum(axis=1, dtype=np.int64)
        v = (np.minimum(c, nat).sum(axis=1, dtype=np.int64)
             + r1.big_sum[w1] + r2.big_sum[w2])
        away = (2 * HAND_SIZE - r1.exposed - r2.exposed) - np.minimum(u + jokers, v)
        return np.where(r1.fit[w1] & r2.fit[w2], away, IMPOSSIBLE)

    def best_pairs(self, counts: CountsLike, exposures1: Sequence[Exposure] = (),
                   exposures2: Sequence[Exposure] = (), top: int = 10) -> list[PairPlan]:
        """The ``top`` best pairs of lines (one per rack) for one shared holding: nearest
        first, then higher total value, then card order; each with the first way pair (in
        card order) reaching its tiles away. Exact.

        When both racks have the same exposures (tiles and sizes) they are interchangeable
        and a pair of lines is listed once, the earlier line on rack 1.
        """
        return PairSearch(self, counts, exposures1, exposures2).top(top)

    def discard_scores(self, counts: CountsLike, exposures1: Sequence[Exposure] = (),
                       exposures2: Sequence[Exposure] = ()) -> list[DiscardScore]:
        """For every kind of concealed tile held (Jokers included), in tile order: the best
        pair tiles away after discarding one of it, and the best total value of a line pair
        at that tiles away. Exact.

        Losing one tile costs every way pair 0 or 1 tile, so only pairs at most one tile
        worse than the best pair can be best after any discard.
        """
        return PairSearch(self, counts, exposures1, exposures2).discards()

    # ------------------------------------------------------------------ incremental

    def tracker(self, counts: CountsLike, exposures: Sequence[Exposure] = ()) -> AwayTracker:
        return AwayTracker(self, counts, exposures)


class AwayTracker:
    """Tiles away from every way of the card, kept up to date as single tiles come and go.

    Adding or removing one tile touches only the entries of that tile kind.
    """

    def __init__(self, compiled: CompiledCard, counts: CountsLike,
                 exposures: Sequence[Exposure] = ()) -> None:
        self.cc = compiled
        self.c, self.jokers = _counts36(counts)
        self.exposures = tuple(exposures)
        self.rack = compiled.rack(self.exposures)
        self.exposed = self.rack.exposed
        self.fit = self.rack.fit
        u, v = compiled._uv(self.rack, self.c)
        self.u = u.astype(np.int64)
        self.v = v.astype(np.int64)

    def counts(self) -> SmallArray:
        """The holding now, as a 36-long count vector (Jokers included)."""
        out = self.c[:NUM_KINDS].copy()
        out[JOKER] = self.jokers
        return out

    def _aways(self, u: IntArray, v: IntArray, jokers: int) -> IntArray:
        away = (HAND_SIZE - self.exposed) - np.minimum(u + jokers, v)
        if self.rack.key:
            away[~self.fit] = IMPOSSIBLE
        return away

    def aways(self) -> IntArray:
        return self._aways(self.u, self.v, self.jokers)

    def _steps(self, tile: int, step: int) -> tuple[IntArray, IntArray, IntArray]:
        """The ways touched by one more (step +1) or one fewer (-1) ``tile``, and by how
        much their U and V change."""
        if not 0 <= tile < JOKER:
            raise ValueError(f"no tile kind {tile}")
        if step < 0 and self.c[tile] <= 0:
            raise ValueError("no such tile to remove")
        entries = self.cc.entries_of_tile[tile]
        # one more natural fits a slot when fewer than the demand were held before it
        below = int(self.c[tile]) if step > 0 else int(self.c[tile]) - 1
        du = (below < self.rack.entry_tot[entries]).astype(np.int64)
        dv = (below < self.rack.entry_nat[entries]).astype(np.int64)
        return self.cc.entry_way[entries], du * step, dv * step

    def add(self, tile: int) -> None:
        self._change(tile, +1)

    def remove(self, tile: int) -> None:
        self._change(tile, -1)

    def _change(self, tile: int, step: int) -> None:
        if tile == JOKER:
            if self.jokers + step < 0:
                raise ValueError("no Joker to remove")
            self.jokers += step
            return
        ways, du, dv = self._steps(tile, step)
        self.u[ways] += du
        self.v[ways] += dv
        self.c[tile] += step

    def aways_without(self, tile: int) -> IntArray:
        """Tiles away from every way if one ``tile`` left the holding (a discard),
        without changing the tracker."""
        if tile == JOKER:
            if self.jokers <= 0:
                raise ValueError("no Joker to remove")
            return self._aways(self.u, self.v, self.jokers - 1)
        ways, du, dv = self._steps(tile, -1)
        u = self.u.copy()
        v = self.v.copy()
        u[ways] += du
        v[ways] += dv
        return self._aways(u, v, self.jokers)


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
        self.c, self.jokers = _counts36(counts)
        self.r1 = cc.rack(exposures1)
        self.r2 = cc.rack(exposures2)
        self.symmetric = self.r1.key == self.r2.key
        self.total = 2 * HAND_SIZE - self.r1.exposed - self.r2.exposed
        self.alive = self.r1.alive and self.r2.alive
        if not self.alive:
            return
        u1, v1 = cc._uv(self.r1, self.c)
        self.u1 = u1.astype(np.int64)
        self.v1 = v1.astype(np.int64)
        if self.symmetric:
            self.u2, self.v2 = self.u1, self.v1
        else:
            u2, v2 = cc._uv(self.r2, self.c)
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
        pad = np.array([_COLS - 1, _COLS - 1])
        self.columns = np.concatenate([kind, pad, kind + _COLS, pad])
        #: thresholds of rack 1 (row 0) and rack 2 (row 1)
        self.thr = np.zeros((2, 2 * nf + 4), dtype=np.int8)
        self.thr[0, :nf] = self.thr[0, nf + 2:2 * nf + 2] = thr
        self.thr[1, :nf] = self.thr[1, nf + 2:2 * nf + 2] = thr_rev

    @staticmethod
    def _best_v(u: IntArray, v: IntArray, rack: RackDemand) -> IntArray:
        """Per u = 0..15, the best V among the rack's ways with U at least u (-99 if none)."""
        if rack.key:
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
        if rack.key:
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
        if other.key:
            other_u, other_v = other_u[other.fit], other_v[other.fit]
        score = np.maximum(need_u - int(other_u.max()), need_v - int(other_v.max()))
        if rack.key:
            score[~rack.fit] = _FAR
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
        columns = np.concatenate([self.kinds, self.kinds + _COLS])
        demand = (self.r1.bank.take(w1, axis=0).take(columns, axis=1).astype(np.int16)
                  + self.r2.bank.take(w2, axis=0).take(columns, axis=1))
        short = demand >= self.c.take(columns % _COLS)
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
