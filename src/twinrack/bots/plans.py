"""Plans: which lines of the card a holding can aim for, rack by rack, and how far it is.

A *plan* gives every open rack one line of the card; its tiles away is what the shared
holding still lacks to make all of them at once. Two open racks are planned exactly with
the compiled card's pair search; one rack alone directly; three or four (Imperial) by
pairing the racks two by two, each pair taking the tiles it uses before the next pair plans.

Lines flagged ``declared`` (Atomic-style) are made only after a declaration right after
the deal, so plans leave them out: the planner works on the shared compiled card limited to
the other lines (``compiled(card).without_declared``); way indices are the card's own.
Under the 2024 revision a concealed line may be played with exposures too: a planner made
with ``open_lines`` plans on that card (``compiled(card, open_lines=True)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from twinrack.card.compiled import IMPOSSIBLE, CompiledCard, IntArray, compiled
from twinrack.card.exposure import Exposure
from twinrack.card.model import Card, Hand, Way
from twinrack.tiles import JOKER, NUM_KINDS

Exposures = tuple[Exposure, ...]


class AwayValue(NamedTuple):
    """A plan's tiles away (fewer is better) and the card value of its lines."""

    away: int
    value: int

    def key(self) -> tuple[int, int]:
        """Sort key: nearest first, then the higher value."""
        return (self.away, -self.value)


@dataclass(frozen=True)
class RackPlan:
    """The line aimed for on one rack."""

    rack: int
    hand: Hand
    way: int  # index of the concrete way in the card's compiled card


@dataclass(frozen=True)
class Plan:
    racks: tuple[RackPlan, ...]
    away: int

    @property
    def value(self) -> int:
        return sum(r.hand.value for r in self.racks)

    @property
    def away_value(self) -> AwayValue:
        return AwayValue(self.away, self.value)


_NONE = Plan((), IMPOSSIBLE)


