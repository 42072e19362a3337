"""The score keeper and tournament desk on the command line, run in-process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from twinrack.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    got = capsys.readouterr()
    return rc, got.out, got.err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Exit 2 with one clear line on stderr, no traceback; returns that line."""
    rc, out, err = run(capsys, *args)
    assert rc == 2, (out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("twinrack: ")
    return lines[0]


def write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


SIAMESE = {"players": ["Ann", "Bea"], "revision": "2024",
           "events": [{"mahjongg": "Ann", "rack": 1, "value": 25, "jokerless": True},
                      {"mahjongg": "Ann", "rack": 2, "value": 30, "discarder": "Bea"}]}


# ---------------------------------------------------------------- score


def test_score_json_shape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, err = run(capsys, "score", write(tmp_path / "g.json", SIAMESE), "--json")
    assert (rc, err) == (0, "")
    assert json.loads(out) == {
        "players": {"Ann": 110, "Bea": -25},
        "lines": [
            {"player": "Ann", "points": 50,
             "reason": "Mah Jongg on rack 1: a 25-point hand (card value 25; jokerless x2)"},
            {"player": "Ann", "points": 60,
             "reason": "winning Mah Jongg x2 on rack 2: a 30-point hand (card value 30)"},
            {"player": "Bea", "points": -25,
             "reason": "threw the tile claimed for an opponent's winning Mah Jongg"}]}


def test_score_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, err = run(capsys, "score", write(tmp_path / "g.json", SIAMESE))
    assert (rc, err) == (0, "")
    assert "Totals: Ann +110, Bea -25" in out
    assert "Settlement: Bea pays Ann 135" in out
    assert "threw the tile claimed" in out


def test_score_a_session(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    g1 = write(tmp_path / "g1.json", SIAMESE)
    g2 = write(tmp_path / "g2.json", {"players": ["Ann", "Bea"],
                                      "events": [{"wall_game": True}]})
    rc, out, _ = run(capsys, "score", g1, g2, "--json")
    doc = json.loads(out)
    assert rc == 0
    assert doc["players"] == {"Ann": 120, "Bea": -15}
    assert [x["game"] for x in doc["lines"]] == [1, 1, 1, 2, 2]
    assert [g["running"] for g in doc["games"]] == [{"Ann": 110, "Bea": -25},
                                                    {"Ann": 120, "Bea": -15}]
    assert doc["settlement"]["transfers"] == [{"payer": "Bea", "payee": "Ann", "amount": 135}]
    rc, out, _ = run(capsys, "score", g1, g2)
    assert "Running totals" in out and "Settlement: Bea pays Ann 135" in out


def test_score_royale_pot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = write(tmp_path / "r.json", {
        "players": ["Ann", "Bea", "Cat", "Dot"], "pot": 50,
        "events": [{"mahjongg": "Cat", "rack": 1, "value": 30},
                   {"mahjongg": "Cat", "rack": 2, "value": 25, "discarder": "Ann"}]})
    rc, out, _ = run(capsys, "score", game)
    # Cat 30 + 50 = 80, Ann -25; pot 200 + 25 - 80 = 145, 36.25 back to each
    assert ("Settlement from a pot of 50 each: Ann -38.75, Bea -13.75, Cat +66.25, "
            "Dot -13.75") in out
    rc, out, _ = run(capsys, "score", game, game, "--pot", "0", "--json")
    assert rc == 0
    assert json.loads(out)["settlement"]["net"] == {"Ann": -50, "Bea": 0, "Cat": 50, "Dot": 0}


@pytest.mark.parametrize(("doc", "message"), [
    ({"players": ["Ann", "Bea"], "events": [{"mahjongg": "Cy", "rack": 1, "value": 25}]},
     "events[0].mahjongg: unknown player 'Cy' (players: Ann, Bea)"),
    ({"players": ["Ann", "Bea"], "events": [{"mahjongg": "Ann", "rack": 1, "value": -5}]},
     "events[0].value: must be a whole number from 1 to 100 (got -5)"),
    ({"players": ["Ann", "Bea"], "events": [{"wall_game": True}], "pot": "lots"},
     "pot: the points each player puts in the pot, a whole number from 0 to 100000"),
    ([1, 2], "game: a game sheet is a JSON object"),
])
def test_score_bad_sheet(capsys: pytest.CaptureFixture[str], tmp_path: Path, doc: Any,
                         message: str) -> None:
    path = write(tmp_path / "bad.json", doc)
    assert refused(capsys, "score", path) == f"twinrack: {path}: {message}"


def test_score_unreadable_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line = refused(capsys, "score", tmp_path / "nope.json")
    assert "cannot read" in line and "No such file or directory" in line
    broken = tmp_path / "broken.json"
    broken.write_text('{"players": [\n', encoding="utf-8")
    assert refused(capsys, "score", broken).startswith(f"twinrack: {broken}:2:1: not valid JSON")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8" in refused(capsys, "score", binary)
    assert "Missing argument" in refused(capsys, "score")
    assert "--pot must be at least 0" in refused(capsys, "score", broken, "--pot", "-1")


def test_score_sessions_of_other_players(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    g1 = write(tmp_path / "g1.json", SIAMESE)
    g2 = write(tmp_path / "g2.json", {"players": ["Ann", "Cy"], "events": [{"wall_game": True}]})
    assert "games[1].players: every game of a session" in refused(capsys, "score", g1, g2)


# ---------------------------------------------------------------- tournament movement


def test_movement_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "tournament", "movement", "--seats", "4", "--tables", "1",
                     "--rounds", "1", "--json")
    assert rc == 0
    assert json.loads(out) == {"rounds": [{"round": 1, "tables": {
        "1": {"E": "1E", "S": "1S", "W": "1W", "N": "1N"}}}],
        "check": {"repeated_rounds": [], "repeated_meetings": 0, "pairs": []},
        "best_moves": None}
    rc, out, _ = run(capsys, "tournament", "movement", "--seats", "2", "--tables", "3",
                     "--rounds", "3", "--json")
    doc = json.loads(out)
    assert [r["tables"]["1"] for r in doc["rounds"]] == [
        {"E": "1E", "W": "1W"}, {"E": "1E", "W": "3W"}, {"E": "1E", "W": "2W"}]
    rc, out, _ = run(capsys, "tournament", "movement", "--seats", "2", "--tables", "3",
                     "--rounds", "2", "--move", "W=-1", "--json")
    assert json.loads(out)["rounds"][1]["tables"]["1"] == {"E": "1E", "W": "2W"}
    rc, out, _ = run(capsys, "tournament", "movement", "--tables", "2", "--rounds", "2")
    assert rc == 0 and "Round 2" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--seats", "3"], "--seats must be 4 or 2, not 3"),
    (["--tables", "0"], "--tables and --rounds must be at least 1"),
    (["--rounds", "0"], "--tables and --rounds must be at least 1"),
    (["--move", "E=1"], "East stays at its table"),
    (["--move", "W"], "--move 'W': a seat letter and a number of tables"),
    (["--seats", "2", "--move", "N=1"], "seat 'N' is not one of E W"),
    (["--tables", "many"], "Invalid value for '--tables'"),
])
def test_movement_bad_input(capsys: pytest.CaptureFixture[str], args: list[str],
                            message: str) -> None:
    assert message in refused(capsys, "tournament", "movement", *args)


