"""``twinrack simulate`` and ``twinrack replay``: games between bots, and game records."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from twinrack.bots import BOTS, Bot, ExpertBot, MasterBot, arena, play_out
from twinrack.bots.arena import GameResult, Setup
from twinrack.card import Card, kernel, load_card
from twinrack.engine import GameState, RulesError, RuleSet, new_game, score, settlement
from twinrack.engine.record import FORMAT, RecordError, replay, verify
from twinrack.engine.rules import rules_from, seat_wind
from twinrack.errors import CardError, TwinRackError
from twinrack.narration import narrate


def _fail(message: str, code: int = 2) -> NoReturn:
    print(f"twinrack: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _card(path: str | None) -> Card:
    try:
        return load_card(path)
    except CardError as err:
        print(err.render(), file=sys.stderr)
        raise typer.Exit(2) from None
    except TwinRackError as err:
        _fail(err.message)


# ---------------------------------------------------------------------------- simulate


def play_game(rules: RuleSet, card: Card, seed: bytes, bots: Sequence[Bot],
              rngs: Sequence[random.Random]) -> GameState:
    """One game between bots (one per seat), played out by the driver."""
    return play_out(new_game(rules, seed=seed, card=card), bots, rngs)


def simulate(rules: RuleSet, card: Card, bot_names: list[str], games: int, seed: int,
             record_dir: Path | None = None, *, duplicate: bool = False, jobs: int = 1,
             progress: Callable[[GameResult], None] | None = None) -> dict[str, Any]:
    """Play ``games`` deals (each once per seat rotation with ``duplicate``) and report
    what happened (see :mod:`twinrack.bots.arena`)."""
    setup = Setup(rules, card, bot_names, seed, duplicate, record=record_dir is not None)
    return arena.run(setup, games, jobs, record_dir, progress)


def _summary_table(result: dict[str, Any]) -> Table:
    table = Table(title=f"{result['games']} games of {result['variant']} "
                        f"({result['players']} players, {result['revision']} rules"
                        f"{', duplicate deals' if result['duplicate'] else ''})")
    for col in ("bot", "wins", "win rate", "95% CI", "points/game", "p50 ms", "p99 ms"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in result["bots"]:
        lo, hi = b["ci95"]
        table.add_row(b["name"], str(b["wins"]), f"{100 * b['win_rate']:.1f}%",
                      f"{100 * lo:.1f}-{100 * hi:.1f}%", f"{b['points_per_game']:+.2f}",
                      f"{b['latency_ms_p50']:.2f}", f"{b['latency_ms_p99']:.2f}")
    return table


def outcome_line(result: dict[str, Any]) -> str:
    """How the games came out: decisive or a shared top score; how they ended."""
    n = result["games"]
    shared = result["shared_top_score"]
    ends = result["ends"]
    others = ", ".join(f"{k} {v}" for k, v in sorted(ends.items()) if k != "wall")
    return (f"decisive games: {result['decisive']} of {n}; shared top score: {shared} "
            f"({100 * shared / n:.1f}%); wall spent: {result['wall_spent']} (with no Mah "
            f"Jongg up: {result['wall_games']}); other ends: {others or 'none'}; "
            f"Mah Jonggs: {result['mahjonggs']}")


# ---------------------------------------------------------------------------- narration


def _seat(s: int | None, players: int) -> str:
    if s is None:
        return "?"
    return f"{seat_wind(s, players)} ({s})"


# ---------------------------------------------------------------------------- commands


def _load_record(path: str) -> dict[str, Any]:
    if not path.strip():
        _fail("replay: no record file given (the file name is empty)")
    if Path(path).is_dir():
        _fail(f"{path} is a folder, not a game record file")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        _fail(f"no such record file: {path}")
    except (OSError, UnicodeDecodeError) as err:
        _fail(f"cannot read record {path}: {err}")
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as err:
        _fail(f"{path} is not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})")
    if not isinstance(rec, dict) or rec.get("format") != FORMAT:
        _fail(f"{path} is not a TwinRack game record (format {FORMAT})")
    return rec


def simulate_command(
    variant: Annotated[str, typer.Option(
        "--variant", help="siamese, royale, imperial or american")] = "siamese",
    players: Annotated[int | None, typer.Option(
        "--players", help="players (default: one per bot; a single bot named plays every "
                          "seat)")] = None,
    scoring: Annotated[str, typer.Option(
        "--scoring", help="the American game's score: nmjl (who pays whom) or tournament "
                          "(the tournament sheet)")] = "nmjl",
    bots: Annotated[str, typer.Option(
        "--bots", help="one bot per player, comma-separated (e.g. random,random)")]
    = "random,random",
    games: Annotated[int, typer.Option("--games", help="how many games")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="master seed")] = 1,
    record: Annotated[str | None, typer.Option(
        "--record", help="write each game's record into this folder")] = None,
    revision: Annotated[str, typer.Option("--revision", help="2024 or 2019")] = "2024",
    strict: Annotated[bool, typer.Option("--strict", help="Mah Jongg in error rules")]
    = False,
    card: Annotated[str | None, typer.Option("--card", help="card file")] = None,
    jobs: Annotated[int, typer.Option("--jobs", help="processes playing in parallel")]
    = 1,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="play each deal once per seat rotation (luck cancels)")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="no progress bar")] = False,
    simulations: Annotated[int | None, typer.Option(
        "--simulations", help="the master's budget: futures raced per decision")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", help="play the games on a Ray cluster at this address ('local' starts "
                      "one here; needs the ray extra)")] = None,
    untimed: Annotated[bool, typer.Option(
        "--untimed", help="the expert without its time budget (decisions do not depend "
                          "on the machine's load)")] = False,
) -> None:
    """Play games between bots and report the results.

    With --duplicate, each of the --games deals is played once per rotation of the
    seats (twice with two players). The winner of a game is the seat with the highest
    score; win rates are over decisive games, with a Wilson 95% interval."""
    names = _seated(_bot_names(bots), players)
    if games < 1:
        _fail("--games must be at least 1")
    if seed < 0:
        _fail("--seed must not be negative")
    if jobs < 1:
        _fail("--jobs must be at least 1")
    try:
        rules = rules_from(variant, len(names), revision, strict=strict,
                           american_scoring=scoring)
    except RulesError as err:
        if err.option == "american_scoring":
            _fail(f"--scoring: {err.message}")
        _fail(f"{err.message} (one bot per player: --bots gave {len(names)})"
              if err.code == "bad_player_count" else err.message)
    if simulations is not None and simulations < 1:
        _fail("--simulations must be at least 1")
    if ray is not None and importlib.util.find_spec("ray") is None:
        _fail("--ray needs the optional extra: pip install -e '.[ray]'")
    out_dir = _record_folder(record) if record is not None else None
    registry: dict[str, Callable[[Card], Bot]] = dict(BOTS)
    if simulations is not None:
        registry["master"] = partial(MasterBot, simulations=simulations)
    if untimed:
        registry["expert"] = partial(ExpertBot, budget_ms=math.inf)
    setup = Setup(rules, _card(card), names, seed, duplicate, record=out_dir is not None,
                  registry=registry)
    result = _run_with_progress(setup, games, jobs, out_dir, show=not quiet, ray_address=ray)
    if as_json:
        sys.stdout.write(json.dumps(result) + "\n")
        return
    out = Console(highlight=False, soft_wrap=True)
    out.print(_summary_table(result))
    out.print(outcome_line(result))
    out.print(f"{result['games_per_second']} games/s with {jobs} "
              f"{'process' if jobs == 1 else 'processes'} ({result['seconds']} s)")


def _bot_names(text: str) -> list[str]:
    """The ``--bots`` entries, each a registered bot (one clear line when not)."""
    names = [b.strip() for b in text.split(",")]
    if not all(names):
        _fail(f"--bots: empty bot name in '{text}' (one bot per player, comma-separated, "
              "like greedy,random)")
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        _fail(f"unknown bot '{unknown[0]}' (known: {', '.join(sorted(BOTS))})")
    return names


def _seated(names: list[str], players: int | None) -> list[str]:
    """The bot at each seat: one per player, or with ``--players`` a single bot named for
    every seat."""
    if players is None or players == len(names):
        return names
    if len(names) == 1 and players >= 1:
        return names * players
    _fail(f"--players {players} but --bots names {len(names)} (one bot per player, or a "
          "single bot for every seat)")


def _record_folder(text: str) -> Path:
    folder = Path(text)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        _fail(f"cannot create {text}: {err}")
    return folder


def _run_with_progress(setup: Setup, games: int, jobs: int, record_dir: Path | None,
                       show: bool, ray_address: str | None = None) -> dict[str, Any]:
    """Play the run with a progress bar on a terminal's stderr."""
    total = games * (len(setup.bots) if setup.duplicate else 1)
    stderr = Console(stderr=True)
    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=stderr,
                  disable=not (show and stderr.is_terminal), transient=True) as bar:
        task = bar.add_task(f"{','.join(setup.bots)} on {setup.rules.variant}", total=total)
        return arena.run(setup, games, jobs, record_dir, lambda _r: bar.advance(task),
                         ray_address)


