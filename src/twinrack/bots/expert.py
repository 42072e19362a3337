"""The expert bot: plays for the chance to finish first, not for tiles away.

* **Unseen tiles.** It counts, from its view, every tile it has not seen (wall and other
  hands together) and scores each candidate plan (one line per open rack) by the chance of
  finishing it within the picks left, taken at several horizons so that early finishes
  count more (:mod:`twinrack.bots.odds`), plus a little for the plan's points and for the
  other plans the holding keeps alive.
* **Sampled futures.** For the few best discards it then samples the hidden tiles many
  times, consistently with the view, and plays its own next picks forward in each sample
  (:mod:`twinrack.bots.sampling`), within a time budget.
* **Timing the Mah Jonggs.** A first Mah Jongg made from its own pick is kept concealed
  (the rack stays whole) until the other rack completes too, for a Double Mah Jongg, or
  until the wall runs short; a discard that would only give a cheap first Mah Jongg is not
  claimed while the wall is long (a claimed Mah Jongg must be declared at once). Late in
  the game it declares the Mah Jongg worth most.
* **Not feeding.** When an opponent has one rack left (its next Mah Jongg wins, and costs
  the thrower 25), among discards nearly as good as the best it throws the one least
  likely to complete that rack (:mod:`twinrack.bots.danger`).
* Claims, exposures and Joker exchanges are judged by the same chance of finishing.

With three or four open racks (Imperial before its first Mah Jonggs) the racks are planned
two by two, each pair's nearest plans combined into plans for all of them, whose chance is
counted on the one shared holding.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import numpy as np

from twinrack.bots.danger import waiting_tiles
from twinrack.bots.greedy import (
    GreedyBot,
    Racks,
    declarations,
    left_after,
    minus,
    open_racks,
    plus,
    with_exposure,
)
from twinrack.bots.odds import FloatArray, Plans, candidates, chances
from twinrack.bots.reading import ReadingModel
from twinrack.bots.sampling import Futures
from twinrack.bots.seen import Position, position, scoring_rules, unseen
from twinrack.card import Card
from twinrack.engine.actions import (
    Action,
    CharlestonPass,
    Claim,
    Courtesy,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Pass,
)
from twinrack.engine.scoring import hand_points
from twinrack.engine.view import View
from twinrack.tiles import JOKER

# The weights below were tuned in the arena against the greedy bot (docs/bots.md).

#: the horizons at which a plan's chance is taken, as fractions of the picks left
HORIZONS = (0.25, 0.5, 0.75, 1.0)
#: Royale and Imperial: the share of the picks left at which the horizons are taken
PACE = 1.0
#: the most picks per rack a plan's chance is counted over. The weights above were tuned
#: on the Siamese wall, which gives each player at most 49 picks, as Royale's for four does
#: (Imperial's: 97 for four racks); Royale's for three gives 71, and its games end long
#: before the wall does (half of it is left in the median game): its horizons are capped
REACH = 25
#: weight of a plan's card value (points decide the games the wall ends)
VALUE_WEIGHT = 0.1
#: weight of the other plans' chances (a holding that keeps many plans alive)
SPREAD = 1.0
#: candidate plans: the nearest ways of each rack, pairs within SLACK of the best pair
PER_RACK = 40
SLACK = 2
#: keep a first Mah Jongg concealed until this many picks per player are left
HOLD = True
HOLD_WALL = 3
#: with three or four open racks (Imperial), keep the Mah Jonggs made concealed until all
#: the racks are made, or the wall runs short
HOLD_WIDE = False
#: a first Mah Jongg worth fewer points is not claimed while the wall is long
FIRST_CLAIM_MIN = 60
#: with this few picks left, a first Mah Jongg that beats the opponents' is claimed
CLAIM_LATE = 0
#: how much better (a share of the utility) a claim for an exposure must make the plan
EXPOSE_MARGIN = 0.2
#: sampled futures: how many, for how many of the best options, with how many plans each
MC_SAMPLES = 64
MC_OPTIONS = 4
MC_PLANS = 6
#: weight of the share of futures where some plan (not only the best) finishes
MC_FLEX = 0.5
#: discards within this share of the best one's utility are compared for safety
SAFE_MARGIN = 0.02
#: the chance that an opponent with one rack left waits for one tile: at first, the rise
#: per own pick since its last Mah Jongg, the most
WAIT_START = 0.1
WAIT_SLOPE = 0.008
WAIT_MAX = 0.3
#: what feeding a first (not winning) Mah Jongg costs, against a winning one
FIRST_FEED = 0.2
#: one rack each (the American game): how much each exposed tile of an opponent adds to
#: the chance that it waits for one tile (a hand with three exposures is close), the most
EXPOSED_WAIT = 0.04
EXPOSED_MAX = 0.6
#: one rack each (the American game, three opponents discarding between two picks): how
#: many more tiles per pick a plan's groups may get from claimed discards (plans with a
#: concealed-only line claim nothing but the Mah Jongg)
ONE_CLAIMS = 0.0
#: one rack each: the weight of a plan's card value (the Mah Jongg wins the game, whatever
#: its points), the margin a claim for an exposure must gain, the margin of the safe discard
ONE_VALUE = VALUE_WEIGHT
ONE_EXPOSE_MARGIN = EXPOSE_MARGIN
ONE_SAFE_MARGIN = SAFE_MARGIN
ONE_MC = True


def rival_points(view: View, card: Card) -> float | None:
    """The most Mah Jongg points any opponent has on the table (None: none yet), as the
    score would count them if the wall ended now (rules section 10)."""
    rules = scoring_rules(view)
    best: float | None = None
    for s in view.seats:
        if s.seat == view.seat:
            continue
        pts = 0
        for r in s.racks:
            m = r.mahjongg
            if m is None:
                continue
            try:
                hand = card.hand(m.hand)
            except KeyError:
                pts += m.value
                continue
            pts += hand_points(hand, m.jokerless, m.closed, rules)
        if pts and (best is None or pts > best):
            best = pts
    return best


class ExpertBot(GreedyBot):
    """See the module docstring. ``budget_ms`` caps the thinking time of one decision."""

    name = "expert"

    def __init__(self, card: Card | None = None, budget_ms: float = 150.0) -> None:
        super().__init__(card)
        self.budget_ms = budget_ms
        self.rival: float | None = None
        self.late = False
        self.since: dict[int, tuple[int, int]] = {}
        self.recent: dict[int, int] = {}
        self.deadline = 0.0
        #: a table of more than two players or racks (Royale, Imperial)
        self.wide = False
        #: the share of the picks left within which the game is expected to be decided
        self.pace = 1.0
        #: the most picks a plan's chance is counted over (``REACH`` per rack)
        self.reach = 2 * REACH
        #: the opponents' lines read from their play (bots/reading.py), fitted on recorded
        #: games; None: the fixed factors of bots/danger.py
        self.reading: ReadingModel | None = None
        #: one rack each (the American game)
        self.one = False

    def decide(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        self.prepare(view)
        return super().decide(view, legal, rng)

    def prepare(self, view: View) -> None:
        """Start a decision on this view: its deadline, the table, what it remembers."""
        self.follow(view)
        self.deadline = time.perf_counter() + self.budget_ms / 1000
        self.wide = view.players > 2 or view.racks > 2
        self.one = view.racks == 1
        self.pace = PACE if self.wide else 1.0
        self.reach = REACH * view.racks
        self.rival = rival_points(view, self.card)
        self.late = view.wall_left <= HOLD_WALL * view.players
        self.remember(view)

    def remember(self, view: View) -> None:
        """Note when each opponent's Mah Jongg count was first seen (public facts)."""
        for sv in view.seats:
            n = sum(r.mahjongg is not None for r in sv.racks)
            if self.since.get(sv.seat, (-1, 0))[0] != n:
                self.since[sv.seat] = (n, view.turn)
                self.recent[sv.seat] = len(view.discards)

    def threats(self, view: View, winning_only: bool = False) -> list[tuple[int, float]]:
        """Opponents and how much feeding them a Mah Jongg tile would cost (the chance that
        they wait for one tile, times what their Mah Jongg would mean)."""
        out = []
        for sv in view.seats:
            if sv.seat == view.seat or sv.stopped:
                continue
            open_racks = sv.open_racks
            if not open_racks:
                continue
            _n, first_seen = self.since.get(sv.seat, (0, 0))
            turns = (view.turn - first_seen) / view.players
            if len(open_racks) == 1:
                wait = min(WAIT_MAX, WAIT_START + WAIT_SLOPE * turns)
                if view.racks == 1:
                    shown = sum(x.size for x in sv.racks[open_racks[0]].exposures)
                    wait = min(EXPOSED_MAX, wait + EXPOSED_WAIT * shown)
                out.append((sv.seat, wait))
            elif not winning_only:
                wait = min(WAIT_MAX, WAIT_SLOPE * turns / 2)
                out.append((sv.seat, FIRST_FEED * wait))
        return out

    def danger(self, view: View, unseen_counts: Sequence[int],
               winning_only: bool = False) -> FloatArray:
        """Per tile kind, the expected cost of discarding it (in chances of winning); with
        ``winning_only``, only from opponents whose next Mah Jongg wins."""
        total = np.zeros(len(unseen_counts))
        for seat, cost in self.threats(view, winning_only):
            if cost > 0:
                total += cost * waiting_tiles(self.plans, view, seat, unseen_counts,
                                              self.recent.get(seat, 0), self.reading)
        return total

    @staticmethod
    def picks_left(view: View, after_discard: bool) -> int:
        """About how many more tiles the seat will pick before the wall is spent."""
        n = view.players
        if after_discard:
            return view.wall_left // n
        return (view.wall_left + n - 1) // n

    def horizons(self, picks: int) -> list[int]:
        """The horizons at which a plan's chance is taken, in picks: fractions of the picks
        left, or of ``reach`` when fewer (a long wall is not played out: see ``REACH``)."""
        span = min(picks, self.reach) * self.pace
        return [max(0, round(span * f)) for f in HORIZONS]

    def utilities(self, base: Sequence[int], holdings: Sequence[Sequence[int]], racks: Racks,
                  unseen_counts: Sequence[int], picks: int) -> FloatArray:
        """The best plan's utility from each holding (plans drawn from ``base``)."""
        best, _plans, _util = self.plan_utilities(base, holdings, racks, unseen_counts, picks)
        return best

    def plan_utilities(self, base: Sequence[int], holdings: Sequence[Sequence[int]],
                       racks: Racks, unseen_counts: Sequence[int],
                       picks: int) -> tuple[FloatArray, Plans, FloatArray]:
        """Per holding the best utility, with the plans and every plan's utility."""
        plans = candidates(self.plans, base, racks, per_rack=int(PER_RACK), slack=int(SLACK))
        if not len(plans):
            return np.zeros(len(holdings)), plans, np.zeros((len(holdings), 0))
        h = np.asarray(holdings, dtype=np.int64)
        hz = self.horizons(picks)
        ch = chances(plans, h, unseen_counts, hz)
        if self.one and ONE_CLAIMS:
            claimed = chances(plans, h, unseen_counts, hz, claims=ONE_CLAIMS)
            ch = np.where(plans.concealed[None, :, None], ch, claimed)
        util = ch.mean(axis=2)
        weight = ONE_VALUE if self.one else VALUE_WEIGHT
        if weight:
            util = util + weight * ch[:, :, -1] * (plans.value[None, :] / 100.0)
        best: FloatArray = util.max(axis=1)
        if SPREAD:
            best = best + SPREAD * (util.sum(axis=1) - best) / max(1, util.shape[1])
        return best, plans, util

    def refine(self, options: Sequence[int], holdings: Sequence[Sequence[int]],
               plans: Plans, util: FloatArray, unseen_counts: Sequence[int], picks: int,
               rng: random.Random) -> FloatArray:
        """Sampled-future utilities of some holdings (indices ``options``): the best plan's
        share of futures finished in time, plus the share where some plan finishes."""
        keep: list[int] = []
        for i in options:
            for j in np.argsort(-util[i], kind="stable")[:MC_PLANS].tolist():
                if j not in keep:
                    keep.append(j)
        sub = plans.take(np.asarray(keep, dtype=np.int64))
        gen = np.random.default_rng(rng.getrandbits(63))
        futures = Futures(unseen_counts, picks, int(MC_SAMPLES), gen)
        h = np.asarray([holdings[i] for i in options], dtype=np.int64)
        times = futures.finish(sub, h)  # h x p x s
        hz = self.horizons(picks)
        per_plan = futures.chances(times, hz).mean(axis=2)  # h x p
        any_plan = futures.chances(times.min(axis=1), hz).mean(axis=1)  # h
        out: FloatArray = per_plan.max(axis=1) + MC_FLEX * any_plan
        return out

    def utility(self, free: Sequence[int], racks: Racks, unseen_counts: Sequence[int],
                picks: int) -> float:
        return float(self.utilities(free, [free], racks, unseen_counts, picks)[0])

    def planned(self, seat: Position) -> bool:
        """Whether the expert plans this position: any open rack (three or four in
        Imperial are planned two by two, :func:`twinrack.bots.odds.by_pairs`)."""
        return 1 <= len(open_racks(seat)) <= 4

    # ------------------------------------------------------------------ the Charleston

    def choose_charleston(self, view: View, legal: Sequence[Action],
                          rng: random.Random) -> Action:
        """The tiles to pass, by the chance of finishing: every legal choice's holding is
        weighed as a discard is, the tiles that will come in return counted as picks
        (a blind pass keeps own tiles and brings fewer new ones). (Weighing the best few
        again over sampled futures, as discards are, did no better in the arena.) The vote
        and the offer are the greedy bot's."""
        ch = view.charleston
        seat = position(view)
        if ch is None or ch.kind not in ("charleston", "courtesy") or not self.planned(seat):
            return super().choose_charleston(view, legal, rng)
        racks = open_racks(seat)
        unseen_counts = unseen(view)
        picks = self.picks_left(view, False)
        by_count: dict[int, list[CharlestonPass | Courtesy]] = {}
        for a in legal:
            if isinstance(a, CharlestonPass | Courtesy):
                by_count.setdefault(len(a.tiles), []).append(a)
        best: tuple[float, Action] | None = None
        for given, options in sorted(by_count.items()):
            holdings = [minus(seat.free, a.tiles) for a in options]
            util = self.utilities(seat.free, holdings, racks, unseen_counts, picks + given)
            i = int(np.argmax(util))
            if best is None or float(util[i]) > best[0] + 1e-12:
                best = (float(util[i]), options[i])
        return legal[0] if best is None else best[1]

    # ------------------------------------------------------------------ decisions

    def wait_for_better(self, view: View, seat: Position, claim: Claim) -> bool:
        """Pass on a discard that would make only a first Mah Jongg of few points, while
        the wall is long: a claimed Mah Jongg must be declared at once, whereas a concealed
        one can still grow (a Double, a dearer line). Late in the game a first Mah Jongg
        that beats every opponent's is taken: it wins if the wall runs out."""
        if (not HOLD or claim.kind != "mahjongg" or view.window is None
                or len(open_racks(seat)) != 2 or seat.declared is not None
                or view.wall_left <= HOLD_WALL * view.players):
            return False
        points = self.claim_points(seat, view.window[1])
        if points >= FIRST_CLAIM_MIN:
            return False
        if self.picks_left(view, False) <= CLAIM_LATE:
            return self.rival is not None and points <= self.rival
        return True

    def claim_points(self, seat: Position, tile: int) -> int:
        """The most a Mah Jongg made with ``tile`` would score as the table counts it,
        closed bonus included; a jokerless one is not counted double (which tiles go on
        the rack is settled only when it is declared)."""
        best = 0
        with_tile = plus(seat.free, tile)
        for _r, ex in open_racks(seat):
            a = self.plans.rack_aways(with_tile, ex)
            for w in np.flatnonzero(a == 0):
                line = self.plans.cc.hand_of(int(w))
                best = max(best, hand_points(line, False, not ex, seat.scoring))
        return best

    def complete_racks(self, free: Sequence[int], racks: Racks) -> int:
        """How many of these racks the holding completes on its own."""
        return sum(bool((self.plans.rack_aways(free, ex) == 0).any()) for _r, ex in racks)

    def choose_turn(self, view: View, seat: Position, legal: Sequence[Action],
                    rng: random.Random) -> Action:
        mjs = declarations(legal, seat)
        if mjs and HOLD and self.may_hold(view, seat, mjs):
            legal = [a for a in legal if not isinstance(a, MahJongg)]
        return super().choose_turn(view, seat, legal, rng)

    def choose_mahjongg(self, seat: Position, options: Sequence[MahJongg]) -> MahJongg:
        """A winning Mah Jongg, or a first one declared late: the most points. Otherwise
        the one leaving the other racks nearest (the greedy choice)."""
        racks = open_racks(seat)
        if not (len(seat.open_racks) == 1 or self.late):
            return super().choose_mahjongg(seat, options)

        def key(a: MahJongg) -> tuple[bool, int, int]:
            others = tuple(r for r in racks if r[0] != a.rack)
            double = bool(others) and self.complete_racks(left_after(seat, a), others) == len(
                others)
            return (not double, -self.mahjongg_points(seat, a), a.rack)

        return min(options, key=key)

    def may_hold(self, view: View, seat: Position, options: Sequence[MahJongg]) -> bool:
        """Keep a first Mah Jongg concealed for now: flexible tiles (a Joker it uses may
        yet be freed by a natural), a Double when the other rack follows. Never on the
        winning Mah Jongg, a claimed tile, a declared hand, or near the end of the wall."""
        racks = open_racks(seat)
        if view.must is not None or seat.declared is not None:
            return False
        if view.wall_left <= HOLD_WALL * view.players:
            return False
        if len(racks) > 2 and len(seat.open_racks) == len(racks):
            return HOLD_WIDE and not any(
                self.complete_racks(minus(seat.free, a.tiles), others) == len(others)
                for a in options for others in [tuple(r for r in racks if r[0] != a.rack)])
        if len(racks) != 2 or len(seat.open_racks) != 2:
            return False
        for a in options:
            other = [r for r in racks if r[0] != a.rack]
            rest = minus(seat.free, a.tiles)
            if other and self.complete_racks(rest, tuple(other)):
                return False  # a Double now
        return True

    def choose_discard(self, view: View, seat: Position, options: Sequence[Discard],
                       rng: random.Random) -> Discard:
        if not self.planned(seat):
            return super().choose_discard(view, seat, options, rng)
        racks = open_racks(seat)
        if HOLD and len(racks) == 2 and self.complete_racks(seat.free, racks):
            # a Mah Jongg held concealed stays whole
            keep = [a for a in options
                    if self.complete_racks(minus(seat.free, (a.tile,)), racks)]
            options = keep or options
        unseen_counts = unseen(view)
        holdings = [minus(seat.free, (a.tile,)) for a in options]
        picks = self.picks_left(view, True)
        util, plans, per_plan = self.plan_utilities(seat.free, holdings, racks, unseen_counts,
                                                     picks)
        if (MC_SAMPLES and len(plans) and len(options) > 1 and picks > 0
                and (ONE_MC or not self.one)
                and time.perf_counter() < self.deadline):
            top = np.argsort(-util, kind="stable")[:int(MC_OPTIONS)].tolist()
            refined = self.refine(top, holdings, plans, per_plan, unseen_counts, picks, rng)
            util = np.full(len(options), -np.inf)
            util[top] = refined
        order = sorted(range(len(options)),
                       key=lambda i: (-round(float(util[i]), 9), options[i].tile == JOKER,
                                      options[i].tile))
        margin = ONE_SAFE_MARGIN if self.one else SAFE_MARGIN
        if margin and view.wall_left > 0:
            # among discards nearly as good, the one least likely to feed a Mah Jongg
            danger = self.danger(view, unseen_counts, winning_only=True)
            best = float(util[order[0]])
            close = [i for i in order if float(util[i]) >= best - margin * abs(best)]
            if len(close) > 1 and danger.max() > 0:
                return options[min(close, key=lambda i: danger[options[i].tile])]
        return options[order[0]]

    def choose_claim(self, view: View, seat: Position, legal: Sequence[Action],
                     rng: random.Random) -> Action:
        mj = self.mahjongg_claim(legal, view, seat)
        if mj is not None and not (isinstance(mj, Claim) and self.wait_for_better(view, seat,
                                                                                  mj)):
            return mj
        expose = next((a for a in legal if isinstance(a, Claim) and a.kind == "expose"), None)
        passing = next(a for a in legal if isinstance(a, Pass))
        if expose is None or view.window is None:
            return passing
        if not self.planned(seat):
            return super().choose_claim(view, seat, legal, rng)
        tile = view.window[1]
        racks = open_racks(seat)
        unseen_counts = unseen(view)
        picks = self.picks_left(view, False)
        options = self.exposure_options(seat, tile)
        if self.wide:
            # more discards to answer, more racks to try: only the groups a plan has
            u, plans, _util = self.plan_utilities(seat.free, [seat.free], racks,
                                                  unseen_counts, picks)
            now = float(u[0])
            fit = self.group_racks(plans, tile)
            options = [(rack, tiles) for rack, tiles in options if (rack, len(tiles)) in fit]
        else:
            now = self.utility(seat.free, racks, unseen_counts, picks)
        with_tile = plus(seat.free, tile)
        best = -1.0
        for rack, tiles in options:
            after = minus(with_tile, tiles)
            new_racks = with_exposure(racks, rack, tiles)
            kinds = [t for t in range(len(after)) if after[t]]
            holdings = [minus(after, (t,)) for t in kinds]
            if not holdings:
                continue
            u = self.utilities(after, holdings, new_racks, unseen_counts, picks - 1)
            best = max(best, float(u.max()))
        margin = ONE_EXPOSE_MARGIN if self.one else EXPOSE_MARGIN
        return expose if best > now + margin * abs(now) else passing

    def group_racks(self, plans: Plans, tile: int) -> set[tuple[int, int]]:
        """(rack, size) of every group of ``tile`` that some plan has on that rack."""
        cc = self.plans.cc
        out: set[tuple[int, int]] = set()
        for (t, size), col in cc.group_keys.items():
            if t != tile or size < 3:
                continue
            for i, rack in enumerate(plans.racks):
                if (cc.group_count[plans.ways[:, i], col] > 0).any():
                    out.add((rack, size))
        return out

    def choose_exposure(self, view: View, seat: Position, options: Sequence[Expose]) -> Expose:
        if not self.planned(seat):
            return super().choose_exposure(view, seat, options)
        racks = open_racks(seat)
        unseen_counts = unseen(view)
        picks = self.picks_left(view, True)
        best: tuple[tuple[float, int], Expose] | None = None
        for a in options:
            after = minus(seat.free, a.tiles)
            kinds = [t for t in range(len(after)) if after[t]]
            if not kinds:
                continue
            u = float(self.utilities(after, [minus(after, (t,)) for t in kinds],
                                     with_exposure(racks, a.rack, a.tiles), unseen_counts,
                                     picks).max())
            # when it is equal, Jokers stay in hand (an exposed one may be taken)
            key = (round(u, 9), -a.tiles.count(JOKER))
            if best is None or key > best[0]:
                best = (key, a)
        return options[0] if best is None else best[1]

    def choose_exchange(self, view: View, seat: Position,
                        options: Sequence[Exchange]) -> Exchange | None:
        if not self.planned(seat):
            return super().choose_exchange(view, seat, options)
        racks = open_racks(seat)
        unseen_counts = unseen(view)
        picks = self.picks_left(view, True)
        base = plus(seat.free, JOKER)
        now = self.turn_utility(seat.free, racks, unseen_counts, picks)
        best: tuple[float, Exchange] | None = None
        for a in options:
            after = plus(minus(seat.free, (a.tile,)), JOKER)
            kinds = [t for t in range(len(after)) if after[t]]
            u = float(self.utilities(base, [minus(after, (t,)) for t in kinds], racks,
                                     unseen_counts, picks).max())
            if u >= now and (best is None or u > best[0]):
                best = (u, a)
        return None if best is None else best[1]

    def turn_utility(self, free: Sequence[int], racks: Racks, unseen_counts: Sequence[int],
                     picks: int) -> float:
        """The utility of the best discard from a holding during a turn."""
        kinds = [t for t in range(len(free)) if free[t]]
        return float(self.utilities(free, [minus(free, (t,)) for t in kinds], racks,
                                    unseen_counts, picks).max())
