"""The routes of a game: the table page, its WebSocket (docs/protocol.md), the replay page
and the game's JSON API (its record, the server's verification, the replay's frames, a
seat's review)."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from twinrack.card.sheet import sheet
from twinrack.errors import TwinRackError
from twinrack.server import accounts
from twinrack.server.chat.identity import sender_of
from twinrack.server.chat.wire import chat_command
from twinrack.server.deps import HubDep, LimitsDep, OwnerDep, PagesDep, Refused
from twinrack.server.guard import BadMessage, check_action, check_seat, read_message
from twinrack.server.table import wire
from twinrack.server.table.invites import MAX_TOKEN_CHARS, remember_seat, seat_cookie
from twinrack.server.table.live import LiveTable
from twinrack.server.table.seats import Connection, TableCommand
from twinrack.server.workers import JobFailed

log = logging.getLogger("twinrack.server")

router = APIRouter()


# ---------------------------------------------------------------------- guards


async def _table_page(game_id: str, hub: HubDep, page: PagesDep) -> LiveTable:
    """The game of a page's address, or the "no such table" page."""
    table = await hub.get(game_id)
    if table is None:
        raise page.refuse(404, "No such table", "There is no table at this address.")
    return table


async def _table_api(game_id: str, hub: HubDep) -> LiveTable:
    """The game of an API address, or a JSON 404."""
    table = await hub.get(game_id)
    if table is None:
        raise Refused(JSONResponse({"error": "no such game"}, status_code=404))
    return table


TablePage = Annotated[LiveTable, Depends(_table_page)]
TableApi = Annotated[LiveTable, Depends(_table_api)]


# ---------------------------------------------------------------------- pages


@router.get("/t/{game_id}", response_model=None)
async def table_page(request: Request, game_id: str, table: TablePage, hub: HubDep,
                     page: PagesDep, owner: OwnerDep, token: str | None = None) -> Response:
    """The table as the seat of the browser's seat cookie sees it (else a spectator). A
    token in the address (a link kept for another device) goes into that cookie, and the
    browser is sent on to the address without it: a copied address never hands over a
    seat."""
    if token is not None:
        if len(token) > MAX_TOKEN_CHARS or await hub.seat_for_token(game_id, token) is None:
            return page.message(403, "Not a seat at this table", "This link is not a seat "
                                "at this table. You can still watch the game.",
                                f"/t/{game_id}")
        resp: Response = RedirectResponse(f"/t/{game_id}", status_code=303)
        remember_seat(resp, request, game_id, token)
        return resp
    remembered = request.cookies.get(seat_cookie(game_id))
    my_seat = await hub.seat_for_token(game_id, remembered) if remembered else None
    if my_seat is not None and owner:
        await hub.claim_owner(game_id, my_seat, owner)
    if my_seat is not None:
        await accounts.seat_taken(request, game_id, my_seat)
    return page("table.html", game_id=game_id, token=remembered if my_seat is not None else "",
                seat=my_seat, names=[s.name for s in table.seats],
                worker=hub.owner_hint(game_id) or "")


@router.post("/t/{game_id}/rematch", response_model=None)
async def rematch(request: Request, game_id: str, table: TablePage, hub: HubDep,
                  page: PagesDep, limits: LimitsDep, owner: OwnerDep,
                  token: str = Form("", max_length=64)) -> Response:
    """The same seats, names, rules, card and call timer, a new seed: the first seat of a
    finished game to ask creates it (Hub.rematch), every seat is offered it on its table
    page, and each goes to its own seat there with its own token (Post/Redirect/Get)."""
    token = token or request.cookies.get(seat_cookie(game_id)) or ""
    seat = await hub.seat_for_token(game_id, token) if token else None
    if seat is None:
        return page.message(403, "Not a seat at this table", "Only the players of a game "
                            "can ask for a rematch.", f"/t/{game_id}")
    if not table.state.over:
        return page.message(409, "Not finished yet", "A rematch starts once this game has "
                            "ended.", f"/t/{game_id}")
    async with table.rematch_lock:
        if table.rematch is None and not limits.allow("tables"):
            return page.message(429, "Too many new tables", "Too many new tables from your "
                                "address in a short time: wait a minute and try again.",
                                f"/t/{game_id}")
        new_id = await hub.rematch(table, seat, owner)
    # the seat keeps its token at the rematch: in its cookie there, never in the address
    resp = RedirectResponse(f"/t/{new_id}", status_code=303)
    remember_seat(resp, request, new_id, token)
    return resp


