"""Write tests/golden/games.json: a fingerprint of seeded bot games of every variant.

The golden test (tests/golden/test_golden.py) replays the same games and compares: a change
meant to keep behaviour (a refactoring) must leave every action and event as it was. Run
this only when behaviour changes on purpose, and say so in the commit:

    python tests/golden/make_golden.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bots.untimed import UNTIMED_BOTS
from twinrack.bots.arena import Setup, Task, play_task
from twinrack.card import practice_card
from twinrack.engine import RuleSet

HERE = Path(__file__).resolve().parent
#: (variant, players, revision, strict, bots, deals)
CASES: list[tuple[str, int, str, bool, list[str], int]] = [
    ("siamese", 2, "2024", False, ["expert", "greedy"], 4),
    ("siamese", 2, "2019", False, ["greedy", "random"], 3),
    ("siamese", 2, "2024", True, ["random", "random"], 3),
    ("royale", 3, "2024", False, ["expert", "greedy", "random"], 2),
    ("royale", 4, "2024", False, ["expert", "greedy", "expert", "greedy"], 2),
    ("imperial", 2, "2024", False, ["expert", "greedy"], 2),
]


def fingerprint(record: dict[str, Any]) -> str:
    text = json.dumps([record["actions"], record["events"], record["score"]])
    return hashlib.sha256(text.encode()).hexdigest()


def play_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    card = practice_card()
    for variant, players, revision, strict, bots, deals in CASES:
        rules = RuleSet(variant=variant, players=players, revision=revision, strict=strict)
        setup = Setup(rules, card, bots, seed=2026, duplicate=False, record=True,
                      registry=UNTIMED_BOTS)
        for deal in range(deals):
            res = play_task(setup, Task(deal, deal, 0))
            assert res.record is not None
            key = f"{variant}-{players}-{revision}-{'strict' if strict else 'casual'}-" \
                  f"{'-'.join(bots)}-{deal}"
            out[key] = {"actions": len(res.record["actions"]),
                        "totals": res.record["score"]["totals"],
                        "sha256": fingerprint(res.record)}
    return out


if __name__ == "__main__":
    (HERE / "games.json").write_text(json.dumps(play_cases(), indent=1) + "\n")
    print(f"wrote {HERE / 'games.json'}")
