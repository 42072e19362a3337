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
from twinrack.bots.master import SIMULATIONS
from twinrack.bots.sampling import deal_hidden
from twinrack.bots.seen import unseen
from twinrack.card import practice_card
from twinrack.cli import main
from twinrack.engine import GameState, RuleSet, legal_actions, new_game, view
from twinrack.engine.shuffle import derive_seed

SEARCHED = ['discard 3C', 'discard 5D', 'discard 6D', 'discard E', 'discard W']
WORTH = [0.0639, 0.0639, 0.0639, 0.0857, 0.0728]


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
    game = mid_game(60)  # its nearest plan is 6 tiles away: the master searches
    seat = game.current
    seen, legal = view(game, seat), legal_actions(game, seat)
    first = MasterBot(practice_card(), simulations=64)
    chosen = first.choose(seen, legal, random.Random(9))
    again = MasterBot(practice_card(), simulations=64)
    assert again.choose(seen, legal, random.Random(9)) == chosen
    assert again.last_search == first.last_search
    # the expert's choice first, then its next best discards, each rated by the search
    assert [a.body() for a, _v in first.last_search] == SEARCHED
    assert [round(v, 4) for _a, v in first.last_search] == WORTH
    assert chosen == first.last_search[0][0]


def test_the_expert_choice_stands_unless_another_is_surely_better() -> None:
    bot = MasterBot(practice_card(), confidence=2.0)
    same = np.ones(2)
    base = np.array([0.5, 0.5, 0.5, 0.5])
    close = np.array([0.6, 0.4, 0.6, 0.4])  # better by 0.0 on average
    sure = np.array([0.6, 0.6, 0.6, 0.7])
    assert bot.pick(np.stack([base, close]), same) == 0
    assert bot.pick(np.stack([base, sure]), same) == 1
    assert bot.pick(np.stack([base, close, sure]), np.ones(3)) == 2
    # a discard that may feed the winning Mah Jongg is worth less
    assert bot.pick(np.stack([base, sure]), np.array([1.0, 0.7])) == 0


def test_the_budget_is_simulations_and_the_time_cap_is_off_by_default() -> None:
    params = inspect.signature(MasterBot).parameters
    assert params["simulations"].default == SIMULATIONS == 192
    assert params["time_cap_ms"].default is None


def test_simulate_refuses_a_budget_below_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "master,expert", "--simulations", "0"]) == 2
    assert capsys.readouterr().err == (
        "twinrack: --simulations must be at least 1\n")


def test_far_from_any_plan_the_expert_decides() -> None:
    game = mid_game()  # its nearest plan is 8 tiles away
    seat = game.current
    seen, legal = view(game, seat), legal_actions(game, seat)
    master = MasterBot(practice_card(), simulations=64)
    expert = UNTIMED_BOTS["expert"](practice_card())
    assert master.choose(seen, legal, random.Random(9)) == expert.choose(seen, legal,
                                                                         random.Random(9))
    assert master.last_search == []


def test_a_time_cap_stops_after_the_batch_that_passes_it() -> None:
    game = mid_game(60)
    seat = game.current
    seen, legal = view(game, seat), legal_actions(game, seat)
    capped = MasterBot(practice_card(), simulations=192, time_cap_ms=0.0)
    capped.choose(seen, legal, random.Random(9))
    one_batch = MasterBot(practice_card(), simulations=64)
    one_batch.choose(seen, legal, random.Random(9))
    assert capped.last_search == one_batch.last_search
    assert [round(v, 4) for _a, v in capped.last_search] == WORTH
