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
    """Two deals played twice: greedy tops all four; none is shared."""
    report = stable(arena.run(Setup(RuleSet(), practice_card(), ["greedy", "random"], 3,
                                    True), 2))
    assert report["bots"] == [
        {"name": "greedy", "bot": "greedy", "seat": 0, "wins": 4, "win_rate": 1.0,
         "ci95": [0.5101, 1.0], "points_per_game": 62.5, "decisions": 377},
        {"name": "random", "bot": "random", "seat": 1, "wins": 0, "win_rate": 0.0,
         "ci95": [0.0, 0.4899], "points_per_game": -65.0, "decisions": 394}]
    assert (report["games"], report["decisive"], report["shared_top_score"]) == (4, 4, 0)
    assert (report["ends"], report["mahjonggs"]) == ({"wall": 3, "dead": 1}, 4)


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
    assert set(out) == {"variant", "players", "revision", "bots", "games", "deals",
                        "duplicate", "decisive", "shared_top_score", "wall_spent",
                        "wall_games", "ends", "mahjonggs", "actions", "seconds",
                        "games_per_second", "seed", "jobs"}
    assert (out["games"], out["deals"], out["jobs"]) == (4, 2, 2)
    assert [set(b) for b in out["bots"]] == [
        {"name", "bot", "seat", "wins", "win_rate", "ci95", "points_per_game", "decisions",
         "latency_ms_p50", "latency_ms_p99"}] * 2
    assert [b["name"] for b in out["bots"]] == ["greedy", "random"]


def test_simulate_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--bots", "random,random", "--games", "2", "--seed", "4"])
    assert code == 0
    text = capsys.readouterr().out
    for word in ("win rate", "95% CI", "p50 ms", "p99 ms", "decisive games", "games/s"):
        assert word in text


def test_shared_top_scores_and_spent_walls_are_told_apart(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A game whose top score is shared is not decisive; a spent wall is how a game ended
    (with or without a Mah Jongg already up): two different counts, two different names."""
    args = ["simulate", "--bots", "greedy,greedy", "--games", "8", "--seed", "2"]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shared_top_score"] == out["games"] - out["decisive"]
    assert out["wall_spent"] == out["ends"].get("wall", 0)
    assert out["wall_games"] <= out["wall_spent"]  # kept: wall spent, no Mah Jongg up
    assert "wall_game_rate" not in out
    # this run tells them apart: 1 shared top score, 4 spent walls, none without a Mah Jongg
    assert (out["shared_top_score"], out["wall_spent"], out["wall_games"]) == (1, 4, 0)
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "wall games" not in text
    n = out["games"]
    assert (f"decisive games: {out['decisive']} of {n}; shared top score: "
            f"{out['shared_top_score']} ({100 * out['shared_top_score'] / n:.1f}%)") in text
    assert (f"wall spent: {out['wall_spent']} (with no Mah Jongg up: {out['wall_games']})"
            in text)


@pytest.mark.parametrize(("args", "message"), [
    (["--seed", "-1"], "--seed must not be negative"),
    (["--bots", "greedy,,random"],
     "--bots: empty bot name in 'greedy,,random' (one bot per player, comma-separated, "
     "like greedy,random)"),
    (["--bots", ","],
     "--bots: empty bot name in ',' (one bot per player, comma-separated, like "
     "greedy,random)"),
    (["--bots", "greedy,nobody"], "unknown bot 'nobody' (known: beginner, expert, greedy, "
                                  "intermediate, master, random)"),
    (["--games", "0"], "--games must be at least 1"),
])
def test_simulate_refuses_bad_options(capsys: pytest.CaptureFixture[str], args: list[str],
                                      message: str) -> None:
    assert main(["simulate", "--games", "1", *args]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"twinrack: {message}\n")


@pytest.mark.parametrize(("path", "message"), [
    ("", "replay: no record file given (the file name is empty)"),
    ("   ", "replay: no record file given (the file name is empty)"),
])
def test_replay_of_an_empty_name(capsys: pytest.CaptureFixture[str], path: str,
                                 message: str) -> None:
    assert main(["replay", path]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"twinrack: {message}\n")


def test_replay_of_a_folder(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    assert main(["replay", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"twinrack: {tmp_path} is a folder, not a game record file\n"


def test_simulate_rejects_bad_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--jobs", "0"]) == 2
    assert capsys.readouterr().err == "twinrack: --jobs must be at least 1\n"


def test_records_with_jobs(tmp_path: Any) -> None:
    code = main(["simulate", "--bots", "greedy,random", "--games", "2", "--seed", "6",
                 "--jobs", "2", "--duplicate", "--record", str(tmp_path), "--json"])
    assert code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    assert main(["replay", str(files[-1]), "--verify"]) == 0


def test_simulate_on_ray_without_the_extra_says_how_to_get_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert main(["simulate", "--games", "1", "--ray", "local"]) == 2
    assert capsys.readouterr().err == (
        "twinrack: --ray needs the optional extra: pip install -e '.[ray]'\n")
