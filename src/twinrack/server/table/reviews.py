"""The post-game review of one seat of a finished game (twinrack.bots.review), for the
replay page: computed in the worker pool with a time limit, never on the event loop, and
kept per game and seat so that a page reloaded does not compute it again."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from twinrack.engine.record import record_for
from twinrack.server import jobs
from twinrack.server.config import Settings
from twinrack.server.table.live import LiveTable
from twinrack.server.workers import Workers

#: reviews of finished games kept (one per game and seat)
REVIEWS_KEPT = 32


class Reviews:
    def __init__(self, workers: Workers, settings: Settings) -> None:
        self.workers = workers
        self.settings = settings
        self.kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        #: the reviews being computed: a second viewer waits for the same job
        self.running: dict[tuple[str, int], asyncio.Future[dict[str, Any]]] = {}

    def __contains__(self, key: tuple[str, int]) -> bool:
        return key in self.kept or key in self.running

    async def of(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """The review of ``seat`` of a finished game (raises JobFailed when the job went
        over its time limit or its worker died)."""
        key = (table.id, seat)
        cached = self.kept.get(key)
        if cached is not None:
            self.kept.move_to_end(key)
            return cached
        job = self.running.get(key)
        if job is None:
            job = self.running[key] = asyncio.ensure_future(self._compute(table, seat))
            job.add_done_callback(lambda done: self._done(key, done))
        return await asyncio.shield(job)

    def _done(self, key: tuple[str, int], job: asyncio.Future[dict[str, Any]]) -> None:
        """Forget a finished job; its failure, when every viewer waiting for it has gone,
        is not left unread (each viewer still waiting gets it)."""
        self.running.pop(key, None)
        if not job.cancelled():
            job.exception()

    async def _compute(self, table: LiveTable, seat: int) -> dict[str, Any]:
        rec = record_for(table.state, None)
        out: dict[str, Any] = await self.workers.run(
            f"review:{table.id}", jobs.review_game, table.card.source, table.card.path, rec,
            seat, self.settings.review_searched, self.settings.review_simulations,
            timeout=self.settings.review_seconds)
        self.kept[(table.id, seat)] = out
        while len(self.kept) > REVIEWS_KEPT:
            self.kept.popitem(last=False)
        return out
