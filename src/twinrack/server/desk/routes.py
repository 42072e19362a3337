"""The tournament desk's web pages: the director's view, a score-entry page per table, public
standings and the exports (docs/score-keeper.md describes the desk itself).

Every page is plain server-rendered HTML; every change is a form POST answered by a redirect
(or by the same page with the refusal, status 400). Links carry a key: the director's key
opens everything, the table key the score-entry pages; the standings need none.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from twinrack.desk.export import (
    find_your_seat_html,
    games_csv,
    nametags_html,
    score_sheets_html,
    standings_csv,
    standings_html,
    table_cards_html,
)
from twinrack.desk.tournament import DeskError, GameEntry, Tournament
from twinrack.errors import TwinRackError
from twinrack.server.deps import DeskDep, PagesDep
from twinrack.server.desk.forms import (
    MAX_NAME_LENGTH,
    MAX_NAMES,
    MAX_REASON_LENGTH,
    Prefill,
    four_seat_result,
    json_result,
    new_tournament,
    number_field,
    seen_of,
    sheet_message,
    sheet_result,
    whole_number,
)
from twinrack.server.desk.pages import DeskPagesDep
from twinrack.server.desk.store import DeskCommand, DeskStore, FormCheck, StaleForm
from twinrack.server.desk.views import (
    director_done,
    director_seen,
    game_seen,
    round_info,
    seats_at,
    table_done,
    table_seen,
    url,
)

router = APIRouter()


async def _form(request: Request) -> Prefill:
    return Prefill.of(await request.form())


#: a submitted form, as the page shows it again when it is refused
FormDep = Annotated[Prefill, Depends(_form)]
#: makes a director's command from the form (raises the form's own refusal)
MakeCommand = Callable[[Prefill], DeskCommand]
#: makes a table's command from the form, the tournament and who enters it; with the form
#: line of each event (to name lines in the refusal)
MakeEntry = Callable[[Prefill, Tournament, str], tuple[DeskCommand, list[int]]]


def _logged(command: DeskCommand) -> DeskCommand:
    """The command, answering which entries of the audit trail it wrote."""
    def run(t: Tournament, at: float) -> tuple[int, int]:
        before = len(t.audit)
        command(t, at)
        return before, len(t.audit)
    return run


def _stale(seen: str, now_seen: Callable[[Tournament], str], message: str) -> FormCheck:
    """The check that a form was filled in on the page as it still is."""
    return lambda t: None if now_seen(t) == seen else message


# ---------------------------------------------------------------------- list and create


@router.get("/desk", response_class=HTMLResponse)
async def desk_index(store: DeskDep, page: PagesDep) -> HTMLResponse:
    return page("desk/index.html", f=Prefill(), errors=[], tournaments=await store.listing())


@router.post("/desk", response_model=None)
async def desk_create(f: FormDep, store: DeskDep, page: PagesDep) -> Response:
    """A new tournament, answered by a redirect to its "created" page (Post/Redirect/Get:
    reloading that page creates nothing)."""
    try:
        t = new_tournament(f)
    except TwinRackError as err:
        return page("desk/index.html", status=400, f=f, errors=[err.message],
                    tournaments=await store.listing())
    created = await store.create(t)
    return RedirectResponse(url(f"/desk/{created.id}/created", key=created.director_key),
                            status_code=303)


@router.get("/desk/{tid}/created", response_class=HTMLResponse)
async def desk_created(tid: str, page: PagesDep, pages: DeskPagesDep,
                       key: str | None = None) -> HTMLResponse:
    """The links of a tournament just created, for the director's key only."""
    stored = await pages.opened(tid, key, ("director",))
    assert key is not None
    return page("desk/created.html", t=stored.tournament, tid=tid,
                director_url=f"{pages.base}{url(f'/desk/{tid}', key=key)}",
                standings_url=f"{pages.base}/desk/{tid}/standings")


# ---------------------------------------------------------------------- the director


@router.get("/desk/{tid}", response_class=HTMLResponse)
async def director(tid: str, store: DeskDep, pages: DeskPagesDep, key: str | None = None,
                   done: str | None = None) -> HTMLResponse:
    stored = await pages.opened(tid, key, ("director",))
    assert key is not None
    if not stored.keys_cover(stored.tournament.tables):
        await store.refresh_keys(tid, key)  # a tournament from before per-table keys
    return pages.director(stored, key, done=director_done(stored, done))


