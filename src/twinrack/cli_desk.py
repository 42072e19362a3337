"""Command line of the score keeper and the tournament desk."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from twinrack.desk.export import (
    games_csv,
    score_sheets_html,
    standings_csv,
    table_cards_html,
)
from twinrack.desk.keeper import load_game_file, read_game, score_json
from twinrack.desk.movement import movement_json
from twinrack.desk.tournament import Tournament, atomic
from twinrack.errors import TwinRackError

out = Console(highlight=False, soft_wrap=True)
tournament_app = typer.Typer(no_args_is_help=True,
                             help="Run a tournament: players, rounds, score sheets, standings.")

FileArg = Annotated[Path, typer.Argument(help="the tournament file (JSON)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


def _fail(message: str) -> None:
    print(f"twinrack: {message}", file=sys.stderr)
    raise typer.Exit(2)


def score(game: Annotated[Path, typer.Argument(help="a game sheet (JSON)")],
          as_json: JsonOpt = False) -> None:
    """Score one game played with real tiles: the itemized score from the rules engine."""
    kept = read_game(load_game_file(game))
    result = score_json(kept)
    if as_json:
        print(json.dumps(result))
        return
    table = Table(title=f"Score: {', '.join(kept.players)}")
    table.add_column("player")
    table.add_column("points", justify="right")
    table.add_column("reason")
    for line in result["lines"]:
        table.add_row(line["player"], f"{line['points']:+d}", line["reason"])
    out.print(table)
    for name, total in result["players"].items():
        out.print(f"[bold]{name}[/bold]: {total:+d}")


def load_tournament(path: Path) -> Tournament:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise TwinRackError("unreadable", f"cannot read {path}: {err.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise TwinRackError("bad_tournament_file", f"{path} is not a tournament file: {err}"
                            ) from None
    if not isinstance(doc, dict):
        raise TwinRackError("bad_tournament_file", f"{path} is not a tournament file")
    return Tournament.from_json(doc)


def save_tournament(t: Tournament, path: Path) -> None:
    """Write atomically: a crash never leaves half a file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent or Path("."), prefix=".tournament-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(t.to_json(), f, indent=1)
    os.replace(tmp, path)


def _change(path: Path, command: Callable[..., Any], *args: Any) -> Any:
    """Load, run one command all-or-nothing, save only when it succeeded."""
    t = load_tournament(path)
    result = atomic(t, command, *args)
    save_tournament(t, path)
    return result


