"""Counting finished games, once each: the statistics of every account's seat and, for a
rated game, the new ratings. Ratings move only when a game is over: a game in play is
never counted, so no page of the accounts tells anything of one.

It runs when a page that shows them is asked for (a profile, "my games", the leaderboard),
a few games at a time; the settled_games row, written in the same transaction as the
counts, makes each game count once, whichever worker of a cluster gets there first."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from twinrack.engine import GameState
from twinrack.server.accounts import ratings
from twinrack.server.accounts.models import (
    AccountSeatRow,
    GameStatRow,
    RatingEventRow,
    RatingRow,
    SettledRow,
)
from twinrack.server.accounts.stats import SeatFacts, rated_pool, seat_facts
from twinrack.server.hub import Hub
from twinrack.server.models import GameRow, SeatRow
from twinrack.server.workers import JobFailed

log = logging.getLogger("twinrack.accounts")

#: games counted by one call at most (the rest wait for the next page)
BATCH = 20


def _unsettled(hub: Hub, limit: int) -> list[str]:
    with hub.db.reading() as s:
        q = (select(GameRow.id).join(AccountSeatRow, AccountSeatRow.game_id == GameRow.id)
             .outerjoin(SettledRow, SettledRow.game_id == GameRow.id)
             .where(GameRow.status != "playing", SettledRow.game_id.is_(None))
             .group_by(GameRow.id).order_by(GameRow.created_at).limit(limit))
        return list(s.scalars(q).all())


async def _final_state(hub: Hub, game_id: str) -> GameState | None:
    live = hub.tables.get(game_id)
    if live is not None and live.state.over:
        return live.state
    try:
        stored = await hub.rebuild(game_id)
    except (JobFailed, ValueError) as err:
        log.warning("game %s could not be rebuilt for its statistics: %s", game_id, err)
        return None
    return stored.state if stored is not None and stored.state.over else None


async def settle(hub: Hub, lock: asyncio.Lock) -> int:
    """Count the finished games of accounts not counted yet; how many were."""
    if lock.locked():
        return 0  # another request of this worker is at it
    async with lock:
        done = 0
        for game_id in await hub.db.run(_unsettled, hub, BATCH):
            state = await _final_state(hub, game_id)
            if state is None:
                continue
            try:
                await hub.db.run(_count_game, hub, game_id, seat_facts(state), time.time())
            except IntegrityError:
                continue  # another worker counted it first
            done += 1
        return done


def _count_game(hub: Hub, game_id: str, facts: list[SeatFacts], now: float) -> None:
    with hub.db.unit() as s:
        if s.get(SettledRow, game_id) is not None:
            return
        game = s.get(GameRow, game_id)
        assert game is not None
        kinds = [k for k in s.scalars(select(SeatRow.kind).where(SeatRow.game_id == game_id)
                                      .order_by(SeatRow.seat)).all()]
        owners = {seat: account for seat, account in s.execute(
            select(AccountSeatRow.seat, AccountSeatRow.account_id)
            .where(AccountSeatRow.game_id == game_id))}
        pool = rated_pool(game.variant, game.card_sha256, kinds, owners)
        s.add(SettledRow(game_id=game_id, rated=pool or "unrated", at=now))
        for f in facts:
            if f.seat in owners:
                s.add(GameStatRow(game_id=game_id, seat=f.seat, account_id=owners[f.seat],
                                  variant=game.variant, points=f.points, won=f.won,
                                  mahjonggs=f.mahjonggs, doubles=f.doubles,
                                  dead_racks=f.dead_racks, racks=f.racks,
                                  lines=list(f.lines), at=now))
        if pool is not None:
            _rate(s, game_id, pool, kinds, owners, [f.points for f in facts], now)


def _rate(s: Session, game_id: str, pool: str, kinds: list[str], owners: dict[int, int],
          totals: list[int], now: float) -> None:
    rows: dict[int, RatingRow] = {}
    skills = []
    for seat, kind in enumerate(kinds):
        if kind != "human":
            skills.append(ratings.bot_skill(kind))
            continue
        row = s.get(RatingRow, (owners[seat], pool))
        if row is None:
            first = ratings.start()
            row = RatingRow(account_id=owners[seat], pool=pool, mu=first.mu,
                            sigma=first.sigma, games=0)
            s.add(row)
        rows[seat] = row
        skills.append(ratings.Skill(row.mu, row.sigma))
    fixed = {seat for seat, kind in enumerate(kinds) if kind != "human"}
    for seat, skill in enumerate(ratings.rate(skills, totals, fixed)):
        if seat in rows:
            row = rows[seat]
            row.mu, row.sigma, row.games = skill.mu, skill.sigma, row.games + 1
            s.add(RatingEventRow(account_id=row.account_id, pool=pool, game_id=game_id,
                                 rating=skill.shown, at=now))


def settle_lock(app: Any) -> asyncio.Lock:
    lock = getattr(app.state, "settle_lock", None)
    if lock is None:
        lock = app.state.settle_lock = asyncio.Lock()
    return lock
