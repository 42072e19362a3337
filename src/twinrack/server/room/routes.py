"""The open room's routes (docs/room.md): the room page, quick match, taking a free seat.

Nothing here reads a game's tiles: the room lists tables from their stored settings
(variant, rules, card, seats) and hands out seats; the table page shows the game."""

from __future__ import annotations

import time
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from twinrack.card import practice_card
from twinrack.server import accounts
from twinrack.server.accounts.web import Visitor, VisitorDep, give_browser
from twinrack.server.deps import HubDep, LimitsDep
from twinrack.server.hub import Hub, NewSeat
from twinrack.server.lobby.forms import NotCreated, friend_name, variants
from twinrack.server.room import store
from twinrack.server.room.forms import (
    MAX_FIELD,
    REFUSED,
    ROOM_TURN_SECONDS,
    SEAT_REFUSED,
    WAIT_SECONDS,
    AlreadySeated,
    QuickForm,
)
from twinrack.server.table.invites import remember_host, remember_seat

router = APIRouter()

#: seconds since a visitor's last page of the room for them to count as online
ONLINE_SECONDS = 120.0
Field = Annotated[str, Form()]
NO_SEAT = SEAT_REFUSED


def _sitter(visitor: Visitor) -> store.Sitter:
    return store.Sitter(visitor.browser,
                        visitor.account.id if visitor.account is not None else None)


def _visitor_key(visitor: Visitor) -> tuple[str, str]:
    if visitor.account is not None:
        return f"a:{visitor.account.id}", visitor.account.name
    return f"b:{visitor.browser or visitor.secret}"[:64], "a guest"


def _render(request: Request, visitor: Visitor, name: str, status: int = 200,
            **ctx: Any) -> HTMLResponse:
    templates = request.app.state.templates
    resp: HTMLResponse = templates.TemplateResponse(
        request, name, {"me": visitor.account, "csrf": visitor.csrf, **ctx},
        status_code=status)
    give_browser(resp, visitor)
    return resp


async def _room(request: Request, hub: Hub, visitor: Visitor, form: QuickForm,
                refused: NotCreated | None = None) -> HTMLResponse:
    now = time.time()
    if visitor.new_browser is None:  # a browser counts from its second page (a client
        key, name = _visitor_key(visitor)  # keeping no cookie adds no row per request)
        await hub.db.run(store.touch, hub.db, key, name, now)
    tables = await hub.db.run(store.open_tables, hub.db, now, _sitter(visitor))
    names, count = await hub.db.run(store.online, hub.db, now, ONLINE_SECONDS)
    return _render(request, visitor, "room.html", status=refused.status if refused else 200,
                   tables=tables, watch=await hub.live_games(), online=names,
                   online_count=count, form=asdict(form), variants=variants(),
                   refused=refused, wait_default=int(WAIT_SECONDS),
                   turn_seconds=int(ROOM_TURN_SECONDS), max_field=MAX_FIELD)


@router.get("/room", response_class=HTMLResponse)
async def room(request: Request, hub: HubDep, visitor: VisitorDep) -> HTMLResponse:
    return await _room(request, hub, visitor, QuickForm())


async def _seated(request: Request, hub: Hub, visitor: Visitor, game_id: str, seat: int,
                  token: str, name: str) -> Response:
    """The seat is this visitor's: its cookie, its name, a signed-in player's account."""
    await hub.name_seat(game_id, seat, name, visitor.browser)
    resp = RedirectResponse(f"/t/{game_id}", status_code=303)
    remember_seat(resp, request, game_id, token)
    give_browser(resp, visitor)
    await accounts.seat_taken(request, game_id, seat)
    return resp


def _rated_check(visitor: Visitor, rated: bool) -> None:
    if rated and visitor.account is None:
        raise NotCreated(REFUSED, "rated tables are for signed-in players: sign in (or sign "
                                  "up), or choose an unrated table", status=403)


