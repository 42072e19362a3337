"""The tournament desk model: seating, rounds, sheets, confirmations, locking, corrections,
timing, standings, and every row of the section 11 tournament sheet."""

from __future__ import annotations

import json
from typing import Any

import pytest

from twinrack.desk.export import (
    find_your_seat_html,
    games_csv,
    nametags_html,
    score_sheets_html,
    standings_csv,
    standings_html,
    table_cards_html,
)
from twinrack.desk.tournament import CODE_ALPHABET, CODE_LENGTH, DeskError, Tournament, atomic
from twinrack.engine.american import TournamentGame, play_goes_on

MIN = 60.0
NAMES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay", "Gil", "Hal", "Ida", "Jo", "Kim", "Lou"]


def make(players: list[str], seats: int = 4, **kw: Any) -> Tournament:
    t = Tournament("Spring Open", seats=seats, **kw)
    for n in players:
        t.add_player(n)
    return t


def one_table(**kw: Any) -> Tournament:
    """Ann E, Bea S, Cat W, Dot N at table 1, round 1 open since time 0."""
    t = make(NAMES[:4], **kw)
    t.start_round(0.0)
    return t


def sign(t: Tournament, table: int, game: int, who: str, at: float) -> Any:
    """The player confirms a win with their own code."""
    return t.confirm(table, game, who, at, code=t.player(who).code)


def points(t: Tournament, result: dict[str, Any], table: int = 1) -> dict[str, int]:
    """Enter a game and return its points by player name."""
    g = t.enter_game(table, result, at=10 * MIN)
    return {t.name_of(tag): pts for tag, pts in g.points.items()}


def unchanged(t: Tournament, command: Any, *args: Any, code: str, message: str,
              **kwargs: Any) -> None:
    """A refused command names the problem and leaves the tournament exactly as it was."""
    before = json.dumps(t.to_json(), sort_keys=True)
    with pytest.raises(DeskError) as err:
        command(*args, **kwargs)
    assert err.value.code == code, err.value.message
    assert message in err.value.message, err.value.message
    assert json.dumps(t.to_json(), sort_keys=True) == before


# ---------------------------------------------------------------- a whole tournament


def test_a_whole_four_round_tournament() -> None:
    t = make(NAMES, rounds_planned=4)
    assert [(p.name, p.nametag) for p in t.players[:5]] == [
        ("Ann", "1E"), ("Bea", "1S"), ("Cat", "1W"), ("Dot", "1N"), ("Eve", "2E")]
    assert t.tables == 3
    names = {p.nametag: p.name for p in t.players}

    def seated(r: int) -> dict[int, list[str]]:
        return {table: [names[tag] for tag in seats.values()]
                for table, seats in t.seating(r).items()}

    assert seated(1) == {1: ["Ann", "Bea", "Cat", "Dot"], 2: ["Eve", "Fay", "Gil", "Hal"],
                         3: ["Ida", "Jo", "Kim", "Lou"]}
    assert seated(2) == {1: ["Ann", "Fay", "Gil", "Lou"], 2: ["Eve", "Jo", "Kim", "Dot"],
                         3: ["Ida", "Bea", "Cat", "Hal"]}
    assert seated(3) == {1: ["Ann", "Jo", "Kim", "Hal"], 2: ["Eve", "Bea", "Cat", "Lou"],
                         3: ["Ida", "Fay", "Gil", "Dot"]}
    assert seated(4) == seated(1)  # 3 tables: the movement comes round again

    def play(r: int, games: dict[int, list[dict[str, Any]]], late: tuple[int, int] = (0, 0)
             ) -> None:
        start = 1000.0 * r * MIN
        t.start_round(start)
        for table, results in games.items():
            for i, res in enumerate(results, start=1):
                at = start + (55 if (table, i) == late else 10 * i) * MIN
                g = t.enter_game(table, res, at)
                if g.winner is not None and not g.late:
                    # the player opposite the winner signs
                    seats = t.seating(r)[table]
                    letter = next(k for k, v in seats.items() if v == g.winner)
                    opposite = {"E": "W", "W": "E", "S": "N", "N": "S"}[letter]
                    sign(t, table, i, names[seats[opposite]], at + 1)
        t.close_round(start + 50 * MIN)

    play(1, {
        1: [{"winner": "Ann", "value": 25, "self_picked": True},
            {"winner": "Cat", "value": 30, "discarder": "Bea", "winner_exposures": 2}],
        2: [{"wall_game": True, "dead": ["Hal"]},
            {"winner": "Fay", "value": 50, "singles_and_pairs": True}],
        3: [{"winner": "Kim", "value": 25, "jokerless": True, "discarder": "Lou",
             "winner_exposures": 3}]})
    play(2, {
        1: [{"winner": "Gil", "value": 35, "discarder": "Ann", "misnamed": True},
            {"winner": "Ann", "value": 30, "jokerless": True, "self_picked": True,
             "penalties": [{"player": "Lou", "kind": "stealing_and_looking"}]}],
        2: [{"in_error": "Jo", "wall_destroyed_by": ["Kim"]}],
        3: [{"winner": "Hal", "value": 25, "penalties": [{"player": "Bea",
                                                          "kind": "not_seated"}]}]})
    play(3, {
        1: [{"winner": "Kim", "value": 25, "discarder": "Jo", "winner_exposures": 2,
             "quint_two_exposures": True}],
        2: [{"winner": "Eve", "value": 40}, {"wall_game": True}],
        3: [{"winner": "Dot", "value": 25, "discarder": "Ida", "winner_exposures": 1}]})
    play(4, {
        1: [{"winner": "Bea", "value": 30}, {"winner": "Ann", "value": 50}],
        2: [{"winner": "Hal", "value": 30, "penalties": [{"player": "Gil",
                                                          "kind": "misnamed_exposure_tile"}]}],
        3: [{"in_error": "Lou", "exposed": ["Ida", "Jo", "Kim"]},
            {"in_error": "Ida", "exposed": ["Jo", "Kim"]}]},
         late=(1, 2))

    assert t.rounds[3].sheets[1][1].late and t.rounds[3].sheets[1][1].points == {
        "1E": 0, "1S": 0, "1W": 0, "1N": 0}
    rows = [(r["rank"], r["name"], r["points"], r["wins"], r["games"], r["head_to_head"])
            for r in t.standings()]
    assert rows == [
        (1, "Kim", 80, 2, 5, 25),   # ties Ann on points and wins, beat her head-to-head
        (2, "Ann", 80, 2, 7, -25),  # her win after time scores nothing and is not counted
        (3, "Fay", 75, 1, 6, 0),
        (4, "Eve", 70, 1, 6, 0),
        (5, "Hal", 55, 2, 5, 0),
        (6, "Cat", 40, 1, 7, 0),
        (7, "Dot", 35, 1, 6, 25),   # ties Gil; Dot scored 25 to Gil's 0 at their table
        (8, "Gil", 35, 1, 6, -25),
        (9, "Ida", 10, 0, 5, 0),
        (10, "Bea", 5, 1, 7, 0),
        (11, "Jo", -15, 0, 5, 25),  # ties Lou: at their table Jo scored 10, Lou -15
        (12, "Lou", -15, 0, 7, -25),
    ]
    # every win in time was confirmed by the player opposite
    for r in t.rounds:
        for sheet in r.sheets.values():
            for g in sheet:
                assert (g.confirmed_by is not None) == (g.winner is not None and not g.late)
    # the exports carry the same numbers
    assert standings_csv(t).splitlines()[1] == "1,Kim,3W,80,2,5,25"
    assert len(games_csv(t).splitlines()) == 1 + 4 * 18  # 18 games, a row per player
    assert t.audit[-1].action == "close round"
    unchanged(t, t.start_round, 10_000 * MIN, code="no_more_rounds",
              message="all 4 rounds are played")
    # the file round-trips exactly
    again = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert again.to_json() == t.to_json()
    assert again.standings() == t.standings()


