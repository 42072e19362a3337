"""The web application: lobby and history pages, the table page, the table WebSocket and
a small JSON API (docs/protocol.md)."""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, File, Form, Request, UploadFile, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from twinrack.bots import BOTS
from twinrack.card import Card, practice_card
from twinrack.engine.rules import rules_from
from twinrack.errors import CardError, TwinRackError
from twinrack.server.card_routes import card_routes
from twinrack.server.config import Settings
from twinrack.server.desk_routes import register_desk
from twinrack.server.guard import (
    BadMessage,
    RateLimiter,
    SecurityHeaders,
    check_action,
    read_message,
)
from twinrack.server.hub import Hub, NewSeat
from twinrack.server.table import Command
from twinrack.server.workers import JobFailed

log = logging.getLogger("twinrack.server")

WEB = Path(__file__).resolve().parent.parent / "web"
COOKIE = "twinrack_id"
MAX_CARD_BYTES = 200_000


def bot_levels() -> list[str]:
    order = ["greedy", "expert", "random"]
    return [b for b in order if b in BOTS] + [b for b in BOTS if b not in order]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    hub = Hub(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        yield
        await hub.stop()

    app = FastAPI(title="TwinRack", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub
    app.add_middleware(SecurityHeaders)
    limits = RateLimiter(settings.rate_burst, settings.rate_per_minute)
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    templates = Jinja2Templates(directory=str(WEB / "templates"))

    def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        resp = templates.TemplateResponse(request, name, ctx, status_code=status)
        if COOKIE not in request.cookies:
            resp.set_cookie(COOKIE, secrets.token_hex(16), max_age=3600 * 24 * 365,
                            httponly=True, samesite="lax", secure=_https(request))
        return resp

    def too_many(request: Request, kind: str) -> bool:
        client = request.client.host if request.client else "?"
        return not limits.allow(client, kind)

    def owner_of(request: Request) -> str | None:
        return request.cookies.get(COOKIE)

    # ------------------------------------------------------------------ lobby

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request, card: str | None = None) -> HTMLResponse:
        form: dict[str, Any] = {"call_seconds": settings.call_seconds}
        if card:
            form.update(card_choice="saved", saved_card=card)
        return page(request, "lobby.html", form=form, errors=[], bot_levels=bot_levels(),
                    live=await hub.live_games(), my_cards=await hub.cards_of(owner_of(request)))

    @app.post("/tables", response_model=None)
    async def create_table(
        request: Request,
        name: str = Form("Player"),
        variant: str = Form("siamese"),
        players: int = Form(2),
        revision: str = Form("2024"),
        call_seconds: float = Form(settings.call_seconds),
        card_choice: str = Form("practice"),
        card_file: UploadFile | None = File(None),  # noqa: B008
        saved_card: str = Form(""),
        seat1: str = Form("greedy"),
        seat2: str = Form("greedy"),
        seat3: str = Form("greedy"),
    ) -> Response:
        form = {"name": name, "variant": variant, "players": players, "revision": revision,
                "call_seconds": call_seconds, "seat1": seat1, "seat2": seat2, "seat3": seat3,
                "card_choice": card_choice, "saved_card": saved_card}
        my_cards = await hub.cards_of(owner_of(request))

        def again(errors: list[str], status: int = 400) -> HTMLResponse:
            return page(request, "lobby.html", status=status, form=form, errors=errors,
                        bot_levels=bot_levels(), live=[], my_cards=my_cards)

        if too_many(request, "tables"):
            return again(["too many new tables from your address in a short time: wait a "
                          "minute and try again"], status=429)
        try:
            rules = rules_from(variant, players, revision)
        except TwinRackError as err:
            return again([err.message])
        if not 3 <= call_seconds <= 120:
            return again(["the call timer is between 3 and 120 seconds"])
        card: Card = practice_card()
        if card_choice == "upload":
            if card_file is None or not card_file.filename:
                return again(["choose a card file to upload, or play the practice card"])
            raw = await card_file.read(MAX_CARD_BYTES + 1)
            if len(raw) > MAX_CARD_BYTES:
                return again(["that card file is too big (200 kB at most)"])
            if too_many(request, "cards"):
                return again(["too many card uploads from your address in a short time: "
                              "wait a minute and try again"], status=429)
            client = request.client.host if request.client else "?"
            try:
                card = await hub.card_of(raw.decode("utf-8"), card_file.filename,
                                         f"upload:{client}")
            except UnicodeDecodeError:
                return again([f"{card_file.filename}: the card is not UTF-8 text"])
            except CardError as err:
                return again([p.render() for p in err.problems])
            except JobFailed as err:
                return again([f"{card_file.filename}: {err.message} (the card is too costly "
                              "to check)"])
        if card_choice == "saved":
            saved = await hub.saved_card(saved_card, owner_of(request))
            if saved is None:
                return again(["choose one of the cards you saved in the card editor"])
            try:
                card = await hub.card_of(saved["source"], saved["name"])
            except (CardError, JobFailed) as err:
                return again([err.message])
        kinds = ["human", seat1, seat2, seat3][:players]
        for k in kinds[1:]:
            if k != "human" and k not in BOTS:
                return again([f"unknown computer level {k!r}"])
        owner = owner_of(request)
        clean = (name.strip() or "Player")[:40]
        seats = [NewSeat(clean, "human", owner)]
        for i, k in enumerate(kinds[1:], start=1):
            seats.append(NewSeat(f"Friend {i + 1}" if k == "human" else f"Computer {i + 1} "
                                 f"({k})", k))
        created = await hub.create(rules, card, seats, call_seconds)
        base = str(request.base_url).rstrip("/")
        invites = [{"seat": s, "url": f"{base}/t/{created.game_id}?token={t}"}
                   for s, t in sorted(created.tokens.items()) if s != 0]
        my_url = f"/t/{created.game_id}?token={created.tokens[0]}"
        return page(request, "created.html", invites=invites, my_url=my_url)

    @app.get("/history", response_class=HTMLResponse)
    async def history(request: Request) -> HTMLResponse:
        owner = owner_of(request)
        games = await hub.games_of(owner) if owner else []
        unfinished, finished = [], []
        for g in games:
            if g["status"] == "playing":
                unfinished.append({**g, "url": f"/t/{g['id']}"})
            else:
                res = g["result"] or {}
                totals = res.get("totals") or []
                mine = totals[g["seat"]] if g["seat"] < len(totals) else 0
                finished.append({**g, "result": f"{mine:+d} points"})
        return page(request, "history.html", unfinished=unfinished, finished=finished)

    register_desk(app, hub, page)
    app.include_router(card_routes(hub, page, limits, owner_of))

    # ------------------------------------------------------------------ table

    @app.get("/t/{game_id}", response_class=HTMLResponse)
    async def table_page(request: Request, game_id: str,
                         token: str | None = None) -> HTMLResponse:
        table = await hub.get(game_id)
        if table is None:
            return page(request, "message.html", status=404, title="No such table",
                        message="There is no table at this address.")
        seat_cookie = f"twinrack_seat_{game_id}"
        if token is None:
            # a browser that opened its invite link before comes back without it
            remembered = request.cookies.get(seat_cookie)
            if remembered and await hub.seat_for_token(game_id, remembered) is not None:
                token = remembered
        my_seat = await hub.seat_for_token(game_id, token) if token else None
        if token and my_seat is None:
            return page(request, "message.html", status=403, title="Not a seat at this table",
                        message="This invite link is not valid for this table. You can "
                                "still watch the game.", link=f"/t/{game_id}")
        owner = owner_of(request)
        if my_seat is not None and owner:
            await hub.claim_owner(game_id, my_seat, owner)
        resp = page(request, "table.html", game_id=game_id, token=token or "",
                    seat=my_seat, names=[s.name for s in table.seats])
        if token and my_seat is not None:
            resp.set_cookie(seat_cookie, token, max_age=3600 * 24 * 60, httponly=True,
                            samesite="lax", path=f"/t/{game_id}", secure=_https(request))
        return resp

    @app.get("/t/{game_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: str) -> HTMLResponse:
        table = await hub.get(game_id)
        if table is None:
            return page(request, "message.html", status=404, title="No such table",
                        message="There is no table at this address.")
        if not table.state.over:
            return page(request, "message.html", status=403, title="Not finished yet",
                        message="A game can be replayed with every hand shown only once it "
                                "has ended.", link=f"/t/{game_id}")
        return page(request, "replay.html", game_id=game_id)

    @app.websocket("/ws/{game_id}")
    async def table_socket(ws: WebSocket, game_id: str, token: str | None = None) -> None:
        table = await hub.get(game_id)
        await ws.accept()
        if table is None:
            await ws.send_json({"type": "error", "code": "no_table",
                                "message": "there is no such table"})
            await ws.close(code=4404)
            return
        seat = await hub.seat_for_token(game_id, token) if token else None
        if token and seat is None:
            await ws.send_json({"type": "error", "code": "bad_token",
                                "message": "this link is not a seat at this table"})
            await ws.close(code=4403)
            return
        conn = await table.join(ws, seat)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                msg: dict[str, Any] | None = None
                try:
                    msg = read_message(frame)
                    kind = msg.get("type")
                    if kind == "action":
                        version, text, msg_id = check_action(msg)
                        table.submit(Command("action", seat=seat, version=version,
                                             msg_id=msg_id, text=text, conn=conn))
                    elif kind == "hints":
                        await table.set_hints(conn, msg.get("on") is True)
                    elif kind == "ping":
                        conn.send({"type": "pong"})
                    else:
                        raise BadMessage("bad_message", "unknown message type (expected "
                                                        "action, hints or ping)")
                except BadMessage as err:
                    conn.send({"type": "error", "code": err.code, "message": err.message,
                               "msg_id": _msg_id_of(msg)})
        except WebSocketDisconnect:
            pass
        finally:
            table.leave(conn)

    # ------------------------------------------------------------------ API

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, token: str | None = None) -> JSONResponse:
        """The record as the asking seat (by its token) may see it; the whole record
        once the game is over."""
        table = await hub.get(game_id)
        if table is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        seat = await hub.seat_for_token(game_id, token) if token else None
        if token and seat is None:
            return JSONResponse({"error": "this token is not a seat at this table"},
                                status_code=403)
        return JSONResponse(await hub.record(game_id, seat))

    @app.get("/api/games/{game_id}/verify")
    async def verify_game(request: Request, game_id: str) -> JSONResponse:
        table = await hub.get(game_id)
        if table is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        if not table.state.over:
            return JSONResponse({"ok": False, "problem": "the seed is revealed when the game "
                                 "ends"}, status_code=409)
        if too_many(request, "replays"):
            return JSONResponse({"error": "too many requests: wait a minute"}, status_code=429)
        try:
            return JSONResponse(await hub.verify(table))
        except JobFailed as err:
            return JSONResponse({"error": err.message}, status_code=503)

    @app.get("/api/games/{game_id}/replay")
    async def replay_frames(request: Request, game_id: str) -> JSONResponse:
        table = await hub.get(game_id)
        if table is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        if not table.state.over:
            return JSONResponse({"error": "the game has not ended"}, status_code=403)
        if table.id not in hub.replays and too_many(request, "replays"):
            return JSONResponse({"error": "too many requests: wait a minute"}, status_code=429)
        try:
            return JSONResponse(await hub.replay(table))
        except JobFailed as err:
            return JSONResponse({"error": err.message}, status_code=503)

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return app


def _https(request: Request) -> bool:
    """Cookies are marked Secure when the page is served over HTTPS (directly or, with
    uvicorn's proxy headers, behind a proxy that says so)."""
    return request.url.scheme == "https"


def _msg_id_of(msg: Any) -> str | None:
    """The message id of a refused message, when it has a usable one."""
    if isinstance(msg, dict):
        m = msg.get("msg_id")
        if isinstance(m, str) and len(m) <= 64:
            return m
    return None


def main() -> None:
    """``make run``: the service on 127.0.0.1:8000 with an embedded SQLite file."""
    import uvicorn

    settings = Settings.from_env()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    print(f"TwinRack is running: open http://{settings.host}:{settings.port}/ in a browser "
          f"(database: {settings.database_url}). Stop with Ctrl-C.", flush=True)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                log_level="warning", ws_ping_interval=20, ws_ping_timeout=20)


if __name__ == "__main__":
    main()
