"""The bots' Charleston (bots/charleston.py): passes chosen by the plan, never a Joker,
a blind pass instead of breaking a good hand, the vote, the courtesy; and every level
playing the American game of 4 and 3 to its end."""

from __future__ import annotations

import random

import pytest

from tests.bots.untimed import UNTIMED_BOTS
from tests.engine.helpers import R, rig
from twinrack.bots import BOTS, play_out
from twinrack.bots.charleston import STRONG, spares, strength
from twinrack.bots.greedy import GreedyBot
from twinrack.bots.hints import hints
from twinrack.card import practice_card
from twinrack.engine import GameState, RuleSet, legal_actions, new_game, view
from twinrack.engine.actions import CharlestonPass, Vote
from twinrack.engine.shuffle import derive_seed
from twinrack.tiles import JOKER, parse_tiles

# Honors-3 "EEEE WWWW RR GG 00" (35) without one 0, and junk
NEAR = "E E E E W W W W R R G G 0"


def choice(g: GameState, seat: int) -> object:
    bot = GreedyBot(g.card)
    return bot.choose(view(g, seat), legal_actions(g, seat), random.Random(1))


def test_jokers_are_kept_and_the_line_s_tiles_too() -> None:
    g = rig(R("american"), ["", "E E E W W W R R J J 1C 5D 9B"])
    made = choice(g, 1)
    assert isinstance(made, CharlestonPass) and made.blind == 0
    assert JOKER not in made.tiles
    assert sorted(made.tiles) == sorted(parse_tiles("1C 5D 9B"))


def test_a_hand_that_needs_every_tile_passes_blind() -> None:
    g = rig(R("american"), ["", NEAR, "1C 5D 9B 2C 6C 3D 7D N S F F 8C 4B"])
    g.charleston.index = 2  # type: ignore[union-attr]  # the first Charleston's left pass
    assert all(s.cost > 0 for s in spares(GreedyBot(g.card), list(view(g, 1).free or ())))
    assert choice(g, 1) == CharlestonPass(1, (), 3)  # every tile kept: all three blind
    made = choice(g, 2)  # a poor hand gives its own tiles
    assert isinstance(made, CharlestonPass) and made.blind < 3


def test_a_strong_hand_stops_the_second_charleston() -> None:
    bot = GreedyBot(practice_card())
    near = [0] * 36
    for t in parse_tiles(NEAR):
        near[t] += 1
    assert strength(bot, near) <= STRONG
    far = [0] * 36
    for t in parse_tiles("1B 5B 9B 2C 6C 3D 7D N S F F 8C 4D"):
        far[t] += 1
    assert strength(bot, far) > STRONG
    g = rig(R("american"), ["", NEAR])
    g.charleston.index = 3  # type: ignore[union-attr]  # straight to the vote
    assert choice(g, 1) == Vote(1, False)
    assert choice(g, 2) in (Vote(2, True), Vote(2, False))


@pytest.mark.parametrize("players", [4, 3])
@pytest.mark.parametrize("level", sorted(BOTS))
def test_every_level_plays_the_american_game(level: str, players: int) -> None:
    card = practice_card()
    rules = RuleSet.for_variant("american", players)
    make = UNTIMED_BOTS.get(level, BOTS[level])
    g = new_game(rules, seed=derive_seed(3, "american", level, players), card=card)
    play_out(g, [make(card) for _ in range(players)],
             [random.Random(s) for s in range(players)])
    assert g.over
    assert sum(1 for e in g.events if type(e).__name__ == "PassMade") >= (3 if players == 4
                                                                            else 2)


def test_the_expert_passes_by_the_chance_of_finishing() -> None:
    """The expert weighs each legal pass as a discard: the line's tiles and the Jokers
    stay; the three tiles nothing needs go."""
    g = rig(R("american"), ["", "E E E W W W R R J J 1C 5D 9B"])
    bot = UNTIMED_BOTS["expert"](g.card)
    made = bot.choose(view(g, 1), legal_actions(g, 1), random.Random(1))
    assert made == CharlestonPass(1, tuple(sorted(parse_tiles("1C 5D 9B"))), 0)


def test_the_hints_say_what_to_pass_and_how_to_vote() -> None:
    g = rig(R("american"), ["", "E E E W W W R R J J 1C 5D 9B"])
    h = hints(view(g, 1), g.card, legal=legal_actions(g, 1))
    assert h.charleston is not None and h.charleston.action == "charleston 9B 1C 5D"
    assert h.summary == h.charleston.reason == (
        "Pass 9 Bam, 1 Crak, 5 Dot: the tiles your plan needs least; your plan Honors-7 is "
        "4 away.")
    assert h.to_dict()["charleston"]["tiles"] == ["9B", "1C", "5D"]
    g = rig(R("american"), ["", NEAR])
    g.charleston.index = 3  # type: ignore[union-attr]  # the vote
    h = hints(view(g, 1), g.card, legal=legal_actions(g, 1))
    assert h.charleston is not None and h.charleston.action == "vote stop"
    assert h.summary.startswith("Stop the second Charleston: your plan ")