# ---------------------------------------------------------------- tie-breaks


def test_tie_break_by_games_won() -> None:
    t = one_table()
    points(t, {"winner": "Ann", "value": 50})
    points(t, {"winner": "Bea", "value": 25})
    points(t, {"winner": "Bea", "value": 25})
    assert [(r["name"], r["points"], r["wins"], r["rank"]) for r in t.standings()][:2] == [
        ("Bea", 50, 2, 1), ("Ann", 50, 1, 2)]


def test_tie_break_head_to_head_then_shared_rank() -> None:
    # 8 players, 2 tables: Ann and Eve tie on points and wins; they met in round 2
    t = make(NAMES[:8], rounds_planned=2)
    t.start_round(0)
    t.enter_game(1, {"winner": "Ann", "value": 30}, 1)
    t.enter_game(2, {"winner": "Fay", "value": 25}, 1)
    t.close_round(2, force=True)
    t.start_round(3)
    seats = t.seating(2)
    assert "1E" in seats[1].values() and "2S" in seats[1].values()  # Ann meets Fay
    t.enter_game(1, {"winner": "Fay", "value": 35}, 4)
    t.enter_game(2, {"winner": "Eve", "value": 30}, 4)
    t.close_round(5, force=True)
    rows = {r["name"]: r for r in t.standings()}
    assert (rows["Fay"]["points"], rows["Fay"]["rank"]) == (60, 1)
    # Ann 30 and Eve 30, one win each, never at one table: head-to-head 0, so they share 2nd
    assert (rows["Ann"]["rank"], rows["Eve"]["rank"]) == (2, 2)
    assert rows["Ann"]["head_to_head"] == rows["Eve"]["head_to_head"] == 0
    # everyone else on 0 points shares 4th
    assert sorted(r["rank"] for r in t.standings()) == [1, 2, 2, 4, 4, 4, 4, 4]


def test_three_way_head_to_head_sums_over_tied_rivals() -> None:
    t = one_table()
    points(t, {"winner": "Ann", "value": 25})
    points(t, {"winner": "Bea", "value": 25})
    points(t, {"winner": "Cat", "value": 25})
    rows = {r["name"]: r for r in t.standings()}
    assert [rows[n]["head_to_head"] for n in ("Ann", "Bea", "Cat")] == [0, 0, 0]
    assert [rows[n]["rank"] for n in ("Ann", "Bea", "Cat", "Dot")] == [1, 1, 1, 4]


# ---------------------------------------------------------------- section 11 rows


