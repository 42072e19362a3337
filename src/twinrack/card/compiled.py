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

Two racks sharing one holding are searched in card/pairs.py, and single tiles coming and
going are followed by card/tracker.py. A compiled card may be limited to some of its ways
(:meth:`CompiledCard.only`): the others then count as impossible everywhere, which is how
the engine and the bots leave out the lines declared right after the deal.

The questions asked most (tiles away of one rack, of way pairs, the best pairs and every
discard of two racks) run in the compiled kernel (card/kernel.py, card/kernel_pairs.py)
when numba is installed; the numpy code here and in card/pairs.py is the fallback, and
:meth:`CompiledCard.with_kernel` picks either path for one compiled card.

:func:`compiled` keeps one compiled card per card text (its sha256) for everyone. The
plain, loop-by-loop version of the same definitions lives in the tests as the oracle
(tests/card/oracle.py); the fast code here must agree with it.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np

from twinrack.card import kernel, kernel_pairs
from twinrack.card.demand import (
    COLS,
    HAND_SIZE,
    IMPOSSIBLE,
    BoolArray,
    CountsLike,
    ExposureKey,
    FloatArray,
    IntArray,
    RackDemand,
    SmallArray,
    TinyArray,
    exposure_key,
    holding_vector,
    split_holding,
)
from twinrack.card.exposure import Exposure
from twinrack.card.model import Card, Hand, Way
from twinrack.card.pairs import DiscardScore, PairPlan, PairSearch
from twinrack.card.tracker import AwayTracker
from twinrack.tiles import JOKER, NUM_KINDS

__all__ = [
    "HAND_SIZE", "IMPOSSIBLE", "BoolArray", "CompiledCard", "CountsLike", "DiscardScore",
    "ExposureKey", "FloatArray", "HandAway", "IntArray", "Match", "PairPlan", "RackDemand",
    "SmallArray", "TinyArray", "compiled", "exposure_key",
]

#: rack demands kept per compiled card (one per distinct set of exposures seen)
_RACK_CACHE = 512
#: compiled cards kept by :func:`compiled` (one per card text)
_CARD_CACHE = 16

_A = TypeVar("_A", bound=np.ndarray)


def _indices(ways: IntArray | Sequence[int]) -> IntArray:
    """Way indices as the kernel reads them (int64, contiguous, writable: numba compiles
    anew for any other kind of array)."""
    out = np.ascontiguousarray(ways, dtype=np.int64)
    return out if out.flags.writeable else out.copy()


def _frozen(array: _A) -> _A:
    """``array``, made read-only (shared by every rack demand that does not change it)."""
    array.setflags(write=False)
    return array


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


