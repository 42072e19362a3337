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
    _cost,
    best_moves,
    movement_json,
    parse_moves,
    parse_nametag,
    plan_check,
)

ROUNDS = 8


def refused(code: str, message: str, command: object, *args: object) -> None:
    """The command raises MovementError with this code and a message saying this."""
    with pytest.raises(MovementError) as err:
        command(*args)  # type: ignore[operator]
    assert err.value.code == code, err.value.message
    assert message in err.value.message, err.value.message


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
        refused("bad_movement", f"--move {bad!r}: a seat letter and a number of tables",
                parse_moves, [bad])


@pytest.mark.parametrize(("seats", "moves", "message"), [
    (4, {"E": 1}, "East stays at its table"),
    (2, {"S": 1}, "seat 'S' is not one of E W"),
    (4, {"Q": 1}, "seat 'Q' is not one of E S W N"),
    (4, {"W": "2"}, "seat W: the move is a whole number of tables, got '2'"),
    (4, {"W": 1.5}, "the move is a whole number"),
    (4, {"W": True}, "the move is a whole number"),
])
def test_bad_movement_is_refused(seats: int, moves: dict[str, object], message: str) -> None:
    refused("bad_movement", message, Movement.standard, seats, moves)


def test_bad_sizes_are_refused() -> None:
    refused("bad_seats", "a table has 4 seats (standard) or 2 (Siamese)", Movement.standard, 3)
    refused("bad_tables", "a tournament needs at least one table", Movement.standard(4).plan,
            0, 1)
    refused("bad_rounds", "a tournament needs at least one round", Movement.standard(4).plan,
            1, 0)


@pytest.mark.parametrize("tag", ["", "E", "1", "1X", "x1E", "1.5E", "0E", "-1E", "\uff11E"])
def test_bad_nametags(tag: str) -> None:
    refused("bad_nametag", f"nametag {tag!r} is not a table number and a seat letter",
            parse_nametag, tag)


def test_nametags_parse_loosely() -> None:
    assert parse_nametag(" 12w ") == (12, "W")
    refused("bad_nametag", "(E/W), like 3W", parse_nametag, "3S", ("E", "W"))


# ---------------------------------------------------------------- what a plan repeats


def test_two_tables_of_four_repeat_opponents_and_rounds() -> None:
    check = plan_check(Movement.standard(4), 2, 3)
    assert check.repeated_rounds == ((3, 1),)
    assert check.pairs[0] == ("1E", "1W", (1, 2, 3))
    assert check.repeated_meetings == 16
    assert check.summary() == ("round 3 repeats round 1; 16 seatings put two players together "
                               "again; for example 1E and 1W meet in rounds 1, 2 and 3")
    # with 2 tables of 4, every movement repeats as much: nothing better to offer
    assert best_moves(4, 2, 3) is None


def test_the_best_alternative_is_offered() -> None:
    # 2-seat tables, 4 tables, 3 rounds, West moving 2: 1E meets 1W again in round 3
    check = plan_check(Movement.standard(2, {"W": 2}), 4, 3)
    assert check.repeated_rounds == ((3, 1),) and check.pairs[0] == ("1E", "1W", (1, 3))
    assert best_moves(2, 4, 3, {"W": 2}) == {"E": 0, "W": 1}
    assert plan_check(Movement.standard(2), 4, 3).ok
    # 4-seat tables: with 5 tables the standard movement is already fine for 4 rounds
    assert plan_check(Movement.standard(4), 5, 4).ok
    # with 3 tables South and West travel together: no movement of 4 letters avoids a pair
    assert plan_check(Movement.standard(4), 3, 2).pairs[0] == ("1S", "1W", (1, 2))
    assert best_moves(4, 3, 2) is None
    # 4 tables: West +2 meets East again every 2 rounds, but so would any other choice
    assert not plan_check(Movement.standard(4), 4, 3).ok and best_moves(4, 4, 3) is None
    # 6 tables, 5 rounds: another movement does better than the standard one
    better = best_moves(4, 6, 5)
    assert better == {"E": 0, "S": -1, "W": 0, "N": 1}
    assert plan_check(Movement.standard(4, better), 6, 5).repeated_meetings < \
        plan_check(Movement.standard(4), 6, 5).repeated_meetings


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 4]), st.integers(1, 9), st.integers(1, 8),
       st.lists(st.integers(-9, 9), min_size=3, max_size=3))
def test_the_quick_count_agrees_with_seating_every_round(seats: int, tables: int, rounds: int,
                                                         steps: list[int]) -> None:
    letters = ("S", "W", "N") if seats == 4 else ("W",)
    moves = dict(zip(letters, steps, strict=False))
    mv = Movement.standard(seats, moves)
    check = plan_check(mv, tables, rounds)
    assert _cost(mv.seats, mv.moves, tables, rounds) == (len(check.repeated_rounds),
                                                          check.repeated_meetings)