@pytest.mark.parametrize(("result", "expected"), [
    ({"winner": "Ann", "value": 25}, {"Ann": 25}),
    ({"winner": "Ann", "value": 25, "self_picked": True}, {"Ann": 40}),
    ({"winner": "Ann", "value": 50, "singles_and_pairs": True}, {"Ann": 65}),
    ({"winner": "Ann", "value": 50, "singles_and_pairs": True, "jokerless": True},
     {"Ann": 65}),  # Singles and Pairs: +15, never the jokerless +20
    ({"winner": "Ann", "value": 30, "jokerless": True}, {"Ann": 50}),
    ({"winner": "Ann", "value": 30, "jokerless": True, "self_picked": True}, {"Ann": 65}),
    ({"winner": "Ann", "value": 50, "singles_and_pairs": True, "self_picked": True},
     {"Ann": 80}),
    ({"wall_game": True}, {"Ann": 10, "Bea": 10, "Cat": 10, "Dot": 10}),
    ({"wall_game": True, "dead": ["Bea", "Dot"]}, {"Ann": 10, "Cat": 10}),
    ({"wall_game": True, "dead": "Cat"}, {"Ann": 10, "Bea": 10, "Dot": 10}),
    # throwing the Mah Jongg tile
    ({"winner": "Ann", "value": 25, "discarder": "Bea"}, {"Ann": 25}),
    ({"winner": "Ann", "value": 25, "discarder": "Bea", "winner_exposures": 1}, {"Ann": 25}),
    ({"winner": "Ann", "value": 25, "discarder": "Bea", "winner_exposures": 2},
     {"Ann": 25, "Bea": -10}),
    ({"winner": "Ann", "value": 25, "discarder": "Bea", "winner_exposures": 3},
     {"Ann": 25, "Bea": -25}),
    ({"winner": "Ann", "value": 25, "discarder": "Bea", "winner_exposures": 4},
     {"Ann": 25, "Bea": -25}),
    ({"winner": "Ann", "value": 40, "discarder": "Cat", "winner_exposures": 2,
      "quint_two_exposures": True}, {"Ann": 40, "Cat": -25}),
    ({"winner": "Ann", "value": 25, "self_picked": True, "winner_exposures": 3},
     {"Ann": 40}),
    # a mis-named tile claimed for Mah Jongg: the declarer scores, the thrower -25
    ({"winner": "Ann", "value": 30, "discarder": "Dot", "misnamed": True},
     {"Ann": 30, "Dot": -25}),
    ({"winner": "Ann", "value": 30, "discarder": "Dot", "misnamed": True,
      "winner_exposures": 2}, {"Ann": 30, "Dot": -35}),
    # Mah Jongg in error
    ({"in_error": "Bea", "wall_destroyed_by": ["Cat"]}, {"Ann": 10, "Dot": 10}),
    ({"in_error": "Bea", "wall_destroyed_by": "Cat", "dead": ["Dot"]}, {"Ann": 10}),
    ({"in_error": "Bea", "exposed": ["Ann", "Cat", "Dot"]}, {"Ann": 10, "Cat": 10, "Dot": 10}),
    ({"in_error": "Bea", "exposed": ["Ann", "Cat"]}, {"Dot": 10}),
    ({"in_error": "Bea", "exposed": ["Ann", "Cat"], "dead": ["Dot"]},
     {"Ann": 10, "Cat": 10}),
    # penalties
    ({"wall_game": True, "penalties": [{"player": "Dot", "kind": "not_seated"}]},
     {"Ann": 10, "Bea": 10, "Cat": 10, "Dot": -15}),
    ({"winner": "Ann", "value": 25, "penalties": [{"player": "Bea",
                                                   "kind": "stealing_and_looking"}]},
     {"Ann": 25, "Bea": -10}),
    ({"winner": "Ann", "value": 25, "penalties": [{"player": "Ann",
                                                   "kind": "misnamed_exposure_tile"},
                                                  {"player": "Cat", "kind": "not_seated"}]},
     {"Ann": 15, "Cat": -25}),
])
def test_section_11_rows(result: dict[str, Any], expected: dict[str, int]) -> None:
    t = one_table()
    got = points(t, result)
    assert got == {n: expected.get(n, 0) for n in NAMES[:4]}


def test_play_goes_on_after_a_mahjongg_in_error_while_two_hands_are_intact() -> None:
    def game(**kw: Any) -> TournamentGame:
        return TournamentGame(players=4, in_error=1, **kw)

    assert play_goes_on(game()) and play_goes_on(game(exposed=(0,)))
    assert not play_goes_on(game(exposed=(0, 2))) and not play_goes_on(game(dead=(0, 3)))
    assert not play_goes_on(game(wall_destroyed_by=(2,)))
    assert not play_goes_on(TournamentGame(players=4, wall_game=True))


def test_section_11_lines_are_itemized() -> None:
    t = one_table()
    g = t.enter_game(1, {"winner": "Ann", "value": 30, "jokerless": True, "self_picked": True,
                         "penalties": [{"player": "Bea", "kind": "not_seated"}]}, 60)
    assert [(x["player"], x["points"], x["reason"], x["penalty"]) for x in g.lines] == [
        ("Ann", 30, "Mah Jongg: card value 30", False),
        ("Ann", 15, "self-picked Mah Jongg tile", False),
        ("Ann", 20, "jokerless Mah Jongg", False),
        ("Bea", -25, "not seated when play began", True)]


def test_siamese_tables_use_section_10() -> None:
    t = make(["Ann", "Bea", "Cat", "Dot"], seats=2, revision="2019")
    assert [p.nametag for p in t.players] == ["1E", "1W", "2E", "2W"]
    t.start_round(0)
    g = t.enter_game(1, {"events": [
        {"mahjongg": "Ann", "rack": 1, "value": 25, "jokerless": True},
        {"mahjongg": "Ann", "rack": 2, "value": 30, "discarder": "Bea"},
        {"penalty": "not_seated", "player": "Bea"}]}, 60)
    assert g.points == {"1E": 110, "1W": -45}  # 50 + 60; -20 (2019) - 25
    assert g.winner == "1E"
    unchanged(t, sign, t, 1, 1, "Cat", 61, code="not_at_table",
              message="signed by: Cat does not sit at this table this round (here: Ann (1E), "
                      "Bea (1W))")
    unchanged(t, sign, t, 1, 1, "Ann", 61, code="wrong_confirmer",
              message="the win of Ann is confirmed by the player opposite, Bea (1W), not by "
                      "Ann")
    sign(t, 1, 1, "Bea", 61)
    g2 = t.enter_game(2, {"events": [{"wall_game": True}]}, 62)
    assert g2.points == {"2E": 10, "2W": 10} and g2.winner is None
    t.close_round(50 * MIN, force=True)
    t.start_round(100 * MIN)
    assert t.seating(2) == {1: {"E": "1E", "W": "2W"}, 2: {"E": "2E", "W": "1W"}}
    unchanged(t, t.enter_game, 1, {"events": [{"mahjongg": "Bea", "rack": 1, "value": 25}]},
              101 * MIN, code="bad_result",
              message="events[0].mahjongg: unknown player 'Bea' (players: Ann, Dot)")
    unchanged(t, t.enter_game, 1, {"players": ["Dot", "Ann"], "events": [{"wall_game": True}]},
              101 * MIN, code="bad_result", message="players: the players of this table, "
                                                    "East first: Ann, Dot")
    unchanged(t, t.enter_game, 1, {"events": [{"wall_game": True}], "revision": "1999"},
              101 * MIN, code="bad_result", message="revision: \"2024\" or \"2019\" (a string)")
    unchanged(t, t.enter_game, 1, {"winner": "Ann", "value": 25}, 101 * MIN,
              code="bad_result", message="winner: unknown field")