class CompiledCard:
    """The arrays of one card. Build once per card (cheap), then query many holdings;
    :func:`compiled` keeps one per card text."""

    def __init__(self, card: Card) -> None:
        self.card = card
        #: analysis limited to these ways (None: every way), see :meth:`only`
        self.scope: BoolArray | None = None
        #: the path chosen for this card (:meth:`with_kernel`); None: the process's
        self._kernel: bool | None = None
        self._ways(card)
        self._demand()
        self._groups()
        self._table()
        self._racks: dict[ExposureKey, RackDemand] = {}
        #: whether a rack with these exposures can still make a line (see rack_alive)
        self._alive: dict[ExposureKey, bool] = {}

    def _ways(self, card: Card) -> None:
        """Every concrete way in card order, with its line, value and flags."""
        ways: list[Way] = []
        way_hand: list[int] = []
        hand_start: list[int] = []
        for h in card.hands:
            hand_start.append(len(ways))
            for w in h.ways:
                ways.append(w)
                way_hand.append(h.number)
        self.ways: list[Way] = ways
        #: the line (its number on the card) of every way
        self.way_hand = np.array(way_hand, dtype=np.int64)
        self.hand_start = np.array(hand_start, dtype=np.int64)
        self.hand_value = np.array([h.value for h in card.hands], dtype=np.int64)
        self.n_ways = len(ways)
        self.way_value = self.hand_value[self.way_hand]
        self.way_concealed = np.array([card.hands[h].concealed for h in way_hand], dtype=bool)
        #: ways of the lines declared right after the deal, and the normal ones
        self.declared: BoolArray = np.array([card.hands[h].declared for h in way_hand],
                                            dtype=bool)
        self.normal: BoolArray = ~self.declared
        #: the ways of each declared line, by line id
        self.declared_ways: dict[str, IntArray] = {
            h.id: np.flatnonzero(self.way_hand == h.number).astype(np.int64)
            for h in card.hands if h.declared}
        self.largest_group = max((g.size for w in ways for g in w.groups), default=0)

    def _demand(self) -> None:
        """Dense demand (ways x 37, the last column a zero pad) and its sparse entries."""
        n = self.n_ways
        nat = np.zeros((n, COLS), dtype=np.int8)
        big = np.zeros((n, COLS), dtype=np.int8)
        for i, w in enumerate(self.ways):
            for g in w.groups:
                if g.takes_jokers:
                    big[i, g.tile] += g.size
                else:
                    nat[i, g.tile] += g.size
        self.nat = nat
        self.big = big
        #: which tile kinds each way uses
        self.demand: BoolArray = (nat + big) > 0
        # sparse entries, one per (way, kind used), in way order
        ew, et = np.nonzero(self.demand)
        self.entry_way = ew.astype(np.int64)
        self.entry_tile = et.astype(np.int64)
        self.way_entry_start = np.searchsorted(self.entry_way, np.arange(n)).astype(np.int64)
        #: entries of each tile kind (for incremental updates)
        self.entries_of_tile: list[IntArray] = [
            np.nonzero(self.entry_tile == t)[0].astype(np.int64) for t in range(COLS)]
        # the demand of a rack without exposures: every rack's demand starts from it
        tot = nat + big
        self._bank0 = _frozen(np.ascontiguousarray(np.concatenate([tot, nat], axis=1)))
        self._big_sum0 = _frozen(big.sum(axis=1, dtype=np.int16))
        self._entry_tot0 = _frozen(tot[ew, et].astype(np.int16))
        self._entry_nat0 = _frozen(nat[ew, et].astype(np.int16))

    def _groups(self) -> None:
        """Exposure fitting: how many groups of each (tile, size) each way has."""
        keys: dict[tuple[int, int], int] = {}
        for w in self.ways:
            for g in w.groups:
                keys.setdefault((g.tile, g.size), len(keys))
        self.group_keys = keys
        gc = np.zeros((self.n_ways, max(len(keys), 1)), dtype=np.int8)
        for i, w in enumerate(self.ways):
            for g in w.groups:
                gc[i, keys[(g.tile, g.size)]] += 1
        self.group_count = gc

    def _table(self) -> None:
        """Per kind t and count k held: min(k, tot_t) and min(k, nat_t) of every way, so
        that U and V of the whole card are one gather and one sum over the held kinds."""
        n = self.n_ways
        tot = (self.nat + self.big).astype(np.int8)
        self.most = max(int(tot.max(initial=0)), 1)  # more copies held than this never count
        k = np.arange(self.most + 1, dtype=np.int8)
        table = np.empty((COLS, self.most + 1, 2 * n), dtype=np.int8)
        table[:, :, :n] = np.minimum(k[None, :, None], tot.T[:, None, :])
        table[:, :, n:] = np.minimum(k[None, :, None], self.nat.T[:, None, :])
        self.table = table.reshape(COLS * (self.most + 1), 2 * n)  # row: kind, count

    # ------------------------------------------------------------------ scope

    def only(self, ways: BoolArray) -> CompiledCard:
        """The same card with its analysis limited to ``ways`` (a mask): every other way
        counts as one no rack can make (``IMPOSSIBLE``, not fitting, never matched). Way
        indices stay those of the whole card."""
        scoped = copy.copy(self)
        mask = np.array(ways, dtype=bool)
        if mask.shape != (self.n_ways,):
            raise ValueError(f"a way mask has {self.n_ways} entries, not {mask.shape}")
        if self.scope is not None:
            mask &= self.scope
        mask.setflags(write=False)
        scoped.scope = mask
        scoped._racks = {}
        scoped._alive = {}
        scoped.__dict__.pop("without_declared", None)
        scoped.__dict__.pop("open_lines", None)
        return scoped

    @property
    def kernel(self) -> bool:
        """Whether the compiled kernel answers (card/kernel.py), else the numpy code: as
        chosen by :meth:`with_kernel`, or the process's path (``kernel.ACTIVE``)."""
        return kernel.ACTIVE if self._kernel is None else self._kernel

    def with_kernel(self, on: bool) -> CompiledCard:
        """The same card answered by the compiled kernel (``on``) or by the numpy code
        alone; the two give the same answers (the tests check both against the oracle)."""
        if on and not kernel.AVAILABLE:
            raise ValueError("the compiled kernel needs numba, which is not installed")
        if on == self._kernel:
            return self
        other = copy.copy(self)
        other._kernel = on
        for name in ("without_declared", "open_lines"):
            other.__dict__.pop(name, None)
        return other

    @cached_property
    def open_lines(self) -> CompiledCard:
        """The card as played when every line may take exposures, a concealed one ("C")
        included (the 2024 Siamese revision, docs/rules.md section 5): a Mah Jongg made
        that way is simply not closed. The same card when no line is concealed."""
        if not self.way_concealed.any():
            return self
        opened = copy.copy(self)
        opened.way_concealed = _frozen(np.zeros(self.n_ways, dtype=bool))
        opened._racks = {}
        opened._alive = {}
        for name in ("without_declared", "open_lines"):
            opened.__dict__.pop(name, None)
        opened.__dict__["open_lines"] = opened
        return opened

    @cached_property
    def without_declared(self) -> CompiledCard:
        """The card as played after the deal by a seat on no declared line: its lines
        declared right after the deal left out (docs/rules.md, section 7)."""
        return self.only(self.normal)

    def hand_of(self, way: int) -> Hand:
        """The line a way belongs to."""
        return self.card.hands[int(self.way_hand[way])]

    # ------------------------------------------------------------------ exposures

    def _fit(self, key: ExposureKey) -> BoolArray:
        mask: BoolArray = (np.ones(self.n_ways, dtype=bool) if self.scope is None
                           else self.scope.copy())
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
        no exposure, except on :attr:`open_lines`."""
        fit: BoolArray = self.rack(exposures).fit.copy()
        return fit

    def rack_alive(self, exposures: Sequence[Exposure]) -> bool:
        """True when some line of the card can still be made on a rack with these exposures
        (an exposure that fits no line kills its rack). Asked after every exposure: which
        ways fit is all it needs, not the whole demand (a rack it kills never needs that)."""
        key = exposure_key(exposures)
        found = self._racks.get(key)
        if found is not None:
            return found.alive
        alive = self._alive.get(key)
        if alive is None:  # remembered per card: claim advice asks it of every exposure
            if len(self._alive) >= _RACK_CACHE:
                self._alive.clear()
            alive = self._alive[key] = bool(self._fit(key).any())
        return alive

    def rack(self, exposures: Iterable[Exposure] = ()) -> RackDemand:
        """The demand of every way on a rack with these exposures (cached per card)."""
        key = exposure_key(exposures) if exposures else ()
        found = self._racks.get(key)
        if found is not None:
            return found
        demand = self._rack_demand(key)
        if len(self._racks) >= _RACK_CACHE:
            self._racks.clear()
        self._racks[key] = demand
        return demand

    def _rack_demand(self, key: ExposureKey) -> RackDemand:
        """The demand of a rack without exposures, with the columns of the kinds the
        exposures hold lowered by the groups they fill (the other columns stay as they
        are: an exposure changes the demand of its own kind only)."""
        fit = _frozen(self._fit(key))
        touched = tuple(sorted({tile for tile, _size in key}))
        bank, big_sum = self._bank0, self._big_sum0
        entry_tot, entry_nat = self._entry_tot0, self._entry_nat0
        if touched:
            bank, big_sum = bank.copy(), big_sum.copy()
            entry_tot, entry_nat = entry_tot.copy(), entry_nat.copy()
            for tile in touched:
                nat = np.maximum(self.nat[:, tile]
                                 - sum(n for t, n in key if t == tile and n < 3), 0)
                big = np.maximum(self.big[:, tile]
                                 - sum(n for t, n in key if t == tile and n >= 3), 0)
                tot = nat + big
                bank[:, tile] = tot
                bank[:, COLS + tile] = nat
                big_sum -= self.big[:, tile] - big
                entries = self.entries_of_tile[tile]
                rows = self.entry_way[entries]
                entry_tot[entries] = tot[rows]
                entry_nat[entries] = nat[rows]
            for array in (bank, big_sum, entry_tot, entry_nat):
                array.setflags(write=False)
        return RackDemand(
            key=key, fit=fit, restricted=not bool(fit.all()), unfit=np.flatnonzero(~fit),
            exposed=sum(size for _tile, size in key), bank=bank, big_sum=big_sum,
            touched=touched, entry_tot=entry_tot, entry_nat=entry_nat,
            touched_kinds=_frozen(np.array(touched, dtype=np.int64)))

    # ------------------------------------------------------------------ one rack

    def uv(self, rack: RackDemand, c: SmallArray,
           counts: Sequence[int] | None = None) -> tuple[SmallArray, SmallArray]:
        """Per way: ``U`` (naturals that fit anywhere) and ``V`` (naturals in singles and
        pairs plus the big groups' size); the way is filled ``min(U + J, V)``. ``c`` is a
        holding from :func:`~twinrack.card.demand.split_holding`, of ``counts`` when given
        as a tuple or list (its table rows are then read from it directly)."""
        n = self.n_ways
        most = self.most
        if self.kernel:
            return kernel.uv(c[:NUM_KINDS].astype(np.int64), self.table, most,
                             rack.touched_kinds, rack.bank, rack.big_sum)
        rows: IntArray | list[int]
        if counts is not None:  # five small numpy calls cost more than this loop
            skip = rack.touched
            rows = [t * (most + 1) + (k if k < most else most) for t, k in enumerate(counts)
                    if k and t != JOKER and t not in skip]
        else:
            plain = c
            if rack.touched:
                plain = c.copy()
                plain[list(rack.touched)] = 0
            held = np.flatnonzero(plain)
            rows = held * (most + 1) + np.minimum(plain.take(held), most)
        uv = self.table.take(rows, axis=0).sum(axis=0, dtype=np.int16)
        for t in rack.touched:  # kinds the exposures changed: straight from the demand
            if c[t]:
                uv[:n] += np.minimum(c[t], rack.bank[:, t])
                uv[n:] += np.minimum(c[t], rack.bank[:, COLS + t])
        return uv[:n], uv[n:] + rack.big_sum

    def way_aways(self, counts: CountsLike, exposures: Sequence[Exposure] = ()) -> IntArray:
        """Tiles away from every concrete way (``IMPOSSIBLE`` where exposures do not fit).

        ``counts`` is the concealed holding (Jokers included) as a 36-long count vector.
        """
        if self.kernel:
            rack = self.rack(exposures)
            return kernel.way_aways(holding_vector(counts), self.table, self.most,
                                    rack.touched_kinds, rack.bank, rack.big_sum, rack.fit,
                                    rack.exposed)
        c, jokers = split_holding(counts)
        rack = self.rack(exposures)
        u, v = self.uv(rack, c, counts if isinstance(counts, (tuple, list)) else None)
        away = (HAND_SIZE - rack.exposed) - np.minimum(u + jokers, v).astype(np.int64)
        if rack.restricted:
            away[rack.unfit] = IMPOSSIBLE
        return away

    def ways_away(self, ways: IntArray | Sequence[int], counts: CountsLike,
                  exposures: Sequence[Exposure] = ()) -> IntArray:
        """Tiles away from some ways only: ``way_aways(counts, exposures)[ways]``, at the
        cost of those ways alone (for when a few candidates are already known)."""
        if self.kernel:
            rack = self.rack(exposures)
            return kernel.ways_away(_indices(ways), holding_vector(counts),
                                    self.way_entry_start, self.entry_tile, rack.entry_tot,
                                    rack.entry_nat, rack.big_sum, rack.fit, rack.exposed)
        c, jokers = split_holding(counts)
        rack = self.rack(exposures)
        idx = np.asarray(ways, dtype=np.int64)
        bank = rack.bank.take(idx, axis=0)
        u = np.minimum(c, bank[:, :COLS]).sum(axis=1, dtype=np.int64)
        v = (np.minimum(c, bank[:, COLS:]).sum(axis=1, dtype=np.int64)
             + rack.big_sum.take(idx))
        away: IntArray = (HAND_SIZE - rack.exposed) - np.minimum(u + jokers, v)
        if rack.restricted:
            away[~rack.fit.take(idx)] = IMPOSSIBLE
        return away

    def hand_aways(self, counts: CountsLike, exposures: Sequence[Exposure] = ()) -> IntArray:
        """Tiles away from every line of the card (the best of its ways), in card order."""
        if self.kernel:
            rack = self.rack(exposures)
            return kernel.hand_aways(holding_vector(counts), self.table, self.most,
                                     rack.touched_kinds, rack.bank, rack.big_sum, rack.fit,
                                     rack.exposed, self.hand_start)
        return np.minimum.reduceat(self.way_aways(counts, exposures), self.hand_start)

    def needs(self, way_index: int, counts: CountsLike,
              exposures: Sequence[Exposure] = ()) -> tuple[int, ...]:
        """The natural tiles still missing from one way once held Jokers fill what they
        can (Jokers go to the biggest shortfalls first), sorted."""
        c, jokers = split_holding(counts)
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
        c, jokers = split_holding(concealed)
        rack = self.rack(exposures)
        if int(c.sum()) + jokers + rack.exposed != HAND_SIZE:
            return []
        u, v = self.uv(rack, c)
        made = np.minimum(u + jokers, v) == HAND_SIZE - rack.exposed
        if rack.restricted:
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

    def fillings(self, way: int, counts: Sequence[int], exposures: Sequence[Exposure] = (),
                 need: int | None = None) -> list[tuple[int, ...]]:
        """Every distinct set of tiles from ``counts`` (a 36-long holding, Jokers included)
        that completes ``way`` on a rack with these exposures, each sorted, in sorted order;
        with ``need``, only the sets holding that tile. Jokers stand only in groups of 3 or
        more; a way the exposures do not fit has none."""
        rack = self.rack(exposures)
        if not rack.fit[way]:
            return []
        nat = rack.nat[way].tolist()
        tot = rack.tot[way].tolist()
        base: list[int] = []  # the singles and pairs: naturals only
        bigs: list[tuple[int, int, int]] = []  # (kind, slots, most naturals held for them)
        for t in range(NUM_KINDS):
            if not tot[t]:
                continue
            if counts[t] < nat[t]:
                return []
            base.extend([t] * nat[t])
            slots = tot[t] - nat[t]
            if slots:
                bigs.append((t, slots, min(slots, counts[t] - nat[t])))
        jokers = counts[JOKER]
        found: set[tuple[int, ...]] = set()

        def choose(i: int, left: int, picked: list[int]) -> None:
            if i == len(bigs):
                fill = tuple(sorted(base + picked + [JOKER] * (jokers - left)))
                if need is None or need in fill:
                    found.add(fill)
                return
            t, slots, most = bigs[i]
            for k in range(most, -1, -1):  # k naturals, the rest Jokers
                if slots - k <= left:
                    choose(i + 1, left - (slots - k), picked + [t] * k)

        choose(0, jokers, [])
        return sorted(found)

    # ------------------------------------------------------------------ two racks

    def pair_aways(self, counts: CountsLike, w1: IntArray, w2: IntArray,
                   exposures1: Sequence[Exposure] = (),
                   exposures2: Sequence[Exposure] = ()) -> IntArray:
        """Exact tiles away of the way pairs ``(w1[i], w2[i])`` for one shared holding
        (``IMPOSSIBLE`` where a rack's exposures do not fit its way)."""
        r1 = self.rack(exposures1)
        r2 = self.rack(exposures2)
        if len(w1) != len(w2) and 1 not in (len(w1), len(w2)):
            raise ValueError(f"way pairs need as many ways on each rack, not {len(w1)} and "
                             f"{len(w2)}")
        if self.kernel:
            first, second = _indices(w1), _indices(w2)
            if len(first) != len(second):  # one way paired with each of the other's
                first, second = (_indices(x) for x in np.broadcast_arrays(first, second))
            return kernel.pair_aways(
                holding_vector(counts), first, second, r1.bank, r2.bank,
                r1.big_sum, r2.big_sum,
                r1.fit, r2.fit, 2 * HAND_SIZE - r1.exposed - r2.exposed)
        c, jokers = split_holding(counts)
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
        if self.kernel:
            return kernel_pairs.best_pairs(self, counts, exposures1, exposures2, top)
        return PairSearch(self, counts, exposures1, exposures2).top(top)

    def discard_scores(self, counts: CountsLike, exposures1: Sequence[Exposure] = (),
                       exposures2: Sequence[Exposure] = ()) -> list[DiscardScore]:
        """For every kind of concealed tile held (Jokers included), in tile order: the best
        pair tiles away after discarding one of it, and the best total value of a line pair
        at that tiles away. Exact.

        Losing one tile costs every way pair 0 or 1 tile, so only pairs at most one tile
        worse than the best pair can be best after any discard.
        """
        if self.kernel:
            return kernel_pairs.discard_scores(self, counts, exposures1, exposures2)
        return PairSearch(self, counts, exposures1, exposures2).discards()

    # ------------------------------------------------------------------ incremental

    def tracker(self, counts: CountsLike, exposures: Sequence[Exposure] = ()) -> AwayTracker:
        return AwayTracker(self, counts, exposures)

    def warm_up(self) -> None:
        """Ask every question the kernel answers once (one rack and two, with and without
        an exposure), so that its functions are compiled, or loaded from numba's cache,
        now rather than during the first game's decisions (card/kernel.py)."""
        if not self.kernel:
            return
        big = next((g for w in self.ways for g in w.groups if g.takes_jokers), None)
        exposed = [Exposure(big.tile, big.size)] if big is not None else []
        counts = [1] * 28 + [0] * (NUM_KINDS - 29) + [2]
        for x in ([], exposed):
            self.hand_aways(counts, x)
            self.ways_away([0], counts, x)
            self.pair_aways(counts, np.zeros(1, dtype=np.int64),
                            np.zeros(1, dtype=np.int64), x, exposed)
            self.matches(counts[:13] + [0] * (NUM_KINDS - 14) + [1], x)
            self.best_pairs(counts, x, exposed, top=2)
            self.discard_scores(counts, x, exposed)


_COMPILED: dict[str, CompiledCard] = {}


def compiled(card: Card, *, open_lines: bool = False) -> CompiledCard:
    """The compiled card of ``card``, built once per card text (its sha256) and shared by
    the engine, the bots and every other user; with ``open_lines``, the card on which a
    concealed line may take exposures too (:attr:`CompiledCard.open_lines`)."""
    found = _COMPILED.get(card.sha256)
    if found is None:
        if len(_COMPILED) >= _CARD_CACHE:
            _COMPILED.clear()
        found = _COMPILED[card.sha256] = CompiledCard(card)
    return found.open_lines if open_lines else found