@tournament_app.command("movement")
def movement(
    seats: Annotated[int, typer.Option("--seats", help="4 (standard) or 2 (Siamese)")] = 4,
    tables: Annotated[int, typer.Option("--tables", help="number of tables")] = 1,
    rounds: Annotated[int, typer.Option("--rounds", help="number of rounds")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """The seating of every round by nametag."""
    if seats not in (2, 4):
        _fail("--seats must be 4 or 2")
    if tables < 1 or rounds < 1:
        _fail("--tables and --rounds must be at least 1")
    plan = movement_json(seats, tables, rounds)
    if as_json:
        print(json.dumps(plan))
        return
    for r in plan["rounds"]:  # type: ignore[attr-defined]
        table = Table(title=f"Round {r['round']}")
        table.add_column("table")
        letters = list(next(iter(r["tables"].values())))
        for letter in letters:
            table.add_column(letter)
        for t, seating in r["tables"].items():
            table.add_row(t, *[seating[x] for x in letters])
        out.print(table)


@tournament_app.command("new")
def new(path: FileArg,
        name: Annotated[str, typer.Option("--name", help="tournament name")],
        seats: Annotated[int, typer.Option("--seats", help="4 or 2 (Siamese)")] = 4,
        rounds: Annotated[int, typer.Option("--rounds")] = 4,
        minutes: Annotated[int, typer.Option("--minutes", help="minutes per round")] = 50,
        revision: Annotated[str, typer.Option("--revision")] = "2024") -> None:
    """Create a tournament file."""
    if path.exists():
        _fail(f"{path} already exists")
    if seats not in (2, 4) or rounds < 1 or minutes < 1 or revision not in ("2024", "2019"):
        _fail("--seats 4|2, --rounds >= 1, --minutes >= 1, --revision 2024|2019")
    save_tournament(Tournament(name, seats, rounds, minutes, revision), path)
    out.print(f"Created {path}")


@tournament_app.command("add")
def add(path: FileArg, names: Annotated[list[str], typer.Argument(help="player names")]) -> None:
    """Register players; nametags are given in order (1E, 1S, 1W, 1N, 2E, ...)."""
    for n in names:
        p = _change(path, Tournament.add_player, n, time.time())
        out.print(f"{p.name}: {p.nametag}")


@tournament_app.command("start-round")
def start_round(path: FileArg) -> None:
    """Start the next round (its timer starts now)."""
    r = _change(path, Tournament.start_round, time.time())
    out.print(f"Round {r.number} started")


@tournament_app.command("close-round")
def close_round(path: FileArg) -> None:
    """Close and lock the open round."""
    r = _change(path, Tournament.close_round, time.time())
    out.print(f"Round {r.number} closed and locked")


@tournament_app.command("enter")
def enter(path: FileArg,
          table: Annotated[int, typer.Option("--table")],
          result: Annotated[str, typer.Option("--result", help="the game as JSON, e.g. "
                                              "'{\"winner\":\"Ann\",\"value\":25}'")]) -> None:
    """Enter the next game of a table in the open round."""
    try:
        doc = json.loads(result)
    except json.JSONDecodeError as err:
        _fail(f"--result is not valid JSON: {err.msg}")
    g = _change(path, Tournament.enter_game, table, doc, time.time())
    out.print(f"Table {table} game {g.number}: {g.points}" + (" (after time: no points)"
                                                               if g.late else ""))


@tournament_app.command("confirm")
def confirm(path: FileArg, table: Annotated[int, typer.Option("--table")],
            game: Annotated[int, typer.Option("--game")],
            by: Annotated[str, typer.Option("--by", help="the signing player")]) -> None:
    """The player opposite the winner signs a win."""
    _change(path, Tournament.confirm, table, game, by, time.time())
    out.print(f"Table {table} game {game} confirmed by {by}")


@tournament_app.command("correct")
def correct(path: FileArg, round_no: Annotated[int, typer.Option("--round")],
            table: Annotated[int, typer.Option("--table")],
            game: Annotated[int, typer.Option("--game")],
            result: Annotated[str, typer.Option("--result")],
            reason: Annotated[str, typer.Option("--reason")]) -> None:
    """The director corrects a recorded game (kept in the audit trail)."""
    try:
        doc = json.loads(result)
    except json.JSONDecodeError as err:
        _fail(f"--result is not valid JSON: {err.msg}")
    g = _change(path, Tournament.correct_game, round_no, table, game, doc, time.time(), reason)
    out.print(f"Corrected: {g.points}")


@tournament_app.command("delay")
def delay(path: FileArg, table: Annotated[int, typer.Option("--table")]) -> None:
    """Let a table delayed by a ruling finish its game after time."""
    _change(path, Tournament.delay_table, table, time.time())
    out.print(f"Table {table} may finish after time")


@tournament_app.command("standings")
def standings(path: FileArg, as_json: JsonOpt = False,
              csv_out: Annotated[bool, typer.Option("--csv", help="print CSV")] = False) -> None:
    """Standings: total, then games won, then head-to-head."""
    t = load_tournament(path)
    if csv_out:
        sys.stdout.write(standings_csv(t))
        return
    rows = t.standings()
    if as_json:
        print(json.dumps({"standings": rows}))
        return
    table = Table(title=f"{t.name}: standings")
    for col in ("rank", "name", "nametag", "points", "wins", "games"):
        table.add_column(col)
    for r in rows:
        table.add_row(*(str(r[c]) for c in ("rank", "name", "nametag", "points", "wins",
                                            "games")))
    out.print(table)


@tournament_app.command("export")
def export(path: FileArg, folder: Annotated[Path, typer.Argument(help="where to write")]) -> None:
    """Write standings.csv, games.csv, table cards and each round's score sheets."""
    t = load_tournament(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "standings.csv").write_text(standings_csv(t), encoding="utf-8")
        (folder / "games.csv").write_text(games_csv(t), encoding="utf-8")
        (folder / "table-cards.html").write_text(table_cards_html(t), encoding="utf-8")
        for r in range(1, max(len(t.rounds), 1) + 1):
            (folder / f"score-sheets-round-{r}.html").write_text(score_sheets_html(t, r),
                                                                  encoding="utf-8")
    except OSError as err:
        _fail(f"cannot write to {folder}: {err.strerror}")
    out.print(f"Wrote exports to {folder}")


def register(app: typer.Typer) -> None:
    app.command("score")(score)
    app.add_typer(tournament_app, name="tournament")