def test_siamese_tournament_configurable_movement() -> None:
    t = make(["A", "B", "C", "D", "E", "F"], seats=2, moves={"W": -1})
    assert t.seating(2) == {1: {"E": "1E", "W": "2W"}, 2: {"E": "2E", "W": "3W"},
                            3: {"E": "3E", "W": "1W"}}


# ---------------------------------------------------------------- confirmation and locking


def test_confirmation_by_the_opposite_player_only() -> None:
    t = one_table()
    points(t, {"winner": "Bea", "value": 25})  # Bea is South: Dot (North) signs
    points(t, {"wall_game": True})
    dot = t.player("Dot").code
    assert len(dot) == 5 and set(dot) <= set(CODE_ALPHABET)

    def confirm(game: int, by: str, code: str) -> Any:
        return lambda: t.confirm(1, game, by, 1, code=code)

    unchanged(t, confirm(1, "Ann", t.player("Ann").code), code="wrong_confirmer",
              message="the win of Bea is confirmed by the player opposite, Dot (1N), not by Ann")
    unchanged(t, confirm(1, "Bea", dot), code="wrong_confirmer", message="not by Bea")
    unchanged(t, confirm(1, "Zed", dot), code="unknown_player",
              message="no player 'Zed' in this tournament")
    unchanged(t, confirm(2, "Dot", dot), code="nothing_to_confirm",
              message="only a win in time is confirmed")
    unchanged(t, confirm(3, "Dot", dot), code="unknown_game",
              message="table 1 has no game 3 in round 1")
    g = t.confirm(1, 1, "1n", 2, code=dot.lower())  # by nametag, any case
    assert g.confirmed_by == "1N"
    assert (t.audit[-1].who, t.audit[-1].action) == ("Dot", "confirm")
    assert dot not in json.dumps([vars(a) for a in t.audit])  # codes stay off the trail
    unchanged(t, confirm(1, "Dot", dot), code="already_confirmed",
              message="already confirmed by Dot")


def test_a_confirmation_needs_the_signers_own_code() -> None:
    t = one_table()
    points(t, {"winner": "Bea", "value": 25})
    for wrong in ("", "     ", t.player("Bea").code, t.player("Ann").code, "AAAAA"):
        unchanged(t, lambda w=wrong: t.confirm(1, 1, "Dot", 1, code=w), code="wrong_code",
                  message="code: that is not Dot's code (it is printed on Dot's nametag and "
                          "on the table card)")
    assert t.confirm(1, 1, "Dot", 1, code=" " + t.player("Dot").code + " ").confirmed_by == "1N"


def test_codes_are_given_or_drawn() -> None:
    t = Tournament("x")
    assert t.add_player("Ann", code="K7PXQ").code == "K7PXQ"
    codes = {t.add_player(n).code for n in NAMES[1:]}
    assert len(codes) == len(NAMES) - 1  # drawn at random: all different here


def test_a_file_from_before_codes_gets_them() -> None:
    t = make(NAMES[:2])
    t.players[0].code = ""
    bea = t.player("Bea").code
    t.give_missing_codes()
    assert len(t.player("Ann").code) == CODE_LENGTH and t.player("Bea").code == bea


def test_a_closed_round_is_locked() -> None:
    t = one_table()
    points(t, {"winner": "Ann", "value": 25})
    t.close_round(50 * MIN, force=True)
    assert t.rounds[0].locked
    unchanged(t, t.enter_game, 1, {"winner": "Ann", "value": 25}, 51 * MIN,
              code="round_locked", message="round 1 is closed and locked; only the director")
    locked = "round 1 is closed and locked; only the director can correct it"
    unchanged(t, lambda: sign(t, 1, 1, "Cat", 51 * MIN), code="round_locked", message=locked)
    unchanged(t, t.delay_table, 1, 51 * MIN, code="round_locked", message=locked)
    unchanged(t, t.close_round, 51 * MIN, code="round_locked", message=locked)
    unchanged(t, t.time_left, 51 * MIN, code="round_locked", message=locked)


def test_director_corrections_with_audit() -> None:
    t = one_table()
    points(t, {"winner": "Ann", "value": 25})
    sign(t, 1, 1, "Cat", 1)
    t.close_round(50 * MIN, force=True)
    g = t.correct_game(1, 1, 1, {"winner": "Ann", "value": 30, "discarder": "Bea",
                                 "winner_exposures": 2}, 60 * MIN, "value misread: 30")
    assert g.points == {"1E": 30, "1S": -10, "1W": 0, "1N": 0}
    assert g.confirmed_by is None  # the points changed: the old signature does not stand
    assert t.rounds[0].sheets[1][0] is g
    a = t.audit[-1]
    assert (a.who, a.action, a.at) == ("director", "correct", 60 * MIN)
    assert a.detail == ('round 1 table 1 game 1: Ann +25, Bea 0, Cat 0, Dot 0 -> Ann +30, '
                        'Bea -10, Cat 0, Dot 0; was {"value": 25, "winner": "Ann"}; reason: '
                        'value misread: 30')
    assert t.standings()[0]["points"] == 30
    unchanged(t, t.correct_game, 1, 1, 1, {"wall_game": True}, 61 * MIN, "  ",
              code="reason_needed", message="a correction needs a reason")
    unchanged(t, t.correct_game, 2, 1, 1, {"wall_game": True}, 61 * MIN, "x",
              code="unknown_round", message="round 2 has not been played")
    unchanged(t, t.correct_game, 1, 1, 2, {"wall_game": True}, 61 * MIN, "x",
              code="unknown_game", message="table 1 has no game 2 in round 1")
    unchanged(t, t.correct_game, 1, 2, 1, {"wall_game": True}, 61 * MIN, "x",
              code="unknown_table", message="there is no table 2 (1-1)")
    unchanged(t, t.correct_game, 1, 1, 1, {"winner": "Ann", "value": -30}, 61 * MIN, "x",
              code="bad_value", message="value: the card value of the winning hand")


def test_a_correction_keeps_a_signature_when_the_points_stand() -> None:
    t = one_table()
    points(t, {"winner": "Ann", "value": 25})
    sign(t, 1, 1, "Cat", 1)
    g = t.correct_game(1, 1, 1, {"winner": "Ann", "value": 25, "winner_exposures": 1}, 2,
                       "exposures noted")
    assert g.confirmed_by == "1W"


