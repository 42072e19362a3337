"""Hints for a person at the table: from one seat's view, which lines are near, what they
still need (and how many of each tile are still unseen), the best plans for the racks
together, and on the seat's turn a discard to consider with a one-line reason.

Only the view is used, like a bot: a hint never knows more than the player.

    >>> from twinrack.card import practice_card
    >>> from twinrack.engine import RuleSet, new_game, view
    >>> game = new_game(RuleSet(declared_hands=False), seed=1)
    >>> h = hints(view(game, 0), practice_card())
    >>> h.discard is not None and len(h.racks) == 2
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from twinrack.bots.expert import ExpertBot
from twinrack.bots.greedy import Racks, minus, open_racks
from twinrack.bots.plans import planner
from twinrack.bots.seen import Position, position, unseen
from twinrack.card import Card
from twinrack.card.compiled import IMPOSSIBLE, compiled
from twinrack.engine.view import View
from twinrack.tiles import CANONICAL, JOKER, NUM_KINDS


@dataclass(frozen=True)
class Need:
    tile: str
    count: int  # copies still needed
    unseen: int  # copies the player has not seen (wall or other hands)

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "count": self.count, "unseen": self.unseen}


@dataclass(frozen=True)
class Line:
    id: str
    section: str
    away: int
    needs: tuple[Need, ...]
    value: int
    concealed: bool

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "section": self.section, "away": self.away,
                "needs": [n.to_dict() for n in self.needs], "value": self.value,
                "concealed": self.concealed}


@dataclass(frozen=True)
class RackHint:
    rack: int  # counted from 1
    lines: tuple[Line, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"rack": self.rack, "lines": [x.to_dict() for x in self.lines]}


@dataclass(frozen=True)
class PlanHint:
    ids: tuple[str, ...]  # one line per open rack, in rack order
    away: int
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "away": self.away, "value": self.value}


@dataclass(frozen=True)
class DiscardHint:
    tile: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "reason": self.reason}


@dataclass(frozen=True)
class Hints:
    racks: tuple[RackHint, ...]
    discard: DiscardHint | None
    plans: tuple[PlanHint, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"racks": [r.to_dict() for r in self.racks],
                "discard": None if self.discard is None else self.discard.to_dict(),
                "plans": [p.to_dict() for p in self.plans]}


def _needs(tiles: tuple[int, ...], unseen_counts: list[int]) -> tuple[Need, ...]:
    out: list[Need] = []
    for t in sorted(set(tiles)):
        out.append(Need(CANONICAL[t], tiles.count(t), unseen_counts[t]))
    return tuple(out)


def _rack_lines(card: Card, seat: Position, rack: int, unseen_counts: list[int], top: int,
                free: tuple[int, ...] | list[int] | None = None) -> tuple[Line, ...]:
    """The nearest lines for one open rack from the seat's free tiles (or ``free``)."""
    if seat.declared is not None and rack == seat.fixed_rack:
        # the declared hand: its 13 fixed tiles wait for one more
        cc = compiled(card)
        hand = card.hand(seat.declared)
        found = [h for h in cc.nearest(seat.fixed) if h.hand.id == hand.id]
        if not found:
            return ()
        h = found[0]
        return (Line(hand.id, hand.section, h.away, _needs(h.needs, unseen_counts), hand.value,
                     hand.concealed),)
    pl = planner(card)
    ex = seat.exposures[rack]
    return tuple(Line(h.hand.id, h.hand.section, h.away, _needs(h.needs, unseen_counts),
                      h.hand.value, h.hand.concealed)
                 for h in pl.cc.nearest(seat.free if free is None else free, ex, top=top))


def _shares(card: Card, seat: Position, racks: Racks) -> dict[int, list[int]]:
    """With three or four open racks (Imperial), the tiles each rack may count on: the
    holding less what the best plan's other racks use."""
    pl = planner(card)
    plan = pl.best(seat.free, racks)
    if plan.away >= IMPOSSIBLE:
        return {}
    exposures = dict(racks)
    out: dict[int, list[int]] = {}
    for rp in plan.racks:
        rest = list(seat.free)
        for other in plan.racks:
            if other.rack != rp.rack:
                took = pl.used(other.way, rest, exposures[other.rack])
                rest = [a - b for a, b in zip(rest, took, strict=True)]
        out[rp.rack] = rest
    return out


