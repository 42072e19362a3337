"""What a live table works out in the worker pool for the seats to decide (a mixin of
:class:`~twinrack.server.table.live.LiveTable`): the legal actions of an Imperial claim window
with what each claim would do, and each seat's hints, which "pass unless the claim helps
my plan" reads too (server/table/presence.py)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from twinrack.card.model import Card
from twinrack.engine import GameState, legal_actions, view
from twinrack.errors import TwinRackError
from twinrack.server import jobs
from twinrack.server.table import wire
from twinrack.server.table.encoding import legal_json, objects_json
from twinrack.server.table.seats import Connection
from twinrack.server.workers import Workers

log = logging.getLogger("twinrack.table")

#: up to this many racks a seat, claim advice is worked out on the event loop (see
#: Advice._prepare_legal)
POOLED_ADVICE_RACKS = 2


class Advice:
    """The legal actions and hints of a table's seats (see the module's docstring)."""

    id: str
    state: GameState
    card: Card
    workers: Workers
    paused: bool
    closed: bool
    waiting: bool
    conns: set[Connection]
    #: seat -> (version, its legal actions as protocol objects, encoded): built once a
    #: version
    legal_sent: dict[int, tuple[int, Any]]
    hint_cache: dict[tuple[int, int], dict[str, Any] | None]
    hint_jobs: set[tuple[int, int]]
    _spawn: Callable[[Awaitable[Any]], None]
    _send_state: Callable[[Connection], None]
    _claim_checked: Callable[[int, int, dict[str, Any] | None], None]
    _checking: Callable[[int, int], bool]

    async def _prepare_legal(self) -> None:
        """In a claim window of a game of more than two racks, the legal actions of the
        seats to act, with what each claim would do, are worked out in the worker pool
        before anyone is told: trying every claim on four racks took up to 0.18 s, too
        long for the event loop. With two racks it stays under about 12 ms, less than the
        trip to the pool costs in latency, so it is done here. Should the pool fail, the
        claims go out without their advice rather than hold the table up."""
        st = self.state
        if (st.window is None or st.rules.racks <= POOLED_ADVICE_RACKS or self.paused
                or self.closed):
            return
        seats = [s for s in st.to_act() if self.legal_sent.get(s, (None,))[0] != st.version]
        if not seats:
            return
        try:
            made = await self.workers.run(self.id, jobs.legal_for, self.card.source,
                                          self.card.path, jobs.detach(st.copy()), seats)
        except TwinRackError as err:
            log.warning("table %s: claim advice: %s", self.id, err.message)
            made = {seat: wire.legal_objects(st, seat, advice=False) for seat in seats}
        if self.state.version == st.version:
            for seat, objects in made.items():
                self.legal_sent[seat] = (st.version, objects_json(objects))

    def _legal(self, seat: int | None) -> Any:
        """The seat's legal actions as protocol objects, encoded once per version (every
        connection of the seat shares them); none while the table is paused."""
        st = self.state
        if seat is None or self.paused or self.waiting:
            return []
        sent = self.legal_sent.get(seat)
        if sent is None or sent[0] != st.version:
            sent = self.legal_sent[seat] = (st.version, legal_json(st, seat))
        return sent[1]

    def _hints(self, conn: Connection, v: Any) -> dict[str, Any] | None:
        """Hints for a seat with a decision to make: from the cache, or asked of the
        worker pool (they follow in a ``hints`` message)."""
        st = self.state
        seat = conn.seat
        if (seat is None or not conn.hints or st.over or seat not in st.to_act()
                or self.waiting):
            return None
        key = (st.seen_version(seat), seat)
        if key in self.hint_cache:
            return self.hint_cache[key]
        self._evaluate(seat, v)
        return None

    def _evaluate(self, seat: int, v: Any = None) -> None:
        """Ask the worker pool for the hints of the seat's decision now, unless they are
        known or on their way: they go to its connections that show hints, and to "pass
        unless the claim helps" (:meth:`_claim_checked`)."""
        st = self.state
        key = (st.seen_version(seat), seat)
        if key not in self.hint_jobs and key not in self.hint_cache:
            self.hint_jobs.add(key)
            self._spawn(self._hint_job(key, view(st, seat) if v is None else v,
                                       st.public_version))

    async def _hint_job(self, key: tuple[int, int], v: Any, public: int) -> None:
        try:
            if (key[0] != self.state.seen_version(key[1])
                    and not self._checking(key[1], public)):
                return
            try:
                out: dict[str, Any] | None = await self.workers.run(
                    self.id, jobs.hints_for, self.card.source, self.card.path, v,
                    legal_actions(self.state, key[1]))
            except TwinRackError as err:  # hints are advice: never let them break the table
                log.warning("table %s: hints: %s", self.id, err.message)
                out = None
            if len(self.hint_cache) > 32:
                self.hint_cache.clear()
            self.hint_cache[key] = out
            self._claim_checked(key[1], public, out)
            if key[0] == self.state.seen_version(key[1]) and out is not None:
                msg = {"type": "hints", "version": key[0], "hints": out}
                for c in list(self.conns):
                    if c.seat == key[1] and c.hints:
                        c.send(msg)
        finally:
            self.hint_jobs.discard(key)

    async def set_hints(self, conn: Connection, on: bool) -> None:
        conn.hints = on
        self._send_state(conn)
