"""The bot interface: ``BOTS[name](card)`` makes every level, ``choose(view, legal, rng)``
decides, and the driver plays the bots' seats (a person answers first)."""

from __future__ import annotations

import inspect
import math
import random

import pytest

from tests.bots.untimed import UNTIMED_BOTS
from tests.engine.helpers import R, rig
from twinrack.bots import BOTS, Driver, ExpertBot, GreedyBot, RandomBot
from twinrack.card import practice_card
from twinrack.engine import GameState, legal_actions, view

# seat 0 holds 2468-3 (FFF 2222a 666a 8888b) but one 8C
KONGS = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"
MAHJONGG = "mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F"


def kongs_and(picked: str) -> GameState:
    return rig(R(), hands=[KONGS], picks=picked, avoid="8C 2B 6B F")


def test_every_level_is_made_from_the_card_and_answers_to_its_name() -> None:
    card = practice_card()
    assert {name: BOTS[name](card).name for name in BOTS} == {
        "random": "random", "beginner": "beginner", "intermediate": "intermediate",
        "greedy": "greedy", "expert": "expert", "master": "master"}


@pytest.mark.parametrize(("name", "picked", "chosen"), [
    ("random", "N", "discard F"),  # its generator's pick (seeded 1)
    ("greedy", "8C", MAHJONGG),  # declares whenever it can
    ("greedy", "N", "discard 2C"),  # the tile no near line wants
    ("expert", "8C", "discard 1C"),  # keeps the Mah Jongg concealed while the wall is long
])
def test_each_level_decides_a_stated_position(name: str, picked: str, chosen: str) -> None:
    """(The expert without its time budget: on a loaded machine its sampled futures could
    start past the deadline, and the decision would depend on the clock.)"""
    game = kongs_and(picked)
    bot = UNTIMED_BOTS[name](practice_card())
    assert bot.choose(view(game, 0), legal_actions(game, 0), random.Random(1)).body() == chosen


def test_choose_takes_only_view_legal_and_rng() -> None:
    for cls in (RandomBot, GreedyBot, ExpertBot):
        params = list(inspect.signature(cls.choose).parameters)
        assert params == ["self", "view", "legal", "rng"]


def test_expert_budget_is_a_constructor_parameter() -> None:
    assert inspect.signature(ExpertBot).parameters["budget_ms"].default == 150.0
    assert ExpertBot(practice_card(), budget_ms=50.0).budget_ms == 50.0


@pytest.mark.parametrize("cls", [RandomBot, GreedyBot, ExpertBot])
def test_without_a_card_a_bot_plays_the_practice_card(cls: type) -> None:
    game = kongs_and("N")
    seen, legal = view(game, 0), legal_actions(game, 0)
    untimed = {"budget_ms": math.inf} if cls is ExpertBot else {}  # never the clock's call
    assert cls(**untimed).choose(seen, legal, random.Random(3)) == \
        cls(practice_card(), **untimed).choose(seen, legal, random.Random(3))


def test_the_driver_plays_the_bots_until_the_person_must_act() -> None:
    """Seat 0 is a person's: the bot of seat 1 waits for seat 0's discard, then plays
    until seat 0 must answer its discard."""
    game = kongs_and("N")
    driver = Driver(game, {1: BOTS["greedy"](practice_card())}, {1: random.Random(1)})
    assert (driver.next_seat(), driver.bot_to_act()) == (0, None)
    assert list(driver.bot_decisions()) == []
    driver.play(next(a for a in legal_actions(game, 0) if a.body() == "discard N"))
    # the claim window on N: seat 1 (the bot) passes, then picks and discards
    decisions = list(driver.bot_decisions())
    assert [(d.seat, d.action.body()) for d in decisions] == [(1, "pass"),
                                                                  (1, "discard 4B")]
    assert driver.next_seat() == 0 and game.phase == "window"
