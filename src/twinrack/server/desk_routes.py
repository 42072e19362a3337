"""The tournament desk's web pages: the director's view, a score-entry page per table, public
standings and the exports (docs/score-keeper.md describes the desk itself).

Every page is plain server-rendered HTML; every change is a form POST answered by a redirect
(or by the same page with the refusal, status 400). Links carry a key: the director's key
opens everything, the table key the score-entry pages; the standings need none.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.datastructures import FormData

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
from twinrack.desk.keeper import DEAD_CAUSES, DEFAULT_MAX_VALUE, SHEET_PENALTIES
from twinrack.desk.movement import Movement, best_moves, parse_moves, plan_check
from twinrack.desk.tournament import (
    GAMES_PER_ROUND,
    MAX_VALUE_LIMIT,
    DeskError,
    GameEntry,
    Round,
    Tournament,
)
from twinrack.desk.tournament_scoring import PENALTIES
from twinrack.engine.rules import REVISIONS
from twinrack.errors import TwinRackError
from twinrack.server.desk_store import (
    Check,
    Command,
    DeskStore,
    StaleForm,
    Stored,
    table_key_for,
)
from twinrack.server.hub import Hub

Page = Callable[..., HTMLResponse]

#: how many event lines the Siamese game-sheet form offers
SHEET_LINES = 6
FOUR_FLAGS = ("self_picked", "singles_and_pairs", "jokerless", "misnamed", "quint_two_exposures")
SHEET_FLAGS = ("jokerless", "closed", "self_picked", "singles_and_pairs", "double", "misnamed")
PENALTY_ROWS = 2
MAX_NAMES = 200
MAX_NAME_LENGTH = 60
MAX_REASON_LENGTH = 500


# ---------------------------------------------------------------------- form values


class Prefill:
    """What a form shows: the values just submitted, or those of a stored result."""

    def __init__(self, data: dict[str, list[str]] | None = None) -> None:
        self.data = data or {}

    @classmethod
    def of(cls, form: FormData) -> Prefill:
        data: dict[str, list[str]] = {}
        for k, v in form.multi_items():
            if isinstance(v, str):
                data.setdefault(k, []).append(v)
        return cls(data)

    def get(self, key: str, default: str = "") -> str:
        vals = self.data.get(key)
        return vals[0] if vals else default

    def getlist(self, key: str) -> list[str]:
        return list(self.data.get(key, []))

    def on(self, key: str) -> bool:
        return any(v not in ("", "0", "false", "off") for v in self.data.get(key, []))

    def has(self, key: str, value: str) -> bool:
        return value.lower() in (v.lower() for v in self.data.get(key, []))

    def set(self, key: str, *values: Any) -> None:
        self.data[key] = [str(v) for v in values]


def _number(text: str, field: str, what: str) -> Any:
    """A whole number from a form field; anything else is passed on for the model to refuse
    with its own message."""
    s = text.strip()
    if not s:
        raise DeskError("bad_value", f"{field}: enter {what}")
    if re.fullmatch(r"[+-]?\d{1,9}", s):
        return int(s)
    return s


def four_seat_result(f: Prefill) -> dict[str, Any]:
    """A 4-seat table's result (the section 11 tournament sheet) from the entry form."""
    end = f.get("end", "mahjongg")
    res: dict[str, Any] = {}
    if end == "mahjongg":
        winners = [w for w in f.getlist("winner") if w.strip()]
        if not winners:
            raise DeskError("bad_result", "winner: choose who made Mah Jongg, or choose "
                                          "wall game")
        res["winner"] = winners[0] if len(winners) == 1 else winners
        res["value"] = _number(f.get("value"), "value", "the card value of the winning hand")
        for flag in FOUR_FLAGS:
            if f.on(flag):
                res[flag] = True
        if f.get("discarder").strip():
            res["discarder"] = f.get("discarder")
        exposures = f.get("winner_exposures", "0").strip()
        if exposures not in ("", "0"):
            res["winner_exposures"] = _number(exposures, "winner_exposures",
                                              "the winner's exposures")
    elif end == "wall":
        res["wall_game"] = True
    elif end == "error":
        if not f.get("in_error").strip():
            raise DeskError("bad_result", "in_error: choose who declared Mah Jongg in error")
        res["in_error"] = f.get("in_error")
        destroyed = [x for x in f.getlist("wall_destroyed_by") if x.strip()]
        exposed = [x for x in f.getlist("exposed") if x.strip()]
        if destroyed:
            res["wall_destroyed_by"] = destroyed
        if exposed:
            res["exposed"] = exposed
    else:
        raise DeskError("bad_result", "end: a game ends with a Mah Jongg, a wall game or a "
                                      "Mah Jongg in error")
    dead = [x for x in f.getlist("dead") if x.strip()]
    if dead:
        res["dead"] = dead
    penalties = _penalty_rows(f)
    if penalties:
        res["penalties"] = penalties
    return res


