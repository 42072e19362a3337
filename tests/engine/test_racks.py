"""Jokers, dead racks, moving tiles, Mah Jongg declarations and their refusals
(rules sections 5 to 9)."""

from __future__ import annotations

import pytest

from tests.engine.helpers import R, discard_out, legal_texts, lines, play, rig
from twinrack.engine import apply, parse_action, score
from twinrack.errors import IllegalActionError

A13 = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"  # 2468-3 less one 8C (25)
H13 = "E E E E W W W R R G G 0 0"  # Honors-3 less one W (35)


def refused(game, text: str) -> str:  # type: ignore[no-untyped-def]
    before = [str(e) for e in game.events]
    with pytest.raises(IllegalActionError) as err:
        apply(game, parse_action(text))
    assert [str(e) for e in game.events] == before
    return err.value.code


# ------------------------------------------------------------------ Joker exchange


def exposed_joker_game(extra0: str = "", extra1: str = ""):  # type: ignore[no-untyped-def]
    """Seat 1 exposes 6C 6C J on its rack 1; seat 0 then holds a natural 6C."""
    g = rig(R(), ["6C 6C " + extra0, "6C J 1D " + extra1], picks="4D 5D 7D 8D")
    play(g, "0: discard 6C", "1: claim expose", "1: expose 1 6C 6C J", "1: discard 1D",
         "0: pass")
    return g


def test_exchange_a_natural_for_an_opponents_joker() -> None:
    g = exposed_joker_game()
    assert "0: exchange 6C from 1:1:1" in legal_texts(g, 0)
    assert play(g, "0: exchange 6C from 1:1:1") == ["exchange 0 6C from 1:1:1"]
    assert str(g.players[1].racks[0].exposures[0]) == "6C 6C 6C"
    assert g.players[0].pool[35] == 1


def test_exchange_from_ones_own_exposure() -> None:
    g = rig(R(), ["6C", "6C 6C J J 1D"], picks="4D 5D 7D 8D")
    play(g, "0: discard 6C", "1: claim expose", "1: expose 2 6C J J", "1: discard 1D",
         "0: pass", "0: discard 5D", "1: pass")
    assert "1: exchange 6C from 1:2:1" in legal_texts(g, 1)
    play(g, "1: exchange 6C from 1:2:1")
    assert str(g.players[1].racks[1].exposures[0]) == "6C 6C J"


def test_exchange_only_during_ones_turn_and_for_the_right_tile() -> None:
    g = exposed_joker_game(extra0="5C")
    assert refused(g, "1: exchange 6C from 1:1:1") == "not_your_turn"
    assert refused(g, "0: exchange 5C from 1:1:1") == "wrong_tile"
    assert refused(g, "0: exchange 6C from 1:2:1") == "no_such_exposure"


def test_no_exchange_from_an_exposed_mahjongg() -> None:
    # seat 1 exposes a kong 2B 2B 2B J with a claimed 2B, then makes 2468-3 on that rack
    g = rig(R(), ["2B 2B 8C", "F F F 2B 2B J 6B 6B 6B 8C 8C 8C 1D"], picks="4D 5D 6D")
    play(g, "0: discard 2B", "1: claim expose", "1: expose 1 2B 2B 2B J", "1: discard 1D",
         "0: pass", "0: discard 8C", "1: claim mahjongg")
    assert legal_texts(g, 1) == ["1: mahjongg 1 6B 6B 6B 8C 8C 8C 8C F F F", "1: withdraw"]
    ev = play(g, "1: mahjongg 1 6B 6B 6B 8C 8C 8C 8C F F F")
    assert ev == ["mahjongg 1 1 2468-3: 6B 6B 6B 8C 8C 8C 8C F F F"]
    play(g, "1: discard " + legal_texts(g, 1)[0].split()[-1], "0: pass")
    assert g.current == 0
    assert not any(t.startswith("0: exchange") for t in legal_texts(g, 0))
    assert refused(g, "0: exchange 2B from 1:1:1") == "exchange_from_mahjongg"