# ---------------------------------------------------------------- the round timer


def test_games_after_time_score_nothing_but_penalties_stand() -> None:
    t = one_table(round_minutes=50)
    assert t.time_left(10 * MIN) == 40 * MIN
    assert t.time_left(60 * MIN) == -10 * MIN
    on_time = t.enter_game(1, {"winner": "Ann", "value": 25}, 50 * MIN)
    assert not on_time.late and on_time.points["1E"] == 25
    late = t.enter_game(1, {"winner": "Bea", "value": 40, "discarder": "Cat",
                            "winner_exposures": 3,
                            "penalties": [{"player": "Dot", "kind": "stealing_and_looking"}]},
                        50 * MIN + 1)
    assert late.late
    assert late.points == {"1E": 0, "1S": 0, "1W": 0, "1N": -10}
    assert [x["points"] for x in late.lines] == [0, 0, -10]
    assert late.lines[0]["reason"] == "Mah Jongg: card value 40 (after time: no points)"
    rows = {r["name"]: r for r in t.standings()}
    assert (rows["Bea"]["points"], rows["Bea"]["wins"]) == (0, 0)
    # entered later from a paper sheet: the director says when it finished
    g3 = t.enter_game(1, {"winner": "Cat", "value": 25}, 70 * MIN, finished_in_time=True)
    assert not g3.late and g3.points["1W"] == 25
    g4 = t.enter_game(1, {"winner": "Dot", "value": 25}, 20 * MIN, finished_in_time=False)
    assert g4.late and g4.points["1N"] == 0
    unchanged(t, t.enter_game, 1, {"wall_game": True}, 80 * MIN, code="round_full",
              message="table 1 has already recorded 4 games this round")


def test_a_delayed_table_scores_after_time() -> None:
    t = make(NAMES[:8])
    t.start_round(0)
    late = t.enter_game(1, {"winner": "Ann", "value": 25}, 55 * MIN)
    assert late.late
    restored = t.delay_table(1, 56 * MIN)
    assert [g.number for g in restored] == [1]
    assert t.rounds[0].sheets[1][0].points["1E"] == 25
    assert not t.rounds[0].sheets[1][0].late
    assert t.enter_game(1, {"winner": "Bea", "value": 30}, 58 * MIN).points["1S"] == 30
    # another table is not delayed
    assert t.enter_game(2, {"winner": "Eve", "value": 30}, 58 * MIN).late
    assert t.rounds[0].delayed_tables == [1]
    assert "table 1 in round 1 may finish late; game(s) 1 scored again" in t.audit[-3].detail


def test_a_correction_keeps_a_late_game_late_unless_told() -> None:
    t = one_table()
    t.enter_game(1, {"winner": "Ann", "value": 25}, 55 * MIN)
    g = t.correct_game(1, 1, 1, {"winner": "Bea", "value": 25}, 56 * MIN, "wrong winner")
    assert g.late and g.points["1S"] == 0
    g = t.correct_game(1, 1, 1, {"winner": "Bea", "value": 25}, 57 * MIN, "a ruling",
                       late=False)
    assert not g.late and g.points["1S"] == 25


# ---------------------------------------------------------------- bad input, nothing changes


def test_bad_results_are_refused_and_nothing_changes() -> None:
    t = one_table()
    points(t, {"winner": "Ann", "value": 25})
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"winner": "Zed", "value": 25}, "unknown_player", "winner: no player 'Zed'"),
        ({"winners": ["Ann", "Bea"], "value": 25}, "two_winners", "a game has one winner"),
        ({"winner": ["Ann", "Bea"], "value": 25}, "two_winners", "winner: a game has one "
                                                                 "winner, not 2"),
        ({"winner": "Ann", "value": -25}, "bad_value",
         "value: the card value of the winning hand, a whole number from 1 to 100 (got -25)"),
        ({"winner": "Ann", "value": 0}, "bad_value", "(got 0)"),
        ({"winner": "Ann", "value": "25"}, "bad_value", "(got \"25\")"),
        ({"winner": "Ann"}, "bad_value", "(got null)"),
        ({"winner": "Ann", "value": 25, "wall_game": True}, "bad_result",
         "winner and wall_game: a game ends one way only"),
        ({"winner": "Ann", "value": 25, "in_error": "Bea"}, "bad_result",
         "winner and in_error: a game ends one way only"),
        ({}, "bad_result", "a game needs a winner, wall_game: true or in_error"),
        ({"wall_game": True, "value": 25}, "bad_result", "value: only a game with a winner"),
        ({"wall_game": True, "discarder": "Ann"}, "bad_result", "discarder: only a game with"),
        ({"wall_game": "yes"}, "bad_result", "wall_game: true or false"),
        ({"winner": "Ann", "value": 25, "discarder": "Ann"}, "bad_result",
         "discarder: the winner cannot throw its own tile"),
        ({"winner": "Ann", "value": 25, "discarder": "Bea", "self_picked": True},
         "bad_result", "discarder: a self-picked Mah Jongg has no discarder"),
        ({"winner": "Ann", "value": 25, "misnamed": True}, "bad_result",
         "misnamed: name the discarder"),
        ({"winner": "Ann", "value": 25, "winner_exposures": 5}, "bad_result",
         "winner_exposures: a number from 0 to 4"),
        ({"winner": "Ann", "value": 25, "dead": ["Ann"]}, "bad_result",
         "dead: the winner's hand is not dead"),
        ({"winner": "Ann", "value": 25, "dead": 3}, "bad_result", "dead: a list of players"),
        ({"wall_game": True, "exposed": ["Ann"]}, "bad_result",
         "exposed: only after a Mah Jongg in error"),
        ({"in_error": "Bea"}, "game_continues", "two or more hands are intact"),
        ({"in_error": "Bea", "exposed": ["Ann"]}, "game_continues", "the game goes on"),
        ({"in_error": "Bea", "exposed": ["Bea", "Ann"]}, "bad_result",
         "in_error: the mis-caller is listed again"),
        ({"winner": "Ann", "value": 25, "colour": "red"}, "bad_result",
         "unknown field 'colour'"),
        ({"winner": "Ann", "value": 25, "penalties": {"player": "Bea"}}, "bad_result",
         "penalties: a list of {player, kind}"),
        ({"winner": "Ann", "value": 25, "penalties": [{"player": "Bea"}]}, "bad_result",
         "penalties[0]: needs player and kind"),
        ({"winner": "Ann", "value": 25, "penalties": [{"player": "Bea", "kind": "rude"}]},
         "bad_result", "penalties[0].kind: one of misnamed_exposure_tile, not_seated, "
                       "stealing_and_looking"),
        ({"winner": "Ann", "value": 25, "penalties": [{"player": "Bea", "kind": "not_seated",
                                                       "points": -5}]},
         "bad_result", "penalties[0].points: unknown field"),
        ({"winner": "Ann", "value": 25, "penalties": [{"player": "Zed", "kind": "not_seated"}]},
         "unknown_player", "penalties[0].player: no player 'Zed'"),
    ]
    for result, code, message in cases:
        unchanged(t, t.enter_game, 1, result, 20 * MIN, code=code, message=message)
    unchanged(t, t.enter_game, 1, ["Ann"], 20 * MIN, code="bad_result",
              message="a game result is an object")
    unchanged(t, t.enter_game, 2, {"wall_game": True}, 20 * MIN, code="unknown_table",
              message="there is no table 2 (1-1)")


