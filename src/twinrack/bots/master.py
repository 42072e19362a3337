"""The master bot: the expert's judgement, checked by racing its next picks many times.

Once its nearest plan is at most ``SEARCH_AWAY`` tiles away, at a discard, at a claim for
an exposure and at a first Mah Jongg on a discard, it plays the seat's own next picks
forward in hundreds of futures dealt from the tiles it has not seen, every option on the
same futures (:class:`twinrack.bots.race.Forward`: plans switched as the tiles come), and
weighs each future's finishing pick by the chance that no opponent has finished before it
(:func:`twinrack.bots.race.opponents_survive`, read from the table), a little more for a
dearer hand. A discard's worth is also lowered by the chance that it gives an opponent
its winning Mah Jongg (the expert's measure of feeding). The expert's own choice stands
unless another beats it by more than ``confidence`` standard errors of the paired
differences. Further from its plans, and at every other decision, it is the expert.

The budget is a number of *simulations* (futures, each played once per option), so a seed
and a budget give the same decisions on any machine; ``time_cap_ms`` is only a safety net
for interactive tables and is off by default (the arena never sets it).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

import numpy as np

from twinrack.bots.expert import ExpertBot
from twinrack.bots.greedy import Racks, minus, open_racks, plus, with_exposure
from twinrack.bots.odds import FloatArray, IntArray, Plans, aways
from twinrack.bots.race import Forward, deal_picks, opponents_survive
from twinrack.bots.reading import ReadingModel
from twinrack.bots.seen import Position, position, unseen
from twinrack.card import Card
from twinrack.engine import Action, Claim, Discard, Pass
from twinrack.engine.view import View

#: futures per decision (the budget)
SIMULATIONS = 192
#: the discards tried: the expert's best few by its own measure
OPTIONS = 5
#: and only those within this share of the best one's utility by that measure
DISCARD_SLACK = 0.1
#: plans played against (the nearest, ranked by the expert's chance)
PLANS = 128
#: discards and claims are played out only once the nearest plan is this few tiles away:
#: before, the holding's chance is spread over more plans than the race plays, and the
#: expert's measure of flexibility is the better guide
SEARCH_AWAY = 6
#: a choice replaces the expert's only when better by this many standard errors
CONFIDENCE = 1.5
#: a claim is played out only when the expert's measure rates it at least this share of
#: passing
CLAIM_FLOOR = 0.9
#: with a time cap, futures are raced in batches of this many, while within it
BATCH = 64
#: weight of a finished hand's card value (per 100 points)
VALUE_WEIGHT = 0.1


class MasterBot(ExpertBot):
    """See the module docstring. ``simulations`` is the budget of one decision."""

    name = "master"

    def __init__(self, card: Card | None = None, simulations: int = SIMULATIONS,
                 confidence: float = CONFIDENCE, time_cap_ms: float | None = None,
                 reading: ReadingModel | None = None) -> None:
        super().__init__(card, budget_ms=math.inf)
        self.reading = reading
        self.simulations = simulations
        self.confidence = confidence
        self.time_cap_ms = time_cap_ms
        self.cap_at = math.inf
        #: what the last search found: (option, mean worth) per option, the expert's first
        self.last_search: list[tuple[Action, float]] = []

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        self.last_search = []
        if self.time_cap_ms is not None:
            self.cap_at = time.perf_counter() + self.time_cap_ms / 1000
        expert = super().decide(view, legal, rng)
        if len(legal) == 1 or not self.simulations:
            return expert
        seat = position(view)
        if not self.planned(seat) or len(open_racks(seat)) > 2:
            return expert
        if view.phase == "turn" and isinstance(expert, Discard):
            return self.search_discard(view, seat, legal, expert, rng)
        if view.phase == "window" and isinstance(expert, Claim | Pass):
            kinds = {a.kind for a in legal if isinstance(a, Claim)}
            if "double" in kinds:
                return expert
            if "mahjongg" in kinds and len(seat.open_racks) == 2:
                return self.search_mahjongg_claim(view, seat, legal, expert, rng)
            return self.search_claim(view, seat, legal, expert, rng)
        return expert

    # ------------------------------------------------------------------ discards

    def search_discard(self, view: View, seat: Position, legal: Sequence[Action],
                       expert: Discard, rng: random.Random) -> Action:
        """The expert's discard against its next best ones, raced over the same futures."""
        racks = open_racks(seat)
        discards = [a for a in legal if isinstance(a, Discard)]
        picks = self.picks_left(view, True)
        if picks <= 0 or len(discards) < 2:
            return expert
        unseen_counts = unseen(view)
        holdings = [minus(seat.free, (a.tile,)) for a in discards]
        util, plans, per_plan = self.plan_utilities(seat.free, holdings, racks,
                                                     unseen_counts, picks)
        if not len(plans):
            return expert
        order = sorted(range(len(discards)),
                       key=lambda i: (-round(float(util[i]), 9), discards[i].tile))
        top = float(util[order[0]])
        pick = [discards.index(expert)] + [
            i for i in order if discards[i] != expert
            and float(util[i]) >= top - DISCARD_SLACK * abs(top)]
        pick = pick[:OPTIONS]
        if len(pick) < 2:
            return expert
        if int(aways(plans, holdings[pick[0]]).min()) > SEARCH_AWAY:
            return expert
        forward = Forward(self.ranked(plans, per_plan[pick]))
        chosen = np.asarray([holdings[i] for i in pick])

        def evaluate(futures: IntArray) -> FloatArray:
            draws = futures.shape[1]
            when, worth = forward.run(chosen, futures, [False] * len(pick))
            return self.worth(when, worth, opponents_survive(view, draws, before_own=True),
                              draws)

        value = self.raced(unseen_counts, picks, rng, evaluate)
        danger = self.danger(view, unseen_counts, winning_only=True)
        safe = np.asarray([1.0 - min(1.0, float(danger[discards[i].tile])) for i in pick])
        best = self.pick(value, safe)
        self.last_search = [(discards[i], float(value[j].mean() * safe[j]))
                            for j, i in enumerate(pick)]
        return discards[pick[best]]

    # ------------------------------------------------------------------ claims

    def search_claim(self, view: View, seat: Position, legal: Sequence[Action],
                     expert: Claim | Pass, rng: random.Random) -> Action:
        """A claim for an exposure against a pass: the claimed tile exposed as the expert
        would, then a throw, against this turn's pick."""
        expose = next((a for a in legal if isinstance(a, Claim) and a.kind == "expose"), None)
        passing = next((a for a in legal if isinstance(a, Pass)), None)
        if (expose is None or passing is None or view.window is None
                or expert not in (expose, passing)):
            return expert
        racks = open_racks(seat)
        unseen_counts = unseen(view)
        draws = self.picks_left(view, False)
        exposed = self.exposed(seat, view.window[1], unseen_counts, draws - 1)
        if exposed is None or draws <= 1:
            return expert
        after, new_racks, u_claim = exposed
        u_pass, plans, per_plan = self.plan_utilities(seat.free, [seat.free], racks,
                                                      unseen_counts, draws)
        if u_claim < CLAIM_FLOOR * float(u_pass[0]):
            return expert  # the expert's measure sees no chance that the claim helps
        if not len(plans) or int(aways(plans, seat.free).min()) > SEARCH_AWAY:
            return expert
        kinds = [t for t in range(len(after)) if after[t]]
        _u, plans_c, per_plan_c = self.plan_utilities(
            after, [minus(after, (t,)) for t in kinds], new_racks, unseen_counts, draws - 1)
        if not len(plans_c):
            return expert
        return self.against_pass(view, seat, (passing, expose), expert,
                                 (self.ranked(plans, per_plan), self.ranked(plans_c, per_plan_c)),
                                 after, 0, rng)

    def search_mahjongg_claim(self, view: View, seat: Position, legal: Sequence[Action],
                              expert: Claim | Pass, rng: random.Random) -> Action:
        """A first Mah Jongg on a discard against a pass: the rack declared now (the other
        rack played on from the tiles left) against keeping both racks for later."""
        claim = next((a for a in legal if isinstance(a, Claim) and a.kind == "mahjongg"), None)
        passing = next((a for a in legal if isinstance(a, Pass)), None)
        if (claim is None or passing is None or view.window is None
                or expert not in (claim, passing) or not self.completes(seat, view.window[1])):
            return expert
        racks = open_racks(seat)
        unseen_counts = unseen(view)
        draws = self.picks_left(view, False)
        made = self.declared(seat, view.window[1], unseen_counts, draws - 1)
        if made is None or draws <= 1:
            return expert
        rest, rest_racks, points = made
        _u, plans, per_plan = self.plan_utilities(seat.free, [seat.free], racks,
                                                  unseen_counts, draws)
        kinds = [t for t in range(len(rest)) if rest[t]]
        _u, plans_c, per_plan_c = self.plan_utilities(
            rest, [minus(rest, (t,)) for t in kinds], rest_racks, unseen_counts, draws - 1)
        if not len(plans) or not len(plans_c):
            return expert
        return self.against_pass(view, seat, (passing, claim), expert,
                                 (self.ranked(plans, per_plan), self.ranked(plans_c, per_plan_c)),
                                 rest, points, rng)

    def against_pass(self, view: View, seat: Position, options: tuple[Pass, Claim],
                     expert: Action, plans: tuple[Plans, Plans], claimed: list[int],
                     points: int, rng: random.Random) -> Action:
        """Race a pass (this turn's pick next) against a claim (the free tiles
        ``claimed`` after it, a throw first, ``points`` already made): the expert's choice
        unless the other is surely better."""
        on_pass, on_claim = Forward(plans[0]), Forward(plans[1])
        hold = np.asarray([seat.free])
        after = np.asarray([claimed])

        def evaluate(futures: IntArray) -> FloatArray:
            d = futures.shape[1]
            when_p, worth_p = on_pass.run(hold, futures, [False])
            when_c, worth_c = on_claim.run(after, futures[:, :d - 1], [True])
            return np.concatenate([
                self.worth(when_p, worth_p, opponents_survive(view, d, before_own=False), d),
                self.worth(when_c, worth_c + points,
                           opponents_survive(view, d, before_own=True), d - 1)])

        value = self.raced(unseen(view), self.picks_left(view, False), rng, evaluate)
        order: list[Action] = list(options)
        if expert is options[1]:
            order, value = order[::-1], value[::-1]
        best = self.pick(value, np.ones(2))
        self.last_search = [(a, float(value[i].mean())) for i, a in enumerate(order)]
        return order[best]

    def raced(self, unseen_counts: Sequence[int], draws: int, rng: random.Random,
              evaluate: Callable[[IntArray], FloatArray]) -> FloatArray:
        """``evaluate`` (options x futures worths) on the budget's futures: all at once,
        or with ``time_cap_ms``, in batches while the decision is within it."""
        gen = np.random.default_rng(rng.getrandbits(63))
        if self.time_cap_ms is None:
            return evaluate(deal_picks(unseen_counts, draws, self.simulations, gen))
        parts = []
        left = self.simulations
        while left > 0:
            n = min(BATCH, left)
            parts.append(evaluate(deal_picks(unseen_counts, draws, n, gen)))
            left -= n
            if time.perf_counter() > self.cap_at:
                break
        return np.concatenate(parts, axis=1)

    def declared(self, seat: Position, tile: int, unseen_counts: Sequence[int],
                 picks: int) -> tuple[list[int], Racks, int] | None:
        """The free tiles and open racks left after a Mah Jongg made with ``tile`` on the
        rack and line that leave the other rack best by the expert's measure, and the
        Mah Jongg's card value (``None``: none is made)."""
        racks = open_racks(seat)
        with_tile = plus(seat.free, tile)
        best: tuple[float, list[int], Racks, int] | None = None
        for r, ex in racks:
            made = np.flatnonzero((self.plans.rack_aways(with_tile, ex) == 0)
                                  & (self.plans.rack_aways(seat.free, ex) > 0))
            others = tuple(x for x in racks if x[0] != r)
            for w in made.tolist()[:8]:
                rest = minus(with_tile, [t for t, n in enumerate(
                    self.plans.used(w, with_tile, ex)) for _ in range(n)])
                kinds = [t for t in range(len(rest)) if rest[t]]
                if not kinds or not others:
                    continue
                u = float(self.utilities(rest, [minus(rest, (t,)) for t in kinds], others,
                                         unseen_counts, picks).max())
                if best is None or u > best[0]:
                    best = (u, rest, others, int(self.plans.way_value[w]))
        return None if best is None else best[1:]

    def exposed(self, seat: Position, tile: int, unseen_counts: Sequence[int],
                picks: int) -> tuple[list[int], Racks, float] | None:
        """The free tiles and racks after claiming ``tile`` and exposing it in the way the
        expert rates best (``None``: no way)."""
        racks = open_racks(seat)
        with_tile = plus(seat.free, tile)
        best: tuple[float, list[int], Racks] | None = None
        for rack, tiles in self.exposure_options(seat, tile):
            after = minus(with_tile, tiles)
            new_racks = with_exposure(racks, rack, tiles)
            kinds = [t for t in range(len(after)) if after[t]]
            if not kinds:
                continue
            u = float(self.utilities(after, [minus(after, (t,)) for t in kinds], new_racks,
                                     unseen_counts, picks).max())
            if best is None or u > best[0]:
                best = (u, after, new_racks)
        return None if best is None else (best[1], best[2], best[0])

    @staticmethod
    def ranked(plans: Plans, util: FloatArray) -> Plans:
        """The ``PLANS`` plans the options rate best (best first)."""
        score = util.max(axis=0)
        top = np.argsort(-score, kind="stable")[:PLANS]
        return plans.take(top)

    @staticmethod
    def worth(when: IntArray, worth: IntArray, alive: FloatArray, draws: int) -> FloatArray:
        """Per option and future: the chance of finishing first, a little more for a
        dearer hand (not finished within the ``draws`` picks played: 0)."""
        g = alive[np.minimum(when, len(alive) - 1)]
        out: FloatArray = np.where(when <= draws, g, 0.0) * (1.0 + VALUE_WEIGHT * worth / 100.0)
        return out

    def pick(self, value: FloatArray, factor: FloatArray) -> int:
        """The expert's option (index 0) unless another is surely better."""
        best, best_gain = 0, 0.0
        base = value[0] * factor[0]
        for i in range(1, len(value)):
            diff = value[i] * factor[i] - base
            gain = float(diff.mean())
            se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.inf
            if gain > best_gain and gain > self.confidence * se:
                best, best_gain = i, gain
        return best