# ---------------------------------------------------------------- tournament end to end


def test_tournament_end_to_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "spring.json"

    def ok(*args: str) -> str:
        rc, out, err = run(capsys, "tournament", *args)
        assert (rc, err) == (0, ""), err
        return out

    def bad(*args: str) -> str:
        before = f.read_bytes()
        line = refused(capsys, "tournament", *args)
        assert f.read_bytes() == before  # nothing changed
        return line

    assert "Created" in ok("new", str(f), "--name", "Spring Open", "--rounds", "2")
    assert ok("add", str(f), "Ann", "Bea", "Cat", "Dot", "Eve", "Fay", "Gil").splitlines() == [
        "Ann: 1E", "Bea: 1S", "Cat: 1W", "Dot: 1N", "Eve: 2E", "Fay: 2S", "Gil: 2W",
        "1 seat(s) of table 2 are empty: byes, unless more players join or a substitute sits "
        "in",
        "Check: 4 seatings put two players together again; for example 1E and 1W meet in "
        "rounds 1 and 2",
        "No movement of this kind does better with 2 tables of 4 for 2 rounds"]
    assert "'ann' is already registered" in bad("add", str(f), "Hal", "ann")
    assert json.loads(f.read_text())["players"][-1]["name"] == "Gil"  # Hal not kept either
    assert "Hal: 2N" in ok("add", str(f), "Hal")
    assert "Round 1 started: 50 minutes" in ok("start-round", str(f))
    timer = json.loads(ok("timer", str(f), "--json"))
    assert timer["round"] == 1 and 2990 <= timer["seconds_left"] <= 3000
    assert not timer["time_up"]
    out = ok("enter", str(f), "--table", "1", "--result",
             '{"winner": "Ann", "value": 25, "discarder": "Bea", "winner_exposures": 2}')
    assert out.strip() == "Table 1 game 1: Ann +25, Bea -10, Cat 0, Dot 0"
    out = ok("enter", str(f), "--table", "2", "--after-time", "--result",
             '{"winner": "Eve", "value": 30}')
    assert out.strip() == "Table 2 game 1: Eve 0, Fay 0, Gil 0, Hal 0 (after time: no points)"
    assert "Table 2 may finish after time; game 1 scored again" in ok("delay", str(f),
                                                                       "--table", "2")
    assert "Eve does not sit at this table" in bad(
        "enter", str(f), "--table", "1", "--result", '{"winner": "Eve", "value": 30}')
    assert "a game has one winner" in bad(
        "enter", str(f), "--table", "1", "--result",
        '{"winners": ["Ann", "Bea"], "value": 30}')
    assert "value: the card value of the winning hand" in bad(
        "enter", str(f), "--table", "1", "--result", '{"winner": "Ann", "value": -30}')
    assert "--result is not valid JSON" in bad("enter", str(f), "--table", "1", "--result",
                                               "{winner: Ann}")
    codes = {p["name"]: p["code"] for p in json.loads(f.read_text())["players"]}
    assert "confirmed by the player opposite, Cat (1W), not by Bea" in bad(
        "confirm", str(f), "--table", "1", "--game", "1", "--by", "Bea", "--code", codes["Bea"])
    assert "code: that is not Cat's code" in bad(
        "confirm", str(f), "--table", "1", "--game", "1", "--by", "Cat", "--code", codes["Bea"])
    assert "Missing option '--code'" in bad("confirm", str(f), "--table", "1", "--game", "1",
                                            "--by", "Cat")
    assert "confirmed by Cat" in ok("confirm", str(f), "--table", "1", "--game", "1",
                                    "--by", "cat", "--code", codes["Cat"])
    sheet = json.loads(ok("sheet", str(f), "--json"))
    assert sheet["round"] == 1 and not sheet["locked"]
    assert sheet["tables"]["1"]["seats"] == {"E": "1E", "S": "1S", "W": "1W", "N": "1N"}
    assert sheet["tables"]["1"]["games"][0]["confirmed_by"] == "1W"
    assert sheet["tables"]["2"]["games"][0]["points"]["2E"] == 30
    assert "Round 1, table 1" in ok("sheet", str(f), "--table", "1")
    assert bad("close-round", str(f)) == (
        "twinrack: round 1 is not complete: table 2 game 1: the win of Eve is not confirmed "
        "(Gil signs) (--force locks it anyway)")
    assert "Round 1 closed and locked with 1 open point(s)" in ok("close-round", str(f),
                                                                  "--force")
    assert "round 1 is closed and locked; only the director can correct it" in bad(
        "enter", str(f), "--table", "1", "--result", '{"wall_game": true}')
    assert "a correction needs a reason" in bad(
        "correct", str(f), "--round", "1", "--table", "1", "--game", "1", "--result",
        '{"winner": "Ann", "value": 30}', "--reason", " ")
    out = ok("correct", str(f), "--round", "1", "--table", "1", "--game", "1", "--result",
             '{"winner": "Ann", "value": 30}', "--reason", "misread the card")
    assert out.strip() == "Corrected round 1 table 1 game 1: Ann +30, Bea 0, Cat 0, Dot 0"
    audit = json.loads(ok("audit", str(f), "--json"))["audit"]
    assert audit[-1]["action"] == "correct" and "misread the card" in audit[-1]["detail"]
    assert "director: correct" in ok("audit", str(f))
    standings = json.loads(ok("standings", str(f), "--json"))["standings"]
    assert [(r["name"], r["points"], r["rank"]) for r in standings[:2]] == [
        ("Ann", 30, 1), ("Eve", 30, 1)]
    csv = ok("standings", str(f), "--csv").splitlines()
    assert csv[0] == "rank,name,nametag,points,wins,games,head_to_head"
    assert csv[1] == "1,Ann,1E,30,1,1,0"
    assert "Spring Open: standings" in ok("standings", str(f))
    assert "no round is open: round 1 is closed" in bad("timer", str(f))
    assert "Round 2 started" in ok("start-round", str(f))
    out = ok("export", str(f), str(tmp_path / "out"))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "find-your-seat.html", "games.csv", "nametags.html", "score-sheets-round-1.html",
        "score-sheets-round-2.html", "standings.csv", "standings.html", "table-cards.html"]
    assert "Wrote" in out
    assert "all 2 rounds are played" in (ok("close-round", str(f), "--force") and
                                         bad("start-round", str(f)))


