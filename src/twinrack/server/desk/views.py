"""What the desk's pages show (docs/score-keeper.md): a round's clock, the score sheets, the
tables' status, the messages after a command, and the digests a form carries of the page
it was filled in on (a stale form is refused, never saved).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from typing import Any
from urllib.parse import urlencode

from twinrack.desk.export import outcome_text
from twinrack.desk.keeper import DEAD_CAUSES, SHEET_PENALTIES
from twinrack.desk.movement import Movement, best_moves, plan_check
from twinrack.desk.tournament import DeskError, GameEntry, Round, Tournament
from twinrack.engine.american import PENALTIES
from twinrack.server.desk.forms import PENALTY_ROWS, SHEET_LINES
from twinrack.server.desk.store import StoredTournament


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:16]


def table_seen(t: Tournament, table: int) -> str:
    """What a table's page was based on: the round and that table's sheet."""
    cur = t.current()
    if cur is None:
        return _digest(["no round"])
    sheet = cur.sheets.get(table, [])
    return _digest([cur.number, cur.locked, table in cur.delayed_tables,
                    [[g.number, g.points, g.confirmed_by, g.late] for g in sheet]])


def director_seen(t: Tournament) -> str:
    """What the director's round buttons were based on: the players and the rounds."""
    cur = t.current()
    return _digest([len(t.players), len(t.rounds), cur.locked if cur else None])


def game_seen(t: Tournament, round_no: int, table: int, game: int) -> str:
    try:
        g = t.round(round_no).sheets[table][game - 1]
    except (DeskError, KeyError, IndexError):
        return _digest(["no game"])
    return _digest([g.result, g.points, g.late, g.confirmed_by])


def clock_text(seconds: float) -> str:
    if seconds <= 0:
        return "time is up"
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d} left"


def round_info(t: Tournament, now: float) -> dict[str, Any]:
    cur = t.current()
    planned = t.rounds_planned
    if cur is None:
        return {"number": 0, "open": False, "text": f"Not started ({planned} rounds planned)",
                "seconds_left": None}
    if cur.locked:
        done = cur.number >= planned
        return {"number": cur.number, "open": False, "seconds_left": None,
                "text": "Final standings: all rounds played" if done
                else f"Round {cur.number} of {planned} closed"}
    left = t.time_left(now)
    return {"number": cur.number, "open": True, "seconds_left": round(left, 1),
            "clock": clock_text(left),
            "text": f"Round {cur.number} of {planned} in play"}


def seats_at(t: Tournament, round_no: int, table: int) -> list[dict[str, Any]]:
    return [{"letter": s.letter, "name": s.name or "(empty seat)", "tag": s.tag,
             "substitute": s.substitute, "empty": s.name is None}
            for s in t.seated(round_no, table)]


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def sheet_view(t: Tournament, r: Round, table: int) -> dict[str, Any]:
    seats = seats_at(t, r.number, table)
    games = []
    for g in r.sheets.get(table, []):
        games.append(game_view(t, r, table, g, seats))
    totals = [_signed(sum(g.points.get(s["tag"], 0) for g in r.sheets.get(table, [])))
              for s in seats]
    return {"table": table, "round": r.number, "seats": seats, "games": games,
            "totals": totals, "delayed": table in r.delayed_tables, "locked": r.locked}


def game_view(t: Tournament, r: Round, table: int, g: GameEntry,
               seats: list[dict[str, str]]) -> dict[str, Any]:
    signer = t.signer_of(r.number, table, g)
    return {"number": g.number, "points": [_signed(g.points.get(s["tag"], 0)) for s in seats],
            "winner": t.name_in(r.number, g.winner) if g.winner else None,
            "how": outcome_text(t, r.number, g), "hand": g.hand,
            "confirmed": t.name_in(r.number, g.confirmed_by) if g.confirmed_by else None,
            "signable": signer is not None,
            "opposite": signer.name if signer is not None else None, "late": g.late,
            "lines": [dict(line, signed=_signed(line["points"])) for line in g.lines],
            "result_json": json.dumps(g.result, sort_keys=True)}


def table_status(t: Tournament, r: Round) -> list[dict[str, Any]]:
    out = []
    for table in sorted(t.seating(r.number)):
        sheet = r.sheets.get(table, [])
        out.append({"table": table, "seats": seats_at(t, r.number, table), "games": len(sheet),
                    "plays": t.plays(r.number, table),
                    "pending": [g.number for g in sheet
                                if t.signer_of(r.number, table, g) and not g.confirmed_by],
                    "late": [g.number for g in sheet if g.late],
                    "delayed": table in r.delayed_tables})
    return out


def when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


def url(path: str, **params: Any) -> str:
    query = urlencode({k: v for k, v in params.items() if v is not None and v != ""})
    return f"{path}?{query}" if query else path


def movement_note(t: Tournament) -> dict[str, Any] | None:
    """What the movement repeats for this room, and the best alternative, if anything."""
    if not t.players:
        return None
    check = plan_check(t.movement, t.tables, t.rounds_planned)
    if check.ok:
        return None
    better = best_moves(t.seats, t.tables, t.rounds_planned, t.moves or None)
    alt = (" ".join(f"{k}={v}" for k, v in better.items() if k != "E") + " ("
           + plan_check(Movement.standard(t.seats, better), t.tables,
                        t.rounds_planned).summary() + ")") if better else None
    return {"summary": check.summary(), "better": alt}


def player_rows(t: Tournament) -> list[dict[str, Any]]:
    return [{"name": p.name, "nametag": p.nametag,
             "withdrawn": p.withdrawn_from} for p in t.players]


def director_done(stored: StoredTournament, done: str | None) -> str | None:
    """The message after a director's command: its entries in the audit trail."""
    m = re.fullmatch(r"(\d{1,6})-(\d{1,6})", done or "")
    audit = stored.tournament.audit
    if m is None:
        return None
    first, last = int(m.group(1)), int(m.group(2))
    if not 0 <= first < last <= len(audit):
        return None
    entries = [f"{a.action}: {a.detail}" for a in audit[first:last]]
    if len(entries) > 3:
        entries = [*entries[:2], f"... ({len(entries)} changes in all)", entries[-1]]
    return "; ".join(entries)


def table_done(stored: StoredTournament, table: int, done: str | None) -> str | None:
    """The message after a saved game or confirmation, from the stored sheet."""
    m = re.fullmatch(r"(entered|confirmed)-(\d{1,2})", done or "")
    t = stored.tournament
    cur = t.current()
    if m is None or cur is None:
        return None
    sheet = cur.sheets.get(table, [])
    n = int(m.group(2))
    if not 1 <= n <= len(sheet):
        return None
    g = sheet[n - 1]
    if m.group(1) == "confirmed":
        who = t.name_in(cur.number, g.confirmed_by) if g.confirmed_by else "nobody"
        return f"game {n} confirmed by {who}"
    points = ", ".join(f"{t.name_in(cur.number, tag)} {_signed(pts)}"
                       for tag, pts in g.points.items())
    return f"game {n}: {points}" + (" (after time: no points)" if g.late else "")


def form_choices(t: Tournament) -> dict[str, Any]:
    return {"penalty_kinds": [(k, f"{v[1]} ({v[0]})") for k, v in PENALTIES.items()],
            "sheet_penalties": [(k, f"{v[1]} ({v[0]})") for k, v in SHEET_PENALTIES.items()],
            "dead_causes": list(DEAD_CAUSES), "sheet_lines": list(range(1, SHEET_LINES + 1)),
            "penalty_rows": list(range(1, PENALTY_ROWS + 1))}