@router.post("/room/quick", response_model=None)
async def quick_match(request: Request, hub: HubDep, visitor: VisitorDep, limits: LimitsDep,
                      variant: Field = "siamese", players: Field = "2", rated: Field = "",
                      name: Field = "", wait_seconds: Field = "",
                      csrf: Field = "") -> Response:
    """Join the oldest open table that fits, or open one and wait in its waiting room."""
    # (the CSRF token was checked before the route: server/csrf.py)
    form = QuickForm(variant, players, rated, name, wait_seconds)
    try:
        rules = form.people_rules()
        wait = form.wait()
        _rated_check(visitor, form.is_rated)
        me = form.player_name(visitor.account.name if visitor.account else None)
        if not limits.allow("tables"):
            raise NotCreated(REFUSED, "too many quick matches from your address in a short "
                                      "time: wait a minute and try again", status=429)
        now, who = time.time(), _sitter(visitor)  # (never a second seat at one table)
        for game_id in await hub.db.run(store.fitting, hub.db, rules.variant, rules.players,
                                        form.is_rated, now, who, set()):
            try:
                got = await hub.db.run(store.take_seat, hub.db, game_id, None, now, who)
            except store.AlreadySeated:
                continue  # they took a seat there a moment ago: another table
            if got is not None:
                return await _seated(request, hub, visitor, game_id, got[0], got[1], me)
        if await hub.db.run(store.open_count, hub.db, now) >= store.MAX_OPEN_TABLES:
            raise NotCreated(REFUSED, "the room is full of open tables: take a seat at one",
                             status=503)
    except NotCreated as err:
        return await _room(request, hub, visitor, form, err)
    return await _open_table(request, hub, visitor, form.is_rated, rules, wait, me)


async def _open_table(request: Request, hub: Hub, visitor: Visitor, rated: bool, rules: Any,
                      wait: float, me: str) -> Response:
    """A new room table with the default card and the turn timer on; the host waits in its
    waiting room; after ``wait`` the computer takes the seats nobody took."""
    seats = [NewSeat(me, "human", visitor.browser)]
    seats += [NewSeat(friend_name(i), "human") for i in range(1, rules.players)]
    now = time.time()  # the wait's end is stored with the game: whichever worker runs
    settings = hub.table_settings(turn_seconds=ROOM_TURN_SECONDS,  # the table acts on it
                                  wait_until=now + wait)
    created = await hub.create(rules, practice_card(), seats, settings)
    game_id, tokens = created.game_id, created.tokens
    await hub.db.run(store.add_table, hub.db, store.NewRoomTable(
        game_id, rules.variant, rules.players, rated, me,
        visitor.account.id if visitor.account else None, wait,
        {s: t for s, t in tokens.items() if s != 0}), now)
    resp = RedirectResponse(f"/t/{game_id}", status_code=303)
    remember_seat(resp, request, game_id, tokens[0])
    remember_host(resp, request, game_id, tokens)
    give_browser(resp, visitor)
    await accounts.seat_taken(request, game_id, 0)
    return resp


@router.post("/room/t/{game_id}/seat", response_model=None)
async def take_seat(request: Request, game_id: str, hub: HubDep, visitor: VisitorDep,
                    limits: LimitsDep, seat: Field = "", name: Field = "",
                    csrf: Field = "") -> Response:
    """"Take a seat": a free seat of an open table (a rated one: signed-in players only)."""
    # (the CSRF token was checked before the route: server/csrf.py)
    form = QuickForm(name=name)
    try:
        form.check_sizes()
        if len(game_id) > 32 or not seat.isdigit() or len(seat) > 1:
            raise NotCreated(NO_SEAT, "choose a free seat of a table the room lists",
                             status=404)
        found = await hub.db.run(store.room_table, hub.db, game_id)
        if found is None:
            raise NotCreated(NO_SEAT, "that table is not in the room", status=404)
        _rated_check(visitor, bool(found["rated"]))
        me = form.player_name(visitor.account.name if visitor.account else None)
        if not limits.allow("tables"):
            raise NotCreated(NO_SEAT, "too many seats taken from your address in a short "
                                      "time: wait a minute", status=429)
        try:
            got = await hub.db.run(store.take_seat, hub.db, game_id, int(seat), time.time(),
                                   _sitter(visitor))
        except store.AlreadySeated as held:
            raise AlreadySeated(held.seat) from None
        if got is None:
            raise NotCreated(NO_SEAT, "someone else took it, or the table started: choose "
                                      "another", status=409)
    except NotCreated as err:
        return await _room(request, hub, visitor, QuickForm(), err)
    return await _seated(request, hub, visitor, game_id, got[0], got[1], me)
