"""``twinrack play`` driven key by key with Textual's pilot: a whole game to its score
screen, and rigged positions for claims, exposures, Joker exchanges and Mah Jongg."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import Static

from tests.engine.helpers import R, rig
from twinrack.cli import main
from twinrack.engine import (
    Action,
    Claim,
    Discard,
    Move,
    Pass,
    RuleSet,
    View,
    score,
    why_illegal,
)
from twinrack.engine.events import (
    Discarded,
    Exchanged,
    Exposed,
    HandDeclared,
    MahJonggDeclared,
    Moved,
    RackDead,
)
from twinrack.tiles import INDEX, JOKER
from twinrack.tui import render
from twinrack.tui.app import ChoiceScreen, ConfirmScreen, HelpScreen, PlayApp, ScoreScreen

pytestmark = pytest.mark.anyio

SIZE = (100, 36)


class ScriptBot:
    """Plays its script (action texts without the seat) when it may, else passes or
    discards its first tile."""

    name = "script"

    def __init__(self, *script: str) -> None:
        self.script = list(script)

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        by_text = {a.body(): a for a in legal}
        if self.script and self.script[0] in by_text:
            return by_text[self.script.pop(0)]
        for a in legal:
            if isinstance(a, Pass):
                return a
        discards = [a for a in legal if isinstance(a, Discard)]
        return discards[0] if discards else legal[0]


def shown(app: PlayApp, selector: str) -> str:
    """The text a Static of the current screen shows."""
    content = app.screen.query_one(selector, Static).content
    assert isinstance(content, Text)
    return content.plain


def status(app: PlayApp) -> str:
    return app.board.status_text().plain


def events_of(app: PlayApp, kind: type) -> list[Any]:
    return [e for e in app.board.table.state.events if isinstance(e, kind)]


async def choose(pilot: Any, app: PlayApp, wanted: str) -> None:
    """In the open list, move to the first choice containing ``wanted`` and take it."""
    screen = app.screen
    assert isinstance(screen, ChoiceScreen), type(screen)
    index = next(i for i, label in enumerate(screen.labels) if wanted in label)
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")


def rigged_app(hands: Sequence[str], picks: str, script: Sequence[str],
               rules: RuleSet | None = None, **options: Any) -> PlayApp:
    game = rig(rules or R(), hands, picks)
    return PlayApp(state=game, seed=7, delay=0, bots={1: ScriptBot(*script)}, **options)


async def play_to_the_end(pilot: Any, app: PlayApp) -> None:
    """Pass on every discard and claim, discard the tile under the cursor, until the end."""
    table = app.board.table
    for _ in range(1000):
        if table.over:
            break
        screen = app.screen
        if isinstance(screen, ChoiceScreen):
            await pilot.press("enter")
        elif isinstance(screen, ConfirmScreen):
            await pilot.press("y")
        elif table.in_window() or table.declaring():
            await pilot.press("p")
        else:
            await pilot.press("d")
    await pilot.pause()
    assert table.over


# ---------------------------------------------------------------------------- a whole game


async def test_a_whole_game_by_keys_ends_on_the_engine_score() -> None:
    app = PlayApp(RuleSet(), seed=4, bot="random", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        table = board.table
        while table.declaring():
            await pilot.press("p")
        assert table.in_turn() and table.player_to_act()
        assert "Your turn" in status(app)
        # sorting, hints and help change nothing in the game
        version = table.state.version
        await pilot.press("s")
        assert all(r == sorted(r) for r in board.arrangement.racks)
        await pilot.press("h")
        assert board.query_one("#hints").display
        assert "Hints" in shown(app, "#hints")
        await pilot.press("h")
        assert not board.query_one("#hints").display
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.screen is board
        assert table.state.version == version
        # a key whose action is not legal does nothing and says why, in the engine's words
        await pilot.press("c")
        assert table.state.version == version
        why = why_illegal(table.state, Claim(0, "expose"))
        assert f"Not now: {why.message}." in status(app)
        # move the tile under the cursor to the other rack
        rack = board.arrangement.rack
        before = [len(r) for r in board.arrangement.racks]
        await pilot.press("m")
        moved = events_of(app, Moved)
        assert moved and moved[-1].seat == 0 and moved[-1].src == rack
        after = [len(r) for r in board.arrangement.racks]
        assert after[rack] == before[rack] - 1 and sum(after) == sum(before)
        # then: pass on every discard, discard the tile under the cursor
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, ScoreScreen)
        sc = score(table.state)
        text = shown(app, "#score")
        assert render.totals_line(sc.totals, board.names) in text
        for line in sc.lines:
            assert f"{line.points:+5d}  {line.reason}" in text
        assert any(line.startswith("GAME OVER") for line in board.log_lines)
        # n deals the next game from the next seed
        await pilot.press("n")
        assert app.screen is app.board
        assert app.board.table.seed == 5 and not app.board.table.over


# ---------------------------------------------------------------------------- rigged positions


async def test_claim_expose_with_a_joker_then_exchange_it() -> None:
    app = rigged_app(["6C 6C J W", "6C"], "N", ["discard 6C"])
    async with app.run_test(size=SIZE) as pilot:
        table = app.board.table
        assert app.board.arrangement.tile == INDEX["N"]  # the cursor is on the picked tile
        await pilot.press("d")
        # the bot threw 6C: the call prompt
        assert table.in_window() and "CALL?" in status(app)
        assert "c claim for exposure" in status(app)
        version = table.state.version
        await pilot.press("d")  # not now: the window is open
        assert table.state.version == version
        assert "every seat must first claim or pass" in status(app)
        await pilot.press("c")
        # the claim is granted: the exposure list opens by itself, each choice naming its rack
        screen = app.screen
        assert isinstance(screen, ChoiceScreen)
        assert "rack 1: expose 6C 6C J (1 Joker)" in screen.labels
        assert "rack 2: expose 6C 6C 6C (no Joker)" in screen.labels
        await choose(pilot, app, "rack 2: expose 6C 6C J")
        six_c = INDEX["6C"]
        assert events_of(app, Exposed)[-1] == Exposed(0, 1, (six_c, six_c, JOKER))
        assert "[6C 6C J]" in shown(app, "#hand")
        assert table.in_turn() and table.player_to_act()  # Enter chose; it discarded nothing
        assert [e.seat for e in events_of(app, Discarded)] == [0, 1]
        # the natural 6C still held goes for that Joker
        await pilot.press("x")
        await choose(pilot, app, "give 6C for the Joker in your rack 2 [6C 6C J]")
        assert events_of(app, Exchanged)[-1] == Exchanged(0, six_c, 0, 1, 0)
        assert "[6C 6C 6C]" in shown(app, "#hand")
        mine = len([e for e in events_of(app, Discarded) if e.seat == 0])
        await pilot.press("d")
        assert len([e for e in events_of(app, Discarded) if e.seat == 0]) == mine + 1


async def test_an_exposure_that_kills_a_rack_asks_first() -> None:
    # W W W fits only a concealed line: it kills a rack where those stay concealed
    app = rigged_app(["W W", "W"], "N", ["discard W"], rules=R(open_concealed=False))
    async with app.run_test(size=SIZE) as pilot:
        table = app.board.table
        await pilot.press("d")
        await pilot.press("c")
        screen = app.screen
        assert isinstance(screen, ChoiceScreen)
        assert "rack 1: expose W W W (no Joker)  !! KILLS rack 1" in screen.labels
        await choose(pilot, app, "rack 1:")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # not exposed; e opens the list again
        assert app.screen is app.board and not events_of(app, Exposed)
        assert table.state.obligation == "expose"
        await pilot.press("e")
        await choose(pilot, app, "rack 1:")
        await pilot.press("y")
        assert events_of(app, RackDead) == [RackDead(0, 0, "exposure")]
        assert "Your rack 1 is DEAD: its exposures fit no line" in app.board.log_lines
        assert "DEAD" in shown(app, "#hand")


async def test_claim_for_mah_jongg_shows_the_line_it_makes() -> None:
    app = rigged_app(["F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C", "8C"], "N", ["discard 8C"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert "M claim Mah Jongg" in status(app)
        await pilot.press("M")
        screen = app.screen
        assert isinstance(screen, ChoiceScreen)
        assert any("-> 2468-3 (value 25" in label for label in screen.labels)
        await choose(pilot, app, "-> 2468-3")
        declared = events_of(app, MahJonggDeclared)
        assert declared and declared[-1].seat == 0 and declared[-1].hand == "2468-3"
        assert "MAH JONGG 2468-3" in shown(app, "#hand")


async def test_a_picked_tile_that_completes_a_rack_is_declared_with_j() -> None:
    app = rigged_app(["F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"], "8C", [])
    async with app.run_test(size=SIZE) as pilot:
        assert "j MAH JONGG!" in status(app)
        await pilot.press("j")
        await choose(pilot, app, "2468-3")
        declared = events_of(app, MahJonggDeclared)
        assert declared and declared[-1].hand == "2468-3"


async def test_the_call_timer_passes_for_a_slow_player() -> None:
    app = rigged_app(["W W", "W"], "N", ["discard W"], call_time=1)
    async with app.run_test(size=SIZE) as pilot:
        table = app.board.table
        await pilot.press("d")
        assert table.in_window() and "[1s]" in status(app)
        await pilot.pause(1.5)
        assert not table.in_window()
        # passed for the player; then its own pick cleared the message
        assert app.board.log_lines[-3:] == ["Bot discards W", "  You pass", "You pick 5B"]
        assert status(app).startswith("Turn 3 · Wall 95 left · Your turn (you picked 5B)")


async def test_an_atomic_style_hand_is_declared_with_a() -> None:
    app = PlayApp(RuleSet(), seed=203, bot="random", delay=0)  # seat 0 is offered Special-1
    async with app.run_test(size=SIZE) as pilot:
        table = app.board.table
        assert table.declaring() and "a declare · p pass" in status(app)
        await pilot.press("a")
        await choose(pilot, app, "declare Special-1: fix")
        declared = events_of(app, HandDeclared)
        assert declared and declared[0].seat == 0 and declared[0].hand == "Special-1"
        assert "Declared: Special-1" in shown(app, "#hand")
        assert table.in_turn() and table.player_to_act()
        # no tile moves between racks under a declared hand: the key says so
        version = table.state.version
        await pilot.press("up")
        arrangement = app.board.arrangement
        tile, rack = arrangement.tile, arrangement.rack
        assert tile is not None
        await pilot.press("m")
        assert table.state.version == version
        why = why_illegal(table.state, Move(0, tile, rack, (rack + 1) % 2))
        assert f"Not now: {why.message}." in status(app)


async def test_the_hints_panel_shows_what_the_hints_module_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeHints:
        def to_dict(self) -> dict[str, Any]:
            return {"racks": [{"rack": 1, "lines": [
                {"id": "2468-3", "section": "2468", "away": 3,
                 "needs": [{"tile": "8C", "unseen": 2}], "value": 25, "concealed": False}]}],
                "discard": {"tile": "N", "reason": "no line needs it"}, "plans": []}

    seen: list[View] = []

    def fake(view: View, card: Any, top: int = 3) -> FakeHints:
        seen.append(view)
        return FakeHints()

    monkeypatch.setattr("twinrack.tui.app.load_hints", lambda: fake)
    app = PlayApp(RuleSet(declared_hands=False), seed=5, bot="random", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        text = shown(app, "#hints")
        assert "2468-3 3 away · 25 pts" in text and "Discard: N" in text
        assert seen and seen[0].seat == 0 and seen[0].hand is not None  # only seat 0's view


async def test_new_game_and_quit_ask_first_during_a_game() -> None:
    app = PlayApp(RuleSet(declared_hands=False), seed=9, bot="random", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # no: the same game goes on
        assert app.board.table.seed == 9
        await pilot.press("n")
        await pilot.press("y")
        assert app.board.table.seed == 10 and app.screen is app.board
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
    assert app.return_code == 0


# ---------------------------------------------------------------------------- records


async def test_a_game_played_with_record_is_saved_and_verifies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = PlayApp(RuleSet(declared_hands=False), seed=6, bot="random", delay=0,
                  record_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, ScoreScreen)
        saved = tmp_path / "twinrack-siamese-6.json"
        assert saved.exists()
        assert f"Record saved to {saved}" in shown(app, "#score")
        assert f"twinrack replay --verify {saved}" in shown(app, "#score")
    assert main(["replay", str(saved), "--verify"]) == 0
    assert "verified" in capsys.readouterr().out


async def test_the_end_dialog_saves_the_record_on_w(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    app = PlayApp(RuleSet(declared_hands=False), seed=6, bot="random", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, ScoreScreen)
        assert "w save the record" in shown(app, "#score")
        assert not list(tmp_path.iterdir())  # nothing saved unasked
        await pilot.press("w")
        saved = tmp_path / "twinrack-siamese-6.json"
        assert saved.exists()
        assert f"Record saved to {saved}" in shown(app, "#score")
        await pilot.press("w")  # once is enough: the same file, not a second one
        assert list(tmp_path.iterdir()) == [saved]
    assert main(["replay", str(saved), "--verify"]) == 0
    capsys.readouterr()


async def test_a_record_that_cannot_be_written_is_said_and_the_game_goes_on(
        tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    app = PlayApp(RuleSet(declared_hands=False), seed=6, bot="random", delay=0,
                  record_dir=blocked)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, ScoreScreen)
        assert "Could not save the record" in shown(app, "#score")


# ---------------------------------------------------------------------------- hints


async def test_hints_can_start_on() -> None:
    app = PlayApp(RuleSet(declared_hands=False), seed=5, bot="random", delay=0, hints=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.board.query_one("#hints").display
        text = shown(app, "#hints")
        assert "Rack 1" in text and " unseen" in text
        await pilot.press("h")
        assert not app.board.query_one("#hints").display


async def test_g_puts_the_cursor_on_the_suggested_discard(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeHints:
        def to_dict(self) -> dict[str, Any]:
            return {"racks": [], "plans": [],
                    "discard": {"tile": "W", "reason": "W is in none of your lines"}}

    monkeypatch.setattr("twinrack.tui.app.load_hints", lambda: lambda v, card, top=3:
                        FakeHints())
    app = rigged_app(["6C 6C J W", "6C"], "N", [])
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert board.arrangement.tile == INDEX["N"]  # on the picked tile
        await pilot.press("g")
        assert board.arrangement.tile == INDEX["W"]
        assert "Suggested discard: W (W is in none of your lines): d discards it" \
            in status(app)
        await pilot.press("d")
        mine = [e for e in events_of(app, Discarded) if e.seat == 0]
        assert mine == [Discarded(0, INDEX["W"])]


async def test_g_says_when_there_is_no_suggestion(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeHints:
        def to_dict(self) -> dict[str, Any]:
            return {"racks": [], "plans": [], "discard": None}

    monkeypatch.setattr("twinrack.tui.app.load_hints", lambda: lambda v, card, top=3:
                        FakeHints())
    app = rigged_app(["6C 6C J W", "6C"], "N", [])
    async with app.run_test(size=SIZE) as pilot:
        before = (app.board.arrangement.rack, app.board.arrangement.index)
        await pilot.press("g")
        assert (app.board.arrangement.rack, app.board.arrangement.index) == before
        assert "No discard to suggest now." in status(app)
