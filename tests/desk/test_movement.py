"""Tournament movement (rules section 11): where every nametag sits in every round."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twinrack.desk.movement import (
    MOVES_2,
    MOVES_4,
    Movement,
    MovementError,
    movement_json,
    parse_moves,
    parse_nametag,
)

ROUNDS = 8


def check_plan(mv: Movement, tables: int, rounds: int) -> None:
    """The properties every movement must have, checked on a whole plan."""
    plan = mv.plan(tables, rounds)
    assert len(plan) == rounds
    tags = [f"{t}{letter}" for t in range(1, tables + 1) for letter in mv.seats]
    where: dict[str, list[int]] = {tag: [] for tag in tags}
    for r, seating in enumerate(plan, start=1):
        assert sorted(seating) == list(range(1, tables + 1))
        seen: list[str] = []
        for table, seats in seating.items():
            # every seat of every table is taken, by a player of that seat letter
            assert list(seats) == list(mv.seats)
            for letter, tag in seats.items():
                assert parse_nametag(tag, mv.seats)[1] == letter
                assert mv.table_of(tag, r, tables) == table
                where[tag].append(table)
            seen.extend(seats.values())
        # each player sits in exactly one seat per round
        assert sorted(seen) == sorted(tags)
    for tag, tables_sat in where.items():
        start, letter = parse_nametag(tag, mv.seats)
        assert tables_sat[0] == start  # round 1: the nametag's own table
        if letter == "E":
            assert set(tables_sat) == {start}  # East never moves
        step = mv.moves[letter]
        for before, after in itertools.pairwise(tables_sat):
            # the same letter always moves the same way, wrapping around the room
            assert (after - before) % tables == step % tables


@pytest.mark.parametrize("tables", range(1, 61))
def test_four_seats_1_to_60_tables_8_rounds(tables: int) -> None:
    check_plan(Movement.standard(4), tables, ROUNDS)


@pytest.mark.parametrize("tables", range(1, 61))
def test_two_seats_1_to_60_tables_8_rounds(tables: int) -> None:
    check_plan(Movement.standard(2), tables, ROUNDS)


def test_standard_moves_are_the_tournament_rules() -> None:
    assert MOVES_4 == {"E": 0, "S": -1, "W": 2, "N": 1}
    assert MOVES_2 == {"E": 0, "W": 1}
    assert Movement.standard(4).seats == ("E", "S", "W", "N")
    assert Movement.standard(2).seats == ("E", "W")


def test_four_seats_round_two_of_five_tables() -> None:
    mv = Movement.standard(4)
    # West up two, North up one, South down one, East stays
    assert mv.table_of("1W", 2, 5) == 3
    assert mv.table_of("1N", 2, 5) == 2
    assert mv.table_of("1S", 2, 5) == 5  # wraps around: table 1 down one is table 5
    assert mv.table_of("1E", 2, 5) == 1
    assert mv.seating(5, 2)[1] == {"E": "1E", "S": "2S", "W": "4W", "N": "5N"}
    assert mv.table_of("4W", 3, 5) == 3  # 4 + 2 + 2 = 8, wrapped to 3


def test_two_seats_west_moves_up_one() -> None:
    mv = Movement.standard(2)
    assert [mv.seating(3, r)[1] for r in (1, 2, 3, 4)] == [
        {"E": "1E", "W": "1W"}, {"E": "1E", "W": "3W"}, {"E": "1E", "W": "2W"},
        {"E": "1E", "W": "1W"}]


def test_movement_json_shape() -> None:
    doc = movement_json(4, 2, 2)
    assert doc == {"rounds": [
        {"round": 1, "tables": {"1": {"E": "1E", "S": "1S", "W": "1W", "N": "1N"},
                                "2": {"E": "2E", "S": "2S", "W": "2W", "N": "2N"}}},
        {"round": 2, "tables": {"1": {"E": "1E", "S": "2S", "W": "1W", "N": "2N"},
                                "2": {"E": "2E", "S": "1S", "W": "2W", "N": "1N"}}}]}
    assert movement_json(2, 2, 2)["rounds"] == [
        {"round": 1, "tables": {"1": {"E": "1E", "W": "1W"}, "2": {"E": "2E", "W": "2W"}}},
        {"round": 2, "tables": {"1": {"E": "1E", "W": "2W"}, "2": {"E": "2E", "W": "1W"}}}]


# ---------------------------------------------------------------- configurable movement


def test_configured_two_seat_movement() -> None:
    mv = Movement.standard(2, {"W": -2})
    assert mv.moves == {"E": 0, "W": -2}
    assert mv.table_of("1W", 2, 7) == 6
    for tables in (1, 2, 7, 13):
        check_plan(mv, tables, ROUNDS)


def test_configured_four_seat_movement_keeps_the_other_letters() -> None:
    mv = Movement.standard(4, {"S": -2, "n": 3})
    assert mv.moves == {"E": 0, "S": -2, "W": 2, "N": 3}
    for tables in range(1, 20):
        check_plan(mv, tables, ROUNDS)
    assert movement_json(4, 5, 2, {"S": -2})["rounds"][1]["tables"]["1"]["S"] == "3S"


@settings(max_examples=60, deadline=None)
@given(seats=st.sampled_from([2, 4]), tables=st.integers(1, 30),
       steps=st.lists(st.integers(-70, 70), min_size=3, max_size=3))
def test_any_configured_movement_has_the_properties(seats: int, tables: int,
                                                     steps: list[int]) -> None:
    letters = ("S", "W", "N") if seats == 4 else ("W",)
    mv = Movement.standard(seats, dict(zip(letters, steps, strict=False)))
    check_plan(mv, tables, ROUNDS)


def test_parse_moves() -> None:
    assert parse_moves(["W=2", "s=-1", " N = 3"]) == {"W": 2, "S": -1, "N": 3}
    assert parse_moves(None) == {}
    for bad in ("W", "W=x", "=2", "W:2"):
        with pytest.raises(MovementError, match="a seat letter and a number of tables"):
            parse_moves([bad])


@pytest.mark.parametrize(("seats", "moves", "message"), [
    (4, {"E": 1}, "East stays at its table"),
    (2, {"S": 1}, "seat 'S' is not one of E W"),
    (4, {"Q": 1}, "seat 'Q' is not one of E S W N"),
    (4, {"W": "2"}, "seat W: the move is a whole number of tables, got '2'"),
    (4, {"W": 1.5}, "the move is a whole number"),
    (4, {"W": True}, "the move is a whole number"),
])
def test_bad_movement_is_refused(seats: int, moves: dict[str, object], message: str) -> None:
    with pytest.raises(MovementError, match=message):
        Movement.standard(seats, moves)  # type: ignore[arg-type]


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(MovementError, match="4 seats"):
        Movement.standard(3)
    with pytest.raises(MovementError, match="at least one table"):
        Movement.standard(4).plan(0, 1)
    with pytest.raises(MovementError, match="at least one round"):
        Movement.standard(4).plan(1, 0)


@pytest.mark.parametrize("tag", ["", "E", "1", "1X", "x1E", "1.5E", "0E", "-1E", "\uff11E"])
def test_bad_nametags(tag: str) -> None:
    with pytest.raises(MovementError, match="is not a table number and a seat letter"):
        parse_nametag(tag)


def test_nametags_parse_loosely() -> None:
    assert parse_nametag(" 12w ") == (12, "W")
    with pytest.raises(MovementError, match=r"\(E/W\), like 3W"):
        parse_nametag("3S", ("E", "W"))
