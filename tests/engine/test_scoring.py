"""Every row of rules section 10, in both revisions, played through the engine (the
mis-named discard, which cannot happen with typed tiles, through ``score_game``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.engine.helpers import R, discard_out, lines, play, rig
from twinrack.engine import score, settle
from twinrack.engine.scoring import (
    GameFacts,
    HandFacts,
    MahJonggFact,
    ScoringRules,
    end_facts,
    out_on_dead_racks,
    score_game,
    winner_of,
    wrong_count_kills,
)

A13 = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"  # 2468-3 (25) less one 8C
A = "2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F"
H13 = "E E E E W W W R R G G 0 0"  # Honors-3 (35) less one W
H = "E E E E W W W W R R G G 0 0"
P13 = "1B 1B 3B 3B 5B 5B 7B 7B 9B 9B 0 0 S"  # Pairs-1 (50), Singles and Pairs
REVS = ["2024", "2019"]


def closed(rev: str, rack: int, hand: str) -> list[str]:
    return [f"seat 0: +10  closed hand on rack {rack}: {hand}"] if rev == "2024" else []


def feed(rev: str) -> int:
    return 25 if rev == "2024" else 20


def first_pick_game(rev: str, hand: str, pick: str, extra: str = ""):  # type: ignore[no-untyped-def]
    """East is dealt ``hand`` and, in 2019, is one tile short and picks on its second
    turn; in 2024 its first pick is ``pick``."""
    if rev == "2024":
        return rig(R(revision=rev), [hand + extra], picks=pick)
    g = rig(R(revision="2019"), [hand + extra + " 1C"], picks="5D " + pick)
    play(g, "0: discard 1C", "1: pass", "1: discard 5D", "0: pass")
    return g


@pytest.mark.parametrize("rev", REVS)
def test_first_mahjongg_card_value_doubled_when_jokerless(rev: str) -> None:
    g = first_pick_game(rev, A13, "8C")
    play(g, f"0: mahjongg 1 {A}")
    assert lines(g) == ["seat 0: +50  Mah Jongg on rack 1: 2468-3 (card value 25; "
                        "jokerless x2)", *closed(rev, 1, "2468-3")]


@pytest.mark.parametrize("rev", REVS)
def test_first_mahjongg_with_a_joker_scores_the_card_value(rev: str) -> None:
    g = first_pick_game(rev, "F F F 2B 2B 2B 2B 6B 6B J 8C 8C 8C", "8C")
    play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 8C 8C 8C 8C F F F J")
    assert lines(g) == ["seat 0: +25  Mah Jongg on rack 1: 2468-3 (card value 25)",
                        *closed(rev, 1, "2468-3")]


@pytest.mark.parametrize("rev", REVS)
def test_singles_and_pairs_are_not_doubled(rev: str) -> None:
    g = first_pick_game(rev, P13, "S")
    play(g, "0: mahjongg 1 1B 1B 3B 3B 5B 5B 7B 7B 9B 9B S S 0 0")
    assert lines(g) == ["seat 0: +50  Mah Jongg on rack 1: Pairs-1 (card value 50; jokerless "
                        "Singles and Pairs: not doubled)", *closed(rev, 1, "Pairs-1")]


@pytest.mark.parametrize("rev", REVS)
def test_first_mahjongg_on_a_claimed_tile_costs_the_discarder_nothing(rev: str) -> None:
    g = rig(R(revision=rev), [A13 + " 4D", "8C"], picks="4D 5D")
    if rev == "2024":
        play(g, "0: discard 4D", "1: pass")
    else:
        play(g, "0: discard 4D", "1: pass")
    play(g, "1: discard 8C", "0: claim mahjongg", f"0: mahjongg 1 {A}")
    assert lines(g) == ["seat 0: +50  Mah Jongg on rack 1: 2468-3 (card value 25; "
                        "jokerless x2)", *closed(rev, 1, "2468-3")]


@pytest.mark.parametrize("rev", REVS)
def test_no_closed_bonus_after_an_earlier_exposure(rev: str) -> None:
    g = rig(R(revision=rev), ["F F F 2B 2B 2B 2B 6B 6B 8C 8C 8C 8C 4D", "6B"], picks="4D 5D")
    play(g, "0: discard 4D", "1: pass", "1: discard 6B", "0: claim expose",
         "0: expose 1 6B 6B 6B", "0: mahjongg 1 2B 2B 2B 2B 8C 8C 8C 8C F F F")
    assert lines(g) == ["seat 0: +50  Mah Jongg on rack 1: 2468-3 (card value 25; "
                        "jokerless x2)"]


@pytest.mark.parametrize("rev", REVS)
def test_winning_second_mahjongg_claimed_doubles_and_penalises_the_discarder(rev: str) -> None:
    g = rig(R(revision=rev), [A13 + " " + H13 + (" 1C" if rev == "2024" else " 1C 8C"), "W"],
            picks="8C 5D" if rev == "2024" else "5D")
    play(g, f"0: mahjongg 1 {A}", "0: discard 1C", "1: pass", "1: discard W",
         "0: claim mahjongg")
    ev = play(g, f"0: mahjongg 2 {H}")
    assert ev[-1] == "end mahjongg 0"
    assert lines(g) == [
        "seat 0: +50  Mah Jongg on rack 1: 2468-3 (card value 25; jokerless x2)",
        *closed(rev, 1, "2468-3"),
        "seat 0: +140  winning Mah Jongg x2 on rack 2: Honors-3 (card value 35; jokerless x2)",
        *closed(rev, 2, "Honors-3"),
        f"seat 1: -{feed(rev)}  threw the tile claimed for an opponent's winning Mah Jongg"]


@pytest.mark.parametrize("rev", REVS)
def test_self_picked_second_mahjongg_no_penalty(rev: str) -> None:
    g = rig(R(revision=rev), [A13 + " " + H13 + (" 1C" if rev == "2024" else " 1C 8C")],
            picks="8C 5D W" if rev == "2024" else "5D W")
    play(g, f"0: mahjongg 1 {A}", "0: discard 1C", "1: pass", "1: discard 5D", "0: pass",
         f"0: mahjongg 2 {H}")
    assert g.end_reason == "mahjongg"
    assert score(g).totals[1] == 0
    assert score(g).totals[0] == 190 + (20 if rev == "2024" else 0)


@pytest.mark.parametrize("rev", REVS)
def test_double_mahjongg_doubles_both_hands(rev: str) -> None:
    g = first_pick_game(rev, A13 + " 8C " + H13, "W")
    play(g, f"0: mahjongg 2 {H}")
    ev = play(g, f"0: mahjongg 1 {A}")
    assert ev[-1] == "end mahjongg 0"
    assert lines(g) == [
        "seat 0: +100  Double Mah Jongg hand x2 on rack 1: 2468-3 (card value 25; "
        "jokerless x2)", *closed(rev, 1, "2468-3"),
        "seat 0: +140  Double Mah Jongg hand x2 on rack 2: Honors-3 (card value 35; "
        "jokerless x2)", *closed(rev, 2, "Honors-3")]


@pytest.mark.parametrize("rev", REVS)
def test_discarder_giving_a_double_is_penalised(rev: str) -> None:
    g = rig(R(revision=rev), [A13 + " 8C " + H13 + (" 4D" if rev == "2019" else ""), "W"],
            picks="4D 5D" if rev == "2024" else "5D")
    play(g, "0: discard 4D", "1: pass", "1: discard W", "0: claim double")
    play(g, f"0: mahjongg 2 {H}", f"0: mahjongg 1 {A}")
    assert g.end_reason == "mahjongg"
    assert lines(g)[-1] == (f"seat 1: -{feed(rev)}  threw the tile claimed for an opponent's "
                              "Double Mah Jongg")
    assert score(g).totals[1] == -feed(rev)


@pytest.mark.parametrize("rev", REVS)
def test_wall_game_ten_each_dead_racks_get_nothing(rev: str) -> None:
    g = rig(R(revision=rev), ["W"], picks="4D" if rev == "2024" else "")
    discard_out(g)
    assert lines(g) == ["seat 0: +10  wall game", "seat 1: +10  wall game"]
    # W W W fits only a concealed line: it kills the rack where those stay concealed
    g = rig(R(revision=rev, open_concealed=False), ["W 4D", "W W"],
            picks="4D 5D" if rev == "2024" else "5D")
    play(g, "0: discard W", "1: claim expose", "1: expose 1 W W W")
    discard_out(g)
    assert lines(g) == ["seat 0: +10  wall game",
                        "seat 1: +0  wall game: nothing for a player with a dead rack"]


def test_a_mahjongg_exposed_when_the_wall_is_spent_is_no_wall_game() -> None:
    g = rig(R(), [A13], picks="8C")
    play(g, f"0: mahjongg 1 {A}")
    discard_out(g)
    assert g.end_reason == "wall"
    assert lines(g) == ["seat 0: +50  Mah Jongg on rack 1: 2468-3 (card value 25; "
                        "jokerless x2)", "seat 0: +10  closed hand on rack 1: 2468-3"]


@pytest.mark.parametrize("rev", REVS)
def test_royale_star_hand_plus_25_instead_of_doubling(rev: str) -> None:
    g = rig(R("royale", 4, revision=rev), ["R R R G G G 0 0 0 N E W S" +
                                           (" 1C" if rev == "2019" else "")],
            picks="F" if rev == "2024" else "5D 6D 7D F")
    if rev == "2019":
        play(g, "0: discard 1C", "1: pass", "2: pass", "3: pass", "1: discard 5D",
             "2: pass", "3: pass", "0: pass", "2: discard 6D", "3: pass", "0: pass",
             "1: pass", "3: discard 7D", "0: pass", "1: pass", "2: pass")
    play(g, "0: mahjongg 1 N E W S R R R G G G 0 0 0 F")
    assert lines(g) == [
        "seat 0: +50  Mah Jongg on rack 1: Special-2 (card value 50; jokerless (*) hand: +25 "
        "instead of doubling)", *closed(rev, 1, "Special-2"),
        "seat 0: +25  jokerless (*) hand on rack 1: Special-2"]


def test_star_hand_doubles_outside_royale() -> None:
    g = rig(R(), ["R R R G G G 0 0 0 N E W S"], picks="F")
    play(g, "0: mahjongg 1 N E W S R R R G G G 0 0 0 F")
    assert lines(g)[0] == ("seat 0: +100  Mah Jongg on rack 1: Special-2 (card value 50; "
                           "jokerless x2)")


@pytest.mark.parametrize("rev", REVS)
def test_royale_quint_hands_not_doubled_when_jokerless(rev: str) -> None:
    g = rig(R("royale", 4, revision=rev), ["E E E E E 2B 0 2B 6B W W W W" +
                                           (" 1C" if rev == "2019" else "")],
            picks="W" if rev == "2024" else "5D 6D 7D W")
    if rev == "2019":
        play(g, "0: discard 1C", "1: pass", "2: pass", "3: pass", "1: discard 5D",
             "2: pass", "3: pass", "0: pass", "2: discard 6D", "3: pass", "0: pass",
             "1: pass", "3: discard 7D", "0: pass", "1: pass", "2: pass")
    play(g, "0: mahjongg 1 2B 2B 6B E E E E E W W W W W 0")
    assert lines(g)[0] == ("seat 0: +45  Mah Jongg on rack 1: Quints-3 (card value 45; "
                           "jokerless quint hand: not doubled in Royale)")


# ------------------------------------------------------------------ real tiles only


def _mj(wins: bool, misnamed: bool, value: int = 35, discarder: int | None = 1,
        rack: int = 0, turn: int = 5) -> MahJonggFact:
    return MahJonggFact(seat=0, rack=rack, hand=HandFacts("L", value), jokerless=False,
                        closed=False, turn=turn, wins=wins, discarder=discarder,
                        misnamed=misnamed)


def test_misnamed_discard_claimed_for_mahjongg_2024() -> None:
    rules = ScoringRules("2024")
    first = score_game(GameFacts(2, (_mj(False, True),)), rules)
    assert [(x.seat, x.points) for x in first.lines] == [(0, 35), (1, -35)]
    second = score_game(GameFacts(2, (_mj(False, False, 30, None, 1, 2),
                                      _mj(True, True))), rules)
    assert second.totals == (30 + 70, -25 - 35)
    double = score_game(GameFacts(2, (_mj(True, True, 35), _mj(True, False, 30, 1, 1))),
                        rules)
    assert double.totals[1] == -25 - 35 - 30


def test_misnamed_discard_claimed_for_mahjongg_2019() -> None:
    rules = ScoringRules("2019")
    first = score_game(GameFacts(2, (_mj(False, True),)), rules)
    assert first.totals == (35, -25)
    second = score_game(GameFacts(2, (_mj(False, False, 30, None, 1, 2),
                                      _mj(True, True))), rules)
    assert second.totals[1] == -25 - 20


# ------------------------------------------------------------------ the end of a game


def _declared(seat: int, rack: int, turn: int) -> MahJonggFact:
    return MahJonggFact(seat=seat, rack=rack, hand=HandFacts("L", 25), jokerless=False,
                        closed=False, turn=turn)


def test_the_seat_with_a_mahjongg_on_every_rack_wins_with_the_hands_of_its_last_turn() -> None:
    declared = [_declared(1, 0, 3), _declared(0, 0, 4), _declared(0, 1, 9)]
    assert winner_of(2, declared) == 0 and winner_of(4, declared) is None
    facts = end_facts(2, 2, declared, [(), ()], wall_spent=False)
    assert [m.wins for m in facts.mah_jonggs] == [False, False, True]
    assert facts.winner == 0 and not facts.wall_game and facts.both_dead is None


def test_the_hands_of_one_winning_turn_are_a_double() -> None:
    facts = end_facts(2, 2, [_declared(0, 1, 6), _declared(0, 0, 6)], [(), ()],
                      wall_spent=False)
    assert [m.wins for m in facts.mah_jonggs] == [True, True]
    assert score_game(facts, ScoringRules()).totals == (100, 0)


def test_a_wall_game_has_no_mahjongg_exposed() -> None:
    assert end_facts(2, 2, [], [(1,), ()], wall_spent=True).wall_game
    spent = end_facts(2, 2, [_declared(1, 0, 2)], [(), ()], wall_spent=True)
    assert not spent.wall_game and spent.winner is None


def test_only_a_two_player_seat_is_out_on_dead_racks() -> None:
    assert out_on_dead_racks(2, 2, [(1,), (0, 1)]) == 1
    assert out_on_dead_racks(2, 4, [(0, 1), ()]) is None
    assert out_on_dead_racks(4, 2, [(0, 1), (), (), ()]) is None
    assert end_facts(2, 2, [], [{1, 0}, set()], wall_spent=False).dead == ((0, 1), ())


def test_a_wrong_tile_count_kills_by_revision() -> None:
    assert wrong_count_kills(ScoringRules("2024"), 2, {0}) == {0, 1}
    assert wrong_count_kills(ScoringRules("2019"), 2, {0}) == {1}
    assert wrong_count_kills(ScoringRules("2019"), 4, ()) == {0, 1, 2, 3}


def test_settlement_two_players_pay_the_difference_three_or_four_use_a_pot() -> None:
    s = settle((60, 10))
    assert s.transfers == ((1, 0, Fraction(50)),)
    assert settle((10, 10)).transfers == ()
    # a pot of 4 x 10, +10 from the minus total; 30 and 5 paid out; 15 left, 3.75 each
    pot = settle((30, -10, 0, 5), 10)
    assert pot.transfers == ()
    assert pot.payouts == (Fraction(95, 4), Fraction(-65, 4), Fraction(-25, 4),
                           Fraction(-5, 4))
