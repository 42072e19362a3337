"""The master: imagined games dealt from what the seat has not seen, a budget counted in
simulations (the same seed and budget, the same decision), and the expert's choice kept
unless the search says otherwise."""

from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

from tests.bots.untimed import UNTIMED_BOTS
from twinrack.bots import MasterBot
from twinrack.bots.driver import Driver
from twinrack.bots.sampling import deal_hidden
from twinrack.bots.seen import unseen
from twinrack.card import practice_card
from twinrack.cli import main
from twinrack.engine import Discard, GameState, RuleSet, legal_actions, new_game, view
from twinrack.engine.shuffle import derive_seed


def mid_game(decisions: int = 40) -> GameState:
    card = practice_card()
    game = new_game(RuleSet(), seed=derive_seed(2, "master"), card=card)
    bots = {s: UNTIMED_BOTS["greedy"](card) for s in range(2)}
    driver = Driver(game, bots, {0: random.Random(0), 1: random.Random(1)})
    for _ in range(decisions):
        driver.bot_decides()
    while game.to_act() != [game.current] or game.phase != "turn":
        driver.bot_decides()
    return game


def test_the_hidden_tiles_are_dealt_as_the_view_counts_them() -> None:
    game = mid_game()
    seat = game.current
    seen = view(game, seat)
    dealt = deal_hidden(seen, np.random.default_rng(5))
    assert dealt is not None
    hands, wall = dealt
    other = 1 - seat
    assert list(hands) == [other]
    assert sum(hands[other]) == seen.seats[other].concealed
    assert len(wall) == seen.wall_left
    together = [hands[other][t] + wall.count(t) for t in range(len(hands[other]))]
    assert together == unseen(seen)


def test_the_same_seed_and_budget_give_the_same_search() -> None:
    game = mid_game()
    seat = game.current
    seen, legal = view(game, seat), legal_actions(game, seat)
    options = [a for a in legal if isinstance(a, Discard)][:2]
    bot = MasterBot(practice_card(), simulations=3)
    first = bot.search(seen, legal, options, random.Random(9))
    again = MasterBot(practice_card(), simulations=3).search(seen, legal, options,
                                                             random.Random(9))
    assert first is not None and again is not None
    assert first[0].shape == (2, 3)  # per choice, one margin per simulation
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])


def test_the_budget_is_simulations_and_the_time_cap_is_off_by_default() -> None:
    params = inspect.signature(MasterBot).parameters
    assert params["simulations"].default == 4
    assert params["time_cap_ms"].default is None


def test_simulate_refuses_a_budget_below_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "master,expert", "--simulations", "0"]) == 2
    assert capsys.readouterr().err == (
        "twinrack: --simulations must be at least 1\n")
