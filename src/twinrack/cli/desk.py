"""Command line of the score keeper and the tournament desk.

Every command that changes a tournament file loads it, runs one command all-or-nothing and
writes the file back atomically, so a refused command (exit 2, one line on stderr) leaves
the file exactly as it was.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from twinrack.card import kernel, load_card
from twinrack.desk.export import (
    find_your_seat_html,
    games_csv,
    nametags_html,
    outcome_text,
    score_sheets_html,
    standings_csv,
    standings_html,
    table_cards_html,
)
from twinrack.desk.keeper import (
    DEFAULT_MAX_VALUE,
    Session,
    highest_value,
    read_game_file,
    score_json,
    session_from,
)
from twinrack.desk.movement import (
    Movement,
    best_moves,
    movement_json,
    parse_moves,
    plan_check,
)
from twinrack.desk.tournament import (
    MAX_VALUE_LIMIT,
    GameEntry,
    Tournament,
    atomic,
)
from twinrack.engine.rules import RulesError, rules_from
from twinrack.errors import TwinRackError

out = Console(highlight=False, soft_wrap=True)
tournament_app = typer.Typer(no_args_is_help=True,
                             help="Run a tournament: players, rounds, score sheets, standings.")

FileArg = Annotated[Path, typer.Argument(help="the tournament file (JSON)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]
MoveOpt = Annotated[list[str] | None, typer.Option(
    "--move", help="change how a seat letter moves per round, e.g. W=2 or S=-1 (repeatable)")]


def _fail(message: str) -> NoReturn:
    print(f"twinrack: {message}", file=sys.stderr)
    raise typer.Exit(2)


def _one_of(**flags: bool) -> None:
    """Refuse contradictory flags given together (``--json --csv``)."""
    given = [f"--{k.replace('_', '-')}" for k, on in flags.items() if on]
    if len(given) > 1:
        _fail(f"{' and '.join(given)} cannot be given together: choose one")


def _json_arg(option: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        _fail(f"{option} is not valid JSON: {err.msg} (column {err.colno})")


# ---------------------------------------------------------------------------- score keeper


def score(games: Annotated[list[Path], typer.Argument(
              help="a game sheet (JSON); several sheets of the same players make a session")],
          as_json: JsonOpt = False,
          pot: Annotated[int | None, typer.Option(
              "--pot", help="points each player puts in the pot (3-4 players); default: the "
                            "sheets' pot")] = None) -> None:
    """Score games played with real tiles: the itemized score from the rules engine.

    One sheet: its itemized score. Several: each game, the running totals and the settlement
    (2 players: the difference; 3-4 players: the pot).
    """
    kernel.for_few_questions()  # a few sheets: a question or two each
    if pot is not None and pot < 0:
        _fail("--pot must be at least 0")
    kept_games = [read_game_file(g) for g in games]
    session = session_from(kept_games, pot)
    if len(games) == 1:
        result = score_json(kept_games[0])
        if as_json:
            print(json.dumps(result))
            return
        _print_score(f"Score: {', '.join(kept_games[0].players)}", result)
        _print_settlement(session)
        return
    per_game = [score_json(k) for k in kept_games]
    if as_json:
        print(json.dumps({
            "players": dict(zip(session.players, session.totals, strict=True)),
            "lines": [dict(line, game=i) for i, g in enumerate(per_game, start=1)
                      for line in g["lines"]],
            "games": [{"game": i, "file": str(path), "players": g["players"],
                       "running": dict(zip(session.players, run, strict=True))}
                      for i, (path, g, run) in enumerate(zip(games, per_game, session.running,
                                                             strict=True), start=1)],
            "settlement": session.settlement_json()}))
        return
    for i, (path, g) in enumerate(zip(games, per_game, strict=True), start=1):
        _print_score(f"Game {i}: {path.name}", g)
    table = Table(title="Running totals")
    table.add_column("game")
    for name in session.players:
        table.add_column(name, justify="right")
    for i, run in enumerate(session.running, start=1):
        table.add_row(str(i), *(_signed(v) for v in run))
    out.print(table)
    _print_settlement(session)


def _print_settlement(session: Session) -> None:
    if len(session.players) == 2:
        out.print(f"Settlement: {session.settlement()[0]}")
    else:
        lines = session.settlement()
        out.print(f"Settlement from a pot of {session.pot} each: "
                  + ", ".join(lines[:len(session.players)]))
        for notice in lines[len(session.players):]:
            out.print(notice[0].upper() + notice[1:])


def _print_score(title: str, result: dict[str, Any]) -> None:
    table = Table(title=title)
    table.add_column("player")
    table.add_column("points", justify="right")
    table.add_column("reason")
    for line in result["lines"]:
        table.add_row(line["player"], _signed(line["points"]), line["reason"])
    out.print(table)
    out.print("Totals: " + ", ".join(f"{name} {_signed(total)}"
                                     for name, total in result["players"].items()))


# ---------------------------------------------------------------------------- files


def load_tournament(path: Path) -> Tournament:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise TwinRackError("unreadable", f"cannot read {path}: {err.strerror or err}"
                            ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise TwinRackError("bad_tournament_file", f"{path} is not a tournament file: {err}"
                            ) from None
    if not isinstance(doc, dict):
        raise TwinRackError("bad_tournament_file", f"{path} is not a tournament file")
    try:
        return Tournament.from_json(doc)
    except TwinRackError as err:
        raise TwinRackError(err.code, f"{path}: {err.message}") from None


def save_tournament(t: Tournament, path: Path) -> None:
    """Write atomically: a crash never leaves half a file."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tournament-")
    except OSError as err:
        raise TwinRackError("unwritable", f"cannot write {path}: {err.strerror or err}"
                            ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(t.to_json(), f, indent=1)
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise TwinRackError("unwritable", f"cannot write {path}: {err.strerror or err}"
                            ) from None


def _change(path: Path, command: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Load, run one command all-or-nothing, save only when it succeeded."""
    t = load_tournament(path)

    def run(trial: Tournament) -> Any:
        trial.give_missing_codes()
        return command(trial, *args, **kwargs)

    result = atomic(t, run)
    save_tournament(t, path)
    return result


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def _games(numbers: list[int]) -> str:
    return ("game " if len(numbers) == 1 else "games ") + ", ".join(map(str, numbers))


def _points(t: Tournament, entry: GameEntry, round_no: int | None = None) -> str:
    r = round_no if round_no is not None else len(t.rounds)
    return ", ".join(f"{t.name_in(r, tag)} {_signed(pts)}" for tag, pts in entry.points.items())


def _print_check(seats: int, tables: int, rounds: int, moves: dict[str, int] | None) -> None:
    """What the movement repeats, and the best alternative when there is one."""
    check = plan_check(Movement.standard(seats, moves), tables, rounds)
    out.print(f"Check: {check.summary()}")
    if check.ok:
        return
    better = best_moves(seats, tables, rounds, moves)
    if better is None:
        out.print(f"No movement of this kind does better with {tables} tables of {seats} for "
                  f"{rounds} rounds")
        return
    alt = plan_check(Movement.standard(seats, better), tables, rounds)
    flags = " ".join(f"--move {k}={v}" for k, v in better.items() if k != "E")
    out.print(f"Best alternative: {flags} ({alt.summary()})")


# ---------------------------------------------------------------------------- tournament


@tournament_app.command("movement")
def movement(
    seats: Annotated[int, typer.Option("--seats", help="4 (standard) or 2 (Siamese)")] = 4,
    tables: Annotated[int, typer.Option("--tables", help="number of tables")] = 1,
    rounds: Annotated[int, typer.Option("--rounds", help="number of rounds")] = 1,
    move: MoveOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The seating of every round by nametag."""
    if seats not in (2, 4):
        _fail(f"--seats must be 4 or 2, not {seats}")
    if tables < 1 or rounds < 1:
        _fail("--tables and --rounds must be at least 1")
    moves = parse_moves(move)
    plan = movement_json(seats, tables, rounds, moves)
    if as_json:
        check = plan_check(Movement.standard(seats, moves), tables, rounds)
        better = None if check.ok else best_moves(seats, tables, rounds, moves)
        print(json.dumps({**plan, "check": check.to_json(), "best_moves": better}))
        return
    rounds_out: list[dict[str, Any]] = plan["rounds"]  # type: ignore[assignment]
    for r in rounds_out:
        table = Table(title=f"Round {r['round']}")
        table.add_column("table")
        letters = list(next(iter(r["tables"].values())))
        for letter in letters:
            table.add_column(letter)
        for t, seating in r["tables"].items():
            table.add_row(t, *[seating[x] for x in letters])
        out.print(table)
    _print_check(seats, tables, rounds, moves)


@tournament_app.command("new")
def new(path: FileArg,
        name: Annotated[str, typer.Option("--name", help="tournament name")],
        seats: Annotated[int, typer.Option("--seats", help="4 or 2 (Siamese)")] = 4,
        rounds: Annotated[int, typer.Option("--rounds")] = 4,
        minutes: Annotated[int, typer.Option("--minutes", help="minutes per round")] = 50,
        revision: Annotated[str, typer.Option("--revision", help="Siamese scoring rules of "
                                              "2-seat tables: 2024 or 2019")] = "2024",
        move: MoveOpt = None,
        max_value: Annotated[int | None, typer.Option(
            "--max-value", help="the highest card value in use (default 100): no game's value "
                                "may be higher")] = None,
        card: Annotated[str | None, typer.Option(
            "--card", help="\"practice\" or a card file: its highest line sets --max-value")]
        = None) -> None:
    """Create a tournament file."""
    if path.exists():
        _fail(f"{path} already exists")
    if max_value is not None and card is not None:
        _fail("give --card or --max-value, not both")
    if card is not None:
        max_value = highest_value(load_card(None if card == "practice" else Path(card)))
    if max_value is not None and not 1 <= max_value <= MAX_VALUE_LIMIT:
        _fail(f"--max-value must be from 1 to {MAX_VALUE_LIMIT}")
    if seats not in (2, 4):
        _fail(f"--seats must be 4 or 2, not {seats}")
    if rounds < 1 or minutes < 1:
        _fail("--rounds and --minutes must be at least 1")
    try:
        rules_from(revision=revision)  # the Siamese rules of 2-seat tables
    except RulesError as err:
        _fail(f"--revision: {err.message}")
    if not name.strip():
        _fail("--name must not be empty")
    t = Tournament(name.strip(), seats, rounds, minutes, revision, moves=parse_moves(move),
                   max_value=max_value if max_value is not None else DEFAULT_MAX_VALUE)
    moves = t.movement.moves  # checks the movement
    save_tournament(t, path)
    how = ", ".join(f"{k} {v:+d}" if v else f"{k} stays" for k, v in moves.items())
    out.print(f"Created {path}: {t.name}, {seats}-seat tables, {rounds} rounds of "
              f"{minutes} minutes, highest card value {t.max_value}; movement {how}")


@tournament_app.command("add")
def add(path: FileArg, names: Annotated[list[str], typer.Argument(help="player names")]) -> None:
    """Register players; nametags are given in order: 1E, 1S, 1W, 1N, 2E, ... on 4-seat
    tables, 1E, 1W, 2E, 2W, ... on 2-seat tables. Seats left empty are byes."""
    def add_all(t: Tournament, at: float) -> list[Any]:
        return [t.add_player(n, at) for n in names]

    for p in _change(path, add_all, time.time()):
        out.print(f"{p.name}: {p.nametag}")
    t = load_tournament(path)
    if len(t.players) % t.seats:
        out.print(f"{t.seats - len(t.players) % t.seats} seat(s) of table {t.tables} are "
                  "empty: byes, unless more players join or a substitute sits in")
    _print_check(t.seats, t.tables, t.rounds_planned, t.moves or None)


@tournament_app.command("start-round")
def start_round(path: FileArg) -> None:
    """Start the next round (its timer starts now)."""
    t = load_tournament(path)
    r = _change(path, Tournament.start_round, time.time())
    out.print(f"Round {r.number} started: {t.round_minutes} minutes")
    t = load_tournament(path)
    for table, empty in t.byes(r.number).items():
        players = [s.name for s in t.seated(r.number, table) if s.name]
        out.print(f"Table {table} does not play: seat {', '.join(empty)} is empty; a bye for "
                  f"{', '.join(players) or 'nobody'}")


@tournament_app.command("close-round")
def close_round(path: FileArg, force: Annotated[bool, typer.Option(
        "--force", help="lock even with unconfirmed wins or tables that entered no game")]
        = False) -> None:
    """Close and lock the open round; refused while a win is unconfirmed or a table entered
    no game, unless --force."""
    t = load_tournament(path)
    cur = t.current()
    problems = t.round_problems() if cur is not None and not cur.locked else []
    if problems and not force:
        _fail(f"round {len(t.rounds)} is not complete: {'; '.join(problems)} (--force locks "
              "it anyway)")
    r = _change(path, Tournament.close_round, time.time(), force=force)
    out.print(f"Round {r.number} closed and locked"
              + (f" with {len(problems)} open point(s): {'; '.join(problems)}"
                 if problems else ""))


@tournament_app.command("timer")
def timer(path: FileArg, as_json: JsonOpt = False) -> None:
    """Time left in the open round."""
    t = load_tournament(path)
    r = t.current()
    if r is not None and r.locked:
        _fail(f"no round is open: round {r.number} is closed; start the next one first")
    left = t.time_left(time.time())
    assert r is not None
    if as_json:
        print(json.dumps({"round": r.number, "seconds_left": round(left),
                          "time_up": left < 0}))
        return
    if left < 0:
        out.print(f"Round {r.number}: time is up ({_clock(-left)} ago); games finished now "
                  "score nothing unless the table is delayed")
    else:
        out.print(f"Round {r.number}: {_clock(left)} left")


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


@tournament_app.command("enter")
def enter(path: FileArg,
          table: Annotated[int, typer.Option("--table")],
          result: Annotated[str, typer.Option("--result", help="the game as JSON, e.g. "
                                              "'{\"winner\":\"Ann\",\"value\":25}'")],
          in_time: Annotated[bool, typer.Option(
              "--in-time", help="the game finished in time (default: judged by the clock "
                                "now)")] = False,
          after_time: Annotated[bool, typer.Option(
              "--after-time", help="the game finished after time")] = False) -> None:
    """Enter the next game of a table in the open round."""
    _one_of(in_time=in_time, after_time=after_time)
    finished = True if in_time else (False if after_time else None)
    doc = _json_arg("--result", result)
    t = load_tournament(path)
    g = _change(path, Tournament.enter_game, table, doc, time.time(),
                finished_in_time=finished)
    out.print(f"Table {table} game {g.number}: {_points(t, g)}"
              + (" (after time: no points)" if g.late else ""))


@tournament_app.command("confirm")
def confirm(path: FileArg, table: Annotated[int, typer.Option("--table")],
            game: Annotated[int, typer.Option("--game")],
            by: Annotated[str, typer.Option("--by", help="the signing player")],
            code: Annotated[str, typer.Option(
                "--code", help="the signing player's own code (on their nametag and the "
                               "table card)")]) -> None:
    """The player opposite the winner signs a win with their own code."""
    g = _change(path, Tournament.confirm, table, game, by, time.time(), code=code)
    t = load_tournament(path)
    out.print(f"Table {table} game {game} confirmed by "
              f"{t.name_in(len(t.rounds), g.confirmed_by)}")


@tournament_app.command("correct")
def correct(path: FileArg, round_no: Annotated[int, typer.Option("--round")],
            table: Annotated[int, typer.Option("--table")],
            game: Annotated[int, typer.Option("--game")],
            result: Annotated[str, typer.Option("--result")],
            reason: Annotated[str, typer.Option("--reason")],
            late: Annotated[bool, typer.Option(
                "--late", help="mark the game finished after time (default: as it was)")]
            = False,
            not_late: Annotated[bool, typer.Option(
                "--not-late", help="mark the game finished in time")] = False) -> None:
    """The director corrects a recorded game (kept in the audit trail)."""
    _one_of(late=late, not_late=not_late)
    doc = _json_arg("--result", result)
    g = _change(path, Tournament.correct_game, round_no, table, game, doc, time.time(), reason,
                True if late else (False if not_late else None))
    t = load_tournament(path)
    out.print(f"Corrected round {round_no} table {table} game {game}: "
              f"{_points(t, g, round_no)}"
              + (" (after time: no points)" if g.late else ""))


@tournament_app.command("delay")
def delay(path: FileArg, table: Annotated[int, typer.Option("--table")]) -> None:
    """Let a table delayed by a ruling finish its games after time."""
    restored = _change(path, Tournament.delay_table, table, time.time())
    out.print(f"Table {table} may finish after time"
              + (f"; {_games([g.number for g in restored])} scored again" if restored else ""))


@tournament_app.command("sheet")
def sheet(path: FileArg,
          round_no: Annotated[int | None, typer.Option("--round", help="default: the latest")]
          = None,
          table_no: Annotated[int | None, typer.Option("--table", help="default: every table")]
          = None,
          as_json: JsonOpt = False) -> None:
    """The score sheets of a round: who sits where, each game, its lines and signatures."""
    t = load_tournament(path)
    if not t.rounds:
        _fail("no round has been started")
    number = round_no if round_no is not None else len(t.rounds)
    r = t.round(number)
    tables = sorted(r.sheets) if table_no is None else [table_no]
    for n in tables:
        t.check_table(n)
    seating = t.seating(number)
    if as_json:
        print(json.dumps({"round": number, "locked": r.locked, "tables": {
            str(n): {"seats": seating[n], "plays": t.plays(number, n),
                     "games": [{"game": g.number, "points": g.points, "lines": g.lines,
                                "winner": g.winner, "outcome": outcome_text(t, number, g),
                                "hand": g.hand, "confirmed_by": g.confirmed_by,
                                "late": g.late} for g in r.sheets.get(n, [])]}
            for n in tables}}))
        return
    for n in tables:
        seats = t.seated(number, n)
        table = Table(title=f"Round {number}, table {n}"
                            + (" (locked)" if r.locked else "")
                            + ("" if t.plays(number, n) else " (a bye: a seat is empty)"))
        table.add_column("game")
        for s in seats:
            who = s.name if s.name is not None else "empty"
            table.add_column(f"{s.letter}: {who} ({s.tag})", justify="right")
        table.add_column("result")
        table.add_column("confirmed by")
        games = r.sheets.get(n, [])
        for g in games:
            mark = " (after time)" if g.late else ""
            signed = (t.name_in(number, g.confirmed_by) if g.confirmed_by
                      else ("not yet" if t.signer_of(number, n, g) else "no win to sign"))
            table.add_row(f"{g.number}{mark}", *(_signed(g.points.get(s.tag, 0))
                                                for s in seats),
                          outcome_text(t, number, g), signed)
        table.add_row("total", *(_signed(sum(g.points.get(s.tag, 0) for g in games))
                                 for s in seats), "", "")
        out.print(table)


@tournament_app.command("standings")
def standings(path: FileArg, as_json: JsonOpt = False,
              csv_out: Annotated[bool, typer.Option("--csv", help="print CSV")] = False,
              html_out: Annotated[bool, typer.Option(
                  "--html", help="print a printable HTML page")] = False) -> None:
    """Standings: total, then games won, then head-to-head."""
    _one_of(json=as_json, csv=csv_out, html=html_out)
    t = load_tournament(path)
    if csv_out:
        sys.stdout.write(standings_csv(t))
        return
    if html_out:
        sys.stdout.write(standings_html(t) + "\n")
        return
    rows = t.standings()
    if as_json:
        print(json.dumps({"standings": rows}))
        return
    table = Table(title=f"{t.name}: standings")
    for col in ("rank", "name", "nametag", "points", "wins", "games", "head_to_head"):
        table.add_column(col.replace("_", " "), justify="right" if col != "name" else "left")
    for r in rows:
        table.add_row(*(str(r[c]) for c in ("rank", "name", "nametag", "points", "wins",
                                            "games", "head_to_head")))
    out.print(table)


@tournament_app.command("audit")
def audit(path: FileArg, as_json: JsonOpt = False) -> None:
    """Everything the desk recorded, in order: who, when, what."""
    t = load_tournament(path)
    if as_json:
        print(json.dumps({"audit": [vars(a) for a in t.audit]}))
        return
    for a in t.audit:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(a.at))
        out.print(f"{when}  {a.who}: {a.action}: {a.detail}")


@tournament_app.command("seats")
def seats(path: FileArg,
          round_no: Annotated[int | None, typer.Option(
              "--round", help="default: the open round, or the next one")] = None,
          as_json: JsonOpt = False) -> None:
    """Find your seat: everyone in name order with their table and seat for a round."""
    t = load_tournament(path)
    cur = t.current()
    number = round_no if round_no is not None else (
        len(t.rounds) + 1 if cur is None or (cur.locked and len(t.rounds) < t.rounds_planned)
        else len(t.rounds))
    if not 1 <= number <= t.rounds_planned:
        _fail(f"--round: there is no round {number} (1-{t.rounds_planned})")
    rows = t.find_your_seat(number)
    if as_json:
        print(json.dumps({"round": number, "seats": rows}))
        return
    table = Table(title=f"{t.name}: find your seat, round {number}")
    for col in ("name", "nametag", "table", "seat", ""):
        table.add_column(col)
    for row in rows:
        table.add_row(row["name"], row["nametag"], str(row["table"] or ""), row["seat"] or "",
                      row["note"])
    out.print(table)


@tournament_app.command("withdraw")
def withdraw(path: FileArg, player: Annotated[str, typer.Argument(help="name or nametag")]
             ) -> None:
    """A player leaves: from the next round on their seat is empty; their games stand."""
    p = _change(path, Tournament.withdraw, player, time.time())
    out.print(f"{p.name} ({p.nametag}) withdraws from round {p.withdrawn_from} on")


@tournament_app.command("substitute")
def substitute(path: FileArg,
               seat: Annotated[str, typer.Option("--seat", help="the nametag of the seat")],
               name: Annotated[str, typer.Option("--name", help="the substitute's name")],
               round_no: Annotated[int | None, typer.Option(
                   "--round", help="default: the open round, or the next one")] = None
               ) -> None:
    """Seat a substitute for one round (not ranked; the seat's points count for nobody)."""
    t = load_tournament(path)
    cur = t.current()
    number = round_no if round_no is not None else (
        len(t.rounds) + 1 if cur is None or cur.locked else len(t.rounds))
    sub = _change(path, Tournament.substitute, seat, name, number, time.time())
    out.print(f"{sub.name} sits on seat {sub.nametag} in round {sub.round}; confirmation "
              f"code {sub.code}")


@tournament_app.command("nametags")
def nametags(path: FileArg, as_json: JsonOpt = False) -> None:
    """Each player's nametag and confirmation code, for printing nametags."""
    t = load_tournament(path)
    rows = [{"name": p.name, "nametag": p.nametag, "code": p.code} for p in t.players]
    if as_json:
        print(json.dumps({"nametags": rows}))
        return
    table = Table(title=f"{t.name}: nametags")
    for col in ("nametag", "name", "code"):
        table.add_column(col)
    for row in rows:
        table.add_row(row["nametag"], row["name"], row["code"] or "-")
    out.print(table)


@tournament_app.command("export")
def export(path: FileArg, folder: Annotated[Path, typer.Argument(help="where to write")]) -> None:
    """Write standings (CSV and HTML), games.csv, table cards, nametags, find-your-seat
    lists and each round's score sheets."""
    t = load_tournament(path)
    written = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        files = {"standings.csv": standings_csv(t), "games.csv": games_csv(t),
                 "standings.html": standings_html(t), "table-cards.html": table_cards_html(t),
                 "nametags.html": nametags_html(t),
                 "find-your-seat.html": find_your_seat_html(t)}
        for r in range(1, max(len(t.rounds), 1) + 1):
            files[f"score-sheets-round-{r}.html"] = score_sheets_html(t, r)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
            written.append(name)
    except OSError as err:
        _fail(f"cannot write to {folder}: {err.strerror or err}")
    out.print(f"Wrote {', '.join(written)} to {folder}")


def register(app: typer.Typer) -> None:
    app.command("score")(score)
    app.add_typer(tournament_app, name="tournament")
