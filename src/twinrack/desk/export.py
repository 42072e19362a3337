"""Exports of the tournament desk: CSV files and printable score sheets and table cards."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from html import escape

from twinrack.desk.tournament import GAMES_PER_ROUND, GameEntry, Occupant, Tournament

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
    writer = _SafeWriter(buf)
    writer.writerow(["rank", "name", "nametag", "points", "wins", "games", "head_to_head"])
    for row in t.standings():
        writer.writerow([row["rank"], row["name"], row["nametag"], row["points"], row["wins"],
                    row["games"], row["head_to_head"]])
    return buf.getvalue()


def games_csv(t: Tournament) -> str:
    """Every recorded game, one row per player per game."""
    buf = io.StringIO()
    writer = _SafeWriter(buf)
    writer.writerow(["round", "table", "game", "nametag", "name", "points", "winner",
                     "confirmed_by", "late"])
    names = {p.nametag: p.name for p in t.players}
    for r in t.rounds:
        for table in sorted(r.sheets):
            for g in r.sheets[table]:
                for tag, pts in g.points.items():
                    writer.writerow([r.number, table, g.number, tag, names.get(tag, tag), pts,
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
.tag-card { display: inline-block; width: 8cm; margin: 0.3cm; padding: 0.4cm;
            border: 1px dashed #333; page-break-inside: avoid; }
.tag-card .name { font-size: 1.6em; } .code { font-family: monospace; font-size: 1.3em; }
"""


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}"
            f"</title><style>{_STYLE}</style></head><body>{body}</body></html>")


def _seat_label(s: Occupant) -> str:
    if s.name is None:
        return f"{s.letter}: empty seat ({s.tag})"
    return (f"{s.letter}: {escape(s.name)} ({s.tag}"
            + (", substitute)" if s.substitute else ")"))


def score_sheets_html(t: Tournament, round_no: int) -> str:
    """One printable score sheet per table for a round (filled in where games are entered):
    each game's points, how it ended and the winning hand, and who signed it."""
    rnd = t.rounds[round_no - 1] if 0 < round_no <= len(t.rounds) else None
    pages = []
    for table in range(1, t.tables + 1):
        seats = t.seated(round_no, table)
        head = "".join(f"<th>{_seat_label(s)}</th>" for s in seats)
        rows = []
        games = rnd.sheets.get(table, []) if rnd else []
        for n in range(1, GAMES_PER_ROUND + 1):
            g = games[n - 1] if n - 1 < len(games) else None
            cells = "".join(f"<td>{g.points.get(s.tag, 0) if g else ''}</td>" for s in seats)
            signed = (escape(t.name_in(round_no, g.confirmed_by))
                      if g and g.confirmed_by else "")
            late = " (after time: no points)" if g and g.late else ""
            how = escape(outcome_text(t, round_no, g)) if g else ""
            hand = escape(g.hand) if g else ""
            rows.append(f"<tr><td>Game {n}{late}</td>{cells}<td>{how}</td><td>{hand}</td>"
                        f"<td>{signed}</td></tr>")
        totals = "".join(f"<td>{sum(g.points.get(s.tag, 0) for g in games)}</td>"
                         for s in seats)
        initials = "".join("<td></td>" for _ in seats)
        bye = ("" if t.plays(round_no, table) else
               "<p><strong>This table does not play this round: a seat is empty (a bye). "
               "</strong></p>")
        pages.append(
            f"<div class='page'><h1>{escape(t.name)}: score sheet</h1>"
            f"<h2>Round {round_no}, table {table}</h2>{bye}"
            f"<table><tr><th></th>{head}<th>result</th><th>hand</th><th>win confirmed by</th>"
            f"</tr>{''.join(rows)}"
            f"<tr><th>Total</th>{totals}<td></td><td></td><td></td></tr>"
            f"<tr><th>Initials</th>{initials}<td></td><td></td><td></td></tr></table>"
            f"<p>The player opposite the winner signs each win with their own code. Wall games "
            f"need no signature. Scores lock when the director closes the round.</p></div>")
    return _page(f"{t.name}: round {round_no} score sheets", "".join(pages))


