"""Text forms that parse back, game records, replay and verification, the CLI commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.engine.helpers import R, rig
from twinrack.bots import RandomBot
from twinrack.card import practice_card
from twinrack.cli import main
from twinrack.cli.game import play_game, simulate
from twinrack.engine import (
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Pass,
    RuleSet,
    Undeclare,
    Withdraw,
    parse_action,
    parse_event,
)
from twinrack.engine.record import record_of, replay, verify
from twinrack.engine.shuffle import derive_seed
from twinrack.errors import NotationError

ACTIONS = [Discard(0, 4), Pass(1), Claim(2, "mahjongg"), Claim(1, "double"),
           Claim(3, "expose"), Expose(1, 1, (14, 14, 35)), Exchange(0, 14, 1, 1, 0),
           MahJongg(0, 0, (1, 1, 1, 35)), MahJongg(0, 1, ()), Move(0, 4, 0, 1),
           Declare(0, "Special-1", (0, 2, 4)), Undeclare(1), Withdraw(2)]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_action_text_parses_back(action: object) -> None:
    assert parse_action(str(action)) == action
    assert eval(repr(action), {**globals()}) == action  # repr pastes into a test


def test_action_text_examples_and_errors() -> None:
    assert str(parse_action("expose 2 6C 6C J", seat=1)) == "1: expose 2 6C 6C J"
    assert str(parse_action("0: exchange 6crak from 1:2:1")) == "0: exchange 6C from 1:2:1"
    assert str(parse_action("0: move 5b 1>2")) == "0: move 5B 1>2"
    for bad in ("discard", "0: flip 5B", "0: discard QQ", "discard 5B", "0: move 5B 12",
                "0: claim chow", "0: exchange J from 1:1:1", "1: discard 5B extra"):
        with pytest.raises(NotationError) as err:
            parse_action(bad)
        assert err.value.code == "bad_action"


def test_every_event_of_real_games_parses_back() -> None:
    seen: set[str] = set()
    for variant, players in [("siamese", 2), ("royale", 4), ("imperial", 2)]:
        for seed in range(3):
            g = play_game(RuleSet(variant=variant, players=players, strict=seed == 2),
                          practice_card(), derive_seed(9, seed), [RandomBot()] * players,
                          [random.Random(s) for s in range(players)])
            for e in g.events:
                for shown in (e, e.seen_by(None), e.seen_by(0)):
                    assert parse_event(str(shown)) == shown
                seen.add(type(e).__name__)
    assert {"Started", "Cut", "Dealt", "Picked", "Discarded", "Passed", "Claimed", "Granted",
            "Exposed", "RackDead", "Ended"} <= seen


def test_secret_events_are_redacted_for_other_seats() -> None:
    g = rig(R(), ["1B"], picks="4D")
    deal = g.events[1]
    assert str(deal.seen_by(1)) == "deal 0 27" and str(deal.seen_by(None)) == "deal 0 27"
    assert deal.seen_by(0) == deal
    assert str(g.events[-1].seen_by(1)) == "pick 0"


def finished(seed: int = 3, variant: str = "siamese", players: int = 2) -> dict:  # type: ignore[type-arg]
    g = play_game(RuleSet(variant=variant, players=players), practice_card(),
                  derive_seed(seed, "rec"), [RandomBot()] * players,
                  [random.Random(s) for s in range(players)])
    return record_of(g)


def test_record_replays_and_verifies() -> None:
    rec = finished()
    assert rec["seed"] and rec["commitment"] and rec["score"]
    assert verify(rec, practice_card()).ok
    state = replay(rec, practice_card())
    assert [str(e) for e in state.events] == rec["events"]
    assert json.loads(json.dumps(rec)) == rec


def test_a_game_in_progress_has_no_seed_in_its_record() -> None:
    g = rig(R(), [], picks="4D")
    rec = record_of(g)
    assert rec["seed"] is None and rec["commitment"] == g.commitment
    assert not verify(rec, practice_card()).ok


def test_any_changed_byte_of_seed_or_actions_fails_verification() -> None:
    rec = finished(5)
    card = practice_card()
    rng = random.Random(1)
    alphabet = "0123456789abcdefABCDEF :JNEWS>BCDx"
    for _ in range(40):
        bad = json.loads(json.dumps(rec))
        if rng.random() < 0.3:
            i = rng.randrange(len(bad["seed"]))
            c = rng.choice([x for x in alphabet if x != bad["seed"][i]])
            bad["seed"] = bad["seed"][:i] + c + bad["seed"][i + 1:]
        else:
            k = rng.randrange(len(bad["actions"]))
            text = bad["actions"][k]
            i = rng.randrange(len(text))
            c = rng.choice([x for x in alphabet if x != text[i]])
            bad["actions"][k] = text[:i] + c + text[i + 1:]
        assert not verify(bad, card).ok


def test_changed_events_or_score_fail_verification() -> None:
    rec = finished(6)
    bad = json.loads(json.dumps(rec))
    bad["events"][3] = bad["events"][3] + " "
    assert "event 4" in verify(bad, practice_card()).problem
    bad = json.loads(json.dumps(rec))
    bad["score"]["totals"][0] += 1
    assert "score" in verify(bad, practice_card()).problem


# ------------------------------------------------------------------ the command line


def test_simulate_json_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--variant", "siamese", "--bots", "random,random", "--games",
                 "3", "--seed", "2", "--record", str(tmp_path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["games"] == 3
    assert {"wall_games", "games_per_second"} <= set(out)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    assert main(["replay", str(files[0]), "--verify"]) == 0
    assert main(["replay", str(files[0])]) == 0
    log = capsys.readouterr().out
    assert "GAME OVER" in log and "Score:" in log
    # a changed seed fails with exit 1 and the first difference
    rec = json.loads(files[0].read_text())
    rec["seed"] = ("0" if rec["seed"][0] != "0" else "1") + rec["seed"][1:]
    files[1].write_text(json.dumps(rec))
    assert main(["replay", str(files[1]), "--verify"]) == 1
    assert "commitment" in capsys.readouterr().err


def test_simulate_is_reproducible() -> None:
    rules = RuleSet(variant="royale", players=3)
    a = simulate(rules, practice_card(), ["random"] * 3, 2, 11)
    b = simulate(rules, practice_card(), ["random"] * 3, 2, 11)
    assert a["ends"] == b["ends"] and a["actions"] == b["actions"]


@pytest.mark.parametrize("args", [
    ["simulate", "--variant", "mahjong", "--bots", "random,random", "--games", "1"],
    ["simulate", "--variant", "siamese", "--bots", "random,random,random", "--games", "1"],
    ["simulate", "--variant", "royale", "--bots", "random,random", "--games", "1"],
    ["simulate", "--bots", "random,genius", "--games", "1"],
    ["replay", "/no/such/file.json"],
])
def test_bad_input_one_line_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("twinrack: ") and "Traceback" not in err


def test_corrupt_record_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    assert main(["replay", str(f), "--verify"]) == 2
    f.write_text('{"format": "something else"}')
    assert main(["replay", str(f)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_record_with_bad_rules_is_reported_not_crashed() -> None:
    rec = finished(7)
    for rules in ({"variant": "siamese", "players": "2"}, {"pot": "x"}, {"colour": 1}, []):
        bad = json.loads(json.dumps(rec))
        bad["rules"] = rules
        assert not verify(bad, practice_card()).ok
