"""Every level plays whole games of every variant, never trying an illegal action."""

from __future__ import annotations

import random

import pytest

from twinrack.bots import BOTS, play_out
from twinrack.bots.greedy import declarations
from twinrack.bots.seen import position
from twinrack.card import practice_card
from twinrack.engine import GameState, RuleSet, legal_actions, new_game, view
from twinrack.engine.shuffle import derive_seed

VARIANTS = [("siamese", 2), ("royale", 3), ("royale", 4), ("imperial", 2)]


def play(rules: RuleSet, names: list[str], seed: int) -> GameState:
    """A whole game between the named bots, through the driver (``apply`` refuses an
    illegal action with its typed error, so a bot trying one fails the test)."""
    card = practice_card()
    game = new_game(rules, seed=derive_seed(seed, rules.variant, rules.players), card=card)
    play_out(game, [BOTS[n](card) for n in names],
             [random.Random(f"{seed}:{s}") for s in range(rules.players)])
    assert game.over and game.end_reason is not None
    return game


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
def test_level_plays_a_full_game(level: str, variant: str, players: int) -> None:
    rules = RuleSet.for_variant(variant, players)
    play(rules, [level] * players, seed=7)


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_mixed_table(variant: str, players: int) -> None:
    names = (["expert", "greedy", "random", "greedy"])[:players]
    play(RuleSet.for_variant(variant, players), names, seed=3)


@pytest.mark.parametrize("options", [{"revision": "2019"}, {"strict": True},
                                     {"expose_any_time": True}, {"last_discard": "mahjongg"}])
def test_rule_options(options: dict[str, object]) -> None:
    rules = RuleSet(**options)  # type: ignore[arg-type]
    for level in ("greedy", "expert"):
        play(rules, [level, "greedy"], seed=11)


def test_greedy_never_kills_its_own_racks() -> None:
    """An exposure that fits no line is legal but kills the rack: greedy never makes one."""
    card = practice_card()
    for seed in range(4):
        game = new_game(RuleSet(), seed=derive_seed(seed, "dead"), card=card)
        play_out(game, [BOTS["greedy"](card) for _ in range(2)],
                 [random.Random(seed), random.Random(seed + 1)])
        assert [r.dead for p in game.players for r in p.racks] == [None] * 4


@pytest.mark.parametrize("strict", [False, True])
def test_a_rack_exposed_in_full_is_declared(strict: bool) -> None:
    """A rack whose 14 tiles are all exposed is a Mah Jongg with no tile to add: greedy
    declares it, and it is among the expert's choices (which may hold it back for a
    Double), never an "as arranged" Mah Jongg in error."""
    from tests.engine.test_rulings import all_exposed_game

    game = all_exposed_game(strict)
    legal = legal_actions(game, 0)
    greedy = BOTS["greedy"](practice_card())
    assert greedy.choose(view(game, 0), legal, random.Random(1)).body() == "mahjongg 1"
    offered = declarations(legal, position(view(game, 0)))
    assert [a.body() for a in offered] == ["mahjongg 1"]
