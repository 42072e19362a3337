"""A card compiled into numpy arrays for fast Mah Jongg checks and tiles-away analysis.

Every concrete way of every line is split, per tile kind, into

* ``nat``: tiles in singles and pairs, which must be natural, and
* ``big``: tiles in groups of 3 or more, which a held Joker may fill.

For a holding ``c`` (natural counts) with ``J`` Jokers, the most tiles of a way it can
already fill is ``sum_t min(c_t, nat_t + big_t) + min(J, sum_t deficit_t)`` where
``deficit_t = big_t - min(big_t, max(0, c_t - nat_t))``: naturals go first to the singles
and pairs (nothing else can fill them), the rest to the big groups, and Jokers fill what the
big groups still lack. Tiles away is what the way holds minus that. An exposure fills one
whole group of its tile and size, so it removes that group from the demand.

Two racks sharing one holding make a pair of ways; because each slot of each rack is filled
independently, the pair's best filling is the formula above on the summed demand.

The arrays are laid out sparse: one *entry* per (way, tile kind) that the way uses, in way
order, so the whole card is evaluated with a handful of vector operations over some
thousands of entries. The plain, loop-by-loop version of the same definitions lives in the
tests as the oracle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from twinrack.card.exposure import Exposure
from twinrack.card.model import Card, Hand, Way
from twinrack.tiles import JOKER, NUM_KINDS

IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int16]
BoolArray = npt.NDArray[np.bool_]

HAND_SIZE = 14
#: tiles away reported for a way the rack can no longer make (an exposure does not fit it)
IMPOSSIBLE = 99


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


def _counts36(counts: Sequence[int] | npt.NDArray[np.integer]) -> tuple[SmallArray, int]:
    """Split a 36-long count vector into natural counts (Jokers zeroed, plus a pad) and J."""
    c = np.zeros(NUM_KINDS + 1, dtype=np.int16)
    c[:NUM_KINDS] = counts
    jokers = int(c[JOKER])
    c[JOKER] = 0
    return c, jokers


def _exposure_vector(exposures: Iterable[Exposure]) -> tuple[SmallArray, int]:
    e = np.zeros(NUM_KINDS + 1, dtype=np.int16)
    size = 0
    for x in exposures:
        e[x.tile] += x.size
        size += x.size
    return e, size


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
        n = len(ways)
        self.n_ways = n
        self.way_value = np.array([card.hands[h].value for h in way_hand], dtype=np.int64)
        self.way_concealed = np.array([card.hands[h].concealed for h in way_hand], dtype=bool)

        # dense demand (ways x 37, the last column a zero pad)
        nat = np.zeros((n, NUM_KINDS + 1), dtype=np.int16)
        big = np.zeros((n, NUM_KINDS + 1), dtype=np.int16)
        for i, w in enumerate(ways):
            for g in w.groups:
                if g.takes_jokers:
                    big[i, g.tile] += g.size
                else:
                    nat[i, g.tile] += g.size
        self.nat = nat
        self.big = big

        # sparse entries, in way order
        ew, et = np.nonzero((nat + big) > 0)
        self.entry_way = ew.astype(np.int64)
        self.entry_tile = et.astype(np.int64)
        self.entry_nat = nat[ew, et]
        self.entry_big = big[ew, et]
        self.entry_total = self.entry_nat + self.entry_big
        starts = np.searchsorted(self.entry_way, np.arange(n))
        self.way_entry_start = starts.astype(np.int64)
        #: entries of each tile kind (for incremental updates and discards)
        self.entries_of_tile: list[IntArray] = [
            np.nonzero(self.entry_tile == t)[0].astype(np.int64) for t in range(NUM_KINDS + 1)]

        # exposure fitting: how many groups of each (tile, size >= 3) key each way has
        keys: dict[tuple[int, int], int] = {}
        for w in ways:
            for g in w.groups:
                if g.takes_jokers:
                    keys.setdefault((g.tile, g.size), len(keys))
        self.group_keys = keys
        gc = np.zeros((n, max(len(keys), 1)), dtype=np.int16)
        for i, w in enumerate(ways):
            for g in w.groups:
                if g.takes_jokers:
                    gc[i, keys[(g.tile, g.size)]] += 1
        self.group_count = gc

    # ------------------------------------------------------------------ exposures

    def fitting(self, exposures: Sequence[Exposure]) -> BoolArray:
        """Which ways can hold all these exposures, each filling one group (and so are
        still possible for that rack). A concealed line admits no exposure."""
        mask = np.ones(self.n_ways, dtype=bool)
        if not exposures:
            return mask
        mask &= ~self.way_concealed
        need = Counter((x.tile, x.size) for x in exposures)
        for key, count in need.items():
            col = self.group_keys.get(key)
            if col is None:
                return np.zeros(self.n_ways, dtype=bool)
            mask &= self.group_count[:, col] >= count
        return mask

    def rack_alive(self, exposures: Sequence[Exposure]) -> bool:
        """True when some line of the card can still be made on a rack with these exposures
        (an exposure that fits no line kills its rack)."""
        return bool(self.fitting(exposures).any())

    # ------------------------------------------------------------------ one rack

    def _entry_terms(self, c: SmallArray, e: SmallArray | None) -> tuple[SmallArray, SmallArray]:
        """Per entry: naturals that count and the Joker-fillable deficit."""
        ct = c[self.entry_tile]
        nat = self.entry_nat
        big = self.entry_big
        if e is not None:
            big = np.maximum(big - e[self.entry_tile], 0).astype(np.int16)
        useful = np.minimum(ct, nat + big)
        spare = np.maximum(ct - nat, 0)
        deficit = big - np.minimum(big, spare)
        return useful, deficit

    def way_sums(self, counts: Sequence[int] | npt.NDArray[np.integer],
                 exposures: Sequence[Exposure] = ()) -> tuple[IntArray, IntArray, int]:
        """Per way: sum of useful naturals, sum of Joker-fillable deficit; and the Jokers."""
        c, jokers = _counts36(counts)
        e = _exposure_vector(exposures)[0] if exposures else None
        useful, deficit = self._entry_terms(c, e)
        s_useful = np.add.reduceat(useful.astype(np.int64), self.way_entry_start)
        s_deficit = np.add.reduceat(deficit.astype(np.int64), self.way_entry_start)
        return s_useful, s_deficit, jokers

    def way_aways(self, counts: Sequence[int] | npt.NDArray[np.integer],
                  exposures: Sequence[Exposure] = ()) -> IntArray:
        """Tiles away from every concrete way (``IMPOSSIBLE`` where exposures do not fit).

        ``counts`` is the concealed holding (Jokers included) as a 36-long count vector.
        """
        s_useful, s_deficit, jokers = self.way_sums(counts, exposures)
        exposed = sum(x.size for x in exposures)
        away = (HAND_SIZE - exposed) - s_useful - np.minimum(s_deficit, jokers)
        if exposures:
            away = np.where(self.fitting(exposures), away, IMPOSSIBLE)
        return away

    def hand_aways(self, counts: Sequence[int] | npt.NDArray[np.integer],
                   exposures: Sequence[Exposure] = ()) -> IntArray:
        """Tiles away from every line of the card (the best of its ways), in card order."""
        return np.minimum.reduceat(self.way_aways(counts, exposures), self.hand_start)

    def needs(self, way_index: int, counts: Sequence[int] | npt.NDArray[np.integer],
              exposures: Sequence[Exposure] = ()) -> tuple[int, ...]:
        """The natural tiles still missing from one way once held Jokers fill what they
        can (Jokers go to the biggest shortfalls first), sorted."""
        c, jokers = _counts36(counts)
        e, _ = _exposure_vector(exposures)
        nat = self.nat[way_index].astype(np.int64)
        big = np.maximum(self.big[way_index].astype(np.int64) - e, 0)
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

    def nearest(self, counts: Sequence[int] | npt.NDArray[np.integer],
                exposures: Sequence[Exposure] = (), top: int | None = None) -> list[HandAway]:
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

    def matches(self, concealed: Sequence[int] | npt.NDArray[np.integer],
                exposures: Sequence[Exposure] = ()) -> list[Match]:
        """Every line that a 14-tile rack (concealed counts plus exposures) makes."""
        total = int(np.sum(concealed)) + sum(x.size for x in exposures)
        if total != HAND_SIZE:
            return []
        aways = self.way_aways(concealed, exposures)
        hits = np.nonzero(aways == 0)[0]
        jokerless = int(concealed[JOKER]) == 0 and all(x.jokers == 0 for x in exposures)
        out: list[Match] = []
        seen: set[int] = set()
        for w in hits:
            h = int(self.way_hand[w])
            if h in seen:
                continue
            seen.add(h)
            out.append(Match(self.card.hands[h], self.ways[int(w)], jokerless, not exposures))
        return out

    # ------------------------------------------------------------------ two racks

    def pair_aways(self, counts: Sequence[int] | npt.NDArray[np.integer],
                   w1: IntArray, w2: IntArray,
                   exposures1: Sequence[Exposure] = (),
                   exposures2: Sequence[Exposure] = ()) -> IntArray:
        """Exact tiles away of the way pairs ``(w1[i], w2[i])`` for one shared holding."""
        c, jokers = _counts36(counts)
        e1, n1 = _exposure_vector(exposures1)
        e2, n2 = _exposure_vector(exposures2)
        nat = self.nat[w1] + self.nat[w2]
        big = (np.maximum(self.big[w1] - e1, 0) + np.maximum(self.big[w2] - e2, 0))
        useful = np.minimum(c, nat + big).sum(axis=1, dtype=np.int64)
        spare = np.maximum(c - nat, 0)
        deficit = (big - np.minimum(big, spare)).sum(axis=1, dtype=np.int64)
        return (2 * HAND_SIZE - n1 - n2) - useful - np.minimum(deficit, jokers)

    def best_pairs(self, counts: Sequence[int] | npt.NDArray[np.integer],
                   exposures1: Sequence[Exposure] = (),
                   exposures2: Sequence[Exposure] = (), top: int = 10) -> list[PairPlan]:
        """The ``top`` best pairs of lines (one per rack) for one shared holding: nearest
        first, then higher total value. Exact: every way pair that could rank is scored.

        Each rack alone, with the whole holding to itself, is a lower bound on what it
        needs in the pair (sharing can only cost), so way pairs are scored in rounds by
        that bound until ``top`` distinct line pairs are known to be at least as near as
        any pair not yet scored.
        """
        return PairSearch(self, counts, exposures1, exposures2).top(top)

    # ------------------------------------------------------------------ incremental

    def tracker(self, counts: Sequence[int] | npt.NDArray[np.integer],
                exposures: Sequence[Exposure] = ()) -> AwayTracker:
        return AwayTracker(self, counts, exposures)


class AwayTracker:
    """Tiles away from every way of the card, kept up to date as single tiles come and go.

    Adding or removing one tile touches only the entries of that tile kind.
    """

    def __init__(self, compiled: CompiledCard, counts: Sequence[int] | npt.NDArray[np.integer],
                 exposures: Sequence[Exposure] = ()) -> None:
        self.cc = compiled
        self.c, self.jokers = _counts36(counts)
        self.exposures = tuple(exposures)
        self.e = _exposure_vector(exposures)[0] if exposures else None
        self.exposed = sum(x.size for x in exposures)
        self.fit = compiled.fitting(self.exposures)
        self.big = self.cc.entry_big if self.e is None else np.maximum(
            self.cc.entry_big - self.e[self.cc.entry_tile], 0).astype(np.int16)
        useful, deficit = self._terms(np.arange(len(self.cc.entry_tile)), self.c)
        self.s_useful = np.add.reduceat(useful, self.cc.way_entry_start)
        self.s_deficit = np.add.reduceat(deficit, self.cc.way_entry_start)

    def _terms(self, entries: IntArray, c: SmallArray) -> tuple[IntArray, IntArray]:
        ct = c[self.cc.entry_tile[entries]].astype(np.int64)
        nat = self.cc.entry_nat[entries].astype(np.int64)
        big = self.big[entries].astype(np.int64)
        useful = np.minimum(ct, nat + big)
        deficit = big - np.minimum(big, np.maximum(ct - nat, 0))
        return useful, deficit

    def aways(self) -> IntArray:
        away = (HAND_SIZE - self.exposed) - self.s_useful - np.minimum(self.s_deficit,
                                                                        self.jokers)
        return np.where(self.fit, away, IMPOSSIBLE)

    def _delta(self, tile: int, step: int) -> tuple[IntArray, IntArray, IntArray]:
        entries = self.cc.entries_of_tile[tile]
        old_u, old_d = self._terms(entries, self.c)
        c2 = self.c.copy()
        c2[tile] += step
        new_u, new_d = self._terms(entries, c2)
        return self.cc.entry_way[entries], new_u - old_u, new_d - old_d

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
        if self.c[tile] + step < 0:
            raise ValueError("no such tile to remove")
        ways, du, dd = self._delta(tile, step)
        self.s_useful[ways] += du
        self.s_deficit[ways] += dd
        self.c[tile] += step

    def aways_without(self, tile: int) -> IntArray:
        """Tiles away from every way if one ``tile`` left the holding (a discard),
        without changing the tracker."""
        if tile == JOKER:
            away = (HAND_SIZE - self.exposed) - self.s_useful - np.minimum(
                self.s_deficit, self.jokers - 1)
            return np.where(self.fit, away, IMPOSSIBLE)
        ways, du, dd = self._delta(tile, -1)
        su = self.s_useful.copy()
        sd = self.s_deficit.copy()
        su[ways] += du
        sd[ways] += dd
        away = (HAND_SIZE - self.exposed) - su - np.minimum(sd, self.jokers)
        return np.where(self.fit, away, IMPOSSIBLE)


class PairSearch:
    """Best pairs of ways for a shared two-rack holding, by rounds of a lower bound."""

    def __init__(self, cc: CompiledCard, counts: Sequence[int] | npt.NDArray[np.integer],
                 exposures1: Sequence[Exposure], exposures2: Sequence[Exposure]) -> None:
        self.cc = cc
        self.counts = np.asarray(counts)
        self.exposures1 = tuple(exposures1)
        self.exposures2 = tuple(exposures2)
        self.symmetric = sorted(self.exposures1) == sorted(self.exposures2)
        a1 = cc.way_aways(counts, exposures1)
        a2 = a1 if self.symmetric else cc.way_aways(counts, exposures2)
        # the holding is shared, so each rack alone may see every tile: a lower bound
        self.o1 = np.argsort(a1, kind="stable")
        self.o2 = np.argsort(a2, kind="stable")
        self.s1 = a1[self.o1]
        self.s2 = a2[self.o2]
        self.done = -1  # every way pair with bound <= done is scored
        self.best: dict[tuple[int, int], tuple[int, int, int]] = {}  # hands -> (away, w1, w2)

    def _score_band(self, lo: int, hi: int) -> None:
        """Score every way pair whose bound a1 + a2 lies in lo..hi."""
        s1, s2 = self.s1, self.s2
        limit = int(np.searchsorted(s1, hi - int(s2[0]), side="right")) if len(s2) else 0
        rows1: list[IntArray] = []
        rows2: list[IntArray] = []
        for i in range(limit):
            a = int(s1[i])
            if a >= IMPOSSIBLE:
                break
            j0 = int(np.searchsorted(s2, lo - a, side="left"))
            j1 = int(np.searchsorted(s2, hi - a, side="right"))
            if j1 <= j0:
                continue
            js = self.o2[j0:j1]
            rows1.append(np.full(len(js), self.o1[i], dtype=np.int64))
            rows2.append(js)
        if not rows1:
            return
        w1 = np.concatenate(rows1)
        w2 = np.concatenate(rows2)
        if self.symmetric:
            keep = w1 <= w2
            w1, w2 = w1[keep], w2[keep]
        if len(w1) == 0:
            return
        away = self.cc.pair_aways(self.counts, w1, w2, self.exposures1, self.exposures2)
        h1 = self.cc.way_hand[w1]
        h2 = self.cc.way_hand[w2]
        if self.symmetric:
            h1, h2 = np.minimum(h1, h2), np.maximum(h1, h2)
        # keep the best way pair per line pair
        order = np.lexsort((w2, w1, away))
        best = self.best
        for k in order.tolist():
            key = (int(h1[k]), int(h2[k]))
            a = int(away[k])
            old = best.get(key)
            if old is None or a < old[0]:
                best[key] = (a, int(w1[k]), int(w2[k]))

    def top(self, n: int) -> list[PairPlan]:
        if n <= 0 or not len(self.s1) or self.s1[0] >= IMPOSSIBLE or self.s2[0] >= IMPOSSIBLE:
            return []
        bound = int(self.s1[0] + self.s2[0])
        ceiling = 2 * HAND_SIZE
        while True:
            self._score_band(self.done + 1, bound)
            self.done = bound
            known = sorted(v[0] for v in self.best.values())
            if len(known) >= n and known[n - 1] <= bound:
                break
            if bound >= ceiling:
                break
            bound += 1
        hands = self.cc.card.hands
        ranked = sorted(self.best.items(),
                        key=lambda kv: (kv[1][0], -(hands[kv[0][0]].value
                                                    + hands[kv[0][1]].value), kv[0]))
        out: list[PairPlan] = []
        for (h1, h2), (a, w1, w2) in ranked[:n]:
            if self.symmetric and self.cc.way_hand[w1] != h1:
                w1, w2 = w2, w1
            out.append(PairPlan((hands[h1], hands[h2]), (self.cc.ways[w1], self.cc.ways[w2]), a))
        return out
