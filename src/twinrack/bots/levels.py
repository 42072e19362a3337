"""Levels a person enjoys: bots that play like a beginner and like an intermediate player.

Their mistakes are the ones people make, not random moves, and they come from the bot's
own seeded generator (the same seed, the same game):

* **beginner** picks a line for each open rack after the deal and chases it: it throws
  what that plan does not use and changes plan only when the plan can no longer be made
  or a rack is finished. It never thinks about what its discards give away, often does not
  see that a discard would help an exposure, sometimes misses a Mah Jongg on a discard,
  and never exchanges for a Joker.
* **intermediate** plays the greedy bot's tiles-away game but sticks to its plan until
  another is clearly nearer (two tiles), lets some useful claims go by, misses a Joker
  exchange now and then, and pays no attention to defence either.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from twinrack.bots.greedy import GreedyBot, Racks, open_racks
from twinrack.bots.plans import AwayValue, Plan
from twinrack.bots.seen import Position
from twinrack.card import Card
from twinrack.card.compiled import IMPOSSIBLE
from twinrack.engine.actions import Action, Claim, Discard, Exchange, Pass
from twinrack.engine.view import View
from twinrack.tiles import JOKER, NUM_KINDS


class ChasingBot(GreedyBot):
    """A greedy player that keeps its plan: base of the two levels. ``switch`` is how
    many tiles nearer another plan must be before it changes (``None``: only when its
    plan cannot be made); ``miss_expose``, ``miss_mahjongg`` and ``miss_exchange`` are
    the chances of letting a useful claim, a Mah Jongg claim and a Joker exchange go by."""

    name = "chasing"
    switch: int | None = None
    miss_expose = 0.0
    miss_mahjongg = 0.0
    miss_exchange = 0.0

    def __init__(self, card: Card | None = None) -> None:
        super().__init__(card)
        self.plan: Plan | None = None
        self.plan_racks: tuple[int, ...] = ()
        self.rng = random.Random(0)

    # ------------------------------------------------------------------ the fixed plan

    def kept_plan(self, seat: Position) -> Plan:
        """The plan it keeps chasing, changed only as ``switch`` allows."""
        racks = open_racks(seat)
        best = self.best(seat.free, racks)
        keys = tuple(r for r, _ex in racks)
        if self.plan is None or self.plan_racks != keys:
            self.plan, self.plan_racks = best, keys
            return best
        kept = self.away_of(self.plan, seat.free, racks)
        if kept >= IMPOSSIBLE or (self.switch is not None and best.away + self.switch <= kept):
            self.plan = best
        return self.plan

    def away_of(self, plan: Plan, free: Sequence[int], racks: Racks) -> int:
        """How far the holding is from this plan's lines (each rack on its own way)."""
        exposures = dict(racks)
        total = 0
        for rp in plan.racks:
            if rp.rack not in exposures:
                return IMPOSSIBLE
            a = self.plans.rack_aways(free, exposures[rp.rack])
            total += int(a[rp.way])
        return min(total, IMPOSSIBLE)

    def wanted(self, plan: Plan, racks: Racks) -> list[int]:
        """The tiles the plan's ways take, per kind."""
        exposures = dict(racks)
        want = [0] * NUM_KINDS
        for rp in plan.racks:
            if rp.rack in exposures:
                tot = self.plans.cc.rack(exposures[rp.rack]).tot[rp.way, :NUM_KINDS]
                for t in range(NUM_KINDS):
                    want[t] += int(tot[t])
        return want

    # ------------------------------------------------------------------ decisions

    def choose_discard(self, view: View, seat: Position, options: Sequence[Discard],
                       rng: random.Random) -> Discard:
        racks = open_racks(seat)
        plan = self.kept_plan(seat)
        want = self.wanted(plan, racks)

        def key(a: Discard) -> tuple[int, int, int]:
            spare = seat.free[a.tile] - want[a.tile]
            return (a.tile != JOKER, spare, -a.tile)

        spare_most = max(options, key=key)
        ties = [a for a in options if key(a)[:2] == key(spare_most)[:2]]
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else spare_most

    def choose_claim(self, view: View, seat: Position, legal: Sequence[Action],
                     rng: random.Random) -> Action:
        passing = next(a for a in legal if isinstance(a, Pass))
        mj = self.mahjongg_claim(legal, view, seat)
        if mj is not None:
            return passing if rng.random() < self.miss_mahjongg else mj
        expose = next((a for a in legal if isinstance(a, Claim) and a.kind == "expose"), None)
        if expose is None or view.window is None:
            return passing
        tile = view.window[1]
        racks = open_racks(seat)
        plan = self.kept_plan(seat)
        want = self.wanted(plan, racks)
        helps = want[tile] >= 3 and want[tile] > seat.free[tile] >= 1
        if helps and rng.random() >= self.miss_expose:
            return expose
        return passing

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        self.rng = rng  # the Joker exchange is decided without one being passed
        return super().decide(view, legal, rng)

    def choose_exchange(self, view: View, seat: Position,
                        options: Sequence[Exchange]) -> Exchange | None:
        if self.miss_exchange >= 1.0:
            return None
        chosen = super().choose_exchange(view, seat, options)
        if chosen is not None and self.rng.random() < self.miss_exchange:
            return None
        return chosen


class BeginnerBot(ChasingBot):
    """See the module docstring."""

    name = "beginner"
    switch = None
    miss_expose = 0.5
    miss_mahjongg = 0.15
    miss_exchange = 1.0


class IntermediateBot(ChasingBot):
    """See the module docstring."""

    name = "intermediate"
    switch = 2
    miss_expose = 0.25
    miss_mahjongg = 0.0
    miss_exchange = 0.3

    def choose_discard(self, view: View, seat: Position, options: Sequence[Discard],
                       rng: random.Random) -> Discard:
        """Greedy's discard among the tiles its kept plan can spare."""
        racks = open_racks(seat)
        plan = self.kept_plan(seat)
        want = self.wanted(plan, racks)
        spare = [a for a in options if a.tile != JOKER and seat.free[a.tile] > want[a.tile]]
        outcomes = self.discard_outcomes(seat.free, racks)
        pool = spare or list(options)

        def key(a: Discard) -> tuple[int, int, int, int]:
            s = outcomes.get(a.tile, AwayValue(IMPOSSIBLE, 0))
            return (s.away, -s.value, a.tile == JOKER, a.tile)

        return min(pool, key=key)


#: one line per level, for the lobby and the command line
DESCRIPTIONS: dict[str, str] = {
    "random": "Plays any legal move: for testing, not for fun.",
    "beginner": "New to the game: chases one line, misses claims, never thinks of defence.",
    "intermediate": "Knows the card: plays tiles away, sticks to a plan, misses a few claims.",
    "greedy": "Steady: always plays the tile that leaves it nearest a Mah Jongg.",
    "expert": "Strong: weighs the odds of every line and will not feed you a Mah Jongg.",
    "master": "The expert, playing each close decision out in its head first: slower.",
}
