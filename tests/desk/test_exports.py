"""The desk's exports: CSV files are safe to open in a spreadsheet, printable pages."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from twinrack.cli import main
from twinrack.desk.export import csv_cell, games_csv, standings_csv
from twinrack.desk.tournament import Tournament

#: names that a spreadsheet would run as formulas if written as they are
FORMULAS = ['=HYPERLINK("http://x.example","click")', "+cmd|' /C calc'!A0", "@SUM(1+1)",
            "-2+3+cmd|' /C calc'!A0"]


@pytest.mark.parametrize(("text", "cell"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@x", "'@x"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("Ann", "Ann"), ("", ""), ("1E", "1E"), ("a=b", "a=b")])
def test_a_text_cell_that_a_spreadsheet_would_run_is_quoted(text: str, cell: str) -> None:
    assert csv_cell(text) == cell


def test_numbers_stay_numbers() -> None:
    assert csv_cell(-25) == -25 and csv_cell(0) == 0 and csv_cell(30) == 30


def test_exported_csv_files_hold_no_live_formula(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.json"
    assert main(["tournament", "new", str(f), "--name", "Evil"]) == 0
    assert main(["tournament", "add", str(f), "--", *FORMULAS]) == 0
    assert main(["tournament", "start-round", str(f)]) == 0
    result = '{"winner": "1W", "value": 30, "discarder": "1N", "winner_exposures": 3}'
    assert main(["tournament", "enter", str(f), "--table", "1", "--result", result]) == 0
    assert main(["tournament", "export", str(f), str(tmp_path / "out")]) == 0
    capsys.readouterr()
    standings = list(csv.DictReader(io.StringIO((tmp_path / "out" / "standings.csv")
                                                .read_text(encoding="utf-8"))))
    games = list(csv.DictReader(io.StringIO((tmp_path / "out" / "games.csv")
                                            .read_text(encoding="utf-8"))))
    for rows in (standings, games):
        for row in rows:
            for value in row.values():
                assert not value.startswith(("=", "+", "@", "\t", "\r")), row
                assert not value.startswith("-") or value.lstrip("-").isdigit(), row
    assert sorted(r["name"] for r in standings) == sorted("'" + n for n in FORMULAS)
    # the numbers are numbers, minus signs included: -25 for throwing to three exposures
    by_name = {r["name"]: r for r in standings}
    assert by_name["'@SUM(1+1)"]["points"] == "30"
    assert by_name["'-2+3+cmd|' /C calc'!A0"]["points"] == "-25"
    assert {r["points"] for r in games} == {"0", "30", "-25"}
    # the command line's CSV is the same text
    assert main(["tournament", "standings", str(f), "--csv"]) == 0
    assert capsys.readouterr().out == (tmp_path / "out" / "standings.csv").read_text()


def test_model_csv_is_quoted_too() -> None:
    t = Tournament("x")
    for n in ("=A", "+B", "@C", "-D"):
        t.add_player(n)
    assert [r[1] for r in csv.reader(io.StringIO(standings_csv(t)))][1:] == [
        "'+B", "'-D", "'=A", "'@C"]
    assert games_csv(t).splitlines() == [
        "round,table,game,nametag,name,points,winner,confirmed_by,late"]