def test_a_player_from_another_table_is_refused() -> None:
    t = make(NAMES[:8])
    t.start_round(0)
    unchanged(t, t.enter_game, 1, {"winner": "Eve", "value": 25}, 1, code="not_at_table",
              message="winner: Eve does not sit at this table this round (here: Ann (1E), "
                      "Bea (1S), Cat (1W), Dot (1N))")


def test_set_up_errors_change_nothing() -> None:
    t = make(NAMES[:3])
    unchanged(t, t.start_round, 0, code="tables_not_full",
              message="3 players do not fill a table of 4: 1 more needed")
    unchanged(t, t.add_player, "ann", code="duplicate_player", message="'ann' is already")
    unchanged(t, t.add_player, "  ", code="bad_name", message="a player needs a name")
    unchanged(t, t.add_player, "2W", code="bad_name", message="'2W' looks like a nametag")
    unchanged(t, t.delay_table, 1, 0, code="no_round", message="no round has been started")
    t.add_player("Dot")
    t.start_round(0)
    unchanged(t, t.add_player, "Eve", code="started", message="players cannot join")
    unchanged(t, t.start_round, 1, code="round_open", message="round 1 is still open")
    unchanged(t, t.seat_of, "9E", 1, code="unknown_player", message="9E has no seat")
    assert t.seat_of("1N", 1) == (1, "N")


def test_atomic_keeps_nothing_of_a_failed_command() -> None:
    t = make(NAMES[:4])
    before = t.to_json()

    def add_two(x: Tournament) -> None:
        x.add_player("Eve")
        x.add_player("eve")  # refused: the first add must not stay either

    with pytest.raises(DeskError) as err:
        atomic(t, add_two)
    assert (err.value.code, err.value.message) == ("duplicate_player",
                                                   "'eve' is already registered")
    assert t.to_json() == before
    assert atomic(t, Tournament.add_player, "Eve").nametag == "2E"


def test_bad_tournament_files() -> None:
    for doc in ({}, {"name": "x", "players": [{"nom": "Ann"}]}, {"name": "x", "rounds": ["r"]},
                {"name": "x", "rounds": [{"number": 1, "sheets": {"one": []}}]}):
        with pytest.raises(DeskError) as err:
            Tournament.from_json(doc)
        assert err.value.code == "bad_tournament_file"
        assert err.value.message.startswith("not a tournament file: "), err.value.message


# ---------------------------------------------------------------- printable exports


def test_score_sheets_and_table_cards() -> None:
    t = make(NAMES[:8], rounds_planned=3)
    t.start_round(0)
    t.enter_game(2, {"winner": "Fay", "value": 25}, 1)
    sign(t, 2, 1, "Hal", 2)
    html = score_sheets_html(t, 1)
    assert html.count("class='page'") == 2
    assert "<th>S: Fay (2S)</th>" in html
    # the winner and the hand are on the sheet
    assert ("<tr><td>Game 1</td><td>0</td><td>25</td><td>0</td><td>0</td><td>Fay won</td>"
            "<td>card value 25</td><td>Hal</td></tr>") in html
    cards = table_cards_html(t)
    assert cards.count("class='page'") == 2 and cards.count("<th>Round ") == 6
    # seats in the same order on every card: E S W N, each with the player's code
    code = {p.name: p.code for p in t.players}
    assert (f"<td>E: Ann (1E) code {code['Ann']}</td><td>S: Fay (2S) code {code['Fay']}</td>"
            f"<td>W: Cat (1W) code {code['Cat']}</td><td>N: Hal (2N) code {code['Hal']}</td>"
            ) in cards
    t.enter_game(1, {"winner": "Ann", "value": 25}, 51 * MIN)
    assert "<td>Game 1 (after time: no points)</td><td>0</td>" in score_sheets_html(t, 1)
    assert "<script" not in score_sheets_html(make(["<script>", "B", "C", "D"]), 1)


# ---------------------------------------------------------------- caps


def test_game_values_are_capped_by_the_highest_card_value() -> None:
    t = one_table()
    unchanged(t, t.enter_game, 1, {"winner": "Ann", "value": 999999999}, 1, code="bad_value",
              message="value: the card value of the winning hand, a whole number from 1 to "
                      "100 (got 999999999)")
    assert points(t, {"winner": "Ann", "value": 100, "jokerless": True,
                      "self_picked": True}) == {"Ann": 135, "Bea": 0, "Cat": 0, "Dot": 0}
    small = one_table(max_value=75)
    unchanged(small, small.enter_game, 1, {"winner": "Ann", "value": 80}, 1, code="bad_value",
              message="a whole number from 1 to 75 (got 80)")
    two = make(["Ann", "Bea"], seats=2, max_value=60)
    two.start_round(0)
    unchanged(two, two.enter_game, 1, {"events": [{"mahjongg": "Ann", "rack": 1,
                                                   "value": 61}]}, 1, code="bad_result",
              message="events[0].value: must be a whole number from 1 to 60 (got 61)")
    with pytest.raises(DeskError) as err:
        Tournament.from_json(dict(make(["A"]).to_json(), max_value=10**9))
    assert err.value.code == "bad_tournament_file"
    assert err.value.message.startswith("not a tournament file: max_value: must be a whole "
                                        "number from 1 to 1000")


