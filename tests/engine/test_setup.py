"""Tiles, walls, the die cut, the deal and the fair shuffle (rules sections 1-3)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from tests.engine.helpers import R, legal_texts, rig
from twinrack.engine import RulesError, RuleSet, build_wall, deal_plan, new_game
from twinrack.engine.shuffle import commitment, die, seed_bytes, shuffled
from twinrack.tiles import FLOWER, JOKER, parse_tiles


@pytest.mark.parametrize(("variant", "players", "racks", "sets", "total"), [
    ("siamese", 2, 2, 1, 152),
    ("royale", 4, 2, 2, 304),
    ("royale", 3, 2, 2, 296),
    ("imperial", 2, 4, 2, 304),
    ("imperial", 3, 4, 3, 456),
    ("imperial", 4, 4, 3, 456),
])
def test_tile_counts_of_every_variant(variant: str, players: int, racks: int, sets: int,
                                      total: int) -> None:
    rules = RuleSet(variant=variant, players=players, declared_hands=False)
    assert rules.racks == racks and rules.sets == sets
    game = new_game(rules, seed=1)
    assert len(game.wall) == total
    counts = Counter(game.wall)
    jokers = 8 * sets - (4 if (variant, players) == ("royale", 3) else 0)
    assert counts[JOKER] == jokers and counts[FLOWER] == jokers
    assert counts[parse_tiles("5D")[0]] == 4 * sets
    # every player holds 14R-1 tiles, East 14R on its first turn (2024: after its pick)
    assert [p.concealed for p in game.players] == [14 * racks] + [14 * racks - 1] * (players - 1)


@pytest.mark.parametrize("players", [1, 3])
def test_siamese_is_for_two(players: int) -> None:
    with pytest.raises(RulesError):
        RuleSet(variant="siamese", players=players)


def test_unknown_variant_and_revision() -> None:
    with pytest.raises(RulesError):
        RuleSet(variant="mahjong")
    with pytest.raises(RulesError):
        RuleSet(revision="2020")


def test_deal_2024_four_at_a_time_then_east_picks() -> None:
    rules = R()
    plan = deal_plan(rules)
    assert plan[:4] == [(0, 4), (1, 4), (0, 4), (1, 4)]
    assert plan[-2:] == [(0, 3), (1, 3)]
    game = rig(rules, ["1B 1B 1B 1B"], picks="9D")
    ev = [str(e) for e in game.events]
    assert ev[1].startswith("deal 0 27:") and ev[2].startswith("deal 1 27:")
    assert ev[3] == "pick 0 9D"  # East picks a 28th tile to begin
    assert game.current == 0 and game.players[0].concealed == 28


def test_deal_2019_east_gets_28_and_discards_first() -> None:
    rules = R(revision="2019")
    plan = deal_plan(rules)
    assert plan[-2:] == [(0, 4), (1, 3)]  # East's last four, then the opponent's three
    game = rig(rules)
    ev = [str(e) for e in game.events]
    assert ev[1].startswith("deal 0 28:") and ev[2].startswith("deal 1 27:")
    assert len(ev) == 3  # no pick
    assert any(t.startswith("0: discard") for t in legal_texts(game, 0))


def test_royale_turn_order_passes_to_easts_right() -> None:
    game = rig(R("royale", 4), picks="9D 9D")
    assert game.current == 0
    from tests.engine.helpers import play
    ev = play(game, "0: discard 9D")
    assert game.to_act() == [1, 2, 3]
    ev = play(game, "1: pass", "2: pass", "3: pass")
    assert ev[-1] == "pick 1 9D"


def test_wall_order_and_die_cut() -> None:
    rules = RuleSet()
    tiles = list(range(152))  # stand-ins to see where each goes
    order = build_wall(rules, tiles, 3)
    # East's first wall (38 tiles) is cut by 3 stacks: its first 6 tiles go to its tail
    assert order[:32] == list(range(6, 38)) and order[32:38] == list(range(6))
    assert order[38:] == list(range(38, 152))  # then East's second wall, then the opponent's
    assert build_wall(rules, tiles, None) == tiles
    # uneven walls (Royale 3: 296 tiles in 6 walls): as long as needed, first ones longer
    r3 = RuleSet(variant="royale", players=3)
    assert sorted(build_wall(r3, list(range(296)), None)) == list(range(296))


def test_shuffle_is_seeded_fair_and_committed() -> None:
    seed = seed_bytes("00ff" * 8)
    a = shuffled(seed, range(152))
    assert a == shuffled(seed, range(152)) and sorted(a) == list(range(152))
    assert a != shuffled(seed_bytes("01ff" * 8), range(152))
    assert 1 <= die(seed) <= 6
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    game = new_game(RuleSet(), seed=seed)
    assert str(game.events[0]).endswith(commitment(seed))
    assert str(game.events[1]) == f"cut {die(seed)}"
    # the die spreads over 1..6
    assert {die(seed_bytes(i)) for i in range(60)} == {1, 2, 3, 4, 5, 6}


def test_no_dice_cut_option() -> None:
    game = new_game(RuleSet(dice_cut=False), seed=5)
    assert not any(str(e).startswith("cut") for e in game.events)
