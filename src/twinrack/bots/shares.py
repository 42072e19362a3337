"""Each rack's share of a plan: one shared holding split between the racks it plans for.

A *plan* gives every open rack one line of the card (:mod:`twinrack.bots.plans`); the racks
draw on one holding, so what the holding lacks is split between them and their needs add
up to the plan's tiles away (:func:`split_needs`). :func:`split_tiles` says which of the
holding's tiles each rack's line takes, so that the racks can be arranged as the plan
(:mod:`twinrack.bots.arrange`). The hints (:mod:`twinrack.bots.hints`) show these shares
rack by rack, with the lines each rack could aim for instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from twinrack.bots.greedy import Racks
from twinrack.bots.plans import Planner
from twinrack.bots.seen import Position
from twinrack.card import Card
from twinrack.card.compiled import IMPOSSIBLE, compiled
from twinrack.card.model import Hand
from twinrack.tiles import CANONICAL, JOKER, NUM_KINDS

#: lines each rack lists besides the plan's own
ALTERNATIVES = 2

#: the tiles lying on each of the seat's racks (counts), or None
Own = Sequence[Sequence[int]] | None

@dataclass(frozen=True)
class Need:
    tile: str
    count: int  # copies still needed
    unseen: int  # copies the player has not seen (wall or other hands)

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "count": self.count, "unseen": self.unseen}


@dataclass(frozen=True)
class Line:
    """A card line for one rack: this rack's share of the tiles away and what it needs."""

    id: str
    section: str
    away: int
    needs: tuple[Need, ...]
    value: int
    concealed: bool
    #: the whole plan's tiles away with this line on this rack (the other racks keeping
    #: the plan's lines); None where it is not known (three or four open racks)
    plan_away: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "section": self.section, "away": self.away,
                "needs": [n.to_dict() for n in self.needs], "value": self.value,
                "concealed": self.concealed, "plan_away": self.plan_away}


@dataclass(frozen=True)
class RackHint:
    rack: int  # counted from 1
    lines: tuple[Line, ...]  # the plan's line first, then lines to aim for instead

    def to_dict(self) -> dict[str, Any]:
        return {"rack": self.rack, "lines": [x.to_dict() for x in self.lines]}


@dataclass(frozen=True)
class PlanHint:
    ids: tuple[str, ...]  # one line per open rack, in rack order
    away: int
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "away": self.away, "value": self.value}



def needs_of(tiles: Sequence[int], unseen_counts: Sequence[int]) -> tuple[Need, ...]:
    return tuple(Need(CANONICAL[t], list(tiles).count(t), unseen_counts[t])
                 for t in sorted(set(tiles)))


def line_of(hand: Hand, needs: Sequence[int], unseen_counts: Sequence[int],
          plan_away: int | None) -> Line:
    return Line(hand.id, hand.section, len(needs), needs_of(needs, unseen_counts), hand.value,
                hand.concealed, plan_away)


# ---------------------------------------------------------------------- splitting a plan


@dataclass(frozen=True)
class Aim:
    """One rack's part of a plan: the rack, its exposures and the way (planner index)."""

    rack: int
    exposures: tuple[Any, ...]
    way: int


def split_needs(pl: Planner, free: Sequence[int], aims: Sequence[Aim],
                own: Own = None) -> list[list[int]]:
    """What each rack of a plan still needs from one shared holding ``free``.

    The holding's natural tiles fill the racks' singles and pairs first, then their
    groups, and its Jokers the groups' biggest shortfalls: so the needs add up to the
    plan's tiles away (the pair search counts the same way). Where it costs nothing more,
    the tiles lying on a rack (``own``, per rack of the whole seat) serve that rack first,
    so that the split reads like the racks on the table. With three or four racks each
    pair of racks plans on what the pair before it leaves, as :meth:`Planner.best` does."""
    return [short for _given, short in _split(pl, free, aims, own)]


def split_tiles(pl: Planner, free: Sequence[int], aims: Sequence[Aim],
                own: Own = None) -> list[list[int]]:
    """Per rack of a plan, the tiles of ``free`` (counts) its line takes, split as
    :func:`split_needs` splits what they lack: naturals, and Jokers for its groups."""
    return [given for given, _short in _split(pl, free, aims, own)]


