"""Reading a tournament file: every field is checked before the desk uses it.

A tournament file is the desk's own JSON, but it is a file: it can be edited by hand, cut
short or mixed up with another. Anything that is not a tournament the desk could have
written is refused with one line naming the first bad field
(``not a tournament file: rounds[0].sheets.3[1].points: ...``), never a ``KeyError`` later.
"""

from __future__ import annotations

from typing import Any

from twinrack.desk.keeper import DEFAULT_MAX_VALUE
from twinrack.desk.movement import MovementError, parse_nametag
from twinrack.desk.tournament import (
    GAMES_PER_ROUND,
    MAX_VALUE_LIMIT,
    AuditEntry,
    DeskError,
    Entrant,
    GameEntry,
    Round,
    Substitute,
    Tournament,
)
from twinrack.engine.rules import REVISIONS

_TOP = {"name", "seats", "rounds_planned", "round_minutes", "revision", "moves", "max_value",
        "players", "substitutes", "rounds", "audit"}
_GAME = {"number", "result", "points", "lines", "winner", "entered_at", "late", "confirmed_by",
         "outcome", "hand"}
_LINE = {"nametag", "player", "points", "reason", "penalty"}


class _Bad(Exception):
    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")


def _obj(v: Any, where: str, keys: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise _Bad(where, "must be an object")
    for k in v:
        if k not in keys:
            raise _Bad(f"{where}.{k}" if where else k, "unknown field")
    for k in sorted(required):
        if k not in v:
            raise _Bad(f"{where}.{k}" if where else k, "missing")
    return v


def _list(v: Any, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise _Bad(where, "must be a list")
    return v


def _int(v: Any, where: str, low: int, high: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise _Bad(where, f"must be a whole number from {low} to {high}")
    return v


def _num(v: Any, where: str) -> float:
    if not isinstance(v, int | float) or isinstance(v, bool) or v != v:
        raise _Bad(where, "must be a number")
    return float(v)


def _str(v: Any, where: str, empty: bool = False) -> str:
    if not isinstance(v, str) or (not empty and not v.strip()):
        raise _Bad(where, "must be text" + ("" if empty else ", not empty"))
    return v


def _bool(v: Any, where: str) -> bool:
    if not isinstance(v, bool):
        raise _Bad(where, "must be true or false")
    return v


def tournament_from_json(doc: Any) -> Tournament:
    try:
        return _read(doc)
    except _Bad as err:
        raise DeskError("bad_tournament_file", f"not a tournament file: {err}") from None
    except MovementError as err:
        raise DeskError("bad_tournament_file", f"not a tournament file: moves: {err.message}"
                        ) from None


def _read(doc: Any) -> Tournament:
    doc = _obj(doc, "", _TOP, {"name"})
    seats = doc.get("seats", 4)
    if seats not in (2, 4) or isinstance(seats, bool):
        raise _Bad("seats", "must be 4 or 2")
    revision = doc.get("revision", "2024")
    if revision not in REVISIONS:
        raise _Bad("revision", "must be \"2024\" or \"2019\"")
    moves = doc.get("moves", {})
    if not isinstance(moves, dict):
        raise _Bad("moves", "must be an object of seat letters and steps")
    t = Tournament(
        name=_str(doc["name"], "name"), seats=seats,
        rounds_planned=_int(doc.get("rounds_planned", 4), "rounds_planned", 1, 1000),
        round_minutes=_int(doc.get("round_minutes", 50), "round_minutes", 1, 10_000),
        revision=revision, moves=dict(moves),
        max_value=_int(doc.get("max_value", DEFAULT_MAX_VALUE), "max_value", 1,
                       MAX_VALUE_LIMIT))
    _ = t.movement  # checks the moves
    t.players = [_player(p, f"players[{i}]", i, t) for i, p in
                 enumerate(_list(doc.get("players", []), "players"))]
    if len({p.name.lower() for p in t.players}) != len(t.players):
        raise _Bad("players", "two players have the same name")
    t.substitutes = [_substitute(x, f"substitutes[{i}]", t) for i, x in
                     enumerate(_list(doc.get("substitutes", []), "substitutes"))]
    t.rounds = []
    raw_rounds = _list(doc.get("rounds", []), "rounds")
    if len(raw_rounds) > t.rounds_planned:
        raise _Bad("rounds", f"{len(raw_rounds)} rounds of {t.rounds_planned} planned")
    for i, r in enumerate(raw_rounds):
        t.rounds.append(_round(r, f"rounds[{i}]", i + 1, t, last=i == len(raw_rounds) - 1))
    t.audit = [_audit(a, f"audit[{i}]") for i, a in enumerate(_list(doc.get("audit", []),
                                                                     "audit"))]
    return t


def _player(p: Any, where: str, i: int, t: Tournament) -> Entrant:
    p = _obj(p, where, {"name", "nametag", "code", "withdrawn_from"}, {"name", "nametag"})
    letters = t.movement.seats
    expected = f"{i // t.seats + 1}{letters[i % t.seats]}"
    if p["nametag"] != expected:
        raise _Bad(f"{where}.nametag", f"player {i + 1} has nametag {expected}, not "
                                       f"{p['nametag']!r}")
    withdrawn = p.get("withdrawn_from")
    if withdrawn is not None:
        _int(withdrawn, f"{where}.withdrawn_from", 1, t.rounds_planned)
    return Entrant(_str(p["name"], f"{where}.name"), expected,
                  _str(p.get("code", ""), f"{where}.code", empty=True), withdrawn)


def _substitute(x: Any, where: str, t: Tournament) -> Substitute:
    x = _obj(x, where, {"round", "nametag", "name", "code"}, {"round", "nametag", "name",
                                                              "code"})
    tag = _str(x["nametag"], f"{where}.nametag")
    try:
        table, _ = parse_nametag(tag, t.movement.seats)
    except MovementError as err:
        raise _Bad(f"{where}.nametag", err.message) from None
    if table > t.tables or tag != tag.upper():
        raise _Bad(f"{where}.nametag", f"no seat {tag} in a room of {t.tables} tables")
    return Substitute(_int(x["round"], f"{where}.round", 1, t.rounds_planned), tag,
                      _str(x["name"], f"{where}.name"), _str(x["code"], f"{where}.code"))


def _round(r: Any, where: str, number: int, t: Tournament, last: bool) -> Round:
    r = _obj(r, where, {"number", "started_at", "closed_at", "delayed_tables", "sheets"},
             {"number", "started_at"})
    if r["number"] != number:
        raise _Bad(f"{where}.number", f"must be {number}")
    closed = r.get("closed_at")
    if closed is None and not last:
        raise _Bad(f"{where}.closed_at", "only the latest round may be open")
    delayed = [_int(x, f"{where}.delayed_tables[{k}]", 1, t.tables)
               for k, x in enumerate(_list(r.get("delayed_tables", []),
                                           f"{where}.delayed_tables"))]
    sheets_raw = r.get("sheets", {})
    if not isinstance(sheets_raw, dict):
        raise _Bad(f"{where}.sheets", "must be an object of tables")
    seating = t.seating(number)
    sheets: dict[int, list[GameEntry]] = {}
    for key, games in sheets_raw.items():
        if not (isinstance(key, str | int) and str(key).isdigit()
                and 1 <= int(key) <= t.tables):
            raise _Bad(f"{where}.sheets.{key}", f"no table {key} (1-{t.tables})")
        table = int(key)
        here = f"{where}.sheets.{key}"
        games = _list(games, here)
        if len(games) > GAMES_PER_ROUND:
            raise _Bad(here, f"more than {GAMES_PER_ROUND} games")
        tags = list(seating[table].values())
        sheets[table] = [_game(g, f"{here}[{k}]", k + 1, tags) for k, g in enumerate(games)]
    return Round(number, _num(r["started_at"], f"{where}.started_at"),
                 None if closed is None else _num(closed, f"{where}.closed_at"), delayed,
                 sheets)


def _game(g: Any, where: str, number: int, tags: list[str]) -> GameEntry:
    g = _obj(g, where, _GAME, {"number", "result", "points", "lines", "winner", "entered_at"})
    if g["number"] != number:
        raise _Bad(f"{where}.number", f"must be {number}")
    result = g["result"]
    if not isinstance(result, dict):
        raise _Bad(f"{where}.result", "must be an object")
    points = g["points"]
    if not isinstance(points, dict) or sorted(points) != sorted(tags):
        raise _Bad(f"{where}.points", f"must give the points of {', '.join(tags)}")
    for tag, v in points.items():
        _int(v, f"{where}.points.{tag}", -10**6, 10**6)
    lines = []
    for k, line in enumerate(_list(g["lines"], f"{where}.lines")):
        here = f"{where}.lines[{k}]"
        line = _obj(line, here, _LINE, _LINE)
        if line["nametag"] not in tags:
            raise _Bad(f"{here}.nametag", f"not at this table ({', '.join(tags)})")
        _str(line["player"], f"{here}.player")
        _int(line["points"], f"{here}.points", -10**6, 10**6)
        _str(line["reason"], f"{here}.reason")
        _bool(line["penalty"], f"{here}.penalty")
        lines.append(dict(line))
    for tag in tags:
        if sum(x["points"] for x in lines if x["nametag"] == tag) != points[tag]:
            raise _Bad(f"{where}.points.{tag}", "is not the sum of its lines")
    for key in ("winner", "confirmed_by"):
        v = g.get(key)
        if v is not None and v not in tags:
            raise _Bad(f"{where}.{key}", f"not at this table ({', '.join(tags)})")
    return GameEntry(number, result, dict(points), lines, g["winner"],
                     _num(g["entered_at"], f"{where}.entered_at"),
                     _bool(g.get("late", False), f"{where}.late"), g.get("confirmed_by"),
                     _str(g.get("outcome", ""), f"{where}.outcome", empty=True),
                     _str(g.get("hand", ""), f"{where}.hand", empty=True))


def _audit(a: Any, where: str) -> AuditEntry:
    a = _obj(a, where, {"at", "who", "action", "detail"}, {"at", "who", "action", "detail"})
    return AuditEntry(_num(a["at"], f"{where}.at"), _str(a["who"], f"{where}.who"),
                      _str(a["action"], f"{where}.action"),
                      _str(a["detail"], f"{where}.detail", empty=True))
