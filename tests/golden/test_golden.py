"""The same seeds give the same games: every action, event and score of seeded bot games of
every variant is as recorded in games.json (written by make_golden.py). A refactoring must
keep this test passing; a deliberate change of rules or bots rewrites games.json."""

from __future__ import annotations

import json
from pathlib import Path

from tests.golden.make_golden import play_cases


def test_seeded_bot_games_are_played_exactly_as_recorded() -> None:
    recorded = json.loads((Path(__file__).parent / "games.json").read_text())
    assert play_cases() == recorded
