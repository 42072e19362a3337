"""The card editor: a page where players build their card line by line, and the small API
behind it (docs/protocol.md, "The card editor").

The TOML card file stays the one format: the page writes it, and the server checks it with
the same loader as any card (in the worker pool: an edited card is untrusted input), keeps
it for the browser that saved it, and offers it in the lobby.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from twinrack.card import practice_card
from twinrack.card.loader import MAX_CARD_CHARS
from twinrack.card.sheet import sheet
from twinrack.errors import CardError
from twinrack.server import jobs
from twinrack.server.deps import HubDep, Limits, LimitsDep, OwnerDep, PagesDep
from twinrack.server.hub import Hub
from twinrack.server.workers import JobFailed

#: the largest request body: a card at its budget, written as JSON, with room to spare
MAX_BODY = 2 * MAX_CARD_CHARS + 4_096


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def card_source(request: Request) -> str:
    """The ``source`` of a JSON request body, refused whole when too big or malformed."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise BadRequest(413, f"a card may have at most {MAX_CARD_CHARS:,} characters")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(413, f"a card may have at most {MAX_CARD_CHARS:,} characters")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise BadRequest(400, "send the card as JSON: {\"source\": \"...\"}") from None
    source = data.get("source") if isinstance(data, dict) else None
    if not isinstance(source, str):
        raise BadRequest(400, "send the card as JSON: {\"source\": \"...\"}")
    if len(source) > MAX_CARD_CHARS:
        raise BadRequest(413, f"a card may have at most {MAX_CARD_CHARS:,} characters")
    return source


router = APIRouter()


async def _in_pool(hub: Hub, limits: Limits, fn: Callable[..., Any], source: str) -> Any:
    """``fn(source)`` in the worker pool, counted against the client's card checks."""
    if not limits.allow("card-checks", scale=10):
        raise BadRequest(429, "too many card checks from your address: wait a moment")
    try:
        return await hub.workers.run(f"cards:{limits.client}", fn, source, "my-card.toml",
                                     timeout=hub.settings.card_seconds)
    except JobFailed as err:
        raise BadRequest(503, f"{err.message} (the card is too costly to check)") from None


def _answer(status: int, body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, status_code=status)


def file_name(card_name: str) -> str:
    """The file a saved card downloads as: its name in lower case, words joined by "-"
    (the editor names an unsaved card's file the same way, cardfile.js ``fileName``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", card_name.lower()).strip("-")[:60].rstrip("-")
    return f"{slug or 'card'}.toml"


@router.get("/cards", response_class=HTMLResponse)
async def editor(page: PagesDep) -> HTMLResponse:
    return page("editor.html", card_id="")


@router.get("/cards/{card_id}", response_class=HTMLResponse)
async def edit_saved(card_id: str, hub: HubDep, page: PagesDep,
                     owner: OwnerDep) -> HTMLResponse:
    if await hub.saved_card(card_id, owner) is None:
        return page.message(404, "No such card", "This browser has saved no card at this "
                            "address.", "/cards")
    return page("editor.html", card_id=card_id)


@router.get("/cards/{card_id}/card.toml")
async def download(card_id: str, hub: HubDep, owner: OwnerDep) -> Response:
    saved = await hub.saved_card(card_id, owner)
    if saved is None:
        return _answer(404, {"error": "no such card"})
    return Response(saved["source"], media_type="application/toml; charset=utf-8",
                    headers={"Content-Disposition":
                             f'attachment; filename="{file_name(saved["name"])}"'})


@router.post("/api/cards/check")
async def check(request: Request, hub: HubDep, limits: LimitsDep) -> JSONResponse:
    try:
        return _answer(200, await _in_pool(hub, limits, jobs.card_summary,
                                           await card_source(request)))
    except BadRequest as err:
        return _answer(err.status, {"error": err.message})


@router.post("/api/cards/fields")
async def fields(request: Request, hub: HubDep, limits: LimitsDep) -> JSONResponse:
    try:
        return _answer(200, await _in_pool(hub, limits, jobs.card_fields,
                                           await card_source(request)))
    except BadRequest as err:
        return _answer(err.status, {"error": err.message})


@router.get("/api/cards")
async def mine(hub: HubDep, owner: OwnerDep) -> JSONResponse:
    return _answer(200, {"cards": await hub.cards_of(owner)})


@router.get("/api/cards/practice/sheet")
async def practice_sheet() -> JSONResponse:
    """The practice card by section, as the card panel shows it."""
    return _answer(200, sheet(practice_card()))


@router.get("/api/cards/{card_id}/sheet")
async def saved_sheet(card_id: str, hub: HubDep, owner: OwnerDep) -> JSONResponse:
    """A card this browser saved, by section (checked in the worker pool as any card)."""
    saved = await hub.saved_card(card_id, owner)
    if saved is None:
        return _answer(404, {"error": "no such card"})
    try:
        return _answer(200, sheet(await hub.card_of(saved["source"], saved["name"])))
    except (CardError, JobFailed) as err:
        return _answer(422, {"error": err.message})


@router.get("/api/cards/{card_id}")
async def saved(card_id: str, hub: HubDep, owner: OwnerDep) -> JSONResponse:
    card = await hub.saved_card(card_id, owner)
    if card is None:
        return _answer(404, {"error": "no such card"})
    return _answer(200, card)


@router.post("/api/cards")
async def save(request: Request, hub: HubDep, limits: LimitsDep, owner: OwnerDep,
               card: str | None = None) -> JSONResponse:
    if owner is None:
        return _answer(403, {"error": "open the card editor page first (it gives your "
                                      "browser the cookie your cards are kept under)"})
    try:
        source = await card_source(request)
        if not limits.allow("cards"):
            raise BadRequest(429, "too many cards saved from your address: wait a minute")
        parsed = await hub.card_of(source, "my-card.toml", f"cards:{limits.client}")
    except BadRequest as err:
        return _answer(err.status, {"error": err.message})
    except CardError as err:
        return _answer(400, {"error": "the card does not load",
                             "problems": [p.render() for p in err.problems]})
    except JobFailed as err:
        return _answer(503, {"error": err.message})
    card_id = await hub.save_card(owner, source, parsed.name, card)
    if card_id is None:
        return _answer(404, {"error": "no such card"})
    return _answer(200, {"id": card_id, "name": parsed.name, "edit_url": f"/cards/{card_id}",
                         "download_url": f"/cards/{card_id}/card.toml",
                         "file": file_name(parsed.name), "play_url": f"/?card={card_id}"})