def test_tournament_file_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    assert "cannot read" in refused(capsys, "tournament", "standings", str(f))
    f.write_text("[1]", encoding="utf-8")
    assert "is not a tournament file" in refused(capsys, "tournament", "standings", str(f))
    f.write_text('{"name": "x", "rounds": [7]}', encoding="utf-8")
    assert "not a tournament file" in refused(capsys, "tournament", "sheet", str(f))
    f.write_text("{nope", encoding="utf-8")
    assert "is not a tournament file" in refused(capsys, "tournament", "timer", str(f))
    assert "already exists" in refused(capsys, "tournament", "new", str(f), "--name", "x")
    assert "cannot write" in refused(capsys, "tournament", "new",
                                     str(tmp_path / "no" / "dir" / "t.json"), "--name", "x")
    g = tmp_path / "g.json"
    for args, message in ((["--seats", "3"], "--seats must be 4 or 2"),
                          (["--rounds", "0"], "--rounds and --minutes must be at least 1"),
                          (["--revision", "2020"], "--revision: unknown revision '2020' "
                                                    "(expected 2024 or 2019)"),
                          (["--move", "S=x"], "--move 'S=x'")):
        assert message in refused(capsys, "tournament", "new", str(g), "--name", "x", *args)
        assert not g.exists()
    assert run(capsys, "tournament", "new", str(g), "--name", "x")[0] == 0
    assert "no round has been started" in refused(capsys, "tournament", "timer", str(g))
    assert "no round has been started" in refused(capsys, "tournament", "sheet", str(g))
    assert "Missing option '--table'" in refused(capsys, "tournament", "enter", str(g),
                                                 "--result", "{}")