async def _director_command(tid: str, f: Prefill, pages: DeskPagesDep,
                            make: MakeCommand) -> Response:
    """Run one director command from a form; the form's own checks come first."""
    key = f.get("key")
    await pages.opened(tid, key, ("director",))
    try:
        check = _stale(seen_of(f), director_seen, "The tournament changed since this page was "
                       "loaded (players or rounds). Nothing was saved: check the page as it "
                       "is now and try again.")
        command = make(f)
        first, last = await pages.store.run(tid, _logged(command), check, director_key=key)
    except TwinRackError as err:
        fresh = await pages.store.load(tid)
        if fresh is None:
            raise pages.no_tournament(err.message) from None
        return pages.director(fresh, key, errors=[err.message], f=f,
                              status=409 if isinstance(err, StaleForm) else 400)
    return RedirectResponse(url(f"/desk/{tid}", key=key, done=f"{first}-{last}"),
                            status_code=303)


def _add_players(f: Prefill) -> DeskCommand:
    names = [n.strip() for n in f.get("names").splitlines() if n.strip()]
    if not names:
        raise DeskError("bad_name", "names: give at least one player's name, one a line")
    if len(names) > MAX_NAMES:
        raise DeskError("bad_name", f"names: at most {MAX_NAMES} at once")
    long = next((n for n in names if len(n) > MAX_NAME_LENGTH), None)
    if long is not None:
        raise DeskError("bad_name", f"names: {long[:20]!r}... is too long (at most "
                                    f"{MAX_NAME_LENGTH} characters)")
    return lambda t, at: [t.add_player(n, at) for n in names]


def _close_round(f: Prefill) -> DeskCommand:
    force = f.on("force")

    def close(t: Tournament, at: float) -> Any:
        problems = t.round_problems()
        if problems and not force:
            raise DeskError("round_incomplete", f"Round {len(t.rounds)} is not complete: "
                                                f"{'; '.join(problems)}. Tick \"lock anyway\" "
                                                "to close it as it is.")
        return t.close_round(at, force=force)
    return close


def _withdraw(f: Prefill) -> DeskCommand:
    who = f.get("player").strip()
    if not who:
        raise DeskError("unknown_player", "withdraw: choose the player")
    return lambda t, at: t.withdraw(who, at)


def _substitute(f: Prefill) -> DeskCommand:
    seat, name = f.get("seat").strip(), f.get("sub_name").strip()
    round_no = whole_number(f.get("sub_round"))
    if not seat or round_no is None:
        raise DeskError("bad_seat", "substitute: give the seat (a nametag) and the round")
    if len(name) > MAX_NAME_LENGTH:
        raise DeskError("bad_name", f"substitute: at most {MAX_NAME_LENGTH} characters")
    return lambda t, at: t.substitute(seat, name, round_no, at)


def _delay(f: Prefill) -> DeskCommand:
    table = number_field(f.get("table"), "table", "the table number")
    if not isinstance(table, int):
        raise DeskError("unknown_table", f"table: {table!r} is not a table number")
    return lambda t, at: t.delay_table(table, at)


@router.post("/desk/{tid}/players", response_model=None)
async def add_players(tid: str, f: FormDep, pages: DeskPagesDep) -> Response:
    return await _director_command(tid, f, pages, _add_players)


@router.post("/desk/{tid}/start", response_model=None)
async def start_round(tid: str, f: FormDep, pages: DeskPagesDep) -> Response:
    return await _director_command(tid, f, pages, lambda f: lambda t, at: t.start_round(at))


@router.post("/desk/{tid}/close", response_model=None)
async def close_round(tid: str, f: FormDep, pages: DeskPagesDep) -> Response:
    return await _director_command(tid, f, pages, _close_round)


@router.post("/desk/{tid}/withdraw", response_model=None)
async def withdraw(tid: str, f: FormDep, pages: DeskPagesDep) -> Response:
    return await _director_command(tid, f, pages, _withdraw)


@router.post("/desk/{tid}/substitute", response_model=None)
async def substitute(tid: str, f: FormDep, pages: DeskPagesDep) -> Response:
    return await _director_command(tid, f, pages, _substitute)


@router.post("/desk/{tid}/delay", response_model=None)
async def delay_table(tid: str, f: FormDep, pages: DeskPagesDep) -> Response:
    return await _director_command(tid, f, pages, _delay)


# ---------------------------------------------------------------------- corrections


