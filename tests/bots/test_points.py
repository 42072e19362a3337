"""The bots count a hand's points as the table scores it (rules section 10): the closed
bonus only in 2024, and in Royale a jokerless (*) hand +25 instead of doubled. The line
used below is the practice card's "RRR GGG 000 NEWS F" (value 50, a (*) hand)."""

from __future__ import annotations

import pytest

from tests.engine.helpers import R, play, rig
from twinrack.bots.expert import ExpertBot, rival_points
from twinrack.bots.greedy import GreedyBot
from twinrack.bots.seen import Position, position, scoring_rules
from twinrack.card import practice_card
from twinrack.engine import GameState, MahJongg, RuleSet, legal_actions, view
from twinrack.tiles import INDEX, NUM_KINDS

STAR = "R R R G G G 0 0 0 N E W S"  # and a Flower: 50, a (*) hand
AVOID = "F R G 0 N E W S 8B 9B"
TABLES = [("siamese", 2, "2024"), ("siamese", 2, "2019"), ("royale", 3, "2024"),
          ("royale", 3, "2019")]


def pass_window(game: GameState) -> None:
    while game.phase == "window":
        play(game, f"{game.to_act()[0]}: pass")


@pytest.mark.parametrize(("variant", "players", "revision", "points"), [
    # jokerless x2 and closed +10; 2019: no closed bonus; Royale: 50 + 10 + 25 (*) hand
    (*TABLES[0], 110), (*TABLES[1], 100), (*TABLES[2], 85), (*TABLES[3], 75)])
def test_greedy_counts_its_mahjongg_as_the_table_scores_it(variant: str, players: int,
                                                          revision: str, points: int) -> None:
    # 2024: East picks its 28th tile; 2019: East is dealt it
    late = revision == "2019"
    game = rig(R(variant, players, revision=revision), hands=[STAR + (" F" if late else "")],
               picks="" if late else "F", avoid=AVOID)
    mahjongg = next(a for a in legal_actions(game, 0) if isinstance(a, MahJongg))
    assert mahjongg.body() == "mahjongg 1 N E W S R R R G G G 0 0 0 F"
    bot = GreedyBot(practice_card())
    assert bot.mahjongg_points(position(view(game, 0)), mahjongg) == points


@pytest.mark.parametrize(("variant", "players", "revision", "points"), [
    (*TABLES[0], 110), (*TABLES[1], 100), (*TABLES[2], 85), (*TABLES[3], 75)])
def test_the_expert_counts_a_rivals_mahjongg_as_the_table_scores_it(
        variant: str, players: int, revision: str, points: int) -> None:
    late = revision == "2019"
    game = rig(R(variant, players, revision=revision), hands=["8B" if late else "", STAR],
               picks="F" if late else "8B F", avoid=AVOID)
    assert rival_points(view(game, 0), practice_card()) is None
    play(game, "0: discard 8B")
    pass_window(game)
    play(game, "1: mahjongg 1 N E W S R R R G G G 0 0 0 F")
    assert rival_points(view(game, 0), practice_card()) == points


@pytest.mark.parametrize(("variant", "players", "revision", "points"), [
    # a claimed Mah Jongg is counted at its card value and closed bonus, never doubled
    (*TABLES[0], 60), (*TABLES[1], 50), (*TABLES[2], 60), (*TABLES[3], 50)])
def test_the_expert_counts_a_claimed_mahjongg_without_the_2019_closed_bonus(
        variant: str, players: int, revision: str, points: int) -> None:
    late = revision == "2019"
    game = rig(R(variant, players, revision=revision),
               hands=[STAR + (" 8B" if late else ""), "F"],
               picks="9B" if late else "8B 9B", avoid=AVOID)
    play(game, "0: discard 8B")
    pass_window(game)
    play(game, "1: discard F")
    assert view(game, 0).window == (1, INDEX["F"])
    bot = ExpertBot(practice_card())
    assert bot.claim_points(position(view(game, 0)), INDEX["F"]) == points


@pytest.mark.parametrize(("variant", "players", "revision", "closed_bonus", "royale"), [
    ("siamese", 2, "2024", 10, False), ("siamese", 2, "2019", 0, False),
    ("royale", 4, "2024", 10, True), ("imperial", 2, "2024", 10, True)])
def test_the_scoring_rules_come_from_the_views_table(variant: str, players: int,
                                                     revision: str, closed_bonus: int,
                                                     royale: bool) -> None:
    game = rig(R(variant, players, revision=revision))
    rules = scoring_rules(view(game, 0))
    assert (rules.closed_bonus, rules.royale, rules.players) == (closed_bonus, royale,
                                                                 players)


def test_a_claimed_mahjongg_on_the_cards_last_line_is_worth_that_lines_points() -> None:
    """The lines after the declared one keep their card numbers: a Mah Jongg made with a
    discard on the card's last line (Special-6, concealed) is valued as that line, with
    the closed bonus (it once looked the line up one place off, past the end)."""
    card = practice_card()
    free = [0] * NUM_KINDS
    for tile, n in {"1B": 4, "9C": 4, "1D": 1, "9D": 1, "N": 2, "S": 1}.items():
        free[INDEX[tile]] = n
    rules = RuleSet().scoring_rules()
    seat = Position(0, tuple(free), (0,), ((),), None, None, (0,) * NUM_KINDS, rules)
    assert card.hands[69].id == "Special-6"
    assert ExpertBot(card).claim_points(seat, INDEX["S"]) == 50 + rules.closed_bonus