# ---------------------------------------------------------------- closing a round


def test_close_round_lists_what_is_missing() -> None:
    t = make(NAMES[:12])
    t.start_round(0)
    t.enter_game(1, {"winner": "Bea", "value": 25}, 1)
    t.enter_game(1, {"wall_game": True}, 2)
    t.enter_game(2, {"winner": "Eve", "value": 30}, 3)
    sign(t, 2, 1, "Gil", 4)
    assert t.round_problems() == [
        "table 1 game 1: the win of Bea is not confirmed (Dot signs)",
        "table 3 entered no game"]
    unchanged(t, t.close_round, 50 * MIN, code="round_incomplete",
              message="round 1 is not complete: table 1 game 1: the win of Bea is not "
                      "confirmed (Dot signs); table 3 entered no game")
    r = t.close_round(50 * MIN, force=True)
    assert r.locked
    assert t.audit[-1].detail == ("round 1 locked (2 open point(s) left: table 1 game 1: the "
                                  "win of Bea is not confirmed (Dot signs); table 3 entered "
                                  "no game)")


# ---------------------------------------------------------------- byes, substitutes, withdrawals


def test_byes_on_siamese_tables() -> None:
    t = make(["Ann", "Bea", "Cat", "Dot", "Eve"], seats=2, rounds_planned=3)
    assert [p.nametag for p in t.players] == ["1E", "1W", "2E", "2W", "3E"]
    t.start_round(0)
    assert t.byes(1) == {3: ["3W"]}
    assert not t.plays(1, 3) and t.plays(1, 1)
    unchanged(t, t.enter_game, 3, {"events": [{"wall_game": True}]}, 1, code="table_bye",
              message="table 3 does not play in round 1: seat 3W is empty (a bye); the "
                      "director can seat a substitute")
    t.enter_game(1, {"events": [{"wall_game": True}]}, 1)
    t.enter_game(2, {"events": [{"wall_game": True}]}, 1)
    assert t.round_problems() == []  # a table with a bye is not missing
    t.close_round(50 * MIN)
    assert t.byes(2) == {1: ["3W"]}  # the empty seat moves like any W: Ann has the bye
    seats = {r["name"]: (r["table"], r["seat"], r["note"]) for r in t.find_your_seat(2)}
    assert seats["Ann"] == (1, "E", "bye") and seats["Eve"] == (3, "E", "")


def test_a_substitute_fills_a_seat_for_one_round_and_is_not_ranked() -> None:
    t = make(["Ann", "Bea", "Cat", "Dot", "Eve"], seats=2, rounds_planned=3)
    sub = t.substitute("3w", "Zoe", 1, 0, code="ZZZZZ")
    assert (sub.nametag, sub.round) == ("3W", 1)
    t.start_round(0)
    assert t.byes(1) == {}
    g = t.enter_game(3, {"events": [{"mahjongg": "Zoe", "rack": 1, "value": 30},
                                    {"mahjongg": "3w", "rack": 2, "value": 25,
                                     "discarder": "Eve"}]}, 1)
    assert g.points == {"3E": -25, "3W": 80} and g.winner == "3W"
    assert g.outcome == "Zoe won"
    t.enter_game(1, {"events": [{"wall_game": True}]}, 1)
    t.enter_game(2, {"events": [{"wall_game": True}]}, 1)
    unchanged(t, lambda: t.confirm(3, 1, "Eve", 2, code="ZZZZZ"), code="wrong_code",
              message="code: that is not Eve's code")
    assert t.confirm(3, 1, "Eve", 2, code=t.player("Eve").code).confirmed_by == "3E"
    rows = {r["name"]: r for r in t.standings()}
    assert "Zoe" not in rows and rows["Eve"]["points"] == -25 and rows["Eve"]["games"] == 1
    assert {r["name"]: r["note"] for r in t.find_your_seat(1)}["Zoe"] == "substitute for 3W"
    unchanged(t, t.substitute, "3W", "Ann", 2, 3, code="duplicate_player",
              message="'Ann' is a registered player")
    unchanged(t, t.substitute, "9W", "Yan", 2, 3, code="unknown_seat",
              message="there is no seat '9W'")
    unchanged(t, t.substitute, "3W", "Yan", 9, 3, code="unknown_round",
              message="there is no round 9 (1-3)")
    unchanged(t, t.substitute, "3W", "Yan", 1, 3, code="table_started",
              message="table 3 has entered games in round 1")
    t.close_round(50 * MIN)
    unchanged(t, t.substitute, "1W", "Yan", 1, 51 * MIN, code="round_over",
              message="round 1 is over")


def test_a_player_who_withdraws_leaves_an_empty_seat() -> None:
    t = make(NAMES[:4], rounds_planned=3)
    t.start_round(0)
    points(t, {"winner": "Bea", "value": 25})
    t.withdraw("bea", 20 * MIN)
    assert t.audit[-1].detail == "Bea (1S) from round 2"
    unchanged(t, t.withdraw, "Bea", 21 * MIN, code="withdrawn",
              message="Bea has already withdrawn (from round 2)")
    t.close_round(50 * MIN, force=True)
    assert t.byes(2) == {1: ["1S"]}
    unchanged(t, t.start_round, 60 * MIN, code="no_table_plays",
              message="no table can play round 2: every table has an empty seat")
    t.substitute("1S", "Zoe", 2, 61 * MIN, code="ZZZZZ")
    t.start_round(62 * MIN)
    g = t.enter_game(1, {"winner": "1s", "value": 30}, 63 * MIN)
    assert g.points == {"1E": 0, "1S": 30, "1W": 0, "1N": 0} and g.lines[0]["player"] == "Zoe"
    rows = {r["name"]: r for r in t.standings()}
    assert rows["Bea"]["points"] == 25 and rows["Bea"]["games"] == 1  # round 1 stands
    assert {r["name"]: r["note"] for r in t.find_your_seat(2)}["Bea"] == "withdrawn"