def _split(pl: Planner, free: Sequence[int], aims: Sequence[Aim],
           own: Own) -> list[tuple[list[int], list[int]]]:
    """Per aim: (the tiles it is given as counts, the tiles it lacks)."""
    if len(aims) > 2:
        first = _split(pl, free, aims[:2], own)
        rest = list(free)
        for a in aims[:2]:
            rest = [x - y for x, y in zip(rest, pl.used(a.way, rest, a.exposures),
                                          strict=True)]
        return first + _split(pl, rest, aims[2:], own)
    nat, big = [], []
    for a in aims:
        demand = pl.cc.rack(a.exposures)
        n = demand.nat[a.way, :NUM_KINDS].astype(np.int64)
        nat.append(n)
        big.append(demand.tot[a.way, :NUM_KINDS].astype(np.int64) - n)
    mine = None if own is None else [
        np.minimum(np.asarray(own[a.rack], dtype=np.int64), np.asarray(free, dtype=np.int64))
        for a in aims]
    tries = [_handout(free, nat, big, m, first)
             for m in ([None] if mine is None else [None, mine])
             for first in (None, *range(len(aims)))]
    return min(tries, key=lambda t: _split_key(t, mine))


def _split_key(split: list[tuple[list[int], list[int]]],
               mine: list[np.ndarray] | None) -> tuple[int, int, int]:
    """Fewest tiles lacking in all (the plan's tiles away); then the most racks that lack
    nothing (a rack that is made reads as made); then the most tiles given to the rack
    they lie on."""
    total = sum(len(short) for _g, short in split)
    made = sum(not short for _g, short in split)
    kept = 0 if mine is None else sum(int(np.minimum(np.asarray(g), m).sum())
                                      for (g, _s), m in zip(split, mine, strict=True))
    return (total, -made, -kept)


def _handout(free: Sequence[int], nat: list[np.ndarray], big: list[np.ndarray],
             mine: list[np.ndarray] | None,
             first: int | None = None) -> list[tuple[list[int], list[int]]]:
    """Per rack, the tiles it is given and the tiles it lacks once ``free`` is handed
    out: first (when ``mine`` is given) each rack's own tiles to that rack, then (when
    ``first`` names one) that rack served in full, then the rest, singles and pairs before
    groups, then the Jokers (the biggest gaps first, those of ``first`` before all)."""
    c = np.asarray(free, dtype=np.int64).copy()
    jokers = int(c[JOKER])
    c[JOKER] = 0
    short_nat = [n.copy() for n in nat]
    short_big = [b.copy() for b in big]

    def give(pool: np.ndarray, racks: Sequence[int]) -> np.ndarray:
        for short in (short_nat, short_big):
            for i in racks:
                got = np.minimum(pool, short[i])
                short[i] = short[i] - got
                pool = pool - got
        return pool

    racks = range(len(nat))
    if mine is not None:
        for i in racks:
            pool = np.minimum(mine[i], c)
            pool[JOKER] = 0
            c = c - pool + give(pool, [i])
    if first is not None:
        c = give(c, [first])
    give(c, racks)
    gaps = sorted(((i, t) for i in racks for t in range(NUM_KINDS) if short_big[i][t]),
                  key=lambda it: (it[0] != first, -short_big[it[0]][it[1]], it))
    jokers_to = [0 for _ in racks]
    for i, t in gaps:
        use = min(jokers, int(short_big[i][t]))
        short_big[i][t] -= use
        jokers -= use
        jokers_to[i] += use
    out = []
    for i in racks:
        lack = short_nat[i] + short_big[i]
        given = [int(x) for x in nat[i] + big[i] - lack]
        given[JOKER] = jokers_to[i]
        out.append((given, [t for t in range(NUM_KINDS) for _ in range(int(lack[t]))]))
    return out


# ---------------------------------------------------------------------- plans


@dataclass(frozen=True)
class SharedPlan:
    hands: tuple[Hand, ...]
    aims: tuple[Aim, ...]
    away: int

    @property
    def hint(self) -> PlanHint:
        return PlanHint(tuple(h.id for h in self.hands), self.away,
                        sum(h.value for h in self.hands))


def plans_for(pl: Planner, free: Sequence[int], racks: Racks, top: int) -> list[SharedPlan]:
    """The best plans for the open racks, best first (only the best with three or four)."""
    if not racks:
        return []
    if len(racks) == 1:
        r, ex = racks[0]
        out = []
        for h in pl.cc.nearest(free, ex, top=top):
            w = pl._way_index(h.way, h.hand)
            out.append(SharedPlan((h.hand,), (Aim(r, ex, w),), h.away))
        return out
    if len(racks) == 2:
        (r1, e1), (r2, e2) = racks
        return [SharedPlan(p.hands, (Aim(r1, e1, pl._way_index(p.ways[0], p.hands[0])),
                                Aim(r2, e2, pl._way_index(p.ways[1], p.hands[1]))), p.away)
                for p in pl.cc.best_pairs(np.asarray(free, dtype=np.int64), e1, e2, top=top)]
    best = pl.best(free, racks)
    if best.away >= IMPOSSIBLE:
        return []
    shown = dict(racks)
    return [SharedPlan(tuple(rp.hand for rp in best.racks),
                  tuple(Aim(rp.rack, shown[rp.rack], rp.way) for rp in best.racks),
                  best.away)]


