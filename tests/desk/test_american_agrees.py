"""The engine and the tournament desk score the American game with one code path
(engine/american.py): a game played out in the engine and the same game written on the
desk's four-seat sheet, the way a table's scorer would write it, score alike, line by
line, in every case the tournament sheet distinguishes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.helpers import discard_out, play, rig
from tests.engine.test_american import (
    H13,
    L13,
    A,
    _first,
    _two_exposures_then_mahjongg,
    _two_quints_then_mahjongg,
    mahjongg,
)
from twinrack.desk.results import score_four_seat_game
from twinrack.engine import GameState, score

NAMES = ("Ann", "Bea", "Cat", "Dot")


def seat_of(name: Any, field: str) -> int:
    return NAMES.index(name)


def desk_lines(sheet: dict[str, Any]) -> list[str]:
    return [str(x) for x in score_four_seat_game(sheet, NAMES, seat_of, 100).score.lines]


def engine_lines(g: GameState) -> list[str]:
    return [str(x) for x in score(g).lines]


def T(**options: object) -> Any:
    return A(american_scoring="tournament", **options)


def discard_win() -> GameState:
    g = rig(T(), ["0", H13])
    play(g, "0: discard 0", "1: claim mahjongg", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    return g


def self_pick_beside_a_dead_hand() -> GameState:
    g = rig(T(), ["W", "W W", L13], picks="G")
    play(g, "0: discard W", "1: claim expose", "2: pass", "3: pass", "1: expose 1 W W W")
    play(g, mahjongg(g, 2))
    return g


def singles_and_pairs() -> GameState:
    g = rig(T(), ["", "1B 1B 3B 3B 5B 5B 7B 7B 9B 9B 0 0 S"], picks="S")
    play(g, "0: discard 9D", "1: pass", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    return g


def with_a_joker() -> GameState:
    g = rig(T(), ["0", "E E E J W W W W R R G G 0"])
    play(g, "0: discard 0", "1: claim mahjongg", "2: pass", "3: pass")
    play(g, mahjongg(g, 1))
    return g


def wall_game_with_a_dead_hand() -> GameState:
    g = rig(T(), ["W", "W W"])
    play(g, "0: discard W", "1: claim expose", "2: pass", "3: pass", "1: expose 1 W W W")
    discard_out(g)
    return g


def error_with_one_hand_left() -> GameState:
    g = rig(T(strict=True), ["", "", "", ""], picks="1D 2D 3D")
    play(g, "0: discard " + _first(g, 0), "1: pass", "2: pass", "3: pass", "1: mahjongg 1",
         "2: mahjongg 1", "3: mahjongg 1")
    return g


CASES = [
    (discard_win, {"winner": "Bea", "value": 35, "jokerless": True, "discarder": "Ann"}),
    (self_pick_beside_a_dead_hand, {"winner": "Cat", "value": 30, "jokerless": True,
                                    "self_picked": True, "dead": ["Bea"]}),
    (singles_and_pairs, {"winner": "Bea", "value": 50, "self_picked": True,
                         "singles_and_pairs": True, "jokerless": True}),
    (with_a_joker, {"winner": "Bea", "value": 35, "discarder": "Ann"}),
    (lambda: _two_exposures_then_mahjongg(T()),
     {"winner": "Bea", "value": 35, "jokerless": True, "discarder": "Dot",
      "winner_exposures": 2}),
    (lambda: _two_quints_then_mahjongg(T()),
     {"winner": "Bea", "value": 45, "discarder": "Dot", "winner_exposures": 2,
      "quint_two_exposures": True}),
    (wall_game_with_a_dead_hand, {"wall_game": True, "dead": ["Bea"]}),
    (error_with_one_hand_left, {"in_error": "Dot", "dead": ["Bea", "Cat"]}),
]


@pytest.mark.parametrize(("played", "sheet"), CASES)
def test_the_engine_and_the_desk_score_alike(played: Any, sheet: dict[str, Any]) -> None:
    g = played()
    assert g.over
    assert engine_lines(g) == desk_lines(sheet)
