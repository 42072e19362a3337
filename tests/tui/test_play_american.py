"""``twinrack play --variant american`` driven key by key: the Charleston (marking tiles,
a blind pass, the vote, the courtesy offer) and then the game to its score."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.test_play import SIZE, choose, play_to_the_end, shown, status
from twinrack.engine import RuleSet
from twinrack.engine.events import Chosen, PassMade, Voted
from twinrack.tiles import JOKER
from twinrack.tui.app import ChoiceScreen, PlayApp, ScoreScreen

pytestmark = pytest.mark.anyio


async def mark(pilot: Any, app: PlayApp, count: int) -> None:
    """Mark ``count`` tiles that are not Jokers, from the left."""
    board = app.board
    a = board.arrangement
    a.rack, a.index = 0, 0
    marked = 0
    while marked < count:
        if a.tile != JOKER:
            await pilot.press("t")
            marked += 1
        await pilot.press("right")


async def test_the_charleston_by_keys_then_the_game() -> None:
    app = PlayApp(RuleSet.for_variant("american"), seed=4, bot="greedy", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = app.board.table
        assert "First Charleston: pass 3 tiles RIGHT to Bot 1" in status(app)
        assert app.board.query_one("#hand").border_title == "Your rack (East, seat 0)"
        await pilot.press("enter")  # nothing marked: refused in the engine's words
        assert "Not now: three tiles are passed" in status(app)
        await mark(pilot, app, 3)
        assert "To pass: " in shown(app, "#hand") and "(3 marked)" in status(app)
        await pilot.press("enter")
        chosen = [e for e in table.state.events if isinstance(e, Chosen) and e.seat == 0]
        assert chosen and chosen[0].kind == "charleston"
        assert [e.name for e in table.state.events if isinstance(e, PassMade)] == [
            "first-right"]
        assert "ACROSS to Bot 2" in status(app)
        await mark(pilot, app, 3)
        await pilot.press("enter")
        assert "LEFT to Bot 3" in status(app) and "b blind" in status(app)
        await pilot.press("b")
        await mark(pilot, app, 2)
        await pilot.press("enter")
        made = [e for e in table.state.events if isinstance(e, PassMade)]
        assert made[-1].name == "first-left" and made[-1].blind[0] == 1
        assert isinstance(app.screen, ChoiceScreen)  # the vote
        await choose(pilot, app, "stop")
        votes = [e for e in table.state.events if isinstance(e, Voted)]
        assert votes and votes[0].votes[0] == "stop"
        assert any("stopped the second Charleston" in line for line in app.board.log_lines)
        assert isinstance(app.screen, ChoiceScreen)  # the courtesy offer
        await choose(pilot, app, "offer 0")
        assert table.state.phase == "turn"
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, ScoreScreen)
