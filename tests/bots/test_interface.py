"""The bot interface: the registry, construction with the game's card, ``choose``."""

from __future__ import annotations

import inspect
import random

import pytest

from twinrack.bots import BOTS, ExpertBot, GreedyBot, RandomBot
from twinrack.card import practice_card
from twinrack.engine import RuleSet, legal_actions, new_game, view


def test_registry_has_every_level() -> None:
    assert {"random", "greedy", "expert"} <= set(BOTS)
    assert BOTS["random"] is RandomBot
    assert BOTS["greedy"] is GreedyBot
    assert BOTS["expert"] is ExpertBot


@pytest.mark.parametrize("name", ["random", "greedy", "expert"])
def test_bot_built_with_the_card_chooses_a_legal_action(name: str) -> None:
    card = practice_card()
    bot = BOTS[name](card)
    assert bot.name == name
    game = new_game(RuleSet(), seed=4, card=card)
    for _ in range(30):
        seat = game.to_act()[0]
        legal = legal_actions(game, seat)
        action = bot.choose(view(game, seat), legal, random.Random(1))
        assert action in legal
        from twinrack.engine import apply
        apply(game, action)
        if game.over:
            break


def test_choose_takes_only_view_legal_and_rng() -> None:
    for cls in (RandomBot, GreedyBot, ExpertBot):
        params = list(inspect.signature(cls.choose).parameters)
        assert params == ["self", "view", "legal", "rng"]


def test_expert_budget_is_a_constructor_parameter() -> None:
    default = inspect.signature(ExpertBot).parameters["budget_ms"].default
    assert isinstance(default, float) and 0 < default <= 300
    assert ExpertBot(practice_card(), budget_ms=50.0).budget_ms == 50.0


def test_bots_work_without_a_card() -> None:
    """The practice card is the default, as for new_game."""
    game = new_game(RuleSet(), seed=2)
    seat = game.to_act()[0]
    legal = legal_actions(game, seat)
    for cls in (RandomBot, GreedyBot, ExpertBot):
        assert cls().choose(view(game, seat), legal, random.Random(0)) in legal