@router.get("/desk/{tid}/correct", response_class=HTMLResponse)
async def correct_form(tid: str, pages: DeskPagesDep, key: str | None = None,
                       round_no: Annotated[int, Query(alias="round")] = 1, table: int = 1,
                       game: int = 1) -> HTMLResponse:
    stored = await pages.opened(tid, key, ("director",))
    assert key is not None
    return pages.correction(stored, key, round_no, table, game)


def _correction(f: Prefill, t: Tournament, round_no: int, table: int, game: int,
                lines: list[int]) -> tuple[DeskCommand, FormCheck]:
    """The correction a form asks for (its result as JSON, or the entry form's fields) and
    the check that the game is still as the form saw it; ``lines`` gets the form line of
    each event of a game sheet."""
    raw = f.get("result_json").strip()
    if raw:
        result = json_result(raw)
    elif t.seats == 4:
        result = four_seat_result(f)
    else:
        result, sheet_lines = sheet_result(f, [s["name"] for s in seats_at(t, round_no, table)])
        lines.extend(sheet_lines)
    check = _stale(seen_of(f), lambda tt: game_seen(tt, round_no, table, game),
                   f"Game {game} of table {table} in round {round_no} changed since this page "
                   "was loaded. Nothing was saved: check the game as it is now and correct it "
                   "again.")
    reason = f.get("reason")
    if len(reason) > MAX_REASON_LENGTH:
        raise DeskError("reason_too_long", f"reason: at most {MAX_REASON_LENGTH} characters")
    late = {"late": True, "in_time": False}.get(f.get("late"))
    return _logged(lambda tt, at: tt.correct_game(round_no, table, game, result, at, reason,
                                                  late)), check


@router.post("/desk/{tid}/correct", response_model=None)
async def correct(tid: str, f: FormDep, pages: DeskPagesDep) -> Response:
    key = f.get("key")
    stored = await pages.opened(tid, key, ("director",))
    nums = [whole_number(f.get(x)) for x in ("round", "table", "game")]
    if any(n is None for n in nums):
        return pages.page.message(400, "No such game", "round, table and game are numbers",
                                  url(f"/desk/{tid}", key=key))
    round_no, table, game = (int(n) for n in nums if n is not None)
    lines: list[int] = []
    try:
        command, check = _correction(f, stored.tournament, round_no, table, game, lines)
        first, last = await pages.store.run(tid, command, check)
    except TwinRackError as err:
        fresh = await pages.store.load(tid)
        assert fresh is not None
        return pages.correction(fresh, key, round_no, table, game, f=f,
                                errors=[sheet_message(err.message, lines)],
                                status=409 if isinstance(err, StaleForm) else 400)
    return RedirectResponse(url(f"/desk/{tid}", key=key, done=f"{first}-{last}"),
                            status_code=303)


# ---------------------------------------------------------------------- exports

#: the exports that are one page of the tournament
EXPORT_PAGES = {"table-cards.html": table_cards_html, "standings.html": standings_html,
                "nametags.html": nametags_html, "find-your-seat.html": find_your_seat_html}


