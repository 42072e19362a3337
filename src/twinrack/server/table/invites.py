"""The pages around a new table: the creator's page of invite links, and the page where an
invited friend chooses a name before taking the seat.

A seat's secret token is its key. The lobby's POST answers with a redirect to one of these
pages (Post/Redirect/Get), so that no address holds a token it did not hold before: the
creator's browser keeps its tokens in two cookies (its own seat's, for the table page, and
the invite links', for the page that shows them), and an invited friend's token is in the
invite link only: opening it puts the token in the seat cookie and sends the browser on
to the same address without it, so that it never stays in the address bar.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from twinrack.engine.rules import seat_wind
from twinrack.server.deps import HubDep, OwnerDep, Pages, PagesDep, https
from twinrack.server.hub import Hub
from twinrack.server.lobby.forms import MAX_NAME_CHARS, NotCreated, checked_name, friend_name
from twinrack.server.table.live import LiveTable

router = APIRouter()

#: the longest token a form may send (tokens are 24 characters)
MAX_TOKEN_CHARS = 100


def seat_cookie(game_id: str) -> str:
    """The cookie that keeps a browser's seat at one table (read by the table page)."""
    return f"twinrack_seat_{game_id}"


def host_cookie(game_id: str) -> str:
    """The cookie that keeps a table's invite links for the browser that created it."""
    return f"twinrack_host_{game_id}"


def remember_seat(resp: Response, request: Request, game_id: str, token: str) -> None:
    resp.set_cookie(seat_cookie(game_id), token, max_age=3600 * 24 * 60, httponly=True,
                    samesite="lax", path=f"/t/{game_id}", secure=https(request))


def remember_host(resp: Response, request: Request, game_id: str,
                  tokens: dict[int, str]) -> None:
    """Seat tokens as ``seat:token`` pairs joined by dots (tokens hold neither)."""
    value = ".".join(f"{s}:{t}" for s, t in sorted(tokens.items()))
    resp.set_cookie(host_cookie(game_id), value, max_age=3600 * 24 * 7, httponly=True,
                    samesite="strict", path=f"/t/{game_id}/ready", secure=https(request))


async def _host_tokens(request: Request, hub: Hub, game_id: str) -> dict[int, str]:
    """The tokens of the host cookie that are truly the seats they claim to be; empty
    unless the creator's own seat is among them."""
    raw = request.cookies.get(host_cookie(game_id), "")
    tokens: dict[int, str] = {}
    for pair in raw.split(".")[:8]:
        seat, _, token = pair.partition(":")
        if seat.isdigit() and token and await hub.seat_for_token(game_id, token) == int(seat):
            tokens[int(seat)] = token
    return tokens if 0 in tokens else {}


async def _table(hub: Hub, page: Pages, game_id: str) -> LiveTable:
    table = await hub.get(game_id)
    if table is None:
        raise page.refuse(404, "No such table", "There is no table at this address.")
    return table


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


@router.get("/t/{game_id}/ready", response_class=HTMLResponse)
async def ready(request: Request, game_id: str, hub: HubDep, page: PagesDep) -> HTMLResponse:
    """The creator's page of invite links: a GET page, so reloading it creates nothing."""
    table = await _table(hub, page, game_id)
    tokens = await _host_tokens(request, hub, game_id)
    if not tokens:
        return page.message(403, "Invite links", "Only the browser that created this table "
                            "sees its invite links.", f"/t/{game_id}")
    base = base_url(request)
    invites = [{"seat": s, "name": table.seats[s].name,
                "here": table.seats[s].connected > 0,
                "url": f"{base}/t/{game_id}/join?token={t}"}
               for s, t in sorted(tokens.items()) if s != 0]
    return page("created.html", invites=invites, table_url=f"/t/{game_id}",
                my_url=f"{base}/t/{game_id}?token={tokens[0]}")


@router.get("/t/{game_id}/join", response_model=None)
async def join(request: Request, game_id: str, hub: HubDep, page: PagesDep,
               token: str | None = None) -> Response:
    """An invite link: its token goes into the seat cookie and the browser is sent on to
    the address without it; there, the first time, a form to choose a name; then the
    table."""
    table = await _table(hub, page, game_id)
    if token is not None:
        seat = (await hub.seat_for_token(game_id, token)
                if len(token) <= MAX_TOKEN_CHARS else None)
        if seat is None:
            return page.message(403, "Not a seat at this table", "This invite link is not "
                                "valid for this table. You can still watch the game.",
                                f"/t/{game_id}")
        resp: Response = RedirectResponse(f"/t/{game_id}/join", status_code=303)
        remember_seat(resp, request, game_id, token)
        return resp
    token = request.cookies.get(seat_cookie(game_id))
    seat = await hub.seat_for_token(game_id, token) if token else None
    if seat is None or token is None:
        return page.message(403, "Not a seat at this table", "This browser holds no seat at "
                            "this table: open your invite link again. You can still watch "
                            "the game.", f"/t/{game_id}")
    if await hub.seat_taken(game_id, seat):
        return RedirectResponse(f"/t/{game_id}", status_code=303)
    name = table.seats[seat].name
    return await _join_page(hub, page, table, seat, token,
                            "" if name == friend_name(seat) else name, [])


async def _join_page(hub: Hub, page: Pages, table: LiveTable, seat: int, token: str,
                     name: str, errors: list[str]) -> HTMLResponse:
    """The invited friend's page: the table's variant, rules and card, who plays, whether
    play has started, and the name to choose."""
    others = [s.name for s in table.seats if s.seat != seat]
    rules = table.state.rules
    status = await hub.game_status(table.id)
    started = "over" if status is not None and status[0] != "playing" else (
        "waiting" if status is not None and status[1] else "playing")
    return page("join.html", status=400 if errors else 200, game_id=table.id, token=token,
                seat=seat, chosen=name, placeholder=friend_name(seat), others=others,
                errors=errors, max_name=MAX_NAME_CHARS, variant=rules.variant.title(),
                players=rules.players, revision=rules.revision, card=table.card.name,
                started=started, wind=seat_wind(seat, rules.players),
                grace=table.settings.grace_seconds, turn=table.settings.turn_seconds)


def _to_table(request: Request, game_id: str, token: str) -> RedirectResponse:
    resp = RedirectResponse(f"/t/{game_id}", status_code=303)
    remember_seat(resp, request, game_id, token)
    return resp


@router.post("/t/{game_id}/join", response_model=None)
async def choose_name(request: Request, game_id: str, hub: HubDep, page: PagesDep,
                      owner: OwnerDep, token: Annotated[str, Form()] = "",
                      name: Annotated[str, Form()] = "") -> Response:
    """The invited player's name, stored with the seat, then the table (Post/Redirect/Get)."""
    table = await _table(hub, page, game_id)
    seat = (await hub.seat_for_token(game_id, token)
            if token and len(token) <= MAX_TOKEN_CHARS else None)
    if seat is None or seat == 0:
        return page.message(403, "Not a seat at this table", "This invite link is not "
                            "valid for this table.", f"/t/{game_id}")
    try:
        chosen = checked_name(name, "")
        if not chosen:
            raise NotCreated("", "please write the name the other players will see")
    except NotCreated as err:
        return await _join_page(hub, page, table, seat, token, name[:MAX_NAME_CHARS * 2],
                                err.errors)
    await hub.name_seat(game_id, seat, chosen, owner)
    return _to_table(request, game_id, token)