def _plans(card: Card, seat: Position, racks: Racks, top: int) -> tuple[PlanHint, ...]:
    pl = planner(card)
    if not racks:
        return ()
    if len(racks) == 1:
        _r, ex = racks[0]
        return tuple(PlanHint((h.hand.id,), h.away, h.hand.value)
                     for h in pl.cc.nearest(seat.free, ex, top=top))
    if len(racks) == 2:
        pairs = pl.cc.best_pairs(np.asarray(seat.free, dtype=np.int64), racks[0][1],
                                 racks[1][1], top=top)
        return tuple(PlanHint((p.hands[0].id, p.hands[1].id), p.away, p.value)
                     for p in pairs)
    plan = pl.best(seat.free, racks)
    if plan.away >= IMPOSSIBLE:
        return ()
    return (PlanHint(tuple(r.hand.id for r in plan.racks), plan.away, plan.value),)


_ADVISERS: dict[str, ExpertBot] = {}


def _adviser(card: Card) -> ExpertBot:
    bot = _ADVISERS.get(card.sha256)
    if bot is None:
        if len(_ADVISERS) > 8:
            _ADVISERS.clear()
        bot = _ADVISERS[card.sha256] = ExpertBot(card)
    return bot


def _discard(view: View, card: Card, seat: Position, racks: Racks,
             unseen_counts: list[int]) -> DiscardHint | None:
    kinds = [t for t in range(NUM_KINDS) if seat.free[t]]
    if not kinds:
        return None
    if not racks:
        return DiscardHint(CANONICAL[kinds[0]], "no rack is open: any tile will do")
    bot = _adviser(card)
    holdings = [minus(seat.free, (t,)) for t in kinds]
    if 1 <= len(racks) <= 2:
        picks = bot.picks_left(view, True)
        util, _plans, _per_plan = bot.plan_utilities(seat.free, holdings, racks, unseen_counts,
                                                      picks)
        order = sorted(range(len(kinds)), key=lambda i: (-round(float(util[i]), 9),
                                                          kinds[i] == JOKER, kinds[i]))
        t = kinds[order[0]]
    else:
        scores = bot.plans.discards(seat.free, racks)
        use = bot.plans.usefulness(seat.free, racks)
        t = min(kinds, key=lambda k: (scores[k].away, -scores[k].value, k == JOKER,
                                      use[k], k))
    return DiscardHint(CANONICAL[t], _reason(bot, seat, racks, t, unseen_counts))


def _reason(bot: ExpertBot, seat: Position, racks: Racks, tile: int,
            unseen_counts: list[int]) -> str:
    """One line saying why ``tile`` can go."""
    name = CANONICAL[tile]
    pl = bot.plans
    after = minus(seat.free, (tile,))
    plan = pl.best(after, racks)
    ids = " + ".join(r.hand.id for r in plan.racks)
    use = pl.usefulness(seat.free, racks)
    if plan.away >= IMPOSSIBLE:
        return f"{name}: no line is still possible, so it costs nothing"
    if use[tile] == 0:
        return f"{name} is in none of your nearest lines; {ids} stays {plan.away} away"
    if unseen_counts[tile] == 0 and seat.free[tile] == 1:
        return (f"{name}: every other copy is gone, so lines needing a pair of it are "
                f"dead; {ids} stays {plan.away} away")
    return f"{name} is the tile your best plan needs least: {ids}, {plan.away} away"


def hints(view: View, card: Card, top: int = 3) -> Hints:
    """Hints for the seat of ``view`` (a player's own view, not a spectator's)."""
    if view.free is None:
        return Hints((), None, ())
    seat = position(view)
    unseen_counts = unseen(view)
    racks = open_racks(seat)
    shares = _shares(card, seat, racks) if len(racks) > 2 else {}
    rack_hints = tuple(RackHint(r + 1, _rack_lines(card, seat, r, unseen_counts, top,
                                                   shares.get(r)))
                       for r in seat.open_racks)
    discard = _discard(view, card, seat, racks, unseen_counts) if "discard" in view.verbs else None
    return Hints(rack_hints, discard, _plans(card, seat, racks, top))
