"""Hints for a person at the table: one coherent picture of the seat's holding.

First what matters most now: a Mah Jongg the rules allow (then nothing else is suggested),
else the best plan (one card line per open rack) with what each rack of it still needs,
copies needed and how many are unseen. The two racks draw on one shared holding, so the
plan splits what the holding lacks between them: the racks' needs add up to the plan's
tiles away. Each rack then lists the lines it could aim for instead, the other racks
keeping the plan's lines, so the lists never name a plan they do not show. On the seat's
turn a discard to consider (the plan is the one for what the seat keeps), and during a
claim window whether the discard helps and why. Tiles are named in words ("2 Crak").

Only the view and the seat's legal actions are used, like a bot: a hint never knows more
than the player.

    >>> from twinrack.card import practice_card
    >>> from twinrack.engine import RuleSet, legal_actions, new_game, view
    >>> game = new_game(RuleSet(declared_hands=False), seed=1)
    >>> h = hints(view(game, 0), practice_card(), legal=legal_actions(game, 0))
    >>> h.discard is not None and len(h.racks) == 2
    True
    >>> sum(r.lines[0].away for r in h.racks) == h.plans[0].away
    True
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from twinrack.bots.expert import ExpertBot
from twinrack.bots.greedy import Racks, minus, open_racks, plus
from twinrack.bots.plans import Planner, planner
from twinrack.bots.seen import Position, choices, open_lines, position, unseen
from twinrack.card import Card
from twinrack.card.compiled import IMPOSSIBLE, compiled
from twinrack.card.model import Hand
from twinrack.engine import Action, Claim, Discard, MahJongg
from twinrack.engine.actions import CharlestonPass, Courtesy, Offer, Vote
from twinrack.engine.view import View
from twinrack.narration import tile_label
from twinrack.tiles import CANONICAL, JOKER, NUM_KINDS

#: lines each rack lists besides the plan's own
ALTERNATIVES = 2
#: the time the suggested discard may take by default, in milliseconds (the expert's own
#: budget: its sampled futures run within it)
HINT_BUDGET_MS = 150.0

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


@dataclass(frozen=True)
class DiscardHint:
    tile: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "reason": self.reason}


@dataclass(frozen=True)
class ClaimHint:
    """During a claim window: whether the discard helps the seat, and why."""

    tile: str
    helps: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "helps": self.helps, "reason": self.reason}


@dataclass(frozen=True)
class MahjonggHint:
    racks: tuple[int, ...]  # counted from 1
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"racks": list(self.racks), "text": self.text}


@dataclass(frozen=True)
class CharlestonHint:
    """During the American game's Charleston: what the expert would pass (or vote, or
    offer), as the legal action's text, its own tiles and blind count, and why."""

    action: str
    tiles: tuple[str, ...]
    blind: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "tiles": list(self.tiles), "blind": self.blind,
                "reason": self.reason}


@dataclass(frozen=True)
class Hints:
    summary: str  # the one line to read first
    racks: tuple[RackHint, ...]
    discard: DiscardHint | None
    plans: tuple[PlanHint, ...]  # the best plan first, then other plans
    claim: ClaimHint | None = None
    mahjongg: MahjonggHint | None = None
    charleston: CharlestonHint | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary,
                "charleston": None if self.charleston is None else self.charleston.to_dict(),
                "mahjongg": None if self.mahjongg is None else self.mahjongg.to_dict(),
                "claim": None if self.claim is None else self.claim.to_dict(),
                "racks": [r.to_dict() for r in self.racks],
                "discard": None if self.discard is None else self.discard.to_dict(),
                "plans": [p.to_dict() for p in self.plans]}


NO_HINTS = Hints("", (), None, ())


def _needs(tiles: Sequence[int], unseen_counts: Sequence[int]) -> tuple[Need, ...]:
    return tuple(Need(CANONICAL[t], list(tiles).count(t), unseen_counts[t])
                 for t in sorted(set(tiles)))