def test_siamese_tournament_on_the_command_line(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    assert run(capsys, "tournament", "new", str(f), "--name", "Twins", "--seats", "2",
               "--move", "W=-1")[0] == 0
    rc, out, _ = run(capsys, "tournament", "add", str(f), "Ann", "Bea", "Cat", "Dot")
    assert out.split()[:8] == ["Ann:", "1E", "Bea:", "1W", "Cat:", "2E", "Dot:", "2W"]
    run(capsys, "tournament", "start-round", str(f))
    result = {"events": [{"mahjongg": "Dot", "rack": 1, "value": 30, "closed": True},
                         {"mahjongg": "Dot", "rack": 2, "value": 25, "double": True,
                          "discarder": "Cat"}]}
    rc, out, _ = run(capsys, "tournament", "enter", str(f), "--table", "2", "--result",
                     json.dumps(result))
    assert rc == 0
    assert out.strip() == "Table 2 game 1: Cat -25, Dot +120"
    assert "unknown player 'Ann' (players: Cat, Dot)" in refused(
        capsys, "tournament", "enter", str(f), "--table", "2", "--result",
        '{"events": [{"wall_game": true}, {"penalty": "not_seated", "player": "Ann"}]}')


def test_score_pot_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    two = write(tmp_path / "two.json", SIAMESE)
    assert refused(capsys, "score", two, "--pot", "10") == (
        "twinrack: --pot: a pot is for 3 or 4 players; 2 players settle the difference")
    old = write(tmp_path / "old.json", dict(SIAMESE, revision="2019"))
    assert refused(capsys, "score", two, old) == (
        "twinrack: games[1].revision: every game of a session uses the same rules: 2024 in "
        "the first game, 2019 here")
    short = write(tmp_path / "short.json", {
        "players": ["Ann", "Bea", "Cat", "Dot"], "pot": 10,
        "events": [{"mahjongg": "Cat", "rack": 1, "value": 30},
                   {"mahjongg": "Dot", "rack": 1, "value": 40}]})
    rc, out, _ = run(capsys, "score", short)
    assert rc == 0
    assert out.splitlines()[-2:] == [
        "Settlement from a pot of 10 each: Ann -10, Bea -10, Cat +20, Dot 0",
        "The pot of 40 cannot pay every plus score (70 in all): plus scores are paid in seat "
        "order until it runs out; unpaid: Dot 30"]
    rc, out, _ = run(capsys, "score", short, short, "--json")
    assert json.loads(out)["settlement"]["unpaid"] == {"Cat": 20, "Dot": 80}


def test_the_highest_card_value(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    rc, out, _ = run(capsys, "tournament", "new", str(f), "--name", "X", "--card", "practice")
    assert rc == 0 and "highest card value 75" in out
    run(capsys, "tournament", "add", str(f), "Ann", "Bea", "Cat", "Dot")
    run(capsys, "tournament", "start-round", str(f))
    before = f.read_bytes()
    assert refused(capsys, "tournament", "enter", str(f), "--table", "1", "--result",
                   '{"winner": "Ann", "value": 999999999}') == (
        "twinrack: value: the card value of the winning hand, a whole number from 1 to 75 "
        "(got 999999999)")
    assert f.read_bytes() == before
    g = tmp_path / "g.json"
    rc, out, _ = run(capsys, "tournament", "new", str(g), "--name", "X", "--max-value", "60")
    assert rc == 0 and "highest card value 60" in out
    assert "--max-value must be from 1 to 1000" in refused(
        capsys, "tournament", "new", str(tmp_path / "h.json"), "--name", "X", "--max-value", "0")
    assert "give --card or --max-value, not both" in refused(
        capsys, "tournament", "new", str(tmp_path / "h.json"), "--name", "X", "--max-value",
        "60", "--card", "practice")
    assert not (tmp_path / "h.json").exists()


def test_contradictory_flags_are_refused(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    run(capsys, "tournament", "new", str(f), "--name", "X")
    run(capsys, "tournament", "add", str(f), "Ann", "Bea", "Cat", "Dot")
    run(capsys, "tournament", "start-round", str(f))
    before = f.read_bytes()
    assert refused(capsys, "tournament", "enter", str(f), "--table", "1", "--in-time",
                   "--after-time", "--result", '{"wall_game": true}') == (
        "twinrack: --in-time and --after-time cannot be given together: choose one")
    assert refused(capsys, "tournament", "standings", str(f), "--json", "--csv") == (
        "twinrack: --json and --csv cannot be given together: choose one")
    assert "cannot be given together" in refused(capsys, "tournament", "standings", str(f),
                                                 "--csv", "--html")
    run(capsys, "tournament", "enter", str(f), "--table", "1", "--result", '{"wall_game": true}')
    before = f.read_bytes()
    assert refused(capsys, "tournament", "correct", str(f), "--round", "1", "--table", "1",
                   "--game", "1", "--result", '{"wall_game": true}', "--reason", "x",
                   "--late", "--not-late") == (
        "twinrack: --late and --not-late cannot be given together: choose one")
    assert f.read_bytes() == before


def test_a_damaged_tournament_file_gets_one_line(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    run(capsys, "tournament", "new", str(f), "--name", "X")
    run(capsys, "tournament", "add", str(f), "Ann", "Bea", "Cat", "Dot")
    run(capsys, "tournament", "start-round", str(f))
    run(capsys, "tournament", "enter", str(f), "--table", "1", "--result",
        '{"winner": "Ann", "value": 30}')
    good = json.loads(f.read_text())
    damaged = json.loads(json.dumps(good))
    del damaged["rounds"][0]["sheets"]["1"][0]["points"]["1N"]
    f.write_text(json.dumps(damaged), encoding="utf-8")
    for command in (["standings"], ["sheet"], ["export", str(tmp_path / "out")], ["timer"],
                    ["enter", "--table", "1", "--result", '{"wall_game": true}'],
                    ["close-round"], ["seats"], ["audit"]):
        assert refused(capsys, "tournament", command[0], str(f), *command[1:]) == (
            f"twinrack: {f}: not a tournament file: rounds[0].sheets.1[0].points: must give "
            "the points of 1E, 1S, 1W, 1N")
    assert json.loads(f.read_text()) == damaged


def test_nametags_seats_withdraw_and_substitute(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    run(capsys, "tournament", "new", str(f), "--name", "X", "--seats", "2", "--rounds", "3")
    rc, out, _ = run(capsys, "tournament", "add", str(f), "Cat", "Ann", "Bea")
    assert "1 seat(s) of table 2 are empty: byes" in out
    codes = json.loads(run(capsys, "tournament", "nametags", str(f), "--json")[1])["nametags"]
    assert [(c["name"], c["nametag"]) for c in codes] == [("Cat", "1E"), ("Ann", "1W"),
                                                          ("Bea", "2E")]
    rc, out, _ = run(capsys, "tournament", "seats", str(f), "--json")
    assert json.loads(out) == {"round": 1, "seats": [
        {"name": "Ann", "nametag": "1W", "table": 1, "seat": "W", "note": ""},
        {"name": "Bea", "nametag": "2E", "table": 2, "seat": "E", "note": "bye"},
        {"name": "Cat", "nametag": "1E", "table": 1, "seat": "E", "note": ""}]}
    rc, out, _ = run(capsys, "tournament", "substitute", str(f), "--seat", "2W", "--name", "Zoe")
    assert rc == 0 and out.startswith("Zoe sits on seat 2W in round 1; confirmation code ")
    rc, out, _ = run(capsys, "tournament", "start-round", str(f))
    assert out.strip() == "Round 1 started: 50 minutes"
    rc, out, _ = run(capsys, "tournament", "withdraw", str(f), "ann")
    assert out.strip() == "Ann (1W) withdraws from round 2 on"
    rc, out, _ = run(capsys, "tournament", "enter", str(f), "--table", "1", "--result",
                     '{"events": [{"wall_game": true}]}')
    run(capsys, "tournament", "enter", str(f), "--table", "2", "--result",
        '{"events": [{"wall_game": true}]}')
    run(capsys, "tournament", "close-round", str(f))
    assert refused(capsys, "tournament", "start-round", str(f)) == (
        "twinrack: no table can play round 2: every table has an empty seat; seat substitutes "
        "first")
    run(capsys, "tournament", "substitute", str(f), "--seat", "2W", "--name", "Zoe")
    rc, out, _ = run(capsys, "tournament", "start-round", str(f))
    assert out.splitlines() == ["Round 2 started: 50 minutes",
                                "Table 2 does not play: seat 1W is empty; a bye for Bea"]


def test_add_help_names_both_kinds_of_nametag(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "tournament", "add", "--help")
    text = " ".join(out.split())
    assert rc == 0
    assert "1E, 1S, 1W, 1N, 2E, ... on 4-seat tables" in text
    assert "1E, 1W, 2E, 2W, ... on 2-seat tables" in text


def test_printable_standings_and_nametags_on_two_seat_games(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    run(capsys, "tournament", "new", str(f), "--name", "Twins", "--seats", "2")
    run(capsys, "tournament", "add", str(f), "Ann", "Bea")
    run(capsys, "tournament", "start-round", str(f))
    rc, out, _ = run(capsys, "tournament", "enter", str(f), "--table", "1", "--result",
                     '{"events": [{"mahjongg": "1W", "rack": 1, "value": 30},'
                     ' {"dead": "1e", "rack": 1}, {"dead": "1E", "rack": 2}]}')
    assert (rc, out.strip()) == (0, "Table 1 game 1: Ann -120, Bea +30")
    rc, out, _ = run(capsys, "tournament", "sheet", str(f), "--json")
    game = json.loads(out)["tables"]["1"]["games"][0]
    assert (game["outcome"], game["winner"]) == ("no win: Mah Jongg by Bea", None)
    rc, out, _ = run(capsys, "tournament", "sheet", str(f))
    assert "no win to sign" in out and "wall game" not in out
    rc, out, _ = run(capsys, "tournament", "standings", str(f), "--html")
    assert rc == 0 and out.startswith("<!doctype html>")
    assert "<td>1</td><td>Bea</td><td>1W</td><td>30</td>" in out