def _penalty_rows(f: Prefill) -> list[dict[str, str]]:
    out = []
    for i in range(1, PENALTY_ROWS + 1):
        who, kind = f.get(f"pen{i}_player").strip(), f.get(f"pen{i}_kind").strip()
        if who or kind:
            if not who or not kind:
                raise DeskError("bad_result", f"penalty {i}: choose both the player and the "
                                              "penalty")
            out.append({"player": who, "kind": kind})
    return out


def sheet_result(f: Prefill, names: list[str]) -> tuple[dict[str, Any], list[int]]:
    """A 2-seat table's game sheet from the entry form, and the form line of each event."""
    events: list[dict[str, Any]] = []
    lines: list[int] = []
    for i in range(1, SHEET_LINES + 1):
        kind = f.get(f"ev{i}_kind").strip()
        if not kind:
            continue
        who = f.get(f"ev{i}_player").strip()
        if not who:
            raise DeskError("bad_result", f"line {i}: choose the player")
        rack = f.get(f"ev{i}_rack", "1")
        ev: dict[str, Any]
        if kind == "mahjongg":
            ev = {"mahjongg": who, "rack": _number(rack, f"line {i}: rack", "the rack"),
                  "value": _number(f.get(f"ev{i}_value"), f"line {i}: value",
                                   "the card value of the hand")}
            for flag in SHEET_FLAGS:
                if f.on(f"ev{i}_{flag}"):
                    ev[flag] = True
            if f.on(f"ev{i}_claimed"):
                others = [n for n in names if n.lower() != who.lower()]
                if len(others) == 1:
                    ev["discarder"] = others[0]
        elif kind == "dead":
            ev = {"dead": who, "rack": _number(rack, f"line {i}: rack", "the rack"),
                  "cause": f.get(f"ev{i}_cause", "other") or "other"}
        elif kind == "wrong_tile_count":
            ev = {"wrong_tile_count": who}
        elif kind == "penalty":
            ev = {"penalty": f.get(f"ev{i}_penalty"), "player": who}
        else:
            raise DeskError("bad_result", f"line {i}: unknown kind of event {kind!r}")
        events.append(ev)
        lines.append(i)
    if f.on("wall_game"):
        events.append({"wall_game": True})
        lines.append(SHEET_LINES + 1)
    return {"events": events}, lines


def _sheet_message(message: str, lines: list[int]) -> str:
    """The keeper names ``events[k]``; the form has numbered lines."""
    def repl(m: re.Match[str]) -> str:
        k = int(m.group(1))
        if k < len(lines):
            return "wall game" if lines[k] > SHEET_LINES else f"line {lines[k]}"
        return m.group(0)
    return re.sub(r"events\[(\d+)\]", repl, message)


def result_prefill(t: Tournament, result: dict[str, Any]) -> Prefill:
    """The entry form filled in with a stored result (for a correction)."""
    def name(who: Any) -> str:
        try:
            return t.player(str(who)).name
        except (DeskError, AttributeError):
            return str(who)

    def names(v: Any) -> list[str]:
        return [name(x) for x in ([v] if isinstance(v, str) else v or [])]

    f = Prefill()
    if t.seats == 4:
        if result.get("winner") is not None:
            f.set("end", "mahjongg")
            f.set("winner", *names(result["winner"]))
            f.set("value", result.get("value", ""))
            f.set("discarder", name(result["discarder"]) if result.get("discarder") else "")
            f.set("winner_exposures", result.get("winner_exposures", 0))
            for flag in FOUR_FLAGS:
                if result.get(flag):
                    f.set(flag, "on")
        elif result.get("in_error") is not None:
            f.set("end", "error")
            f.set("in_error", name(result["in_error"]))
            f.set("wall_destroyed_by", *names(result.get("wall_destroyed_by")))
            f.set("exposed", *names(result.get("exposed")))
        else:
            f.set("end", "wall")
        f.set("dead", *names(result.get("dead")))
        for i, p in enumerate(result.get("penalties") or [], start=1):
            if isinstance(p, dict):
                f.set(f"pen{i}_player", name(p.get("player")))
                f.set(f"pen{i}_kind", p.get("kind", ""))
        return f
    line = 0
    for ev in result.get("events") or []:
        if not isinstance(ev, dict):
            continue
        if ev.get("wall_game"):
            f.set("wall_game", "on")
            continue
        line += 1
        for kind in ("mahjongg", "dead", "wrong_tile_count"):
            if kind in ev:
                f.set(f"ev{line}_kind", kind)
                f.set(f"ev{line}_player", name(ev[kind]))
        if "penalty" in ev:
            f.set(f"ev{line}_kind", "penalty")
            f.set(f"ev{line}_player", name(ev.get("player")))
            f.set(f"ev{line}_penalty", ev["penalty"])
        f.set(f"ev{line}_rack", ev.get("rack", 1))
        if "value" in ev:
            f.set(f"ev{line}_value", ev["value"])
        if "cause" in ev:
            f.set(f"ev{line}_cause", ev["cause"])
        for flag in SHEET_FLAGS:
            if ev.get(flag):
                f.set(f"ev{line}_{flag}", "on")
        if ev.get("discarder"):
            f.set(f"ev{line}_claimed", "on")
    return f