def _line(hand: Hand, needs: Sequence[int], unseen_counts: Sequence[int],
          plan_away: int | None) -> Line:
    return Line(hand.id, hand.section, len(needs), _needs(needs, unseen_counts), hand.value,
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
    if len(aims) > 2:
        first = split_needs(pl, free, aims[:2], own)
        rest = list(free)
        for a in aims[:2]:
            rest = [x - y for x, y in zip(rest, pl.used(a.way, rest, a.exposures),
                                          strict=True)]
        return first + split_needs(pl, rest, aims[2:], own)
    nat, big = [], []
    for a in aims:
        demand = pl.cc.rack(a.exposures)
        n = demand.nat[a.way, :NUM_KINDS].astype(np.int64)
        nat.append(n)
        big.append(demand.tot[a.way, :NUM_KINDS].astype(np.int64) - n)
    best = _shortfalls(free, nat, big, None)
    if own is not None:
        mine = [np.minimum(np.asarray(own[a.rack], dtype=np.int64),
                           np.asarray(free, dtype=np.int64)) for a in aims]
        near = _shortfalls(free, nat, big, mine)
        if sum(map(len, near)) == sum(map(len, best)):
            return near
    return best


def _shortfalls(free: Sequence[int], nat: list[np.ndarray], big: list[np.ndarray],
                mine: list[np.ndarray] | None) -> list[list[int]]:
    """The tiles each rack lacks once ``free`` is handed out: first (when ``mine`` is
    given) each rack's own tiles to that rack, then the rest, singles and pairs before
    groups, then the Jokers."""
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
    give(c, racks)
    gaps = sorted(((i, t) for i in racks for t in range(NUM_KINDS) if short_big[i][t]),
                  key=lambda it: (-short_big[it[0]][it[1]], it))
    for i, t in gaps:
        use = min(jokers, int(short_big[i][t]))
        short_big[i][t] -= use
        jokers -= use
    return [[t for t in range(NUM_KINDS) for _ in range(int(short_nat[i][t] + short_big[i][t]))]
            for i in racks]


# ---------------------------------------------------------------------- plans


@dataclass(frozen=True)
class _Plan:
    hands: tuple[Hand, ...]
    aims: tuple[Aim, ...]
    away: int

    @property
    def hint(self) -> PlanHint:
        return PlanHint(tuple(h.id for h in self.hands), self.away,
                        sum(h.value for h in self.hands))


def _plans(pl: Planner, free: Sequence[int], racks: Racks, top: int) -> list[_Plan]:
    """The best plans for the open racks, best first (only the best with three or four)."""
    if not racks:
        return []
    if len(racks) == 1:
        r, ex = racks[0]
        out = []
        for h in pl.cc.nearest(free, ex, top=top):
            w = pl._way_index(h.way, h.hand)
            out.append(_Plan((h.hand,), (Aim(r, ex, w),), h.away))
        return out
    if len(racks) == 2:
        (r1, e1), (r2, e2) = racks
        return [_Plan(p.hands, (Aim(r1, e1, pl._way_index(p.ways[0], p.hands[0])),
                                Aim(r2, e2, pl._way_index(p.ways[1], p.hands[1]))), p.away)
                for p in pl.cc.best_pairs(np.asarray(free, dtype=np.int64), e1, e2, top=top)]
    best = pl.best(free, racks)
    if best.away >= IMPOSSIBLE:
        return []
    shown = dict(racks)
    return [_Plan(tuple(rp.hand for rp in best.racks),
                  tuple(Aim(rp.rack, shown[rp.rack], rp.way) for rp in best.racks),
                  best.away)]


def _ways_of(pl: Planner, hand: Hand) -> np.ndarray:
    start = int(pl.cc.hand_start[hand.number])
    return np.arange(start, start + len(hand.ways), dtype=np.int64)


def _instead(pl: Planner, free: Sequence[int], plan: _Plan, i: int,
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
        out.append(_line(lines[h], needs, unseen_counts, away))
    return out


def _share_lines(pl: Planner, free: Sequence[int], plan: _Plan, i: int,
                 unseen_counts: Sequence[int]) -> list[Line]:
    """Three or four open racks: lines rack ``i`` could aim for instead, from the tiles the
    other racks' plan lines leave it."""
    rest = list(free)
    for k, a in enumerate(plan.aims):
        if k != i:
            rest = [x - y for x, y in zip(rest, pl.used(a.way, rest, a.exposures),
                                          strict=True)]
    found = pl.cc.nearest(rest, plan.aims[i].exposures, top=ALTERNATIVES + 1)
    return [_line(h.hand, h.needs, unseen_counts, None)
            for h in found if h.hand.id != plan.hands[i].id][:ALTERNATIVES]


def _rack_hints(pl: Planner, free: Sequence[int], plan: _Plan,
                unseen_counts: Sequence[int], top: int, own: Own) -> list[RackHint]:
    needs = split_needs(pl, free, plan.aims, own)
    out = []
    for i, a in enumerate(plan.aims):
        lines = [_line(plan.hands[i], needs[i], unseen_counts, plan.away)]
        if len(plan.aims) == 1:
            lines += [_line(h.hand, h.needs, unseen_counts, h.away)
                      for h in pl.cc.nearest(free, a.exposures, top=ALTERNATIVES + 1)
                      if h.hand.id != plan.hands[0].id][:ALTERNATIVES]
        elif len(plan.aims) == 2:
            lines += _instead(pl, free, plan, i, unseen_counts, own)
        else:
            lines += _share_lines(pl, free, plan, i, unseen_counts)
        out.append(RackHint(a.rack + 1, tuple(lines[:top])))
    return out


def _declared_rack(card: Card, seat: Position, unseen_counts: Sequence[int]) -> RackHint | None:
    """The rack a declared hand fixes: its 13 tiles wait for one more."""
    if seat.declared is None or seat.fixed_rack is None:
        return None
    hand = card.hand(seat.declared)
    found = [h for h in compiled(card).nearest(seat.fixed) if h.hand.id == hand.id]
    lines = (_line(hand, found[0].needs, unseen_counts, None),) if found else ()
    return RackHint(seat.fixed_rack + 1, lines)


# ---------------------------------------------------------------------- Mah Jongg


def _mahjongg(view: View, card: Card, seat: Position, legal: Sequence[Action]
              ) -> MahjonggHint | None:
    """A Mah Jongg the rules allow now: on the turn, a declaration; in a claim window, a
    claim for one (the rules' own legal actions say so)."""
    kinds = {a.kind for a in legal if isinstance(a, Claim)}
    if view.window is not None and kinds & {"mahjongg", "double"}:
        tile = tile_label(view.window[1])
        if "double" in kinds:
            return MahjonggHint((), f"{tile} gives you Mah Jongg on every rack: claim it "
                                    "and win.")
        return MahjonggHint((), f"{tile} gives you Mah Jongg: claim it.")
    declared = [a for a in legal if isinstance(a, MahJongg)
                and (a.tiles or sum(x.size for x in seat.exposures[a.rack]) == 14)]
    if not declared:
        return None
    cc = compiled(card, open_lines=open_lines(view))
    best_on: dict[int, Hand | None] = {}
    for a in declared:
        counts = [0] * NUM_KINDS
        for t in a.tiles:
            counts[t] += 1
        for m in cc.matches(counts, seat.exposures[a.rack]):
            was = best_on.get(a.rack)
            if was is None or m.hand.value > was.value:
                best_on[a.rack] = m.hand
        best_on.setdefault(a.rack, None)
    racks = sorted(best_on)
    return MahjonggHint(tuple(r + 1 for r in racks), f"Mah Jongg now {_mj_words(best_on)}.")


def _mj_words(best_on: dict[int, Hand | None]) -> str:
    """"2468-3 (25 points) on rack 1 or 2": the racks share one holding, so one Mah Jongg
    can go on any of them (but not on two at once)."""
    racks = sorted(best_on)
    names = [str(r + 1) for r in racks]
    where = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    hands = {h.id if h else "" for h in best_on.values()}
    h = best_on[racks[0]]
    if len(hands) == 1:
        what = f"with {h.id} ({h.value} points) " if h else ""
        return f"{what}on rack {where}: declare it"
    parts = [f"on rack {r + 1} with {x.id} ({x.value} points)" if x else f"on rack {r + 1}"
             for r, x in sorted(best_on.items())]
    return " or ".join(parts) + ": declare one"


# ---------------------------------------------------------------------- the discard


def view_rng(view: View) -> random.Random:
    """A random generator fixed by the view alone (all the seat sees), so that the same view
    always gets the same hints, whatever was asked before."""
    text = json.dumps(view.to_dict(), sort_keys=True)
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _discard_tile(view: View, card: Card, seat: Position, legal: Sequence[Action],
                  budget_ms: float) -> int | None:
    """The tile the expert bot would discard: its whole decision, sampled futures included
    while within ``budget_ms``, by a fresh bot (nothing remembered from other views) with a
    generator drawn from the view."""
    options = [a for a in legal if isinstance(a, Discard)]
    if not options:
        options = [Discard(seat.seat, t) for t in range(NUM_KINDS) if seat.free[t]]
    if not options:
        return None
    bot = ExpertBot(card, budget_ms=budget_ms)
    bot.prepare(view)
    return bot.choose_discard(view, seat, options, view_rng(view)).tile


def _discard_reason(pl: Planner, tile: int, before: int, after: _Plan | None,
                    free: Sequence[int], unseen_counts: Sequence[int]) -> str:
    """One line saying why ``tile`` can go, in the words of the plan shown."""
    name = tile_label(tile)
    if after is None:
        return f"{name}: no line of the card is still possible, so it costs nothing"
    plan = f"your plan stays {after.away} away" if after.away == before else (
        f"your plan goes from {before} to {after.away} away")
    if not _plan_uses(pl, after, tile) and after.away == before:
        return f"{name} is in none of your plan's lines: {plan}"
    if unseen_counts[tile] == 0 and free[tile] == 1:
        return f"{name}: every other copy is out, so no pair or group of it can be made; {plan}"
    return f"{name} is the tile your plan needs least: {plan}"


def _plan_uses(pl: Planner, plan: _Plan, tile: int) -> bool:
    """Whether any way of the plan asks for ``tile`` at all."""
    return any(int(pl.cc.rack(a.exposures).tot[a.way, tile]) > 0 for a in plan.aims)


# ---------------------------------------------------------------------- a claim


def _claim(view: View, pl: Planner, seat: Position, racks: Racks, plan: _Plan | None,
           legal: Sequence[Action]) -> ClaimHint | None:
    """During a claim window: does the discard bring the plan closer, and can the claim
    use it (a claimed tile goes into an exposed group: not into a pair, nor into a line
    that must stay concealed)?"""
    if view.window is None:
        return None
    t = view.window[1]
    name = tile_label(t)
    if not any(isinstance(a, Claim) for a in legal):
        return ClaimHint(CANONICAL[t], False, f"You cannot claim {name} now: pass.")
    if plan is None:
        return ClaimHint(CANONICAL[t], False, f"No line is still possible: {name} does not help.")
    with_tile = _plans(pl, plus(seat.free, t), racks, 1)
    if not with_tile or with_tile[0].away >= plan.away:
        return ClaimHint(CANONICAL[t], False,
                         f"{name} does not bring your plan closer ({plan.away} away): pass.")
    best = with_tile[0]
    for hand, aim in zip(best.hands, best.aims, strict=True):
        demand = pl.cc.rack(aim.exposures)
        group = int(demand.tot[aim.way, t]) - int(demand.nat[aim.way, t])
        if group > 0 and not hand.concealed:
            return ClaimHint(CANONICAL[t], True,
                             f"{name} brings your plan from {plan.away} to {best.away} away: "
                             f"claim it for a group of {hand.id} on rack {aim.rack + 1}.")
    return ClaimHint(CANONICAL[t], False,
                     f"{name} would help only in a pair or a concealed line, and a claimed "
                     "tile must be exposed in a group: pass.")


# ---------------------------------------------------------------------- together


def _summary(mahjongg: MahjonggHint | None, plan: _Plan | None, racks: Sequence[RackHint],
             discard: int | None) -> str:
    """The picture in one line: the plan is that of the holding after the suggested
    discard, so it says so (beside "goes from 8 to 9 away", "9 away" reads rightly)."""
    if mahjongg is not None:
        return mahjongg.text
    if plan is None:
        return "No line of the card is still possible on your open racks."
    parts = [f"{r.lines[0].id} on rack {r.rack} ({r.lines[0].away} away)"
             for r in racks if r.lines and r.lines[0].plan_away == plan.away]
    value = sum(h.value for h in plan.hands)
    after = "" if discard is None else f" once you discard {tile_label(discard)}"
    return f"Best plan{after}: {' + '.join(parts)}: {plan.away} away in all, {value} points."


def hints(view: View, card: Card, top: int = 3, legal: Sequence[Action] = (),
          budget_ms: float = HINT_BUDGET_MS) -> Hints:
    """Hints for the seat of ``view`` (a player's own view, not a spectator's), with the
    seat's ``legal`` actions (what the rules allow it now). The suggested discard is the
    expert's, which samples futures while the decision is within ``budget_ms`` (the caller's
    time for it: ``math.inf`` always samples them, 0 never)."""
    if view.free is None:
        return NO_HINTS
    legal = choices(view, legal)
    seat = position(view)
    unseen_counts = unseen(view)
    racks = open_racks(seat)
    pl = planner(card, open_lines(view))
    if view.phase == "charleston":
        return charleston_hints(view, card, legal, budget_ms)
    mahjongg = _mahjongg(view, card, seat, legal)
    tile = None
    if mahjongg is None and "discard" in view.verbs:
        tile = _discard_tile(view, card, seat, legal, budget_ms)
    keep = list(seat.free) if tile is None else minus(seat.free, (tile,))
    plans = _plans(pl, keep, racks, top)
    plan = plans[0] if plans else None
    rack_hints = [RackHint(r + 1, ()) for r, _ex in racks] if plan is None else _rack_hints(
        pl, keep, plan, unseen_counts, top, view.counts)
    fixed = _declared_rack(card, seat, unseen_counts)
    if fixed is not None:
        rack_hints = sorted([*rack_hints, fixed], key=lambda r: r.rack)
    discard = None
    if tile is not None:
        before = _plans(pl, seat.free, racks, 1)
        discard = DiscardHint(CANONICAL[tile], _discard_reason(
            pl, tile, before[0].away if before else IMPOSSIBLE, plan, seat.free,
            unseen_counts))
    claim = None
    if mahjongg is None and view.window is not None:
        claim = _claim(view, pl, seat, racks, plan, legal)
    return Hints(_summary(mahjongg, plan, rack_hints, tile), tuple(rack_hints), discard,
                 tuple(p.hint for p in plans), claim, mahjongg)


# ---------------------------------------------------------------------- the Charleston


def charleston_hints(view: View, card: Card, legal: Sequence[Action],
                     budget_ms: float = HINT_BUDGET_MS) -> Hints:
    """The Charleston's hint: the expert's choice (its pass weighed by the chance of
    finishing, :meth:`ExpertBot.choose_charleston`) and the plan it keeps."""
    seat = position(view)
    racks = open_racks(seat)
    pl = planner(card, open_lines(view))
    bot = ExpertBot(card, budget_ms=budget_ms)
    bot.prepare(view)
    made = bot.choose(view, list(legal), view_rng(view)) if legal else None
    passed = made.tiles if isinstance(made, CharlestonPass | Courtesy) else ()
    before = _plans(pl, seat.free, racks, 1)
    after = _plans(pl, minus(seat.free, passed), racks, 1) if passed else before
    plan = after[0] if after else None
    words = "no line of the card is in reach" if plan is None else (
        f"your plan {' + '.join(h.id for h in plan.hands)} is {plan.away} away")
    if made is None:
        return Hints(f"The Charleston: {words}.", (), None, tuple(p.hint for p in after))
    reason = _charleston_reason(made, before[0].away if before else None, plan, words)
    blind = made.blind if isinstance(made, CharlestonPass) else 0
    hint = CharlestonHint(made.body(), tuple(CANONICAL[t] for t in passed), blind, reason)
    return Hints(reason, (), None, tuple(p.hint for p in after), charleston=hint)


def _charleston_reason(made: Action, before: int | None, plan: _Plan | None,
                       words: str) -> str:
    if isinstance(made, Vote):
        return (f"Vote again: {words}, and another Charleston can bring it closer."
                if made.again else f"Stop the second Charleston: {words}; keep your tiles.")
    if isinstance(made, Offer):
        return (f"Offer {made.count}: {words}, and you can spare that many."
                if made.count else f"Offer nothing: {words}, and every tile serves it.")
    assert isinstance(made, CharlestonPass | Courtesy)
    blind = made.blind if isinstance(made, CharlestonPass) else 0
    if not made.tiles:
        return f"Pass all {blind} blind: every tile you hold serves your plan ({words})."
    what = ", ".join(tile_label(t) for t in made.tiles)
    extra = f" and {blind} blind" if blind else ""
    kept = "" if plan is None or before is None or plan.away == before else (
        f" (from {before} to {plan.away} away)")
    return f"Pass {what}{extra}: the tiles your plan needs least; {words}{kept}."