def outcome_text(t: Tournament, round_no: int, g: GameEntry) -> str:
    """How a game ended, in words (older files did not keep it)."""
    if g.outcome:
        return g.outcome
    return f"{t.name_in(round_no, g.winner)} won" if g.winner else "no win"


def standings_html(t: Tournament) -> str:
    """The standings, printable."""
    rows = "".join(
        f"<tr><td>{r['rank']}</td><td>{escape(r['name'])}</td><td>{r['nametag']}</td>"
        f"<td>{r['points']}</td><td>{r['wins']}</td><td>{r['games']}</td>"
        f"<td>{r['head_to_head']}</td></tr>" for r in t.standings())
    played = len(t.rounds)
    return _page(f"{t.name}: standings",
                 f"<h1>{escape(t.name)}: standings</h1><h2>after {played} of "
                 f"{t.rounds_planned} rounds</h2><table><tr><th>rank</th><th>name</th>"
                 f"<th>nametag</th><th>points</th><th>wins</th><th>games</th>"
                 f"<th>head to head</th></tr>{rows}</table>"
                 "<p>Ranked by points, then games won, then head-to-head.</p>")


def nametags_html(t: Tournament) -> str:
    """A nametag per player: name, nametag and the code that signs confirmations."""
    tags = "".join(
        f"<div class='tag-card'><p class='big'>{p.nametag}</p><p class='name'>"
        f"{escape(p.name)}</p><p>Confirmation code: <strong class='code'>"
        f"{escape(p.code) or '-'}</strong></p></div>" for p in t.players)
    subs = "".join(
        f"<div class='tag-card'><p class='big'>{x.nametag}</p><p class='name'>"
        f"{escape(x.name)}</p><p>Substitute, round {x.round}</p><p>Confirmation code: "
        f"<strong class='code'>{escape(x.code)}</strong></p></div>" for x in t.substitutes)
    return _page(f"{t.name}: nametags",
                 f"<h1>{escape(t.name)}: nametags</h1>"
                 "<p>Keep your code to yourself: it signs the wins of the player opposite "
                 f"you.</p>{tags}{subs}")


def find_your_seat_html(t: Tournament) -> str:
    """A page per round: everyone in name order, with their table and seat."""
    pages = []
    for r in range(1, t.rounds_planned + 1):
        rows = "".join(
            f"<tr><td>{escape(x['name'])}</td><td>{x['nametag']}</td>"
            f"<td>{x['table'] or ''}</td><td>{x['seat'] or ''}</td>"
            f"<td>{escape(x['note'])}</td></tr>" for x in t.find_your_seat(r))
        pages.append(f"<div class='page'><h1>{escape(t.name)}: find your seat</h1>"
                     f"<h2>Round {r}</h2><table><tr><th>name</th><th>nametag</th>"
                     f"<th>table</th><th>seat</th><th></th></tr>{rows}</table></div>")
    return _page(f"{t.name}: find your seat", "".join(pages))


def table_cards_html(t: Tournament) -> str:
    """A card per table with who sits there in each round and their confirmation codes."""
    pages = []
    for table in range(1, t.tables + 1):
        rows = []
        for r in range(1, t.rounds_planned + 1):
            cells = "".join(f"<td>{_seat_label(s)}"
                            + (f" code {escape(s.code)}" if s.code else "") + "</td>"
                            for s in t.seated(r, table))
            rows.append(f"<tr><th>Round {r}</th>{cells}</tr>")
        pages.append(f"<div class='page'><p class='big'>Table {table}</p>"
                     f"<h2>{escape(t.name)}</h2><table>{''.join(rows)}</table></div>")
    return _page(f"{t.name}: table cards", "".join(pages))