def test_find_your_seat_is_in_name_order() -> None:
    t = make(["dot", "Cat", "bea", "Ann", "eve", "Fay", "Gil", "Hal"])
    rows = t.find_your_seat(2)
    assert [r["name"] for r in rows] == ["Ann", "bea", "Cat", "dot", "eve", "Fay", "Gil",
                                         "Hal"]
    assert rows[0] == {"name": "Ann", "nametag": "1N", "table": 2, "seat": "N", "note": ""}


# ---------------------------------------------------------------- names, nametags, outcomes


def test_nametags_work_on_siamese_sheets_too() -> None:
    t = make(["Ann", "Bea"], seats=2)
    t.start_round(0)
    g = t.enter_game(1, {"players": ["1e", "1W"], "events": [
        {"mahjongg": "1W", "rack": 1, "value": 25},
        {"mahjongg": "1w", "rack": 2, "value": 30, "discarder": "1E"},
        {"penalty": "not_seated", "player": "1e"}]}, 1)
    assert g.points == {"1E": -50, "1W": 85} and g.winner == "1W"
    assert [x["player"] for x in g.lines] == ["Bea", "Bea", "Ann", "Ann"]


def test_outcomes_say_how_each_game_ended() -> None:
    t = make(["Ann", "Bea"], seats=2)
    t.start_round(0)
    one_mj = t.enter_game(1, {"events": [{"mahjongg": "Ann", "rack": 1, "value": 25},
                                         {"dead": "Bea", "rack": 1},
                                         {"dead": "Bea", "rack": 2}]}, 1)
    assert one_mj.winner is None
    assert one_mj.outcome == "no win: Mah Jongg by Ann"
    assert one_mj.hand == "Ann rack 1: a 25-point hand"
    wall = t.enter_game(1, {"events": [{"wall_game": True}]}, 2)
    assert wall.outcome == "wall game"
    win = t.enter_game(1, {"card": "practice", "events": [
        {"mahjongg": "Bea", "rack": 1, "hand": "2468-1", "jokerless": True},
        {"mahjongg": "Bea", "rack": 2, "value": 30}]}, 3)
    assert (win.outcome, win.hand) == ("Bea won", "Bea rack 1: 2468-1 (25), jokerless; "
                                                  "Bea rack 2: a 30-point hand")
    four = one_table()
    g = four.enter_game(1, {"winner": "Cat", "value": 30, "self_picked": True,
                            "jokerless": True}, 1)
    assert (g.outcome, g.hand) == ("Cat won", "card value 30, self-picked, jokerless")
    assert four.enter_game(1, {"wall_game": True}, 2).outcome == "wall game"


# ---------------------------------------------------------------- damaged files


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("name"), "not a tournament file: name: missing"),
    (lambda d: d.update(seats=3), "seats: must be 4 or 2"),
    (lambda d: d.update(colour="red"), "colour: unknown field"),
    (lambda d: d["players"][1].update(nametag="7Q"), "players[1].nametag: player 2 has "
                                                     "nametag 1S, not '7Q'"),
    (lambda d: d["players"][0].pop("name"), "players[0].name: missing"),
    (lambda d: d["rounds"][0].update(number=2), "rounds[0].number: must be 1"),
    (lambda d: d["rounds"][0]["sheets"].update({"9": []}), "rounds[0].sheets.9: no table 9"),
    (lambda d: d["rounds"][0]["sheets"]["1"][0]["points"].pop("1E"),
     "rounds[0].sheets.1[0].points: must give the points of 1E, 1S, 1W, 1N"),
    (lambda d: d["rounds"][0]["sheets"]["1"][0]["points"].update({"1E": 99}),
     "rounds[0].sheets.1[0].points.1E: is not the sum of its lines"),
    (lambda d: d["rounds"][0]["sheets"]["1"][0].update(winner="5E"),
     "rounds[0].sheets.1[0].winner: not at this table"),
    (lambda d: d["rounds"][0]["sheets"]["1"][0]["lines"][0].update(nametag="2E"),
     "rounds[0].sheets.1[0].lines[0].nametag: not at this table"),
    (lambda d: d["rounds"].append({"number": 2, "started_at": 1}),
     "rounds[0].closed_at: only the latest round may be open"),
    (lambda d: d["audit"][0].pop("at"), "audit[0].at: missing"),
    (lambda d: d.update(moves={"E": 1}), "moves: East stays at its table"),
    (lambda d: d.update(rounds="x"), "rounds: must be a list"),
])
def test_a_damaged_file_is_refused_naming_the_field(change: Any, message: str) -> None:
    t = one_table()
    points(t, {"winner": "Ann", "value": 25})
    doc = json.loads(json.dumps(t.to_json()))
    assert Tournament.from_json(doc).to_json() == t.to_json()
    change(doc)
    with pytest.raises(DeskError) as err:
        Tournament.from_json(doc)
    assert err.value.code == "bad_tournament_file"
    assert message in err.value.message, err.value.message


def test_printable_standings_nametags_and_seat_lists() -> None:
    t = make(["Ann", "Bea", "Cat", "<b>Dot</b>"], rounds_planned=2)
    t.start_round(0)
    t.enter_game(1, {"winner": "Cat", "value": 30}, 1)
    html = standings_html(t)
    assert ("<tr><td>1</td><td>Cat</td><td>1W</td><td>30</td><td>1</td><td>1</td><td>0</td>"
            "</tr>") in html
    assert "&lt;b&gt;Dot&lt;/b&gt;" in html and "<b>" not in html
    tags = nametags_html(t)
    assert all(p.code in tags for p in t.players)
    seats = find_your_seat_html(t)
    assert seats.count("<h2>Round ") == 2
    assert "<tr><td>Ann</td><td>1E</td><td>1</td><td>E</td><td></td></tr>" in seats
