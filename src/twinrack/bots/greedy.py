"""The greedy bot: plays on tiles away, one decision at a time.

It keeps the best plan for its open racks (two racks planned together on one shared
holding), discards the tile whose loss leaves the best plan nearest (then of the highest
value, then the tile the fewest near lines want), claims a discard for an exposure when
that brings a rack closer, exchanges for a Joker when that does not set it back, and
declares Mah Jongg whenever it can. It never looks further than the next tile.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from twinrack.bots.charleston import charleston_decision
from twinrack.bots.plans import AwayValue, Exposures, Plan, Planner, planner
from twinrack.bots.seen import Position, choices, open_lines, position
from twinrack.card import Card, practice_card
from twinrack.card.compiled import IMPOSSIBLE
from twinrack.card.exposure import Exposure
from twinrack.engine.actions import (
    Action,
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Pass,
    Undeclare,
)
from twinrack.engine.scoring import hand_points
from twinrack.engine.view import View
from twinrack.tiles import JOKER, NUM_KINDS

Racks = tuple[tuple[int, Exposures], ...]

_CARD: list[Card] = []


def default_card() -> Card:
    if not _CARD:
        _CARD.append(practice_card())
    return _CARD[0]


def plus(free: Sequence[int], tile: int, n: int = 1) -> list[int]:
    out = list(free)
    out[tile] += n
    return out


def minus(free: Sequence[int], tiles: Sequence[int]) -> list[int]:
    out = list(free)
    for t in tiles:
        out[t] -= 1
    return out


def open_racks(seat: Position) -> Racks:
    """The racks a plan covers: open, and not the fixed rack of a declared hand."""
    return tuple((r, seat.exposures[r]) for r in seat.open_racks if r != seat.fixed_rack)


def declarations(legal: Sequence[Action], seat: Position) -> list[MahJongg]:
    """The Mah Jonggs offered: with concealed tiles, or on a rack exposed in full. (An
    empty declaration on any other rack is strict mode's "as arranged", a Mah Jongg in
    error: never chosen.)"""
    return [a for a in legal if isinstance(a, MahJongg)
            and (a.tiles or sum(x.size for x in seat.exposures[a.rack]) == 14)]


def left_after(seat: Position, a: MahJongg) -> list[int]:
    """The free tiles left after a Mah Jongg declaration (a declared hand's Mah Jongg takes
    its 13 fixed tiles and the 14th)."""
    if a.rack == seat.fixed_rack:
        pool = [x + y for x, y in zip(seat.free, seat.fixed, strict=True)]
        return minus(pool, a.tiles)
    return minus(seat.free, a.tiles)


def with_exposure(racks: Racks, rack: int, tiles: Sequence[int]) -> Racks:
    x = Exposure.from_tiles(list(tiles))
    return tuple((r, (*ex, x) if r == rack else ex) for r, ex in racks)


class GreedyBot:
    """Greedy on tiles away; see the module docstring."""

    name = "greedy"

    def __init__(self, card: Card | None = None) -> None:
        self.card = card or default_card()
        self.plans: Planner = planner(self.card)
        self._best: dict[tuple[tuple[int, ...], Racks], Plan] = {}
        self._discards: dict[tuple[tuple[int, ...], Racks], dict[int, AwayValue]] = {}

    def reset(self) -> None:
        self._best.clear()
        self._discards.clear()

    def follow(self, view: View) -> None:
        """Plan on the card as this table plays it: with concealed lines open to
        exposures or not (the revision's rule, section 5)."""
        want = open_lines(view)
        if self.plans.open_lines != want:
            self.plans = planner(self.card, want)
            self.reset()

    # ------------------------------------------------------------------ cached planning

    def best(self, free: Sequence[int], racks: Racks) -> Plan:
        key = (tuple(free), racks)
        p = self._best.get(key)
        if p is None:
            if len(self._best) > 256:
                self._best.clear()
            p = self._best[key] = self.plans.best(free, racks)
        return p

    def discard_outcomes(self, free: Sequence[int], racks: Racks) -> dict[int, AwayValue]:
        key = (tuple(free), racks)
        d = self._discards.get(key)
        if d is None:
            if len(self._discards) > 256:
                self._discards.clear()
            d = self._discards[key] = self.plans.discards(free, racks)
        return d

    def after_discard(self, free: Sequence[int], racks: Racks) -> AwayValue:
        """The best plan reachable by one discard (a turn's outcome)."""
        outcomes = self.discard_outcomes(free, racks)
        if not outcomes:
            return self.best(free, racks).away_value
        return min(outcomes.values(), key=AwayValue.key)

    # ------------------------------------------------------------------ the protocol

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The bot protocol: one of ``legal`` for the seat of ``view``."""
        return self.decide(view, choices(view, legal), rng)

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """:meth:`choose` among the seat's choices (subclasses start their decision
        here)."""
        self.follow(view)
        if len(legal) == 1:
            return legal[0]
        if view.phase == "charleston":
            return self.choose_charleston(view, legal, rng)
        seat = position(view)
        if view.phase == "declare":
            return self.choose_declare(view, seat, legal, rng)
        if view.phase == "window":
            return self.choose_claim(view, seat, legal, rng)
        return self.choose_turn(view, seat, legal, rng)

    # ------------------------------------------------------------------ the Charleston

    def choose_charleston(self, view: View, legal: Sequence[Action],
                          rng: random.Random) -> Action:
        """The American game's passes, vote and courtesy, by the plan
        (:mod:`twinrack.bots.charleston`)."""
        return charleston_decision(self, view, legal)

    # ------------------------------------------------------------------ declare phase

    def choose_declare(self, view: View, seat: Position, legal: Sequence[Action],
                       rng: random.Random) -> Action:
        declares = [a for a in legal if isinstance(a, Declare)]
        racks = open_racks(seat)
        now = self.best(seat.free, racks).away_value
        best: tuple[tuple[int, int], Action] | None = None
        for a in declares:
            rest = minus(seat.free, a.tiles)
            others = tuple(r for r in racks if r[0] != 0)  # the declared hand takes rack 1
            s = self.best(rest, others).away_value
            hand_value = self.card.hand(a.hand).value
            declared = AwayValue(s.away + 1, s.value + hand_value)
            if best is None or declared.key() < best[0]:
                best = (declared.key(), a)
        if best is not None and best[0] < now.key():
            return best[1]
        return next(a for a in legal if isinstance(a, Pass))

    # ------------------------------------------------------------------ claims

    def mahjongg_claim(self, legal: Sequence[Action], view: View, seat: Position) -> Action | None:
        """The Mah Jongg claim to make (a Double first), if the discard really makes one."""
        kinds = {a.kind: a for a in legal if isinstance(a, Claim)}
        if "double" in kinds:
            return kinds["double"]
        if ("mahjongg" in kinds and view.window is not None
                and self.completes(seat, view.window[1])):
            return kinds["mahjongg"]
        return None

    def completes(self, seat: Position, tile: int) -> bool:
        """Whether ``tile`` makes a Mah Jongg on some open rack (strict mode offers the
        claim to everyone, so check)."""
        racks = open_racks(seat)
        with_tile = plus(seat.free, tile)
        for _r, ex in racks:
            a = self.plans.rack_aways(with_tile, ex)
            if (a == 0).any():
                b = self.plans.rack_aways(seat.free, ex)
                if ((a == 0) & (b > 0)).any():
                    return True
        return False

    def exposure_gain(self, seat: Position, tile: int) -> tuple[AwayValue, AwayValue]:
        """(now, after): the plan's score now, and after claiming ``tile``, exposing it in
        the best way and discarding."""
        racks = open_racks(seat)
        now = self.best(seat.free, racks).away_value
        with_tile = plus(seat.free, tile)
        if self.after_discard(with_tile, racks).away >= now.away:
            return now, now  # even unexposed the tile does not help
        best = AwayValue(IMPOSSIBLE, 0)
        for rack, tiles in self.exposure_options(seat, tile):
            s = self.after_discard(minus(with_tile, tiles), with_exposure(racks, rack, tiles))
            if s.key() < best.key():
                best = s
        return now, best

    def exposure_options(self, seat: Position, tile: int) -> list[tuple[int, tuple[int, ...]]]:
        """Groups holding the claimed ``tile`` that could be exposed after the claim: naturals
        first, Jokers for the rest, in every group size the card uses for that tile."""
        sizes = sorted({g.size for h in self.plans.hands for w in h.ways for g in w.groups
                        if g.tile == tile and g.size >= 3})
        have = seat.free[tile] + 1
        jokers = seat.free[JOKER]
        out = []
        for size in sizes:
            nat = min(have, size)
            j = size - nat
            if j > jokers or sum(seat.free) + 1 - size < 1:
                continue
            tiles = (tile,) * nat + (JOKER,) * j
            for rack, ex in open_racks(seat):
                if sum(x.size for x in ex) + size <= 14:
                    out.append((rack, tiles))
        return out

    def choose_claim(self, view: View, seat: Position, legal: Sequence[Action],
                     rng: random.Random) -> Action:
        mj = self.mahjongg_claim(legal, view, seat)
        if mj is not None:
            return mj
        expose = next((a for a in legal if isinstance(a, Claim) and a.kind == "expose"), None)
        if expose is not None and view.window is not None:
            now, after = self.exposure_gain(seat, view.window[1])
            if after.away < now.away:
                return expose
        return next(a for a in legal if isinstance(a, Pass))

    # ------------------------------------------------------------------ turns

    def mahjongg_points(self, seat: Position, a: MahJongg) -> int:
        """What the declaration outcomes on its best line, as the table counts it (section
        10: jokerless, closed, Royale bonuses)."""
        counts = [0] * NUM_KINDS
        for t in a.tiles:
            counts[t] += 1
        ex = seat.exposures[a.rack]
        matches = self.plans.cc.matches(counts, ex)
        if matches:
            return max(hand_points(m.hand, m.jokerless, m.closed, seat.scoring)
                       for m in matches)
        if seat.declared is not None and a.rack == seat.fixed_rack:
            jokerless = JOKER not in a.tiles and all(x.jokers == 0 for x in ex)
            return hand_points(self.card.hand(seat.declared), jokerless, not ex, seat.scoring)
        return 0

    def choose_mahjongg(self, seat: Position, options: Sequence[MahJongg]) -> MahJongg:
        """The declaration that leaves the other racks nearest, then outcomes the most."""
        racks = open_racks(seat)
        best: tuple[tuple[int, int], MahJongg] | None = None
        for a in options:
            rest = left_after(seat, a)
            others = tuple(r for r in racks if r[0] != a.rack)
            left = self.best(rest, others).away if others else 0
            key = (left, -self.mahjongg_points(seat, a))
            if best is None or key < best[0]:
                best = (key, a)
        assert best is not None
        return best[1]

    def choose_exposure(self, view: View, seat: Position, options: Sequence[Expose]) -> Expose:
        racks = open_racks(seat)
        best: tuple[tuple[int, int, int], Expose] | None = None
        for a in options:
            s = self.after_discard(minus(seat.free, a.tiles),
                                   with_exposure(racks, a.rack, a.tiles))
            key = (*s.key(), a.tiles.count(JOKER))  # Jokers stay in hand when it is equal
            if best is None or key < best[0]:
                best = (key, a)
        assert best is not None
        return best[1]

    def choose_exchange(self, view: View, seat: Position,
                        options: Sequence[Exchange]) -> Exchange | None:
        racks = open_racks(seat)
        if not racks:
            return None
        now = self.after_discard(seat.free, racks)
        best: tuple[tuple[int, int], Exchange] | None = None
        for a in options:
            after = plus(minus(seat.free, (a.tile,)), JOKER)
            s = self.after_discard(after, racks)
            if s.key() <= now.key() and (best is None or s.key() < best[0]):
                best = (s.key(), a)
        return None if best is None else best[1]

    def choose_discard(self, view: View, seat: Position, options: Sequence[Discard],
                       rng: random.Random) -> Discard:
        racks = open_racks(seat)
        outcomes = self.discard_outcomes(seat.free, racks)
        use = self.plans.usefulness(seat.free, racks)

        def key(a: Discard) -> tuple[int, int, int, int, int]:
            s = outcomes.get(a.tile, AwayValue(IMPOSSIBLE, 0))
            return (s.away, -s.value, a.tile == JOKER, use[a.tile], a.tile)

        return min(options, key=key)

    def choose_turn(self, view: View, seat: Position, legal: Sequence[Action],
                    rng: random.Random) -> Action:
        mjs = declarations(legal, seat)
        if mjs:
            return self.choose_mahjongg(seat, mjs)
        exposes = [a for a in legal if isinstance(a, Expose)]
        if exposes and view.must in ("expose", "error"):
            return self.choose_exposure(view, seat, exposes)
        exchanges = [a for a in legal if isinstance(a, Exchange)]
        if exchanges:
            ex = self.choose_exchange(view, seat, exchanges)
            if ex is not None:
                return ex
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return self.choose_discard(view, seat, discards, rng)
        rest = [a for a in legal if not isinstance(a, Move | Undeclare)]
        return (rest or list(legal))[0]
