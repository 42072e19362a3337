"""Choices played out to the end of imagined games through the engine: how the review
(:mod:`twinrack.bots.review`) says how many points of game margin a decision cost.

For each simulation it imagines the tiles the seat cannot see, consistently with its view
(:func:`twinrack.bots.sampling.deal_hidden` shuffles the unseen tiles into the other hands
and the wall), builds that game through the engine
(:func:`twinrack.engine.sampled.sampled_state`) and plays every choice forward to the end
of the game with a cheap policy for every seat (:class:`Chaser`: each seat chases the one
plan it had when the imagined game began, claims only what that plan needs, declares every
Mah Jongg). The same imagined games serve every choice (common random numbers). A choice
is worth its mean *game margin*, the seat's score less the best other seat's (rules section
10). This was the first master's search; a full game through the engine costs about 29 ms,
far too much for a player (the master now races its own picks in numpy,
:mod:`twinrack.bots.race`), but right for rating a few decisions of a finished game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

import numpy as np

from twinrack.bots.expert import ExpertBot
from twinrack.bots.greedy import declarations, open_racks
from twinrack.bots.sampling import deal_hidden
from twinrack.bots.seen import Position, choices, position
from twinrack.card import Card
from twinrack.engine import (
    Action,
    Claim,
    Discard,
    Exchange,
    Expose,
    GameState,
    Pass,
    apply,
    legal_actions,
    score,
    view,
)
from twinrack.engine.sampled import NotSampleable, sampled_state
from twinrack.engine.view import View
from twinrack.tiles import JOKER, NUM_KINDS

#: imagined games per search
SIMULATIONS = 4
#: a game that has not ended after this many rollout actions is scored as it stands
ROLLOUT_ACTIONS = 2_000


class Chaser:
    """The rollout policy of one imagined game: each seat chases the plan it had when
    first asked (planned anew after each of its Mah Jonggs)."""

    def __init__(self, bot: ExpertBot) -> None:
        self.bot = bot
        self.wants: dict[int, tuple[tuple[int, ...], list[int]]] = {}

    def want(self, seat: Position) -> list[int]:
        """The tiles the seat's plan takes, per kind (naturals and group copies)."""
        racks = open_racks(seat)
        key = tuple(r for r, _ex in racks)
        found = self.wants.get(seat.seat)
        if found is not None and found[0] == key:
            return found[1]
        plans = self.bot.plans
        plan = plans.best(seat.free, racks)
        want = [0] * NUM_KINDS
        exposures = dict(racks)
        for rp in plan.racks:
            tot = plans.cc.rack(exposures[rp.rack]).tot[rp.way, :NUM_KINDS]
            for t in np.flatnonzero(tot).tolist():
                want[t] += int(tot[t])
        self.wants[seat.seat] = (key, want)
        return want

    def choose(self, seen: View, legal: Sequence[Action]) -> Action:
        legal = choices(seen, legal)
        if len(legal) == 1:
            return legal[0]
        seat = position(seen)
        if seen.phase == "window":
            return self.claim(seen, seat, legal)
        mjs = declarations(legal, seat)
        if mjs:
            return mjs[0]
        exposes = [a for a in legal if isinstance(a, Expose)]
        if exposes and seen.must is not None:
            return min(exposes, key=lambda a: (a.tiles.count(JOKER), a.rack))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            want = self.want(seat)
            free = seat.free
            return max(discards, key=lambda a: (a.tile != JOKER, free[a.tile] - want[a.tile],
                                                -a.tile))
        return next((a for a in legal if not isinstance(a, Exchange)), legal[0])

    def claim(self, seen: View, seat: Position, legal: Sequence[Action]) -> Action:
        claims = {a.kind: a for a in legal if isinstance(a, Claim)}
        for kind in ("double", "mahjongg"):
            if kind in claims:
                return claims[kind]
        passing = next(a for a in legal if isinstance(a, Pass))
        expose = claims.get("expose")
        if expose is None or seen.window is None:
            return passing
        tile = seen.window[1]
        want = self.want(seat)
        # a group's tile the plan still lacks, with a pair of it (or a Joker) in hand
        if want[tile] >= 3 and want[tile] > seat.free[tile] >= 1:
            return expose
        return passing


def game_margin(state: GameState, seat: int) -> float:
    """The seat's score less the best other seat's score (section 10)."""
    totals = score(state).totals
    return float(totals[seat] - max(t for s, t in enumerate(totals) if s != seat))


class Playout(ExpertBot):
    """Choices played out to the end of imagined games through the engine (see the module
    docstring); ``simulations`` imagined games per search. The review rates decisions
    with it."""

    name = "playout"

    def __init__(self, card: Card | None = None, simulations: int = SIMULATIONS,
                 time_cap_ms: float | None = None) -> None:
        super().__init__(card, budget_ms=math.inf)
        self.simulations = simulations
        self.time_cap_ms = time_cap_ms
        self.mahjongg_turns: dict[tuple[int, int], int] = {}

    def note_mahjonggs(self, seen: View) -> None:
        """The turn in which each exposed Mah Jongg was first seen (public facts)."""
        for sv in seen.seats:
            for r, rv in enumerate(sv.racks):
                if rv.mahjongg is not None and (sv.seat, r) not in self.mahjongg_turns:
                    self.mahjongg_turns[sv.seat, r] = seen.turn

    def search(self, seen: View, legal: Sequence[Action], options: Sequence[Action],
               rng: random.Random) -> tuple[np.ndarray, np.ndarray] | None:
        """Per choice and imagined game: the game margin and whether the seat won."""
        assert seen.seat is not None
        gen = np.random.default_rng(rng.getrandbits(63))
        deadline = (None if self.time_cap_ms is None
                    else time.perf_counter() + self.time_cap_ms / 1000)
        margins: list[list[float]] = [[] for _ in options]
        wins: list[list[float]] = [[] for _ in options]
        for _ in range(self.simulations):
            hidden = deal_hidden(seen, gen)
            if hidden is None:
                return None
            try:
                base = sampled_state(seen, self.card, hidden[0], hidden[1],
                                     mahjongg_turns=self.mahjongg_turns)
            except NotSampleable:
                return None
            if not margins[0] and legal_actions(base, seen.seat) != list(legal):
                return None  # not rebuilt faithfully: the expert decides
            for i, a in enumerate(options):
                game = base.copy()
                apply(game, a)
                self.roll_out(game)
                margins[i].append(game_margin(game, seen.seat))
                wins[i].append(float(game.winner == seen.seat))
            if deadline is not None and time.perf_counter() > deadline:
                break
        return np.asarray(margins), np.asarray(wins)

    def roll_out(self, game: GameState) -> None:
        """Play the imagined game to its end with the cheap policy for every seat."""
        policy = Chaser(self)
        for _ in range(ROLLOUT_ACTIONS):
            if game.over:
                return
            seat = game.to_act()[0]
            apply(game, policy.choose(view(game, seat), legal_actions(game, seat)))
