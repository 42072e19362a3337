"""The lobby (play the computer, or set up a table: rules, card, seats) and "my games"; the
pages of a created table's invite links are in :mod:`twinrack.server.table.invites`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from twinrack.card import Card, practice_card
from twinrack.engine.rules import REVISIONS
from twinrack.errors import CardError
from twinrack.server import accounts
from twinrack.server.deps import HubDep, Limits, LimitsDep, OwnerDep, Pages, PagesDep
from twinrack.server.hub import Hub
from twinrack.server.lobby.forms import (
    CARD_REFUSED,
    DEFAULT_LEVEL,
    MAX_NAME_CHARS,
    QUICK_GAME,
    NotCreated,
    TableForm,
    levels,
    variants,
)
from twinrack.server.table.invites import remember_host, remember_seat
from twinrack.server.workers import JobFailed

#: the heading of a refusal for being too quick
BUSY = "Too many requests"

#: the largest card file a table may be created with
MAX_CARD_BYTES = 200_000

router = APIRouter()


def _table_form(name: str = Form("Player"), variant: str = Form("siamese"),
                players: str = Form("2"), revision: str = Form("2024"),
                call_seconds: str = Form(""), card_choice: str = Form("practice"),
                saved_card: str = Form(""), seat1: str = Form(DEFAULT_LEVEL),
                seat2: str = Form(DEFAULT_LEVEL), seat3: str = Form(DEFAULT_LEVEL),
                grace_seconds: str = Form(""), turn_seconds: str = Form(""),
                listed: str = Form(""), scoring: str = Form("nmjl")) -> TableForm:
    return TableForm(name, variant, players, revision, call_seconds, card_choice, saved_card,
                     seat1, seat2, seat3, grace_seconds, turn_seconds, listed, scoring)


async def _uploaded(upload: UploadFile | None, hub: Hub, limits: Limits) -> Card:
    """The card of an uploaded file, checked in the worker pool."""
    if upload is None or not upload.filename:
        raise NotCreated(CARD_REFUSED, "choose a card file to upload, or play the practice "
                                       "card")
    raw = await upload.read(MAX_CARD_BYTES + 1)
    if len(raw) > MAX_CARD_BYTES:
        raise NotCreated(CARD_REFUSED, "that card file is too big (200 kB at most)")
    if not limits.allow("cards"):
        raise NotCreated(BUSY, "too many card uploads from your address in a short time: "
                               "wait a minute and try again", status=429)
    try:
        return await hub.card_of(raw.decode("utf-8"), upload.filename,
                                 f"upload:{limits.client}")
    except UnicodeDecodeError:
        raise NotCreated(CARD_REFUSED, f"{upload.filename}: the card is not UTF-8 text") \
            from None
    except CardError as err:
        raise NotCreated(CARD_REFUSED, *(p.render() for p in err.problems)) from None
    except JobFailed as err:
        raise NotCreated(CARD_REFUSED, f"{upload.filename}: {err.message} (the card is too "
                                       "costly to check)") from None


async def _card(form: TableForm, upload: UploadFile | None, hub: Hub, limits: Limits,
                owner: str | None) -> Card:
    """The card the form chose: the practice card, an upload or a card the player saved."""
    if form.card_choice == "upload":
        return await _uploaded(upload, hub, limits)
    if form.card_choice == "saved":
        saved = await hub.saved_card(form.saved_card, owner)
        if saved is None:
            raise NotCreated(CARD_REFUSED, "choose one of the cards you saved in the card "
                                           "editor")
        try:
            return await hub.card_of(saved["source"], saved["name"])
        except (CardError, JobFailed) as err:
            raise NotCreated(CARD_REFUSED, err.message) from None
    return practice_card()


def _lobby(page: Pages, form: dict[str, Any], my_cards: list[dict[str, Any]],
           live: list[dict[str, Any]], refused: NotCreated | None = None) -> HTMLResponse:
    return page("lobby.html", status=refused.status if refused else 200, form=form,
                refused=refused, variants=variants(), levels=levels(), quick=QUICK_GAME,
                revisions=REVISIONS, max_name=MAX_NAME_CHARS, live=live, my_cards=my_cards)


@router.get("/", response_class=HTMLResponse)
async def lobby(hub: HubDep, page: PagesDep, owner: OwnerDep,
                card: str | None = None) -> HTMLResponse:
    form = asdict(TableForm(call_seconds=f"{hub.settings.call_seconds:g}",
                            grace_seconds=f"{hub.settings.grace_seconds:g}"))
    if card:
        form.update(card_choice="saved", saved_card=card)
    return _lobby(page, form, await hub.cards_of(owner), await hub.live_games())


@router.post("/tables", response_model=None)
async def create_table(request: Request, form: Annotated[TableForm, Depends(_table_form)],
                       hub: HubDep, page: PagesDep, limits: LimitsDep, owner: OwnerDep,
                       card_file: UploadFile | None = File(None)  # noqa: B008
                       ) -> Response:
    """Create a table, then redirect (Post/Redirect/Get): to the page of its invite links
    when friends are invited, else straight to the table. Reloading either creates
    nothing."""
    try:
        if not limits.allow("tables"):
            raise NotCreated(BUSY, "too many new tables from your address in a short time: "
                                   "wait a minute and try again", status=429)
        rules = form.rules()
        settings = hub.table_settings(form.call_timer(hub.settings.call_seconds),
                                      form.grace_period(hub.settings.grace_seconds),
                                      form.turn_timer(), form.open_to_watch)
        seats = form.seats(owner)
        card = await _card(form, card_file, hub, limits, owner)
    except NotCreated as err:
        return _lobby(page, asdict(form), await hub.cards_of(owner), [], err)
    created = await hub.create(rules, card, seats, settings)
    game_id, tokens = created.game_id, created.tokens
    invited = len(tokens) > 1
    resp = RedirectResponse(f"/t/{game_id}/ready" if invited else f"/t/{game_id}",
                            status_code=303)
    remember_seat(resp, request, game_id, tokens[0])
    remember_host(resp, request, game_id, tokens)
    return resp


@router.get("/history", response_model=None)
async def history(request: Request, hub: HubDep, page: PagesDep,
                  owner: OwnerDep) -> Response:
    if await accounts.signed_in(request) is not None:
        return RedirectResponse("/account/games", status_code=303)  # across devices
    games = await hub.games_of(owner) if owner else []
    unfinished, finished = [], []
    for g in games:
        if g["status"] == "playing":
            unfinished.append({**g, "url": f"/t/{g['id']}"})
        else:  # "won by 80, +130 to +50"
            said = g["outcome_words"] or "no score"
            finished.append({**g, "result": f"{said[:1].upper()}{said[1:]}"})
    return page("history.html", unfinished=unfinished, finished=finished)
