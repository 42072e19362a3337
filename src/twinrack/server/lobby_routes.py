"""The lobby (create a table: rules, card, seats), the page of a created table's invite
links, and "my games"."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from twinrack.bots import BOTS
from twinrack.card import Card, practice_card
from twinrack.engine import RuleSet
from twinrack.engine.rules import rules_from
from twinrack.errors import CardError, TwinRackError
from twinrack.server.deps import HubDep, Limits, LimitsDep, OwnerDep, PagesDep
from twinrack.server.hub import Hub, NewSeat
from twinrack.server.workers import JobFailed

#: the largest card file a table may be created with
MAX_CARD_BYTES = 200_000

router = APIRouter()


def bot_levels() -> list[str]:
    order = ["greedy", "expert", "random"]
    return [b for b in order if b in BOTS] + [b for b in BOTS if b not in order]


class NotCreated(Exception):
    """The lobby form, refused: the lobby again with these messages."""

    def __init__(self, *errors: str, status: int = 400) -> None:
        super().__init__(*errors)
        self.errors = list(errors)
        self.status = status


@dataclass
class TableForm:
    """The lobby's form, as sent (the lobby shows it again when it is refused)."""

    name: str
    variant: str
    players: int
    revision: str
    call_seconds: float
    card_choice: str
    saved_card: str
    seat1: str
    seat2: str
    seat3: str

    def rules(self) -> RuleSet:
        try:
            rules = rules_from(self.variant, self.players, self.revision)
        except TwinRackError as err:
            raise NotCreated(err.message) from None
        if not 3 <= self.call_seconds <= 120:
            raise NotCreated("the call timer is between 3 and 120 seconds")
        return rules

    def seats(self, owner: str | None) -> list[NewSeat]:
        kinds = ["human", self.seat1, self.seat2, self.seat3][:self.players]
        for k in kinds[1:]:
            if k != "human" and k not in BOTS:
                raise NotCreated(f"unknown computer level {k!r}")
        seats = [NewSeat((self.name.strip() or "Player")[:40], "human", owner)]
        for i, k in enumerate(kinds[1:], start=1):
            seats.append(NewSeat(f"Friend {i + 1}" if k == "human"
                                 else f"Computer {i + 1} ({k})", k))
        return seats


def _table_form(hub: HubDep, name: str = Form("Player"), variant: str = Form("siamese"),
                players: int = Form(2), revision: str = Form("2024"),
                call_seconds: float | None = Form(None), card_choice: str = Form("practice"),
                saved_card: str = Form(""), seat1: str = Form("greedy"),
                seat2: str = Form("greedy"), seat3: str = Form("greedy")) -> TableForm:
    if call_seconds is None:  # the service's own default
        call_seconds = hub.settings.call_seconds
    return TableForm(name, variant, players, revision, call_seconds, card_choice, saved_card,
                     seat1, seat2, seat3)


async def _uploaded(upload: UploadFile | None, hub: Hub, limits: Limits) -> Card:
    """The card of an uploaded file, checked in the worker pool."""
    if upload is None or not upload.filename:
        raise NotCreated("choose a card file to upload, or play the practice card")
    raw = await upload.read(MAX_CARD_BYTES + 1)
    if len(raw) > MAX_CARD_BYTES:
        raise NotCreated("that card file is too big (200 kB at most)")
    if not limits.allow("cards"):
        raise NotCreated("too many card uploads from your address in a short time: wait a "
                         "minute and try again", status=429)
    try:
        return await hub.card_of(raw.decode("utf-8"), upload.filename,
                                 f"upload:{limits.client}")
    except UnicodeDecodeError:
        raise NotCreated(f"{upload.filename}: the card is not UTF-8 text") from None
    except CardError as err:
        raise NotCreated(*(p.render() for p in err.problems)) from None
    except JobFailed as err:
        raise NotCreated(f"{upload.filename}: {err.message} (the card is too costly to "
                         "check)") from None


async def _card(form: TableForm, upload: UploadFile | None, hub: Hub, limits: Limits,
                owner: str | None) -> Card:
    """The card the form chose: the practice card, an upload or a card the player saved."""
    if form.card_choice == "upload":
        return await _uploaded(upload, hub, limits)
    if form.card_choice == "saved":
        saved = await hub.saved_card(form.saved_card, owner)
        if saved is None:
            raise NotCreated("choose one of the cards you saved in the card editor")
        try:
            return await hub.card_of(saved["source"], saved["name"])
        except (CardError, JobFailed) as err:
            raise NotCreated(err.message) from None
    return practice_card()


@router.get("/", response_class=HTMLResponse)
async def lobby(hub: HubDep, page: PagesDep, owner: OwnerDep,
                card: str | None = None) -> HTMLResponse:
    form: dict[str, Any] = {"call_seconds": hub.settings.call_seconds}
    if card:
        form.update(card_choice="saved", saved_card=card)
    return page("lobby.html", form=form, errors=[], bot_levels=bot_levels(),
                live=await hub.live_games(), my_cards=await hub.cards_of(owner))


@router.post("/tables", response_model=None)
async def create_table(request: Request, form: Annotated[TableForm, Depends(_table_form)],
                       hub: HubDep, page: PagesDep, limits: LimitsDep, owner: OwnerDep,
                       card_file: UploadFile | None = File(None)  # noqa: B008
                       ) -> Response:
    my_cards = await hub.cards_of(owner)
    try:
        if not limits.allow("tables"):
            raise NotCreated("too many new tables from your address in a short time: wait a "
                             "minute and try again", status=429)
        rules = form.rules()
        card = await _card(form, card_file, hub, limits, owner)
        seats = form.seats(owner)
    except NotCreated as err:
        return page("lobby.html", status=err.status, form=asdict(form), errors=err.errors,
                    bot_levels=bot_levels(), live=[], my_cards=my_cards)
    created = await hub.create(rules, card, seats, form.call_seconds)
    base = str(request.base_url).rstrip("/")
    invites = [{"seat": s, "url": f"{base}/t/{created.game_id}?token={t}"}
               for s, t in sorted(created.tokens.items()) if s != 0]
    return page("created.html", invites=invites,
                my_url=f"/t/{created.game_id}?token={created.tokens[0]}")


@router.get("/history", response_class=HTMLResponse)
async def history(hub: HubDep, page: PagesDep, owner: OwnerDep) -> HTMLResponse:
    games = await hub.games_of(owner) if owner else []
    unfinished, finished = [], []
    for g in games:
        if g["status"] == "playing":
            unfinished.append({**g, "url": f"/t/{g['id']}"})
        else:
            totals = (g["result"] or {}).get("totals") or []
            mine = totals[g["seat"]] if g["seat"] < len(totals) else 0
            finished.append({**g, "result": f"{mine:+d} points"})
    return page("history.html", unfinished=unfinished, finished=finished)
