"""Chat's HTTP routes (docs/protocol.md, "Chat"): the recent lines of a table (as its
viewer may read them) or of a channel such as the room, saying a line in a channel,
reporting a line, and a signed-in player's mutes. A table's lines are said over its
WebSocket (server/chat/table_chat.py), never here.

The POST routes take JSON only, from this site's own pages: a request whose Origin or
Sec-Fetch-Site header names another site is refused, and another site's form cannot send
``application/json`` (docs/security.md, "Chat")."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from twinrack.server.chat.channel import Channel
from twinrack.server.chat.identity import account_id_of, sender_of
from twinrack.server.chat.rules import MAX_CHARS, PHRASES, ChatRefused
from twinrack.server.chat.store import ChatStore
from twinrack.server.chat.table_chat import HOST, readable
from twinrack.server.deps import HubDep, LimitsDep, client_of

router = APIRouter()

#: the largest JSON body these routes read
MAX_BODY = 2_048
NO_STORE = {"Cache-Control": "no-store"}


def _refuse(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, "code": code, **extra}, status_code=status)


def _store(request: Request) -> ChatStore:
    store: ChatStore = request.app.state.hub.chat
    return store


def _channel(request: Request, name: str) -> Channel | None:
    channels: dict[str, Channel] = request.app.state.chat_channels
    return channels.get(name)


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of a POST from this site's pages, or :class:`ChatRefused`."""
    fetch_site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    here = f"{request.url.scheme}://{request.url.netloc}"
    if (fetch_site not in (None, "same-origin", "none")) or (origin and origin != here):
        raise ChatRefused("cross_site", "this request did not come from this site")
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ChatRefused("bad_message", "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise ChatRefused("message_too_large", f"at most {MAX_BODY} bytes")
    raw = b""
    async for chunk in request.stream():  # never more than the budget, whatever it says
        raw += chunk
        if len(raw) > MAX_BODY:
            raise ChatRefused("message_too_large", f"at most {MAX_BODY} bytes")
    try:
        msg = orjson.loads(raw)
    except ValueError:
        raise ChatRefused("bad_message", "send a JSON object") from None
    if not isinstance(msg, dict):
        raise ChatRefused("bad_message", "send a JSON object")
    return msg


def _after(after: str | None) -> int:
    return int(after) if after is not None and after.isdigit() and len(after) < 12 else 0


@router.get("/api/chat/t/{game_id}/lines")
async def table_lines(request: Request, game_id: str, hub: HubDep, token: str | None = None,
                      after: str | None = None) -> JSONResponse:
    """The recent lines of a table that its viewer (a seat by its token, else a
    spectator) may read: during play a seat reads the players' lines and a spectator the
    spectators'; once the game is over everyone reads every line."""
    table = await hub.get(game_id)
    if table is None:
        return _refuse(404, "no_table", "there is no such table")
    seat = await hub.seat_for_token(game_id, token) if token else None
    if token and seat is None:
        return _refuse(403, "bad_token", "this link is not a seat at this table")
    over = table.state.over
    channel = f"t:{game_id}"
    store = _store(request)
    me = f"s{seat}" if seat is not None else (await sender_of(request))[0]
    return JSONResponse({"channel": channel, "me": me, "seat": seat, "over": over,
                         "host": seat == HOST, "quiet": await store.quiet(channel),
                         "phrases": list(PHRASES), "limit": MAX_CHARS,
                         "lines": await store.lines(channel, readable(seat, over),
                                                    _after(after))}, headers=NO_STORE)


@router.get("/api/chat/c/{name}/lines")
async def channel_lines(request: Request, name: str, after: str | None = None) -> JSONResponse:
    channel = _channel(request, name)
    if channel is None:
        return _refuse(404, "no_channel", "there is no such chat channel")
    return JSONResponse({"channel": name, "me": (await sender_of(request))[0],
                         "quiet": await channel.quiet(), "phrases": list(PHRASES),
                         "limit": MAX_CHARS, "lines": await channel.recent(_after(after))},
                        headers=NO_STORE)


@router.post("/api/chat/c/{name}/lines")
async def channel_say(request: Request, name: str) -> JSONResponse:
    channel = _channel(request, name)
    if channel is None:
        return _refuse(404, "no_channel", "there is no such chat channel")
    try:
        msg = await _body(request)
        key, who = await sender_of(request)
        line = await channel.say(key, who, msg.get("text"))
    except ChatRefused as err:
        status = {"chat_rate_limited": 429, "storage_unavailable": 503,
                  "cross_site": 403, "message_too_large": 413}.get(err.code, 400)
        return _refuse(status, err.code, err.message, **err.extra)
    return JSONResponse({"line": line})


async def _visible(request: Request, hub: Any, line: dict[str, Any],
                   token: str) -> tuple[bool, int | None, Any]:
    """Whether the asker may read ``line`` (so may report it), its seat and table."""
    channel = line["channel"]
    if not channel.startswith("t:"):
        return _channel(request, channel) is not None, None, None
    table = await hub.get(channel[2:])
    if table is None:
        return False, None, None
    seat = await hub.seat_for_token(table.id, token) if token else None
    if token and seat is None:
        return False, None, table
    return line["audience"] in readable(seat, table.state.over), seat, table


@router.post("/api/chat/report")
async def report(request: Request, hub: HubDep, limits: LimitsDep) -> JSONResponse:
    """Report a line to the operator (``twinrack accounts reports``): stored with the
    line, its game and who reported it, once per reporter and line."""
    try:
        msg = await _body(request)
    except ChatRefused as err:
        return _refuse(403 if err.code == "cross_site" else 400, err.code, err.message)
    line_id, token = msg.get("line"), msg.get("token") or ""
    if not isinstance(line_id, int) or isinstance(line_id, bool) or not isinstance(token, str) \
            or len(token) > 64:
        return _refuse(400, "bad_message", "give line: the line's id (and token: your seat's)")
    line = await _store(request).line(line_id)
    seen, seat, table = (False, None, None) if line is None else \
        await _visible(request, hub, line, token)
    if line is None or not seen:
        return _refuse(404, "no_line", "there is no such line that you can read")
    if not limits.allow("chat_reports"):
        return _refuse(429, "rate_limited", "too many reports in a short time: wait a minute")
    key, who = await sender_of(request)
    if seat is not None and table is not None and not key.startswith("a:"):
        who = f"{table.seats[seat].name} (seat {seat + 1})"
    fresh = await _store(request).report(line, key, who, client_of(request))
    return JSONResponse({"reported": line_id, "already": not fresh})


@router.get("/api/chat/mutes")
async def mutes(request: Request, channel: str = "") -> JSONResponse:
    """The senders a signed-in player muted in ``channel`` (a guest's are in its
    browser: ``signed_in`` false)."""
    account = await account_id_of(request)
    if account is None or not channel or len(channel) > 48:
        return JSONResponse({"signed_in": account is not None, "mutes": []}, headers=NO_STORE)
    return JSONResponse({"signed_in": True,
                         "mutes": await _store(request).mutes(account, channel)},
                        headers=NO_STORE)


@router.post("/api/chat/mutes")
async def set_mute(request: Request) -> JSONResponse:
    """Mute (``on`` true) or unmute a sender of a channel, for a signed-in player."""
    try:
        msg = await _body(request)
    except ChatRefused as err:
        return _refuse(403 if err.code == "cross_site" else 400, err.code, err.message)
    account = await account_id_of(request)
    if account is None:
        return _refuse(401, "not_signed_in", "mutes are kept in this browser until you sign in")
    channel, key, on = msg.get("channel"), msg.get("key"), msg.get("on")
    if not (isinstance(channel, str) and 0 < len(channel) <= 48 and isinstance(key, str)
            and 0 < len(key) <= 64 and isinstance(on, bool)):
        return _refuse(400, "bad_message", "give channel, key (the sender's) and on")
    await _store(request).set_mute(account, channel, key, on)
    return JSONResponse({"channel": channel, "key": key, "muted": on})