@router.get("/t/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str, table: TablePage, hub: HubDep,
                      page: PagesDep) -> HTMLResponse:
    if not table.state.over:
        return page.message(403, "Not finished yet", "A game can be replayed with every hand "
                            "shown only once it has ended.", f"/t/{game_id}")
    # the review panel starts at the viewer's own seat when its browser holds one
    remembered = request.cookies.get(seat_cookie(game_id))
    seat = await hub.seat_for_token(game_id, remembered) if remembered else None
    return page("replay.html", game_id=game_id, seat=seat)


# ---------------------------------------------------------------------- the table channel


async def _admit(ws: WebSocket, table: LiveTable | None, seat: int | None, token: str | None,
                 protocol: str | None) -> bool:
    """Whether the socket may join the table; if not, it is told why and closed."""
    refusal: tuple[dict[str, Any], int] | None = None
    if protocol != str(wire.PROTOCOL):
        refusal = wire.protocol_refusal(protocol), wire.CLOSE_PROTOCOL
    elif table is None:
        refusal = ({"type": "error", "code": "no_table",
                    "message": "there is no such table"}, 4404)
    elif token and seat is None:
        refusal = ({"type": "error", "code": "bad_token",
                    "message": "this link is not a seat at this table"}, 4403)
    if refusal is not None:
        await ws.send_json(refusal[0])
        await ws.close(code=refusal[1])
    return refusal is None


def _answer(table: LiveTable, conn: Connection, seat: int | None, frame: Any,
            sender: tuple[str, str] | None = None) -> Any:
    """Take one frame from the browser: an action for the table, hints on or off, a chat
    line (server/chat), a ping; returns a coroutine to await when there is one."""
    msg = read_message(frame)
    kind = msg.get("type")
    if kind in ("chat", "chat_quiet"):
        table.submit(chat_command(msg, conn, sender))
    elif kind == "action":
        version, text, msg_id = check_action(msg)
        table.submit(TableCommand("action", seat=seat, version=version, msg_id=msg_id,
                                  text=text, conn=conn))
    elif kind == "hints":
        return table.set_hints(conn, msg.get("on") is True)
    elif kind == "always_ask":
        return table.set_always_ask(conn, msg.get("on") is True)
    elif kind == "auto_pass":
        return table.set_auto_pass(conn, msg.get("on") is True)
    elif kind == "start":
        msg_id = msg.get("msg_id")
        table.submit(TableCommand("start", conn=conn, msg_id=msg_id if isinstance(
            msg_id, str) and len(msg_id) <= 64 else None))
    elif kind == "hand_over":
        target, msg_id = check_seat(msg)
        table.submit(TableCommand("hand_over", seat=target, conn=conn, msg_id=msg_id))
    elif kind == "ping":
        conn.send({"type": "pong"})
    else:
        raise BadMessage("bad_message", "unknown message type (expected action, hints, "
                                        "always_ask, auto_pass, start, hand_over, chat, chat_quiet "
                                        "or ping)")
    return None


@router.websocket("/ws/{game_id}")
async def table_socket(ws: WebSocket, game_id: str, hub: HubDep, token: str | None = None,
                       protocol: str | None = None) -> None:
    table = await hub.get(game_id)
    await ws.accept()
    seat = await hub.seat_for_token(game_id, token) if token and table else None
    if not await _admit(ws, table, seat, token, protocol):
        return
    assert table is not None
    sender = await sender_of(ws) if seat is None else None  # a seat speaks as its seat
    conn = await table.join(ws, seat)
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            try:
                later = _answer(table, conn, seat, frame, sender)
                if later is not None:
                    await later
            except BadMessage as err:
                conn.send({"type": "error", "code": err.code, "message": err.message,
                           "msg_id": _msg_id_of(frame)})
    except WebSocketDisconnect:
        pass
    finally:
        table.leave(conn)