def _ways_of(pl: Planner, hand: Hand) -> np.ndarray:
    start = int(pl.cc.hand_start[hand.number])
    return np.arange(start, start + len(hand.ways), dtype=np.int64)


def _instead(pl: Planner, free: Sequence[int], plan: SharedPlan, i: int,
             unseen_counts: Sequence[int], own: Own) -> list[Line]:
    """Two open racks: the lines rack ``i`` of the plan could aim for instead, the other
    rack keeping its line, nearest first (the pair's tiles away, exact)."""
    other = 1 - i
    mine = np.arange(pl.n_ways, dtype=np.int64)
    theirs = _ways_of(pl, plan.hands[other])
    w_mine = np.repeat(mine, len(theirs))
    w_theirs = np.tile(theirs, len(mine))
    pair = (w_mine, w_theirs) if i == 0 else (w_theirs, w_mine)
    aways = pl.cc.pair_aways(np.asarray(free, dtype=np.int64), pair[0], pair[1],
                             plan.aims[0].exposures, plan.aims[1].exposures)
    hand_of = pl.cc.way_hand[w_mine]
    lines = pl.card.hands  # way_hand numbers the card's own lines
    per_hand = np.full(len(lines), IMPOSSIBLE, dtype=np.int64)
    np.minimum.at(per_hand, hand_of, aways)
    skip = plan.hands[i].number
    order = sorted((h for h in range(len(lines)) if h != skip and per_hand[h] < IMPOSSIBLE),
                   key=lambda h: (int(per_hand[h]), -lines[h].value, h))[:ALTERNATIVES]
    out = []
    for h in order:
        away = int(per_hand[h])
        row = int(np.flatnonzero((hand_of == h) & (aways == away))[0])
        ways = {i: int(w_mine[row]), other: int(w_theirs[row])}
        aims = [Aim(a.rack, a.exposures, ways[k]) for k, a in enumerate(plan.aims)]
        needs = split_needs(pl, free, aims, own)[i]
        out.append(line_of(lines[h], needs, unseen_counts, away))
    return out


def _share_lines(pl: Planner, free: Sequence[int], plan: SharedPlan, i: int,
                 unseen_counts: Sequence[int]) -> list[Line]:
    """Three or four open racks: lines rack ``i`` could aim for instead, from the tiles the
    other racks' plan lines leave it."""
    rest = list(free)
    for k, a in enumerate(plan.aims):
        if k != i:
            rest = [x - y for x, y in zip(rest, pl.used(a.way, rest, a.exposures),
                                          strict=True)]
    found = pl.cc.nearest(rest, plan.aims[i].exposures, top=ALTERNATIVES + 1)
    return [line_of(h.hand, h.needs, unseen_counts, None)
            for h in found if h.hand.id != plan.hands[i].id][:ALTERNATIVES]


def rack_hints(pl: Planner, free: Sequence[int], plan: SharedPlan,
                unseen_counts: Sequence[int], top: int, own: Own) -> list[RackHint]:
    needs = split_needs(pl, free, plan.aims, own)
    out = []
    for i, a in enumerate(plan.aims):
        lines = [line_of(plan.hands[i], needs[i], unseen_counts, plan.away)]
        if len(plan.aims) == 1:
            lines += [line_of(h.hand, h.needs, unseen_counts, h.away)
                      for h in pl.cc.nearest(free, a.exposures, top=ALTERNATIVES + 1)
                      if h.hand.id != plan.hands[0].id][:ALTERNATIVES]
        elif len(plan.aims) == 2:
            lines += _instead(pl, free, plan, i, unseen_counts, own)
        else:
            lines += _share_lines(pl, free, plan, i, unseen_counts)
        out.append(RackHint(a.rack + 1, tuple(lines[:top])))
    return out


def declared_rack(card: Card, seat: Position, unseen_counts: Sequence[int]) -> RackHint | None:
    """The rack a declared hand fixes: its 13 tiles wait for one more."""
    if seat.declared is None or seat.fixed_rack is None:
        return None
    hand = card.hand(seat.declared)
    found = [h for h in compiled(card).nearest(seat.fixed) if h.hand.id == hand.id]
    lines = (line_of(hand, found[0].needs, unseen_counts, None),) if found else ()
    return RackHint(seat.fixed_rack + 1, lines)

