"""Profiles at /u/NAME, "my games" of a signed-in player, and the leaderboard. Each first
counts the finished games not counted yet (server/accounts/settle.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from twinrack.server.accounts import profiles
from twinrack.server.accounts.chart import rating_chart
from twinrack.server.accounts.settle import settle, settle_lock
from twinrack.server.accounts.web import Visitor, VisitorDep, message, page, require
from twinrack.server.deps import HubDep
from twinrack.server.hub import Hub
from twinrack.server.lobby.forms import VARIANT_TEXT

router = APIRouter()

OUTCOMES = ("won", "lost", "unfinished")


async def _settled(request: Request, hub: Hub) -> None:
    await settle(hub, settle_lock(request.app))


def _no_profile(request: Request, visitor: Visitor) -> HTMLResponse:
    """The same answer for a name nobody has and a private profile (it tells nothing)."""
    return message(request, visitor, 404, "No public profile",
                   "There is no public profile at this address.")


@router.get("/u/{name}", response_class=HTMLResponse)
async def profile_page(request: Request, name: str, visitor: VisitorDep,
                       hub: HubDep) -> HTMLResponse:
    """A player's profile: nothing but "no public profile" when it is private (except
    for its owner)."""
    if len(name) > 30:
        return _no_profile(request, visitor)
    await _settled(request, hub)
    found = await hub.db.run(_profile, hub, name)
    mine = visitor.account is not None and found is not None and \
        found["id"] == visitor.account.id
    if found is None or (found["private"] and not mine):
        return _no_profile(request, visitor)
    charts = [rating_chart(r["history"], r["title"]) for r in found["ratings"]]
    return page(request, visitor, "profile.html", p=found, mine=mine, charts=charts)


def _profile(hub: Hub, name: str) -> dict[str, Any] | None:
    with hub.db.reading() as s:
        return profiles.profile(s, name)


@router.get("/account/games", response_class=HTMLResponse)
async def my_games(request: Request, visitor: VisitorDep, hub: HubDep, variant: str = "",
                   outcome: str = "", opponent: str = "") -> HTMLResponse:
    """A signed-in player's games on every device, with filters."""
    me = require(request, visitor)
    await _settled(request, hub)
    games = await hub.db.run(_my_games, hub, me.id)
    opponent = opponent.strip()[:40]
    shown = [g for g in games if (not variant or g["variant"] == variant)
             and (not outcome or g["outcome"] == outcome)
             and (not opponent or opponent.lower() in g["opponents"].lower())]
    return page(request, visitor, "games.html", games=shown, total=len(games),
                variants=list(VARIANT_TEXT), outcomes=OUTCOMES,
                chosen={"variant": variant[:20], "outcome": outcome[:20],
                        "opponent": opponent})


def _my_games(hub: Hub, account_id: int) -> list[dict[str, Any]]:
    with hub.db.reading() as s:
        return profiles.my_games(s, account_id)


def pools() -> list[str]:
    return [f"{kind}:{v}" for kind in ("people", "computer") for v in VARIANT_TEXT]


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(request: Request, visitor: VisitorDep, hub: HubDep,
                      pool: str = "people:siamese") -> HTMLResponse:
    """The rated public players of one pool (a variant, against people or the computer)."""
    if pool not in pools():
        return message(request, visitor, 404, "No such leaderboard",
                       "Choose one of the leaderboards listed on /leaderboard.",
                       "/leaderboard")
    await _settled(request, hub)
    rows = await hub.db.run(_board, hub, pool)
    return page(request, visitor, "leaderboard.html", rows=rows, pool=pool,
                pools=[(p, profiles.pool_title(p)) for p in pools()],
                title=profiles.pool_title(pool))


def _board(hub: Hub, pool: str) -> list[dict[str, Any]]:
    with hub.db.reading() as s:
        return profiles.leaderboard(s, pool)