@router.get("/desk/{tid}/export/{what}", response_model=None)
async def export(tid: str, what: str, pages: DeskPagesDep, key: str | None = None) -> Response:
    t = (await pages.opened(tid, key, ("director",))).tournament
    if what in ("standings.csv", "games.csv"):
        body = standings_csv(t) if what == "standings.csv" else games_csv(t)
        return PlainTextResponse(body, media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{what}"'})
    if what in EXPORT_PAGES:
        return HTMLResponse(EXPORT_PAGES[what](t))
    m = re.fullmatch(r"score-sheets-round-(\d+)\.html", what)
    if m and 1 <= int(m.group(1)) <= t.rounds_planned and t.players:
        return HTMLResponse(score_sheets_html(t, int(m.group(1))))
    return pages.page.message(404, "No such export", "The exports are standings.csv, "
                              "games.csv, standings.html, table-cards.html, nametags.html, "
                              "find-your-seat.html and score-sheets-round-N.html for a planned "
                              "round (with players registered).", url(f"/desk/{tid}", key=key))


# ---------------------------------------------------------------------- table entry


@router.get("/desk/{tid}/table/{table}", response_class=HTMLResponse)
async def table_entry(tid: str, table: int, pages: DeskPagesDep, key: str | None = None,
                      done: str | None = None) -> HTMLResponse:
    stored = await pages.opened_table(tid, key, table)
    assert key is not None
    return pages.table(stored, key, table, done=table_done(stored, table, done))


async def _table_command(tid: str, table: int, f: Prefill, pages: DeskPagesDep,
                         make: MakeEntry, done: str) -> Response:
    """Run one command of a table's score-entry page (the director may use it too)."""
    key = f.get("key")
    stored = await pages.opened_table(tid, key, table)
    who = "director" if stored.role(key) == "director" else f"table {table}"
    lines: list[int] = []
    try:
        check = _stale(seen_of(f), lambda t: table_seen(t, table), f"The score sheet of "
                       f"table {table} changed since this page was loaded (another phone or the "
                       "director saved something). Nothing was saved: check the sheet below "
                       "and submit again.")
        command, lines = make(f, stored.tournament, who)
        entry = await pages.store.run(tid, command, check)
    except TwinRackError as err:
        fresh = await pages.store.load(tid)
        assert fresh is not None
        return pages.table(fresh, key, table, f=f, errors=[sheet_message(err.message, lines)],
                           status=409 if isinstance(err, StaleForm) else 400)
    return RedirectResponse(url(f"/desk/{tid}/table/{table}", key=key,
                                done=f"{done}-{entry.number}"), status_code=303)


@router.post("/desk/{tid}/table/{table}/game", response_model=None)
async def enter_game(tid: str, table: int, f: FormDep, pages: DeskPagesDep) -> Response:
    def make(f: Prefill, t: Tournament, who: str) -> tuple[DeskCommand, list[int]]:
        lines: list[int] = []
        if t.seats == 4:
            result = four_seat_result(f)
        else:
            cur = t.current()
            names = [s["name"] for s in seats_at(t, cur.number, table)] if cur else []
            result, lines = sheet_result(f, names)
        return (lambda tt, at: tt.enter_game(table, result, at, who=who)), lines
    return await _table_command(tid, table, f, pages, make, "entered")


@router.post("/desk/{tid}/table/{table}/confirm", response_model=None)
async def confirm(tid: str, table: int, f: FormDep, pages: DeskPagesDep) -> Response:
    def make(f: Prefill, t: Tournament, who: str) -> tuple[DeskCommand, list[int]]:
        game = whole_number(f.get("game"))
        if game is None:
            raise DeskError("unknown_game", "game: which game is confirmed")
        by = f.get("by").strip()
        if not by:
            raise DeskError("unknown_player", "signed by: choose the name of the player who "
                                              "confirms the win")
        code = f.get("code").strip()
        if not code:
            raise DeskError("wrong_code", "code: the player who signs types their own code "
                                          "(on their nametag and the table card)")
        pages.store.check_code_attempts(tid, table)
        return (lambda tt, at: _confirm(pages.store, tid, tt, table, game, by, at, code)), []
    return await _table_command(tid, table, f, pages, make, "confirmed")


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


# ---------------------------------------------------------------------- public pages


@router.get("/desk/{tid}/seats", response_class=HTMLResponse)
async def seats(tid: str, store: DeskDep, pages: DeskPagesDep,
                round_no: Annotated[int | None, Query(alias="round")] = None) -> HTMLResponse:
    stored = await store.load(tid)
    if stored is None:
        raise pages.no_tournament()
    t = stored.tournament
    cur = t.current()
    default = (len(t.rounds) + 1 if cur is None or (cur.locked and len(t.rounds)
                                                    < t.rounds_planned) else len(t.rounds))
    number = round_no if round_no is not None else default
    if not 1 <= number <= t.rounds_planned:
        return pages.page.message(404, "No such round", f"There is no round {number} "
                                  f"(1-{t.rounds_planned}).", f"/desk/{tid}/seats")
    return pages.page("desk/seats.html", t=t, tid=tid, round_no=number,
                      rows=t.find_your_seat(number),
                      round_numbers=list(range(1, t.rounds_planned + 1)))


@router.get("/desk/{tid}/standings", response_class=HTMLResponse)
async def standings(tid: str, store: DeskDep, pages: DeskPagesDep) -> HTMLResponse:
    stored = await store.load(tid)
    if stored is None:
        raise pages.no_tournament()
    t = stored.tournament
    return pages.page("desk/standings.html", t=t, tid=tid, rows=t.standings(),
                      info=round_info(t, store.clock()))


@router.get("/desk/{tid}/standings.json", response_model=None)
async def standings_json(tid: str, store: DeskDep) -> Response:
    stored = await store.load(tid)
    if stored is None:
        return PlainTextResponse("no such tournament", status_code=404)
    t = stored.tournament
    return Response(json.dumps({"name": t.name, "rounds_played": len(t.rounds),
                                "standings": t.standings()}), media_type="application/json")
