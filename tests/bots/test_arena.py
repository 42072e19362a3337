"""The arena: deterministic per-game seeds (results do not depend on --jobs), duplicate
deals, the report's figures and the JSON keys of ``twinrack simulate``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from twinrack.bots import arena
from twinrack.bots.arena import Setup, wilson
from twinrack.card import practice_card
from twinrack.cli import main
from twinrack.engine import RuleSet

TIMING = {"seconds", "games_per_second", "jobs"}


def stable(report: dict[str, Any]) -> dict[str, Any]:
    """The report without what depends on the clock."""
    out = {k: v for k, v in report.items() if k not in TIMING}
    out["bots"] = [{k: v for k, v in b.items() if not k.startswith("latency")}
                   for b in report["bots"]]
    return out


@pytest.mark.parametrize("duplicate", [False, True])
def test_results_do_not_depend_on_jobs(duplicate: bool) -> None:
    setup = Setup(RuleSet(), practice_card(), ["greedy", "random"], 5, duplicate)
    one = arena.run(setup, 3, jobs=1)
    two = arena.run(setup, 3, jobs=2)
    assert stable(one) == stable(two)
    assert one["games"] == (6 if duplicate else 3)


def test_duplicate_rotates_seats_over_the_same_deals() -> None:
    setup = Setup(RuleSet.for_variant("royale", 3), practice_card(),
                  ["greedy", "random", "random"], 2, True)
    tasks = setup.tasks(2)
    assert [(t.deal, t.rotation) for t in tasks] == [(0, 0), (0, 1), (0, 2),
                                                     (1, 0), (1, 1), (1, 2)]
    results = list(arena.play_all(setup, tasks))
    # every entry sat at every seat of deal 0 once
    seats = [r.seats for r in results if r.deal == 0]
    assert sorted(tuple(s) for s in seats) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_wins_are_decisive_games_only() -> None:
    setup = Setup(RuleSet(), practice_card(), ["greedy", "random"], 1, True)
    report = arena.run(setup, 4)
    wins = sum(b["wins"] for b in report["bots"])
    assert wins == report["decisive"] <= report["games"]
    for b in report["bots"]:
        assert b["win_rate"] == pytest.approx(b["wins"] / report["decisive"], abs=1e-4)
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1


def test_wilson_interval() -> None:
    lo, hi = wilson(70, 100)
    assert lo == pytest.approx(0.6041, abs=1e-3) and hi == pytest.approx(0.7811, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_entry_names_tell_repeated_bots_apart() -> None:
    assert arena.entry_names(["greedy", "greedy", "random"]) == ["greedy", "greedy#2",
                                                                 "random"]


def test_simulate_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--variant", "siamese", "--bots", "greedy,random", "--games",
                 "2", "--seed", "3", "--duplicate", "--jobs", "2", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4
    assert {"games", "wall_games", "games_per_second", "bots", "decisive"} <= set(out)
    keys = {"name", "wins", "win_rate", "ci95", "points_per_game", "latency_ms_p50",
            "latency_ms_p99"}
    assert {b["name"] for b in out["bots"]} == {"greedy", "random"}
    assert all(keys <= set(b) for b in out["bots"])


def test_simulate_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--bots", "random,random", "--games", "2", "--seed", "4"])
    assert code == 0
    text = capsys.readouterr().out
    for word in ("win rate", "95% CI", "p50 ms", "p99 ms", "decisive games", "wall games",
                 "games/s"):
        assert word in text


def test_simulate_rejects_bad_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--jobs", "0"]) == 2
    assert capsys.readouterr().err.startswith("twinrack: ")


def test_records_with_jobs(tmp_path: Any) -> None:
    code = main(["simulate", "--bots", "greedy,random", "--games", "2", "--seed", "6",
                 "--jobs", "2", "--duplicate", "--record", str(tmp_path), "--json"])
    assert code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    assert main(["replay", str(files[-1]), "--verify"]) == 0
