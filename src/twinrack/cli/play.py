"""``twinrack play``: a full-screen game against bots at the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from twinrack.bots import BOTS
from twinrack.card import Card, load_card
from twinrack.engine import RulesError, RuleSet
from twinrack.engine.rules import rules_from
from twinrack.errors import CardError, TwinRackError


def _fail(message: str, code: int = 2) -> NoReturn:
    print(f"twinrack: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _card(path: str | None) -> Card:
    try:
        return load_card(path)
    except CardError as err:
        problem = err.problems[0] if err.problems else None
        where = f"{problem.file}:{problem.line}:{problem.column}: " if problem else ""
        _fail(f"--card: {where}{err.message}")
    except TwinRackError as err:
        _fail(f"--card: {err.message}")


def play_rules(variant: str, players: int | None, revision: str) -> RuleSet:
    """The rules of a game from the command's options (one clear line when they are bad)."""
    try:
        return rules_from(variant, players, revision)
    except RulesError as err:
        _fail(err.message if err.option == "players" else f"--{err.option}: {err.message}")


def record_folder(text: str) -> Path:
    """The folder for game records, made now if need be (one clear line when it cannot)."""
    if not text.strip():
        _fail("--record: no folder given (the name is empty)")
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        _fail(f"--record: {text} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        _fail(f"--record: cannot create {text}: {err.strerror or err}")
    return folder


def register(app: typer.Typer) -> None:
    """Add ``play`` to the ``twinrack`` command."""

    @app.command("play")
    def play_command(
        variant: Annotated[str, typer.Option(
            "--variant", help="siamese, royale, imperial or american")] = "siamese",
        players: Annotated[int | None, typer.Option(
            "--players", help="players: 2 (Siamese), 3-4 (Royale, American: default 4), 2-4 "
                              "(Imperial)")]
        = None,
        bot: Annotated[str | None, typer.Option(
            "--bot", help="the bots' level (default: greedy when installed, else random)")]
        = None,
        seed: Annotated[int | None, typer.Option(
            "--seed", help="deal this game from this seed (default: a fresh one)")] = None,
        revision: Annotated[str, typer.Option("--revision", help="2024 or 2019")] = "2024",
        card: Annotated[str | None, typer.Option("--card", help="card file (default: "
                                                 "the practice card)")] = None,
        delay: Annotated[float, typer.Option(
            "--delay", help="seconds a bot takes per move")] = 0.4,
        call_time: Annotated[float, typer.Option(
            "--call-time", help="seconds to call a discard before passing (0: no limit)")]
        = 0.0,
        always_ask: Annotated[bool, typer.Option(
            "--always-ask", help="prompt on every discard, even one you cannot claim")]
        = False,
        hints: Annotated[bool, typer.Option(
            "--hints", help="show the hints panel from the start (h shows or hides it)")]
        = False,
        record: Annotated[str | None, typer.Option(
            "--record", help="save each game's record into this folder when it ends")]
        = None,
    ) -> None:
        """Play a game against bots, full screen (keys: ? for help)."""
        from twinrack.tui.table import default_bot

        level = bot if bot is not None else default_bot()
        if level not in BOTS:
            _fail(f"--bot: unknown bot '{level}' (known: {', '.join(sorted(BOTS))})")
        if seed is not None and seed < 0:
            _fail("--seed must not be negative")
        if delay < 0:
            _fail("--delay must not be negative")
        if call_time < 0:
            _fail("--call-time must not be negative")
        rules = play_rules(variant, players, revision)
        the_card = _card(card)
        folder = record_folder(record) if record is not None else None
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            _fail("play needs a terminal (run it in a terminal window, not through a pipe)")
        from twinrack.tui.app import PlayApp

        PlayApp(rules, seed=seed, card=the_card, bot=level, delay=delay, call_time=call_time,
                auto_pass=not always_ask, hints=hints, record_dir=folder,
                card_path=card).run()
