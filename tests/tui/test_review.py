"""The post-game review at the terminal: ``r`` on the score reviews the player's game in a
worker thread and shows what :func:`twinrack.bots.review.review` says of the same record."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from rich.text import Text
from textual.app import App
from textual.widgets import Static

from tests.tui.test_play import SIZE, play_to_the_end, shown, status
from twinrack.bots.review import Review, ReviewError, review
from twinrack.card import Card
from twinrack.engine import RuleSet
from twinrack.engine.record import record_of
from twinrack.tui import review as tui_review
from twinrack.tui.app import PlayApp, ScoreScreen
from twinrack.tui.review import MARKS, ReviewScreen, chance_chart

pytestmark = pytest.mark.anyio

SEARCHED, SIMULATIONS = 1, 2


def test_the_chart_has_one_mark_per_decision_between_the_first_and_last_chance() -> None:
    assert chance_chart([(1, 0.0), (3, 0.5), (5, 0.99), (8, 1.0)]) == "0% ▁▅██ 100%"
    assert chance_chart([]) == "no decision with a choice"


async def test_r_on_the_score_shows_the_review_of_the_players_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui_review, "SEARCHED", SEARCHED)
    monkeypatch.setattr(tui_review, "SIMULATIONS", SIMULATIONS)
    release = threading.Event()
    calls: list[int] = []
    real = tui_review.judge_game

    def held(record: dict[str, Any], seat: int, card: Card) -> Review:
        calls.append(seat)
        assert release.wait(60)  # the test first sees the waiting message
        return real(record, seat, card)

    monkeypatch.setattr(tui_review, "judge_game", held)
    app = PlayApp(RuleSet(declared_hands=False), seed=6, bot="random", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, ScoreScreen)
        assert "r review your game" in shown(app, "#score")
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert shown(app, "#review") == tui_review.WAITING  # the UI is not blocked
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        state = app.board.table.state
        expected = review(record_of(state), 0, state.card, searched=SEARCHED,
                          simulations=SIMULATIONS)
        assert screen.found == expected and expected.mistakes
        text = shown(app, "#review")
        whys = [line.removeprefix("   Why: ") for line in text.splitlines()
                if line.startswith("   Why: ")]
        assert whys == [m.why for m in expected.mistakes]
        for k, m in enumerate(expected.mistakes, start=1):
            assert f"{k}. Turn {m.turn} ({m.kind}): you played '{m.played}', the best " \
                   f"was '{m.best}'" in text
        chart = next(line for line in text.splitlines() if any(c in MARKS for c in line))
        assert sum(c in MARKS for c in chart) == len(expected.chances)
        assert chart.strip() == chance_chart(expected.chances)
        # Esc goes back to the score, Esc again to the table, whose footer offers r; r
        # there shows the same review without making it again
        await pilot.press("escape")
        assert isinstance(app.screen, ScoreScreen)
        await pilot.press("escape")
        assert app.screen is app.board
        assert app.board.active_bindings["r"].binding.description == "Review my game"
        assert "r review your game" in status(app)
        await pilot.press("r")
        again = app.screen
        assert isinstance(again, ReviewScreen) and again.found is screen.found
        assert shown(app, "#review") == text and calls == [0]


async def test_a_review_that_fails_says_why_and_the_game_stays_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(record: dict[str, Any], seat: int, card: Card) -> Review:
        raise ReviewError("bad_record", "the record does not verify: event 3 differs")

    monkeypatch.setattr(tui_review, "judge_game", broken)
    app = PlayApp(RuleSet(declared_hands=False), seed=6, bot="random", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert shown(app, "#review") == ("The review could not be made: the record does not "
                                         "verify: event 3 differs\n\nEsc back to the score")
        await pilot.press("escape")
        assert isinstance(app.screen, ScoreScreen)
        assert app.is_running


async def test_the_review_is_not_offered_during_the_game() -> None:
    app = PlayApp(RuleSet(declared_hands=False), seed=6, bot="random", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        assert "r" not in app.board.active_bindings  # nor in the footer
        version = app.board.table.state.version
        await pilot.press("r")
        assert app.screen is app.board and app.board.table.state.version == version


async def test_an_unexpected_failure_is_one_line_not_a_traceback() -> None:
    def boom() -> Review:
        raise RuntimeError("the expert ran out of plans")

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ReviewScreen(boom))

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        content = app.screen.query_one("#review", Static).content
        assert isinstance(content, Text)
        assert content.plain.splitlines()[0] == (
            "The review could not be made: RuntimeError: the expert ran out of plans")
        assert app.is_running


async def test_leaving_the_review_before_it_is_made_leaves_the_app_up() -> None:
    release = threading.Event()

    def slow() -> Review:
        assert release.wait(60)
        raise ReviewError("bad_record", "never shown")

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ReviewScreen(slow))

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, ReviewScreen)