def replay_command(
    path: Annotated[str, typer.Argument(help="a game record (JSON)")],
    check: Annotated[bool, typer.Option(
        "--verify", help="check the wall, every event and the score (exit 1 on a "
                         "difference)")] = False,
    card: Annotated[str | None, typer.Option("--card", help="card file")] = None,
) -> None:
    """Print a game record as a readable log, or verify it."""
    kernel.for_few_questions()  # one game played again: fewer questions than it takes
    rec = _load_record(path)
    the_card = _card(card)
    if check:
        _verify(path, rec, the_card)
        return
    try:
        state = replay(rec, the_card)
    except RecordError as err:
        _fail(f"{path}: {err.message}")
    _print_game(state)


def _verify(path: str, rec: dict[str, Any], card: Card) -> None:
    try:
        verdict = verify(rec, card)
    except Exception as err:  # a record too broken to replay at all
        _fail(f"{path}: cannot replay this record: {err}")
    if not verdict.ok:
        print(f"twinrack: {path}: NOT VERIFIED: {verdict.problem}", file=sys.stderr)
        raise typer.Exit(1)
    assert verdict.state is not None
    st = verdict.state
    print(f"{path}: verified: wall matches the commitment, {len(st.actions)} actions "
          f"and {len(st.events)} events replayed, score {list(score(st).totals)}")


def _print_game(state: GameState) -> None:
    """The game's events narrated, then its score and settlement once it is over."""
    players = state.rules.players
    names = [_seat(i, players) for i in range(players)]
    for e in state.events:
        print(narrate(e, names))
    if state.over:
        s = score(state)
        print("\nScore:")
        for line in s.lines:
            print(f"  {line}")
        print("  totals: " + ", ".join(f"{_seat(i, players)} {t:+d}"
                                       for i, t in enumerate(s.totals)))
        pay = settlement(state)
        print("  settlement: " + ", ".join(f"{_seat(i, players)} {float(x):+g}"
                                           for i, x in enumerate(pay.payouts)))


def register(app: typer.Typer) -> None:
    """Add ``simulate`` and ``replay`` to the ``twinrack`` command."""
    app.command("simulate")(simulate_command)
    app.command("replay")(replay_command)