def _msg_id_of(frame: Any) -> str | None:
    """The message id of a refused message, when it has a usable one."""
    try:
        msg = read_message(frame)
    except BadMessage:
        return None
    m = msg.get("msg_id")
    return m if isinstance(m, str) and len(m) <= 64 else None


# ---------------------------------------------------------------------- the API


@router.get("/api/games/{game_id}/worker")
async def worker(game_id: str, hub: HubDep, table: TableApi) -> JSONResponse:
    """Which worker of a cluster runs the game now (null: any; a single process, or a game
    over): a page that reconnects puts it in its socket's address (docs/deploy.md)."""
    return JSONResponse({"worker": hub.owner_hint(game_id)},
                        headers={"Cache-Control": "no-store"})


@router.get("/api/games/{game_id}/card")
async def card(table: TableApi) -> JSONResponse:
    """The table's card by section (public: the same for every viewer), and whether every
    line may be played open under the table's rules (the view's ``open_lines``)."""
    return JSONResponse({**sheet(table.card), "open_lines": table.state.rules.open_lines})


@router.get("/api/games/{game_id}/record")
async def record(game_id: str, hub: HubDep, table: TableApi,
                 token: str | None = None) -> JSONResponse:
    """The record as the asking seat (by its token) may see it; the whole record once the
    game is over."""
    seat = await hub.seat_for_token(game_id, token) if token else None
    if token and seat is None:
        return JSONResponse({"error": "this token is not a seat at this table"},
                            status_code=403)
    return JSONResponse(await hub.record(game_id, seat))


@router.get("/api/games/{game_id}/verify")
async def verify_game(table: TableApi, hub: HubDep, limits: LimitsDep) -> JSONResponse:
    if not table.state.over:
        return JSONResponse({"ok": False, "problem": "the seed is revealed when the game "
                             "ends"}, status_code=409)
    if not limits.allow("replays"):
        return JSONResponse({"error": "too many requests: wait a minute"}, status_code=429)
    try:
        return JSONResponse(await hub.verify(table))
    except JobFailed as err:
        return JSONResponse({"error": err.message}, status_code=503)


@router.get("/api/games/{game_id}/replay")
async def replay_frames(table: TableApi, hub: HubDep, limits: LimitsDep) -> JSONResponse:
    if not table.state.over:
        return JSONResponse({"error": "the game has not ended"}, status_code=403)
    if table.id not in hub.replays and not limits.allow("replays"):
        return JSONResponse({"error": "too many requests: wait a minute"}, status_code=429)
    try:
        return JSONResponse(await hub.replay(table))
    except JobFailed as err:
        return JSONResponse({"error": err.message}, status_code=503)


@router.get("/api/games/{game_id}/review")
async def review(table: TableApi, hub: HubDep, limits: LimitsDep,
                 seat: str | None = None) -> JSONResponse:
    """One seat's decisions rated by the master (twinrack.bots.review), once the game is
    over: the three biggest mistakes in words, every rating and the chances to finish."""
    if not table.state.over:
        return JSONResponse({"error": "the game has not ended"}, status_code=403)
    seats = len(table.seats)
    if seat is None or not seat.isdigit() or int(seat) >= seats:
        return JSONResponse({"error": f"which seat? ask with ?seat=N, N from 0 to "
                             f"{seats - 1}"}, status_code=400)
    if (table.id, int(seat)) not in hub.reviews and not limits.allow("replays"):
        return JSONResponse({"error": "too many requests: wait a minute"}, status_code=429)
    try:
        return JSONResponse(await hub.reviews.of(table, int(seat)))
    except JobFailed as err:
        return JSONResponse({"error": err.message}, status_code=503)
    except TwinRackError as err:
        log.warning("review of %s seat %s: %s", table.id, seat, err.message)
        return JSONResponse({"error": err.message}, status_code=422)


@router.get("/healthz")
async def health(hub: HubDep) -> dict[str, Any]:
    """The service answers; in a cluster, the workers it sees and the tables each runs."""
    return await hub.health()