def test_dead_rack_jokers_only_from_exposures_that_did_not_kill_it() -> None:
    # seat 1: 6C 6C J on rack 1 (fits), then W W J (fits no line) kills rack 1
    g = rig(R(), ["6C 6C W 6D", "6C J 1D W J 2D"], picks="4D 5D 7D 8D 9D 3C")
    play(g, "0: discard 6C", "1: claim expose", "1: expose 1 6C 6C J", "1: discard 1D",
         "0: pass", "0: discard W", "1: claim expose")
    ev = play(g, "1: expose 1 W W J")
    assert ev == ["expose 1 1 W W J", "dead 1 1 exposure"]
    play(g, "1: discard 2D", "0: pass")
    # seat 0 holds a 6C: the first exposure's Joker is free, the killer's is not
    assert "0: exchange 6C from 1:1:1" in legal_texts(g, 0)
    assert refused(g, "0: exchange W from 1:1:2") == "exchange_from_dead"


# ------------------------------------------------------------------ dead racks


# W W W fits only Honors-7, a concealed line: dead where concealed lines stay concealed
KEEP_C = {"open_concealed": False}


def test_exposure_matching_no_line_kills_the_rack_at_once() -> None:
    g = rig(R(**KEEP_C), ["W", "W W 1D 2D"], picks="4D 5D")
    play(g, "0: discard W", "1: claim expose")
    ev = play(g, "1: expose 2 W W W")
    assert ev == ["expose 1 2 W W W", "dead 1 2 exposure"]
    assert g.players[1].racks[1].dead == "exposure"
    # no more exposures or Mah Jongg on a dead rack
    assert not any(" 2 " in t and "expose" in t for t in legal_texts(g, 1))


@pytest.mark.parametrize("rev", ["2024", "2019"])
def test_all_racks_dead_scores_minus_four_times_lowest_value(rev: str) -> None:
    g = rig(R(expose_any_time=True, revision=rev, **KEEP_C), ["W W W 0 0 0 0 J"],
            picks="4D" if rev == "2024" else "")
    ev = play(g, "0: expose 1 W W W")
    assert ev == ["expose 0 1 W W W", "dead 0 1 exposure"]
    ev = play(g, "0: expose 2 0 0 0 0 J")
    assert ev == ["expose 0 2 0 0 0 0 J", "dead 0 2 exposure", "end dead 0"]
    assert lines(g) == ["seat 0: -100  both racks dead: 4 x the lowest value on the card, 25"]


def test_all_racks_dead_against_a_mahjongg_scores_four_times_its_value() -> None:
    g = rig(R(expose_any_time=True, **KEEP_C), [A13 + " 1C", "W W W 0 0 0 0 J"],
            picks="8C 4D")
    play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F", "0: discard 1C",
         "1: pass", "1: expose 1 W W W")
    ev = play(g, "1: expose 2 0 0 0 0 J")
    assert ev[-1] == "end dead 1"
    assert lines(g) == [
        "seat 0: +50  Mah Jongg on rack 1: 2468-3 (card value 25; jokerless x2)",
        "seat 0: +10  closed hand on rack 1: 2468-3",
        "seat 1: -100  both racks dead: 4 x the opponent's Mah Jongg value 25"]


# ------------------------------------------------------------------ moving tiles


def test_concealed_tiles_move_freely_between_own_racks() -> None:
    g = rig(R(), ["1B"], picks="4D")
    racks = g.players[0].racks
    before = list(g.players[0].pool)
    src = 0 if racks[0].arranged[0] else 1
    ev = play(g, f"0: move 1B {src + 1}>{2 - src}")
    assert ev == [f"move 0 1B {src + 1}>{2 - src}"]
    assert g.players[0].pool == before
    # out of turn a seat may move too (tests/engine/test_third_review.py), but only
    # tiles it has on the rack it names
    assert refused(g, "1: move 1B 1>2") == "illegal_move"