# ---------------------------------------------------------------------- what the pages show


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


def _seats(t: Tournament, round_no: int, table: int) -> list[dict[str, Any]]:
    return [{"letter": s.letter, "name": s.name or "(empty seat)", "tag": s.tag,
             "substitute": s.substitute, "empty": s.name is None}
            for s in t.seated(round_no, table)]


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def sheet_view(t: Tournament, r: Round, table: int) -> dict[str, Any]:
    seats = _seats(t, r.number, table)
    games = []
    for g in r.sheets.get(table, []):
        games.append(_game_view(t, r, table, g, seats))
    totals = [_signed(sum(g.points.get(s["tag"], 0) for g in r.sheets.get(table, [])))
              for s in seats]
    return {"table": table, "round": r.number, "seats": seats, "games": games,
            "totals": totals, "delayed": table in r.delayed_tables, "locked": r.locked}


def _game_view(t: Tournament, r: Round, table: int, g: GameEntry,
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
        out.append({"table": table, "seats": _seats(t, r.number, table), "games": len(sheet),
                    "plays": t.plays(r.number, table),
                    "pending": [g.number for g in sheet
                                if t.signer_of(r.number, table, g) and not g.confirmed_by],
                    "late": [g.number for g in sheet if g.late],
                    "delayed": table in r.delayed_tables})
    return out


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


def _url(path: str, **params: Any) -> str:
    query = urlencode({k: v for k, v in params.items() if v is not None and v != ""})
    return f"{path}?{query}" if query else path


# ---------------------------------------------------------------------- routes


def register_desk(app: FastAPI, hub: Hub, page: Page) -> None:
    """The desk's routes, on the service's app and database."""
    store = DeskStore(hub)
    app.state.desk = store

    def base_of(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    def refused(request: Request, status: int, title: str, message: str,
                link: str | None = None) -> HTMLResponse:
        return page(request, "message.html", status=status, title=title, message=message,
                    link=link)

    async def opened(request: Request, tid: str, key: str | None,
                     roles: tuple[str, ...], table: int | None = None) -> Stored | HTMLResponse:
        stored = await store.load(tid)
        if stored is None:
            return refused(request, 404, "No such tournament",
                           "There is no tournament at this address.", "/desk")
        role = stored.role(key, table)
        if role not in roles:
            what = ("the director's link is needed here" if roles == ("director",)
                    else f"the director's link or table {table}'s own entry link is needed "
                         "here (each table has its own key)")
            return refused(request, 403, "Wrong key",
                           f"This link's key is not valid here: {what}. Nothing was changed.",
                           f"/desk/{tid}/standings")
        return stored

    async def run(tid: str, command: Command, check: Check | None = None,
                  director_key: str | None = None) -> Any:
        return await store.run(tid, command, check, director_key)

    # ------------------------------------------------------------------ list and create

    @app.get("/desk", response_class=HTMLResponse)
    async def desk_index(request: Request) -> HTMLResponse:
        return page(request, "desk/index.html", f=Prefill(), errors=[],
                    tournaments=await store.listing())

    @app.post("/desk", response_class=HTMLResponse)
    async def desk_create(request: Request) -> HTMLResponse:
        f = Prefill.of(await request.form())
        try:
            t = _new_tournament(f)
        except TwinRackError as err:
            return page(request, "desk/index.html", status=400, f=f, errors=[err.message],
                        tournaments=await store.listing())
        created = await store.create(t)
        base = base_of(request)
        return page(request, "desk/created.html", t=t, tid=created.id,
                    director_url=f"{base}{_url(f'/desk/{created.id}', key=created.director_key)}",
                    standings_url=f"{base}/desk/{created.id}/standings")

    # ------------------------------------------------------------------ director

    def director_page(request: Request, stored: Stored, key: str, *, status: int = 200,
                      errors: list[str] | None = None, f: Prefill | None = None,
                      done: str | None = None) -> HTMLResponse:
        t = stored.tournament
        now = store.clock()
        base = base_of(request)
        cur = t.current()
        rounds = [{"number": r.number, "locked": r.locked,
                   "sheets": [sheet_view(t, r, n) for n in sorted(t.seating(r.number))]}
                  for r in reversed(t.rounds)]
        can_start = ((cur is None or cur.locked) and len(t.rounds) < t.rounds_planned)
        return page(
            request, "desk/director.html", status=status, t=t, tid=stored.id, key=key,
            errors=errors or [], f=f or Prefill(), done=done,
            info=round_info(t, now), seen=director_seen(t), can_start=can_start,
            tables=table_status(t, cur) if cur is not None and not cur.locked else [],
            problems=t.round_problems() if cur is not None and not cur.locked else [],
            movement=_movement_note(t), players=_player_rows(t),
            rounds=rounds,
            table_links=[{"table": n, "key": table_key_for(key, n),
                          "url": base + _url(f"/desk/{stored.id}/table/{n}",
                                             key=table_key_for(key, n))}
                         for n in range(1, t.tables + 1)],
            director_url=f"{base}{_url(f'/desk/{stored.id}', key=key)}",
            standings_url=f"{base}/desk/{stored.id}/standings",
            seats_url=f"{base}/desk/{stored.id}/seats",
            audit=[{"when": _when(a.at), "who": a.who, "action": a.action, "detail": a.detail}
                   for a in reversed(t.audit)],
            sheet_rounds=list(range(1, t.rounds_planned + 1)))

    @app.get("/desk/{tid}", response_class=HTMLResponse)
    async def director(request: Request, tid: str, key: str | None = None,
                       done: str | None = None) -> HTMLResponse:
        stored = await opened(request, tid, key, ("director",))
        if isinstance(stored, HTMLResponse):
            return stored
        assert key is not None
        if not stored.keys_cover(stored.tournament.tables):
            await store.refresh_keys(tid, key)  # a tournament from before per-table keys
        return director_page(request, stored, key, done=_director_done(stored, done))

    def director_check(f: Prefill) -> Check:
        seen = _seen(f)

        def check(t: Tournament) -> str | None:
            if director_seen(t) == seen:
                return None
            return ("The tournament changed since this page was loaded (players or rounds). "
                    "Nothing was saved: check the page as it is now and try again.")
        return check

    async def director_command(request: Request, tid: str,
                               make: Callable[[Prefill], Command]) -> Response:
        """Run one director command from a form; the form's own checks come first."""
        f = Prefill.of(await request.form())
        key = f.get("key")
        stored = await opened(request, tid, key, ("director",))
        if isinstance(stored, HTMLResponse):
            return stored
        try:
            check = director_check(f)
            command = make(f)

            def logged(t: Tournament, at: float) -> tuple[int, int]:
                before = len(t.audit)
                command(t, at)
                return before, len(t.audit)
            first, last = await run(tid, logged, check, director_key=key)
        except TwinRackError as err:
            fresh = await store.load(tid)
            if fresh is None:
                return refused(request, 404, "No such tournament", err.message, "/desk")
            return director_page(request, fresh, key, errors=[err.message], f=f,
                                 status=409 if isinstance(err, StaleForm) else 400)
        return RedirectResponse(_url(f"/desk/{tid}", key=key, done=f"{first}-{last}"),
                                status_code=303)

    @app.post("/desk/{tid}/players", response_model=None)
    async def add_players(request: Request, tid: str) -> Response:
        def make(f: Prefill) -> Command:
            names = [n.strip() for n in f.get("names").splitlines() if n.strip()]
            if not names:
                raise DeskError("bad_name", "names: give at least one player's name, one a "
                                            "line")
            if len(names) > MAX_NAMES:
                raise DeskError("bad_name", f"names: at most {MAX_NAMES} at once")
            long = next((n for n in names if len(n) > MAX_NAME_LENGTH), None)
            if long is not None:
                raise DeskError("bad_name", f"names: {long[:20]!r}... is too long (at most "
                                            f"{MAX_NAME_LENGTH} characters)")

            def add_all(t: Tournament, at: float) -> list[Any]:
                return [t.add_player(n, at) for n in names]
            return add_all

        return await director_command(request, tid, make)

    @app.post("/desk/{tid}/start", response_model=None)
    async def start_round(request: Request, tid: str) -> Response:
        return await director_command(request, tid, lambda f: lambda t, at: t.start_round(at))

    @app.post("/desk/{tid}/close", response_model=None)
    async def close_round(request: Request, tid: str) -> Response:
        def make(f: Prefill) -> Command:
            force = f.on("force")

            def close(t: Tournament, at: float) -> Any:
                problems = t.round_problems()
                if problems and not force:
                    raise DeskError("round_incomplete",
                                    f"Round {len(t.rounds)} is not complete: "
                                    f"{'; '.join(problems)}. Tick \"lock anyway\" to close "
                                    "it as it is.")
                return t.close_round(at, force=force)
            return close
        return await director_command(request, tid, make)

    @app.post("/desk/{tid}/withdraw", response_model=None)
    async def withdraw(request: Request, tid: str) -> Response:
        def make(f: Prefill) -> Command:
            who = f.get("player").strip()
            if not who:
                raise DeskError("unknown_player", "withdraw: choose the player")
            return lambda t, at: t.withdraw(who, at)
        return await director_command(request, tid, make)

    @app.post("/desk/{tid}/substitute", response_model=None)
    async def substitute(request: Request, tid: str) -> Response:
        def make(f: Prefill) -> Command:
            seat, name = f.get("seat").strip(), f.get("sub_name").strip()
            round_no = _int_or_none(f.get("sub_round"))
            if not seat or round_no is None:
                raise DeskError("bad_seat", "substitute: give the seat (a nametag) and the "
                                            "round")
            if len(name) > MAX_NAME_LENGTH:
                raise DeskError("bad_name", f"substitute: at most {MAX_NAME_LENGTH} "
                                            "characters")
            return lambda t, at: t.substitute(seat, name, round_no, at)
        return await director_command(request, tid, make)

    @app.post("/desk/{tid}/delay", response_model=None)
    async def delay_table(request: Request, tid: str) -> Response:
        def command(f: Prefill) -> Command:
            table = _number(f.get("table"), "table", "the table number")
            if not isinstance(table, int):
                raise DeskError("unknown_table", f"table: {table!r} is not a table number")
            return lambda t, at: t.delay_table(table, at)
        return await director_command(request, tid, command)

    # ------------------------------------------------------------------ corrections

    def correct_page(request: Request, stored: Stored, key: str, round_no: int, table: int,
                     game: int, *, f: Prefill | None = None, errors: list[str] | None = None,
                     status: int = 200) -> HTMLResponse:
        t = stored.tournament
        try:
            r = t.round(round_no)
            t.check_table(table)
            sheet = r.sheets.get(table, [])
            if not 1 <= game <= len(sheet):
                raise DeskError("unknown_game", f"table {table} has no game {game} in round "
                                                f"{round_no}")
        except DeskError as err:
            return refused(request, 404, "No such game", err.message,
                           _url(f"/desk/{stored.id}", key=key))
        g = sheet[game - 1]
        seats = _seats(t, round_no, table)
        if f is None:
            f = result_prefill(t, g.result)
        return page(request, "desk/correct.html", status=status, t=t, tid=stored.id, key=key,
                    round_no=round_no, table=table, game=game, seats=seats, f=f,
                    errors=errors or [], entry=_game_view(t, r, table, g, seats),
                    seen=game_seen(t, round_no, table, game), **_form_choices(t))

    @app.get("/desk/{tid}/correct", response_class=HTMLResponse)
    async def correct_form(request: Request, tid: str, key: str | None = None,
                           round_no: Annotated[int, Query(alias="round")] = 1, table: int = 1,
                           game: int = 1) -> HTMLResponse:
        stored = await opened(request, tid, key, ("director",))
        if isinstance(stored, HTMLResponse):
            return stored
        assert key is not None
        return correct_page(request, stored, key, round_no, table, game)

    @app.post("/desk/{tid}/correct", response_model=None)
    async def correct(request: Request, tid: str) -> Response:
        f = Prefill.of(await request.form())
        key = f.get("key")
        stored = await opened(request, tid, key, ("director",))
        if isinstance(stored, HTMLResponse):
            return stored
        nums = [_int_or_none(f.get(x)) for x in ("round", "table", "game")]
        if any(n is None for n in nums):
            return refused(request, 400, "No such game", "round, table and game are numbers",
                           _url(f"/desk/{tid}", key=key))
        round_no, table, game = (int(n) for n in nums if n is not None)
        late = {"late": True, "in_time": False}.get(f.get("late"))
        lines: list[int] = []
        try:
            raw = f.get("result_json").strip()
            if raw:
                result = _json_result(raw)
            elif stored.tournament.seats == 4:
                result = four_seat_result(f)
            else:
                result, lines = sheet_result(
                    f, [s["name"] for s in _seats(stored.tournament, round_no, table)])
            seen = _seen(f)

            def check(t: Tournament) -> str | None:
                if game_seen(t, round_no, table, game) == seen:
                    return None
                return (f"Game {game} of table {table} in round {round_no} changed since this "
                        "page was loaded. Nothing was saved: check the game as it is now and "
                        "correct it again.")

            reason = f.get("reason")
            if len(reason) > MAX_REASON_LENGTH:
                raise DeskError("reason_too_long", f"reason: at most {MAX_REASON_LENGTH} "
                                                   "characters")

            def command(t: Tournament, at: float) -> tuple[int, int]:
                before = len(t.audit)
                t.correct_game(round_no, table, game, result, at, reason, late)
                return before, len(t.audit)
            first, last = await run(tid, command, check)
        except TwinRackError as err:
            fresh = await store.load(tid)
            assert fresh is not None
            return correct_page(request, fresh, key, round_no, table, game, f=f,
                                errors=[_sheet_message(err.message, lines)],
                                status=409 if isinstance(err, StaleForm) else 400)
        return RedirectResponse(_url(f"/desk/{tid}", key=key, done=f"{first}-{last}"),
                                status_code=303)

    # ------------------------------------------------------------------ exports

    @app.get("/desk/{tid}/export/{what}", response_model=None)
    async def export(request: Request, tid: str, what: str,
                     key: str | None = None) -> Response:
        stored = await opened(request, tid, key, ("director",))
        if isinstance(stored, HTMLResponse):
            return stored
        t = stored.tournament
        if what in ("standings.csv", "games.csv"):
            body = standings_csv(t) if what == "standings.csv" else games_csv(t)
            return PlainTextResponse(body, media_type="text/csv; charset=utf-8", headers={
                "Content-Disposition": f'attachment; filename="{what}"'})
        pages = {"table-cards.html": table_cards_html, "standings.html": standings_html,
                 "nametags.html": nametags_html, "find-your-seat.html": find_your_seat_html}
        if what in pages:
            return HTMLResponse(pages[what](t))
        m = re.fullmatch(r"score-sheets-round-(\d+)\.html", what)
        if m and 1 <= int(m.group(1)) <= t.rounds_planned and t.players:
            return HTMLResponse(score_sheets_html(t, int(m.group(1))))
        return refused(request, 404, "No such export",
                       "The exports are standings.csv, games.csv, standings.html, "
                       "table-cards.html, nametags.html, find-your-seat.html and "
                       "score-sheets-round-N.html for a planned round (with players "
                       "registered).", _url(f"/desk/{tid}", key=key))

    # ------------------------------------------------------------------ table entry

    def table_page(request: Request, stored: Stored, key: str, table: int, *,
                   f: Prefill | None = None, errors: list[str] | None = None,
                   status: int = 200, done: str | None = None) -> HTMLResponse:
        t = stored.tournament
        cur = t.current()
        sheet = sheet_view(t, cur, table) if cur is not None else None
        can_enter = (cur is not None and not cur.locked and t.plays(cur.number, table)
                     and len(cur.sheets.get(table, [])) < GAMES_PER_ROUND)
        return page(request, "desk/table.html", status=status, t=t, tid=stored.id, key=key,
                    table=table, sheet=sheet, info=round_info(t, store.clock()),
                    can_enter=can_enter, f=f or Prefill({"end": ["mahjongg"]}),
                    errors=errors or [], done=done, seen=table_seen(t, table),
                    next_game=len(cur.sheets.get(table, [])) + 1 if cur else 1,
                    plays=t.plays(cur.number, table) if cur else True,
                    seats=sheet["seats"] if sheet else [], **_form_choices(t))

    async def opened_table(request: Request, tid: str, key: str | None,
                           table: int) -> Stored | HTMLResponse:
        stored = await store.load(tid)
        if stored is not None:
            try:
                stored.tournament.check_table(table)
            except DeskError as err:
                return refused(request, 404, "No such table", err.message)
        return await opened(request, tid, key, ("director", "table"), table)

    @app.get("/desk/{tid}/table/{table}", response_class=HTMLResponse)
    async def table_entry(request: Request, tid: str, table: int, key: str | None = None,
                          done: str | None = None) -> HTMLResponse:
        stored = await opened_table(request, tid, key, table)
        if isinstance(stored, HTMLResponse):
            return stored
        assert key is not None
        return table_page(request, stored, key, table, done=_table_done(stored, table, done))

    def table_check(f: Prefill, table: int) -> Check:
        seen = _seen(f)

        def check(t: Tournament) -> str | None:
            if table_seen(t, table) == seen:
                return None
            return (f"The score sheet of table {table} changed since this page was loaded "
                    "(another phone or the director saved something). Nothing was saved: "
                    "check the sheet below and submit again.")
        return check

    async def table_command(request: Request, tid: str, table: int,
                            make: Callable[[Prefill, Tournament, str], tuple[Command, list[int]]],
                            done: str) -> Response:
        f = Prefill.of(await request.form())
        key = f.get("key")
        stored = await opened_table(request, tid, key, table)
        if isinstance(stored, HTMLResponse):
            return stored
        who = "director" if stored.role(key) == "director" else f"table {table}"
        lines: list[int] = []
        try:
            check = table_check(f, table)
            command, lines = make(f, stored.tournament, who)
            entry = await run(tid, command, check)
        except TwinRackError as err:
            fresh = await store.load(tid)
            assert fresh is not None
            return table_page(request, fresh, key, table, f=f,
                              errors=[_sheet_message(err.message, lines)],
                              status=409 if isinstance(err, StaleForm) else 400)
        return RedirectResponse(_url(f"/desk/{tid}/table/{table}", key=key,
                                     done=f"{done}-{entry.number}"), status_code=303)

    @app.post("/desk/{tid}/table/{table}/game", response_model=None)
    async def enter_game(request: Request, tid: str, table: int) -> Response:
        def make(f: Prefill, t: Tournament, who: str) -> tuple[Command, list[int]]:
            lines: list[int] = []
            if t.seats == 4:
                result = four_seat_result(f)
            else:
                cur = t.current()
                names = ([s["name"] for s in _seats(t, cur.number, table)]
                         if cur is not None else [])
                result, lines = sheet_result(f, names)
            return (lambda tt, at: tt.enter_game(table, result, at, who=who)), lines
        return await table_command(request, tid, table, make, "entered")

    @app.post("/desk/{tid}/table/{table}/confirm", response_model=None)
    async def confirm(request: Request, tid: str, table: int) -> Response:
        def make(f: Prefill, t: Tournament, who: str) -> tuple[Command, list[int]]:
            game = _int_or_none(f.get("game"))
            if game is None:
                raise DeskError("unknown_game", "game: which game is confirmed")
            by = f.get("by").strip()
            if not by:
                raise DeskError("unknown_player", "signed by: choose the name of the player "
                                                  "who confirms the win")
            code = f.get("code").strip()
            if not code:
                raise DeskError("wrong_code", "code: the player who signs types their own "
                                              "code (on their nametag and the table card)")
            store.check_code_attempts(tid, table)
            return (lambda tt, at: _confirm(store, tid, tt, table, game, by, at, code)), []
        return await table_command(request, tid, table, make, "confirmed")

    @app.get("/desk/{tid}/seats", response_class=HTMLResponse)
    async def seats(request: Request, tid: str,
                    round_no: Annotated[int | None, Query(alias="round")] = None
                    ) -> HTMLResponse:
        stored = await store.load(tid)
        if stored is None:
            return refused(request, 404, "No such tournament",
                           "There is no tournament at this address.", "/desk")
        t = stored.tournament
        cur = t.current()
        default = (len(t.rounds) + 1 if cur is None or (cur.locked and len(t.rounds)
                                                        < t.rounds_planned) else len(t.rounds))
        number = round_no if round_no is not None else default
        if not 1 <= number <= t.rounds_planned:
            return refused(request, 404, "No such round", f"There is no round {number} "
                           f"(1-{t.rounds_planned}).", f"/desk/{tid}/seats")
        return page(request, "desk/seats.html", t=t, tid=tid, round_no=number,
                    rows=t.find_your_seat(number),
                    round_numbers=list(range(1, t.rounds_planned + 1)))

    # ------------------------------------------------------------------ public standings

    @app.get("/desk/{tid}/standings", response_class=HTMLResponse)
    async def standings(request: Request, tid: str) -> HTMLResponse:
        stored = await store.load(tid)
        if stored is None:
            return refused(request, 404, "No such tournament",
                           "There is no tournament at this address.", "/desk")
        t = stored.tournament
        return page(request, "desk/standings.html", t=t, tid=tid, rows=t.standings(),
                    info=round_info(t, store.clock()))

    @app.get("/desk/{tid}/standings.json", response_model=None)
    async def standings_json(tid: str) -> Response:
        stored = await store.load(tid)
        if stored is None:
            return PlainTextResponse("no such tournament", status_code=404)
        t = stored.tournament
        return Response(json.dumps({"name": t.name, "rounds_played": len(t.rounds),
                                    "standings": t.standings()}),
                        media_type="application/json")



# ---------------------------------------------------------------------- helpers


def _confirm(store: DeskStore, tid: str, t: Tournament, table: int, game: int, by: str,
             at: float, code: str) -> GameEntry:
    """A confirmation; a wrong code is counted against the table (see
    :meth:`DeskStore.check_code_attempts`)."""
    try:
        return t.confirm(table, game, by, at, code=code)
    except DeskError as err:
        if err.code == "wrong_code":
            store.wrong_code(tid, table)
        raise


def _movement_note(t: Tournament) -> dict[str, Any] | None:
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


def _player_rows(t: Tournament) -> list[dict[str, Any]]:
    return [{"name": p.name, "nametag": p.nametag,
             "withdrawn": p.withdrawn_from} for p in t.players]


def _director_done(stored: Stored, done: str | None) -> str | None:
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


def _table_done(stored: Stored, table: int, done: str | None) -> str | None:
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


def _seen(f: Prefill) -> str:
    """What page a form came from: every form carries it, and a form without it is refused
    (it could not be checked for being out of date)."""
    seen = f.get("seen").strip()
    if not seen:
        raise DeskError("no_seen", "This form is missing what page it came from (seen), so it "
                                   "cannot be checked against the sheet as it is now. Nothing "
                                   "was saved: reload the page and submit again.")
    return seen


def _int_or_none(text: str) -> int | None:
    s = text.strip()
    return int(s) if re.fullmatch(r"\d{1,9}", s) else None


def _json_result(raw: str) -> dict[str, Any]:
    try:
        result = json.loads(raw)
    except json.JSONDecodeError as err:
        raise DeskError("bad_result", f"result (JSON): not valid JSON: {err.msg} (column "
                                      f"{err.colno})") from None
    if not isinstance(result, dict):
        raise DeskError("bad_result", "result (JSON): an object of fields")
    if result.get("card") not in (None, "practice"):
        raise DeskError("bad_result", "card: on the web desk only \"practice\" (or give each "
                                      "hand's value)")
    return result


def _new_tournament(f: Prefill) -> Tournament:
    name = f.get("name").strip()
    if not name:
        raise DeskError("bad_name", "name: the tournament needs a name")
    if len(name) > 120:
        raise DeskError("bad_name", "name: at most 120 characters")
    seats = _int_or_none(f.get("seats", "4"))
    if seats not in (2, 4):
        raise DeskError("bad_seats", "seats: 4 (standard tables) or 2 (Siamese tables)")
    rounds = _int_or_none(f.get("rounds", "4"))
    if rounds is None or not 1 <= rounds <= 30:
        raise DeskError("bad_rounds", "rounds: a whole number from 1 to 30")
    minutes = _int_or_none(f.get("minutes", "50"))
    if minutes is None or not 1 <= minutes <= 600:
        raise DeskError("bad_minutes", "minutes: a whole number from 1 to 600")
    revision = f.get("revision", "2024")
    if revision not in REVISIONS:
        raise DeskError("bad_revision", "revision: 2024 or 2019")
    moves = parse_moves(f.get("moves").replace(",", " ").split())
    max_value = _int_or_none(f.get("max_value", str(DEFAULT_MAX_VALUE)))
    if max_value is None or not 1 <= max_value <= MAX_VALUE_LIMIT:
        raise DeskError("bad_max_value", "highest card value: a whole number from 1 to "
                                         f"{MAX_VALUE_LIMIT}")
    t = Tournament(name, seats, rounds, minutes, revision, moves=moves, max_value=max_value)
    _ = t.movement  # checks the movement
    return t


def _form_choices(t: Tournament) -> dict[str, Any]:
    return {"penalty_kinds": [(k, f"{v[1]} ({v[0]})") for k, v in PENALTIES.items()],
            "sheet_penalties": [(k, f"{v[1]} ({v[0]})") for k, v in SHEET_PENALTIES.items()],
            "dead_causes": list(DEAD_CAUSES), "sheet_lines": list(range(1, SHEET_LINES + 1)),
            "penalty_rows": list(range(1, PENALTY_ROWS + 1))}
