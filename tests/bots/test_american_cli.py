"""``twinrack simulate --variant american`` (4 and 3 players, both scorings), its records
verified by ``twinrack replay --verify``, and its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from twinrack.cli import main


def test_simulate_american_duplicate_records_verify(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--variant", "american", "--bots", "greedy,random,random,random",
                 "--games", "2", "--seed", "5", "--duplicate", "--record", str(tmp_path),
                 "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["variant"], out["players"], out["games"], out["deals"]) == ("american", 4, 8, 2)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 8
    rec = json.loads(files[0].read_text())
    assert any(" charleston " in a for a in rec["actions"])
    assert main(["replay", str(files[0]), "--verify"]) == 0
    assert "verified" in capsys.readouterr().out
    assert main(["replay", str(files[1])]) == 0
    assert "Charleston" in capsys.readouterr().out


def test_simulate_american_three_players_one_bot_every_seat(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--variant", "american", "--bots", "greedy", "--players", "3",
                 "--games", "2", "--scoring", "tournament", "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 3 and [b["bot"] for b in out["bots"]] == ["greedy"] * 3


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "greedy", "--players", "4", "--scoring", "chinese"],
     "--scoring: american_scoring must be 'nmjl' or 'tournament'"),
    (["--bots", "greedy,greedy", "--players", "4"],
     "--players 4 but --bots names 2 (one bot per player, or a single bot for every seat)"),
    (["--bots", "greedy,greedy"],
     "American Mah Jongg is played by 3 or 4 players (one bot per player: --bots gave 2)"),
])
def test_simulate_american_refusals(capsys: pytest.CaptureFixture[str], args: list[str],
                                    message: str) -> None:
    assert main(["simulate", "--variant", "american", "--games", "1", *args]) == 2
    assert capsys.readouterr().err == f"twinrack: {message}\n"