# ------------------------------------------------------------------ Mah Jongg


def test_mahjongg_on_a_rack_with_the_picked_tile() -> None:
    g = rig(R(), [A13], picks="8C")
    options = [t for t in legal_texts(g, 0) if "mahjongg" in t]
    assert "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F" in options
    ev = play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F")
    assert ev == ["mahjongg 0 1 2468-3 jokerless closed: 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F"]
    assert g.players[0].concealed == 14 and not g.over
    # play goes on: discard, and the rack is finished
    assert all(t.startswith("0: discard") or t.startswith("0: move") is False
               for t in legal_texts(g, 0) if "mahjongg" in t)


def test_invalid_mahjongg_refused_in_casual_play() -> None:
    g = rig(R(), [A13], picks="9D")
    assert refused(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 9D F F F") == "no_mahjongg"
    assert refused(g, "0: mahjongg 1") == "arranged_declaration"


def test_a_choice_of_fillings_is_offered() -> None:
    # 6B 6B 6B J: the pung of 6B may hold the Joker or not
    g = rig(R(), ["F F F 2B 2B 2B 2B 6B 6B 6B J 8C 8C 8C"], picks="8C")
    options = [t for t in legal_texts(g, 0) if t.startswith("0: mahjongg 1")]
    assert "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F" in options
    assert "0: mahjongg 1 2B 2B 2B 2B 6B 6B 8C 8C 8C 8C F F F J" in options


def test_second_mahjongg_wins_the_game() -> None:
    g = rig(R(), [A13 + " " + H13 + " 1C"], picks="8C 5D W")
    play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F", "0: discard 1C",
         "1: pass", "1: discard 5D", "0: pass")
    ev = play(g, "0: mahjongg 2 0 0 E E E E G G R R W W W W")
    assert ev[-1] == "end mahjongg 0"
    assert g.over and g.winner == 0


def test_double_mahjongg_two_in_one_turn() -> None:
    g = rig(R(), [A13.replace("8C 8C 8C", "8C 8C 8C 8C") + " " + H13], picks="W")
    play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F")
    assert g.players[0].free_count() == 14
    ev = play(g, "0: mahjongg 2 0 0 E E E E G G R R W W W W")
    assert ev[-1] == "end mahjongg 0"


def test_one_mahjongg_and_one_dead_rack_stops_the_player() -> None:
    g = rig(R(**KEEP_C), [A13 + " W W 1C", "W"], picks="8C 5D 2D")
    play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F", "0: discard 1C",
         "1: pass", "1: discard W", "0: claim expose")
    ev = play(g, "0: expose 2 W W W")
    assert ev == ["expose 0 2 W W W", "dead 0 2 exposure"]
    ev = play(g, "0: discard " + legal_texts(g, 0)[0].split()[-1])
    assert ev[-1] == "stop 0"
    assert play(g, "1: pass") == ["pass 1", "pick 1 2D"]
    # seat 0 is asked nothing any more; seat 1 plays on alone
    ev = play(g, "1: discard 2D")
    assert ev[-1].startswith("pick 1")


def test_wall_game_when_the_wall_is_spent() -> None:
    g = rig(R(), [])
    discard_out(g)
    assert g.end_reason == "wall"
    assert lines(g) == ["seat 0: +10  wall game", "seat 1: +10  wall game"]
    assert score(g).totals == (10, 10)


def test_imperial_first_mahjongg_does_not_win_four_racks() -> None:
    g = rig(R("imperial", 2), [A13], picks="8C")
    assert g.players[0].concealed == 56
    ev = play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F")
    assert ev[-1].startswith("mahjongg 0 1 2468-3")
    assert not g.over and len(g.players[0].open_racks()) == 3
    assert g.players[0].total() == 56
