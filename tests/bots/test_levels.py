"""The beginner and intermediate levels: people's mistakes, drawn from the bot's own
seeded generator, and a line each for the lobby."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.engine.helpers import R, rig
from twinrack.bots import BOTS, DESCRIPTIONS
from twinrack.bots.greedy import open_racks
from twinrack.bots.levels import BeginnerBot, ChasingBot, IntermediateBot
from twinrack.bots.plans import Plan, RackPlan
from twinrack.bots.seen import Position, position
from twinrack.card import practice_card
from twinrack.engine import Discard, GameState, apply, legal_actions, view

# seat 1 holds 2468-3 but one 6B (FFF 2222a 666a 8888b): the 6B seat 0 throws is Mah Jongg
ONE_AWAY = "F F F 2B 2B 2B 2B 6B 6B 8C 8C 8C 8C"
# one 2B short as well: the 6B makes an exposure 666a, not a Mah Jongg
TWO_AWAY = "F F F 2B 2B 2B N 6B 6B 8C 8C 8C 8C"


def window_on_6b(hand: str, avoid: str) -> GameState:
    game = rig(R(), hands=["6B", hand], picks="W", avoid=avoid)
    apply(game, next(a for a in legal_actions(game, 0)
                     if isinstance(a, Discard) and a.body() == "discard 6B"))
    return game


@pytest.mark.parametrize(("name", "seed", "answer"), [
    ("beginner", 0, "claim mahjongg"), ("beginner", 1, "pass"),  # 0.134 < 0.15: missed
    ("intermediate", 1, "claim mahjongg"), ("greedy", 1, "claim mahjongg")])
def test_the_beginner_sometimes_misses_a_mahjongg_on_a_discard(name: str, seed: int,
                                                                answer: str) -> None:
    game = window_on_6b(ONE_AWAY, "6B 8C 2B F")
    bot = BOTS[name](practice_card())
    decided = bot.choose(view(game, 1), legal_actions(game, 1), random.Random(seed))
    assert decided.body() == answer


@pytest.mark.parametrize(("name", "seed", "answer"), [
    ("beginner", 0, "claim expose"), ("beginner", 1, "pass"),  # 0.134 < 0.5
    ("intermediate", 1, "pass"), ("intermediate", 3, "pass"),  # 0.238 < 0.25
    ("intermediate", 0, "claim expose"), ("greedy", 1, "claim expose")])
def test_useful_exposures_are_sometimes_let_go(name: str, seed: int, answer: str) -> None:
    game = window_on_6b(TWO_AWAY, "6B 8C 2B F N W")
    bot = BOTS[name](practice_card())
    decided = bot.choose(view(game, 1), legal_actions(game, 1), random.Random(seed))
    assert decided.body() == answer


def farther_plan(bot: ChasingBot, seat: Position, by: int) -> Plan:
    """A plan of other lines, at least ``by`` tiles farther than the best one."""
    racks = open_racks(seat)
    (r1, e1), (r2, e2) = racks
    best = bot.plans.best(seat.free, racks)
    for p in bot.plans.cc.best_pairs(np.asarray(seat.free), e1, e2, top=200):
        if p.away >= best.away + by:
            ways = [bot.plans._way_index(w, h) for w, h in zip(p.ways, p.hands, strict=True)]
            return Plan((RackPlan(r1, p.hands[0], ways[0]), RackPlan(r2, p.hands[1], ways[1])),
                        p.away)
    raise AssertionError("no farther plan")


@pytest.mark.parametrize(("level", "keeps"), [("beginner", True), ("intermediate", False)])
def test_the_beginner_chases_its_plan_the_intermediate_changes_for_a_nearer_one(
        level: str, keeps: bool) -> None:
    """A plan two tiles farther than the best: the beginner keeps chasing it (it can
    still be made), the intermediate player changes to the nearer one."""
    game = window_on_6b(TWO_AWAY, "6B 8C 2B F N W")
    seat = position(view(game, 1))
    bot = BOTS[level](practice_card())
    assert isinstance(bot, BeginnerBot | IntermediateBot)
    bot.kept_plan(seat)
    old = bot.plan = farther_plan(bot, seat, by=2)
    kept = bot.kept_plan(seat)
    assert (kept == old) is keeps
    assert kept.away == (old.away if keeps else bot.plans.best(seat.free, open_racks(seat)).away)


def test_every_level_has_a_one_line_description() -> None:
    assert sorted(DESCRIPTIONS) == sorted(BOTS)
    assert max(len(line) for line in DESCRIPTIONS.values()) <= 80
    assert DESCRIPTIONS["beginner"] == (
        "New to the game: chases one line, misses claims, never thinks of defence.")
