"""Exports of the tournament desk: CSV files and printable score sheets and table cards."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from html import escape

from twinrack.desk.tournament import GAMES_PER_ROUND, Tournament

#: a text cell starting with one of these is run as a formula by spreadsheet programs
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: str | int) -> str | int:
    """A CSV cell that a spreadsheet shows as it is.

    Text that a spreadsheet would take for a formula (it starts with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return) gets a leading single quote, which spreadsheets show
    as text. Numbers (points may be negative) are written as numbers, never quoted: only text
    columns (names, nametags, flags) pass through here as text.
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


class _SafeWriter:
    """``csv.writer`` whose every text cell goes through :func:`csv_cell`."""

    def __init__(self, buf: io.StringIO) -> None:
        self._w = csv.writer(buf, lineterminator="\n")

    def writerow(self, row: Iterable[str | int]) -> None:
        self._w.writerow([csv_cell(v) for v in row])


def standings_csv(t: Tournament) -> str:
    buf = io.StringIO()
    w = _SafeWriter(buf)
    w.writerow(["rank", "name", "nametag", "points", "wins", "games", "head_to_head"])
    for row in t.standings():
        w.writerow([row["rank"], row["name"], row["nametag"], row["points"], row["wins"],
                    row["games"], row["head_to_head"]])
    return buf.getvalue()


def games_csv(t: Tournament) -> str:
    """Every recorded game, one row per player per game."""
    buf = io.StringIO()
    w = _SafeWriter(buf)
    w.writerow(["round", "table", "game", "nametag", "name", "points", "winner", "confirmed_by",
                "late"])
    names = {p.nametag: p.name for p in t.players}
    for r in t.rounds:
        for table in sorted(r.sheets):
            for g in r.sheets[table]:
                for tag, pts in g.points.items():
                    w.writerow([r.number, table, g.number, tag, names.get(tag, tag), pts,
                                g.winner or "", g.confirmed_by or "", "yes" if g.late else ""])
    return buf.getvalue()


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5cm; }
.page { page-break-after: always; margin-bottom: 2em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #333; padding: 0.4em 0.6em; text-align: left; }
th { background: #eee; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; color: #444; }
.big { font-size: 3em; font-weight: bold; }
"""


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}"
            f"</title><style>{_STYLE}</style></head><body>{body}</body></html>")


def score_sheets_html(t: Tournament, round_no: int) -> str:
    """One printable score sheet per table for a round (filled in where games are entered)."""
    seating = t.seating(round_no)
    names = {p.nametag: p.name for p in t.players}
    rnd = t.rounds[round_no - 1] if 0 < round_no <= len(t.rounds) else None
    pages = []
    for table in sorted(seating):
        seats = seating[table]
        head = "".join(f"<th>{letter}: {escape(names.get(tag, tag))} ({tag})</th>"
                       for letter, tag in seats.items())
        rows = []
        games = rnd.sheets.get(table, []) if rnd else []
        for n in range(1, GAMES_PER_ROUND + 1):
            g = games[n - 1] if n - 1 < len(games) else None
            cells = "".join(f"<td>{g.points.get(tag, 0) if g else ''}</td>"
                            for tag in seats.values())
            signed = (escape(names.get(g.confirmed_by, g.confirmed_by))
                      if g and g.confirmed_by else "")
            late = " (after time: no points)" if g and g.late else ""
            rows.append(f"<tr><td>Game {n}{late}</td>{cells}<td>{signed}</td></tr>")
        totals = "".join(f"<td>{sum(g.points.get(tag, 0) for g in games)}</td>"
                         for tag in seats.values())
        initials = "".join("<td></td>" for _ in seats)
        pages.append(
            f"<div class='page'><h1>{escape(t.name)}: score sheet</h1>"
            f"<h2>Round {round_no}, table {table}</h2>"
            f"<table><tr><th></th>{head}<th>win confirmed by</th></tr>{''.join(rows)}"
            f"<tr><th>Total</th>{totals}<td></td></tr>"
            f"<tr><th>Initials</th>{initials}<td></td></tr></table>"
            f"<p>The player opposite the winner signs each win. Wall games need no signature. "
            f"Scores lock when the director closes the round.</p></div>")
    return _page(f"{t.name}: round {round_no} score sheets", "".join(pages))


def table_cards_html(t: Tournament) -> str:
    """A card per table with who sits there in each round, for the tables themselves."""
    names = {p.nametag: p.name for p in t.players}
    plan = t.movement.plan(t.tables, t.rounds_planned)
    pages = []
    for table in range(1, t.tables + 1):
        rows = []
        for r, seating in enumerate(plan, start=1):
            cells = "".join(f"<td>{letter}: {escape(names.get(tag, tag))} ({tag})</td>"
                            for letter, tag in seating[table].items())
            rows.append(f"<tr><th>Round {r}</th>{cells}</tr>")
        pages.append(f"<div class='page'><p class='big'>Table {table}</p>"
                     f"<h2>{escape(t.name)}</h2><table>{''.join(rows)}</table></div>")
    return _page(f"{t.name}: table cards", "".join(pages))
