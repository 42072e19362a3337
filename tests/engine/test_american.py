"""The American game's play, each rule a scenario (docs/rules.md, sections 2-10): the
deal, claims, Jokers, concealed lines, dead hands, Mah Jongg in error and both ways of
scoring. The Charleston is tests/engine/test_charleston.py; here it is off, as when a
real table's deal is replayed after its own Charleston."""

from __future__ import annotations

import pytest

from tests.engine.helpers import R, discard_out, legal_texts, lines, play, rig
from twinrack.engine import GameState, RuleSet, apply, legal_actions, new_game, parse_action
from twinrack.engine.rules import RulesError
from twinrack.errors import IllegalActionError

# Honors-3 "EEEE WWWW RR GG 00" (35) without one 0
H13 = "E E E E W W W W R R G G 0"
# Like-5 "XXXX0a XXXX0b GGG RRR" (30) in ones, without one G
L13 = "1B 1B 1B 1B 1C 1C 1C 1C R R R G G"


def A(**options: object) -> RuleSet:
    options.setdefault("charleston", False)
    return R("american", **options)


def refused(game: GameState, text: str) -> str:
    before = [str(e) for e in game.events]
    with pytest.raises(IllegalActionError) as err:
        apply(game, parse_action(text))
    assert [str(e) for e in game.events] == before
    return err.value.code


def mahjongg(game: GameState, seat: int) -> str:
    """The one Mah Jongg declaration the seat is offered."""
    found = [t for t in legal_texts(game, seat) if t.startswith(f"{seat}: mahjongg 1 ")]
    assert len(found) == 1, found
    return found[0]


def test_the_rules_of_the_american_game() -> None:
    rules = RuleSet.for_variant("american")
    assert (rules.players, rules.racks, rules.hold, rules.tiles.total) == (4, 1, 13, 152)
    assert not rules.open_lines and rules.east_discards_first
    assert RuleSet.for_variant("american", 3).tiles.total == 152
    with pytest.raises(RulesError) as err:
        RuleSet.for_variant("american", 2)
    assert err.value.code == "bad_player_count"
    with pytest.raises(RulesError) as err:
        RuleSet.for_variant("american", open_concealed=True)
    assert err.value.option == "open_concealed"
    with pytest.raises(RulesError) as err:
        RuleSet.for_variant("american", american_scoring="chinese")
    assert err.value.option == "american_scoring"


def test_east_is_dealt_14_and_discards_first_without_a_pick() -> None:
    g = new_game(RuleSet.for_variant("american", charleston=False), seed=5)
    assert [p.concealed for p in g.players] == [14, 13, 13, 13]
    assert [str(e) for e in g.events][1] == "cut " + str(g.die)
    assert (g.phase, g.current, g.began, g.acquired) == ("turn", 0, "deal", None)
    assert g.wall_left == 152 - 53
    assert all(t.split(": ")[1].startswith("discard") for t in legal_texts(g, 0))


def test_no_declaration_round_and_no_declared_line() -> None:
    g = new_game(RuleSet.for_variant("american", declared_hands=True), seed=5)
    assert g.phase == "charleston"  # the Charleston, never the declaration round
    g = rig(A(), ["", "1B 3B 5B 7B 2C 4C 6C 8C N E W S G"], picks="F")
    play(g, "0: discard " + _first(g, 0))
    assert "1: claim mahjongg" not in legal_texts(g, 1)  # Special-1 is declared only


def test_a_discard_claimed_for_mahjongg_pays_double_the_others_single() -> None:
    g = rig(A(), ["0", H13])
    play(g, "0: discard 0", "1: claim mahjongg", "2: pass", "3: pass")
    assert play(g, mahjongg(g, 1))[-1] == "end mahjongg 1"
    assert lines(g) == [
        "seat 1: +0  Mah Jongg (card value 35, jokerless x2)",
        "seat 0: -140  pays seat 1 (threw the Mah Jongg tile: pays double)",
        "seat 1: +140  from seat 0 (threw the Mah Jongg tile: pays double)",
        "seat 2: -70  pays seat 1 (pays the hand's value)",
        "seat 1: +70  from seat 2 (pays the hand's value)",
        "seat 3: -70  pays seat 1 (pays the hand's value)",
        "seat 1: +70  from seat 3 (pays the hand's value)"]