class Planner:
    """Plans for one card. Build with :func:`planner`."""

    def __init__(self, card: Card, open_lines: bool = False) -> None:
        self.card = card
        #: concealed lines accept exposures (the 2024 revision)
        self.open_lines = open_lines
        #: the card's compiled card, limited to the lines that are not declared at the deal
        self.cc: CompiledCard = compiled(card, open_lines=open_lines).without_declared
        cc = self.cc
        self.ways: list[Way] = cc.ways
        #: the lines a plan may aim for (a way's line is ``cc.hand_of(way)``: way indices
        #: are the whole card's, not positions in this tuple)
        self.hands = tuple(h for h in card.hands if not h.declared)
        self.way_value = cc.way_value
        self.n_ways = cc.n_ways

    # ------------------------------------------------------------------ one rack

    def rack_aways(self, free: Sequence[int], exposures: Exposures) -> IntArray:
        return self.cc.way_aways(np.asarray(free, dtype=np.int64), exposures)

    def single(self, free: Sequence[int], exposures: Exposures, rack: int = 0) -> Plan:
        a = self.rack_aways(free, exposures)
        best = int(a.min())
        if best >= IMPOSSIBLE:
            return _NONE
        cand = np.flatnonzero(a == best)
        w = int(cand[np.argmax(self.way_value[cand])])
        return Plan((RackPlan(rack, self.cc.hand_of(w), w),), best)

    # ------------------------------------------------------------------ tiles a way uses

    def used(self, way: int, free: Sequence[int], exposures: Exposures) -> list[int]:
        """The tiles of ``free`` that one way takes (naturals first, Jokers for the big
        groups' shortfall)."""
        rack = self.cc.rack(exposures)
        nat = rack.nat[way, :NUM_KINDS].astype(np.int64)
        tot = rack.tot[way, :NUM_KINDS].astype(np.int64)
        c = np.asarray(free, dtype=np.int64).copy()
        jokers = int(c[JOKER])
        c[JOKER] = 0
        take = np.minimum(c, tot)
        big = tot - nat
        spare = np.maximum(c - nat, 0)
        short = int((big - np.minimum(big, spare)).sum())
        out: list[int] = [int(x) for x in take]
        out[JOKER] = min(jokers, short)
        return out

    # ------------------------------------------------------------------ several racks

    def best(self, free: Sequence[int], racks: Sequence[tuple[int, Exposures]]) -> Plan:
        """The best plan for these open racks (rack index, its exposures)."""
        if not racks:
            return Plan((), 0)
        if len(racks) == 1:
            r, ex = racks[0]
            return self.single(free, ex, r)
        (r1, e1), (r2, e2) = racks[0], racks[1]
        pairs = self.cc.best_pairs(np.asarray(free, dtype=np.int64), e1, e2, top=1)
        if not pairs:
            return _NONE
        p = pairs[0]
        w1 = self._way_index(p.ways[0], p.hands[0])
        w2 = self._way_index(p.ways[1], p.hands[1])
        first = Plan((RackPlan(r1, p.hands[0], w1), RackPlan(r2, p.hands[1], w2)),
                     p.away)
        if len(racks) == 2:
            return first
        rest = list(free)
        for w, ex in ((w1, e1), (w2, e2)):
            took = self.used(w, rest, ex)
            rest = [a - b for a, b in zip(rest, took, strict=True)]
        more = self.best(rest, racks[2:])
        if more.away >= IMPOSSIBLE:
            return _NONE
        return Plan(first.racks + more.racks, first.away + more.away)

    def _way_index(self, way: Way, hand: Hand) -> int:
        start = int(self.cc.hand_start[hand.number])
        return start + hand.ways.index(way)

    def discards(self, free: Sequence[int],
                 racks: Sequence[tuple[int, Exposures]]) -> dict[int, AwayValue]:
        """For each kind of tile in ``free``: the best plan's score after discarding one."""
        kinds = [t for t in range(NUM_KINDS) if free[t]]
        if not racks:
            return {t: AwayValue(0, 0) for t in kinds}
        if len(racks) == 1:
            ex = racks[0][1]
            tracker = self.cc.tracker(np.asarray(free, dtype=np.int64), ex)
            out: dict[int, AwayValue] = {}
            for t in kinds:
                a = tracker.aways_without(t)
                best = int(a.min())
                value = int(self.way_value[a == best].max()) if best < IMPOSSIBLE else 0
                out[t] = AwayValue(best, value)
            return out
        if len(racks) == 2:
            scores = self.cc.discard_scores(np.asarray(free, dtype=np.int64), racks[0][1],
                                            racks[1][1])
            return {d.tile: AwayValue(d.away, d.value) for d in scores}
        # Imperial: tiles no rack's plan uses cost nothing; the others are scored in full
        plan = self.best(free, racks)
        rest = list(free)
        for rp in plan.racks:
            ex = dict(racks)[rp.rack]
            took = self.used(rp.way, rest, ex)
            rest = [a - b for a, b in zip(rest, took, strict=True)]
        out = {}
        for t in kinds:
            if rest[t] > 0:
                out[t] = plan.away_value
            else:
                less = list(free)
                less[t] -= 1
                out[t] = self.best(less, racks).away_value
        return out

    def usefulness(self, free: Sequence[int], racks: Sequence[tuple[int, Exposures]],
                   slack: int = 1) -> list[int]:
        """Per tile kind, in how many near ways (within ``slack`` of each rack's best)
        it is wanted: a tie-break between equally good discards."""
        out = np.zeros(NUM_KINDS, dtype=np.int64)
        for _r, ex in racks:
            a = self.rack_aways(free, ex)
            best = int(a.min())
            if best >= IMPOSSIBLE:
                continue
            near = np.flatnonzero(a <= best + slack)
            out += self.cc.demand[near, :NUM_KINDS].sum(axis=0)
        return [int(x) for x in out]


def planner(card: Card, open_lines: bool = False) -> Planner:
    """The planner of ``card`` (with concealed lines open to exposures when
    ``open_lines``): cheap to make, it holds only what :func:`compiled` already keeps for
    the card."""
    return Planner(card, open_lines)