def test_the_tournament_sheet_scores_the_card_value_and_its_bonuses() -> None:
    g = rig(A(american_scoring="tournament"), ["0", H13])
    play(g, "0: discard 0", "1: claim mahjongg", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    assert lines(g) == ["seat 1: +35  Mah Jongg: card value 35",
                        "seat 1: +20  jokerless Mah Jongg"]


def test_self_picked_everyone_pays_double_and_a_dead_hand_pays_too() -> None:
    # seat 1 exposes W W W, which only a concealed line holds: its hand dies and stops at
    # once; seat 2 picks its Mah Jongg tile
    g = rig(A(), ["W", "W W", L13], picks="G")
    play(g, "0: discard W", "1: claim expose", "2: pass", "3: pass")
    assert play(g, "1: expose 1 W W W") == ["expose 1 1 W W W", "dead 1 1 exposure",
                                            "stop 1", "pick 2 G"]
    play(g, mahjongg(g, 2))
    assert lines(g)[0] == "seat 2: +0  Mah Jongg (card value 30, jokerless x2)"
    assert [x for x in lines(g) if x.startswith("seat 1")] == [
        "seat 1: -120  pays seat 2 (self-picked Mah Jongg: everyone pays double)"]
    g2 = rig(A(american_scoring="tournament"), ["W", "W W", L13], picks="G")
    play(g2, "0: discard W", "1: claim expose", "2: pass", "3: pass", "1: expose 1 W W W")
    play(g2, mahjongg(g2, 2))
    assert lines(g2) == ["seat 2: +30  Mah Jongg: card value 30",
                         "seat 2: +15  self-picked Mah Jongg tile",
                         "seat 2: +20  jokerless Mah Jongg"]


def test_a_dead_hand_is_asked_no_more_and_the_others_play_on() -> None:
    g = rig(A(), ["W 6C", "W W", "6C 6C"], picks="1D 2D 3D")
    play(g, "0: discard W", "1: claim expose", "2: pass", "3: pass", "1: expose 1 W W W")
    assert g.players[1].stopped and g.current == 2
    play(g, "2: discard 1D", "3: pass", "0: pass")  # seat 1 is not asked
    assert g.to_act() == [3]
    play(g, "3: discard 2D")
    assert g.window is not None and g.window.pending == [0, 2]


def test_jokerless_singles_and_pairs_are_not_doubled() -> None:
    # Pairs-1 "11a 33a 55a 77a 99a 00 SS" (50) without one S, picked
    hand = "1B 1B 3B 3B 5B 5B 7B 7B 9B 9B 0 0 S"
    g = rig(A(), ["", hand], picks="S")
    play(g, "0: discard 9D", "1: pass", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    assert lines(g)[:2] == [
        "seat 1: +0  Mah Jongg (card value 50; jokerless Singles and Pairs: not doubled)",
        "seat 0: -100  pays seat 1 (self-picked Mah Jongg: everyone pays double)"]
    g = rig(A(american_scoring="tournament"), ["", hand], picks="S")
    play(g, "0: discard 9D", "1: pass", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    assert lines(g) == ["seat 1: +50  Mah Jongg: card value 50",
                        "seat 1: +15  self-picked Mah Jongg tile",
                        "seat 1: +15  Singles and Pairs hand"]


def test_a_joker_in_the_hand_is_not_doubled() -> None:
    g = rig(A(), ["0", "E E E J W W W W R R G G 0"])
    play(g, "0: discard 0", "1: claim mahjongg", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    assert lines(g)[:2] == ["seat 1: +0  Mah Jongg (card value 35)",
                            "seat 0: -70  pays seat 1 (threw the Mah Jongg tile: pays double)"]


def test_pairs_are_claimed_only_for_mahjongg() -> None:
    g = rig(A(), ["5D 5D", "5D"])
    play(g, "0: discard 5D")
    assert legal_texts(g, 1) == ["1: pass"]  # a pair: no exposure
    assert refused(g, "1: claim expose") == "cannot_expose"


def test_pung_kong_and_quint_exposures() -> None:
    g = rig(A(), ["F", "F F F J"], picks="1D")
    play(g, "0: discard F", "1: claim expose", "2: pass", "3: pass")
    exposures = [t for t in legal_texts(g, 1) if "expose" in t]
    assert exposures == ["1: expose 1 F F J", "1: expose 1 F F F", "1: expose 1 F F F J",
                         "1: expose 1 F F F F", "1: expose 1 F F F F J"]
    assert play(g, "1: expose 1 F F F F J") == ["expose 1 1 F F F F J"]


def test_a_claim_is_withdrawn_while_nothing_is_exposed() -> None:
    g = rig(A(), ["6C", "6C 6C"], picks="1D")
    play(g, "0: discard 6C", "1: claim expose", "2: pass", "3: pass")
    assert "1: withdraw" in legal_texts(g, 1)
    assert play(g, "1: withdraw") == ["withdraw 1 6C", "pick 1 1D"]
    assert g.discards[-1] == (0, parse_action("0: discard 6C").tile)  # type: ignore[attr-defined]
    g = rig(A(), ["6C", "6C 6C"], picks="1D")
    play(g, "0: discard 6C", "1: claim expose", "2: pass", "3: pass", "1: expose 1 6C 6C 6C")
    assert refused(g, "1: withdraw") == "cannot_withdraw"


def test_a_covered_discard_is_gone_and_a_joker_is_never_claimed() -> None:
    g = rig(A(), ["6C J", "1D", "6C 6C"], picks="2D")
    play(g, "0: discard 6C", "1: pass", "2: pass", "3: pass", "1: discard 1D")
    assert legal_texts(g, 2) == ["2: pass"]  # 6C is covered by 1D
    g = rig(A(), ["J", "", "J J"], picks="2D")
    assert play(g, "0: discard J") == ["discard 0 J", "pick 1 2D"]


def test_the_last_discard_is_claimed_for_an_exposure_and_a_joker_not() -> None:
    # the wall's last tile goes to seat 3 (99 picks, seats 1 2 3 0 in turn); it throws
    # the 6C it was dealt, and East claims it
    g = rig(A(), ["6C 6C", "", "", "6C"])
    play(g, "0: discard " + _first(g, 0, avoid="6C"))
    _pass_and_throw_picks(g)
    assert g.wall_left == 0 and g.current == 3
    play(g, "3: discard 6C")
    assert "0: claim expose" in legal_texts(g, 0)
    play(g, "0: claim expose", "1: pass", "2: pass", "0: expose 1 6C 6C 6C")
    assert play(g, "0: discard " + _first(g, 0))[-1].startswith("discard 0")
    g = rig(A(), ["6C 6C", "", "", "J"])
    play(g, "0: discard " + _first(g, 0, avoid="6C"))
    _pass_and_throw_picks(g)
    assert play(g, "3: discard J") == ["discard 3 J", "end wall"]


def _first(g: GameState, seat: int, avoid: str = "") -> str:
    held = [t for t in legal_texts(g, seat) if ": discard " in t]
    return next(t.split()[-1] for t in held if t.split()[-1] not in avoid.split())


def _pass_and_throw_picks(g: GameState) -> None:
    """Play on, every seat passing and throwing what it picked, until the wall's last
    tile is picked (its picker still to discard)."""
    while not (g.wall_left == 0 and g.phase == "turn"):
        seat = g.to_act()[0]
        if g.phase == "window":
            play(g, f"{seat}: pass")
        else:
            from twinrack.tiles import CANONICAL
            assert g.acquired is not None
            play(g, f"{seat}: discard {CANONICAL[g.acquired]}")


def test_jokers_are_exchanged_on_ones_own_turn_only() -> None:
    g = rig(A(), ["6C", "6C J", "6C"], picks="1D 2D")
    play(g, "0: discard 6C", "1: claim expose", "2: pass", "3: pass", "1: expose 1 6C 6C J")
    assert refused(g, "2: exchange 6C from 1:1:1") == "not_your_turn"
    play(g, "1: discard " + _first(g, 1, avoid="6C"), "2: pass", "3: pass", "0: pass")
    assert play(g, "2: exchange 6C from 1:1:1") == ["exchange 2 6C from 1:1:1"]
    assert g.players[2].pool[35] == 1


def test_a_concealed_line_is_made_with_a_discard_but_never_exposed() -> None:
    # Honors-7 "NNN EEE WWW SSS DDa" (50, concealed) without one G
    g = rig(A(), ["G", "N N N E E E W W W S S S G"])
    play(g, "0: discard G", "1: claim mahjongg", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    assert g.players[1].mahjonggs[0].hand.id == "Honors-7"
    assert lines(g)[0] == "seat 1: +0  Mah Jongg (card value 50, jokerless x2)"


def test_mahjongg_in_error_kills_the_hand_and_play_goes_on_while_two_are_intact() -> None:
    g = rig(A(strict=True, american_scoring="tournament"), ["", "", "", ""],
            picks="1D 2D 3D")
    play(g, "0: discard " + _first(g, 0))
    play(g, "1: pass", "2: pass", "3: pass")
    events = play(g, "1: mahjongg 1")  # the 14 tiles as arranged: not a Mah Jongg
    assert events[0].startswith("error 1 1: ") and events[1:] == ["dead 1 1 error", "stop 1",
                                                                 "pick 2 2D"]
    play(g, "2: mahjongg 1")  # three intact hands were left: play went on; now two
    assert not g.over and g.current == 3
    assert play(g, "3: mahjongg 1")[-1] == "end error"
    assert lines(g) == ["seat 3: +0  Mah Jongg in error",
                        "seat 0: +10  intact hand after a Mah Jongg in error",
                        "seat 1: +0  dead hand after a Mah Jongg in error",
                        "seat 2: +0  dead hand after a Mah Jongg in error"]
    g.rules.__dict__["american_scoring"] = "nmjl"  # the same game, the League's way
    assert lines(g) == ["seat 3: +0  Mah Jongg in error: the game ends with fewer than "
                        "two hands intact; nobody pays"]


def test_casual_play_refuses_a_false_mahjongg() -> None:
    g = rig(A(), ["", "E E E E W W W W R R G G 1D"], picks="2D")
    play(g, "0: discard 9D", "1: pass", "2: pass", "3: pass")
    assert refused(g, "1: mahjongg 1 E E E E W W W W R R G G 1D 2D") == "no_mahjongg"
    assert refused(g, "1: mahjongg 1") == "arranged_declaration"


def _two_exposures_then_mahjongg(rules: RuleSet) -> GameState:
    """Seat 1 exposes E E E E and W W W W, then seat 3 throws the 0 of its Mah Jongg."""
    g = rig(rules, ["E", "E E E W W W R R G G 0 0 9D", "W", "0"], picks="1D 2D 3D")
    play(g, "0: discard E", "1: claim expose", "2: pass", "3: pass", "1: expose 1 E E E E",
         "1: discard 9D", "2: pass", "3: pass", "0: pass", "2: discard W", "3: pass",
         "0: pass", "1: claim expose", "1: expose 1 W W W W", "1: discard 0",
         "2: pass", "3: pass", "0: pass", "2: discard 1D", "3: pass", "0: pass", "1: pass",
         "3: discard 0", "0: pass", "1: claim mahjongg", "2: pass")
    play(g, mahjongg(g, 1))
    return g


def test_throwing_to_two_exposures_costs_10_on_the_tournament_sheet() -> None:
    g = _two_exposures_then_mahjongg(A(american_scoring="tournament"))
    assert lines(g) == ["seat 1: +35  Mah Jongg: card value 35",
                        "seat 1: +20  jokerless Mah Jongg",
                        "seat 3: -10  threw the Mah Jongg tile to a hand with two exposures"]
    g = _two_exposures_then_mahjongg(A())
    assert "seat 3: -140  pays seat 1 (threw the Mah Jongg tile: pays double)" in lines(g)


def _two_quints_then_mahjongg(rules: RuleSet) -> GameState:
    """Quints-5 "0000 GGGGG RRRRR" (45): seat 1 exposes G G G G J and R R R R J, then
    seat 3 throws the last 0."""
    g = rig(rules, ["G R", "G G G J R R R J 0 0 0 9D 9B", "", "0"], picks="1D 2D 3D 4D")
    play(g, "0: discard G", "1: claim expose", "2: pass", "3: pass",
         "1: expose 1 G G G G J", "1: discard 9D", "2: pass", "3: pass", "0: pass",
         "2: discard 1D", "3: pass", "0: pass", "1: pass", "3: discard 2D", "0: pass",
         "1: pass", "2: pass", "0: discard R", "1: claim expose", "2: pass", "3: pass",
         "1: expose 1 R R R R J", "1: discard 9B", "2: pass", "3: pass", "0: pass",
         "2: discard 4D", "3: pass", "0: pass", "1: pass", "3: discard 0",
         "0: pass", "1: claim mahjongg", "2: pass")
    play(g, mahjongg(g, 1))
    return g


def test_throwing_to_two_quints_needing_one_group_costs_25() -> None:
    g = _two_quints_then_mahjongg(A(american_scoring="tournament"))
    assert lines(g) == ["seat 1: +45  Mah Jongg: card value 45",
                        "seat 3: -25  threw the Mah Jongg tile to a hand with three "
                        "exposures (or two quints needing one group)"]


def test_a_wall_game_pays_nothing_or_10_to_each_intact_hand() -> None:
    g = rig(A(american_scoring="tournament"), ["W", "W W"])
    play(g, "0: discard W", "1: claim expose", "2: pass", "3: pass", "1: expose 1 W W W")
    discard_out(g)
    assert g.end_reason == "wall"
    assert lines(g) == ["seat 0: +10  wall game", "seat 1: +0  wall game: dead hand scores "
                        "nothing", "seat 2: +10  wall game", "seat 3: +10  wall game"]
    g = new_game(A(), seed=3)
    discard_out(g)
    assert lines(g) == [f"seat {s}: +0  wall game: nobody pays" for s in range(4)]


def test_three_players_pay_the_same_way() -> None:
    g = rig(A(players=3), ["0", H13])
    play(g, "0: discard 0", "1: claim mahjongg", "2: pass")
    play(g, mahjongg(g, 1))
    assert [x.split("  ")[0] for x in lines(g)] == ["seat 1: +0", "seat 0: -140",
                                                    "seat 1: +140", "seat 2: -70",
                                                    "seat 1: +70"]


def test_a_mahjongg_ends_the_game_and_moves_there_are_none() -> None:
    g = rig(A(), ["0", H13])
    assert not [a for a in legal_actions(g, 1) if a.verb == "move"]
    play(g, "0: discard 0", "1: claim mahjongg", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    assert g.over and g.winner == 1
