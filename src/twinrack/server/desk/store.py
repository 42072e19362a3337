"""Tournaments in the database: every desk command loads, runs and saves in one transaction.

A command is run all-or-nothing on the stored :class:`~twinrack.desk.tournament.Tournament`
(with :func:`~twinrack.desk.tournament.atomic`) at the time read here, and saved only if it
succeeded, with a version check on the row: a refused command changes nothing. Commands on
one tournament are serialized by an asyncio lock, and the version check guards against a
second server process writing the same row.

A form can also be *stale*: it was based on a page that no longer shows the tournament as
it is (a second phone at the table entered a game meanwhile, the round changed). The route
passes a check that compares what the form was based on with the stored tournament, and a
stale form is refused politely with nothing saved.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm.exc import StaleDataError

from twinrack.desk.tournament import Tournament, atomic
from twinrack.errors import TwinRackError
from twinrack.server.db import Database
from twinrack.server.desk.models import TournamentRow
from twinrack.server.hub import token_hash


class StaleForm(TwinRackError):
    """The form was based on an older state of the tournament; nothing was saved."""


class NoTournament(TwinRackError):
    """No tournament has this id."""


def table_key_for(director_key: str, table: int) -> str:
    """One table's score-entry key, derived from the director's key.

    Every table has its own key: one table's key opens no other table. Only hashes of the
    keys are stored. The director's page (which has the director key in its address) can
    show the table links again; a table key reveals neither the director key nor another
    table's key.
    """
    mac = hmac.new(director_key.encode(), f"twinrack desk: entry key of table {table}".encode(),
                   hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode()[:16]


def table_key_hashes(director_key: str, tables: int) -> dict[str, str]:
    """What is stored of the table keys: table number -> hash of its key."""
    return {str(n): token_hash(table_key_for(director_key, n)) for n in range(1, tables + 1)}


@dataclass(frozen=True)
class StoredTournament:
    id: str
    tournament: Tournament
    version: int
    director_key_hash: str
    table_key_hashes: dict[str, str]

    def role(self, key: str | None, table: int | None = None) -> str | None:
        """"director", "table" (the key of that very table) or None for a key in a link."""
        if not key:
            return None
        h = token_hash(key)
        if secrets.compare_digest(h, self.director_key_hash):
            return "director"
        stored = self.table_key_hashes.get(str(table)) if table is not None else None
        if stored and secrets.compare_digest(h, stored):
            return "table"
        return None

    def keys_cover(self, tables: int) -> bool:
        return all(str(n) in self.table_key_hashes for n in range(1, tables + 1))


@dataclass(frozen=True)
class CreatedTournament:
    id: str
    director_key: str


#: a command: the tournament (a trial copy) and the time, returns what the page shows
DeskCommand = Callable[[Tournament, float], Any]
#: a staleness check on the stored tournament: a message when the form is out of date
FormCheck = Callable[[Tournament], str | None]


#: wrong confirmation codes allowed at one table within CODE_WINDOW seconds
CODE_ATTEMPTS = 5
CODE_WINDOW = 600.0


class DeskStore:
    """The tournaments, on the service's database (each command one unit of work)."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self.locks: dict[str, asyncio.Lock] = {}
        #: (tournament, table) -> times of wrong confirmation codes (kept in memory: a
        #: restart forgets them, which only gives a guesser a few more tries)
        self.wrong_codes: dict[tuple[str, int], list[float]] = {}

    def wrong_code(self, tid: str, table: int) -> None:
        self.wrong_codes.setdefault((tid, table), []).append(self.clock())

    def check_code_attempts(self, tid: str, table: int) -> None:
        """Refuse confirmations at a table after too many wrong codes, for a while."""
        now = self.clock()
        recent = [x for x in self.wrong_codes.get((tid, table), []) if now - x < CODE_WINDOW]
        self.wrong_codes[(tid, table)] = recent
        if len(recent) >= CODE_ATTEMPTS:
            wait = int(CODE_WINDOW - (now - recent[0])) // 60 + 1
            raise TwinRackError("too_many_codes", f"{len(recent)} wrong codes at table "
                                                  f"{table}: confirmations there wait "
                                                  f"{wait} minute(s); the director can "
                                                  "correct the game meanwhile")

    def _lock(self, tid: str) -> asyncio.Lock:
        lock = self.locks.get(tid)
        if lock is None:
            lock = self.locks[tid] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ create and read

    async def create(self, t: Tournament) -> CreatedTournament:
        director_key = secrets.token_urlsafe(18)
        tid = secrets.token_hex(5)
        await self.db.run(self._insert, tid, t, director_key)
        return CreatedTournament(tid, director_key)

    def _insert(self, tid: str, t: Tournament, director_key: str) -> None:
        with self.db.unit() as s:
            s.add(TournamentRow(id=tid, name=t.name, doc=t.to_json(),
                                director_key_hash=token_hash(director_key),
                                table_key_hashes=table_key_hashes(director_key, t.tables)))

    async def refresh_keys(self, tid: str, director_key: str) -> None:
        """Store the table keys for every table (a tournament from before per-table keys,
        or one whose table count changed); only the director's key can derive them."""
        async with self._lock(tid):
            await self.db.run(self._refresh_keys, tid, director_key)

    def _refresh_keys(self, tid: str, director_key: str) -> None:
        with self.db.unit() as s:
            row = s.get(TournamentRow, tid, with_for_update=True)
            if row is not None and secrets.compare_digest(token_hash(director_key),
                                                          row.director_key_hash):
                tables = Tournament.from_json(row.doc).tables
                row.table_key_hashes = table_key_hashes(director_key, tables)

    async def load(self, tid: str) -> StoredTournament | None:
        return await self.db.run(self._load, tid)

    def _load(self, tid: str) -> StoredTournament | None:
        with self.db.reading() as s:
            row = s.get(TournamentRow, tid)
            if row is None:
                return None
            return self._stored(row)

    @staticmethod
    def _stored(row: TournamentRow) -> StoredTournament:
        return StoredTournament(row.id, Tournament.from_json(row.doc), row.version,
                      row.director_key_hash, dict(row.table_key_hashes or {}))

    async def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        return await self.db.run(self._listing, limit)

    def _listing(self, limit: int) -> list[dict[str, Any]]:
        with self.db.reading() as s:
            rows = s.execute(select(TournamentRow.id, TournamentRow.name,
                                    TournamentRow.created_at)
                             .order_by(TournamentRow.created_at.desc(), TournamentRow.id)
                             .limit(limit)).all()
            return [{"id": r.id, "name": r.name,
                     "created": r.created_at.strftime("%Y-%m-%d %H:%M") if r.created_at
                     else ""} for r in rows]

    # ------------------------------------------------------------------ commands

    async def run(self, tid: str, command: DeskCommand, check: FormCheck | None = None,
                  director_key: str | None = None) -> Any:
        """Run one command all-or-nothing and save it; returns the command's result.

        Raises the command's :class:`TwinRackError` (nothing saved), :class:`StaleForm` when
        ``check`` finds the form out of date, and :class:`NoTournament`. A director's command
        (``director_key``) also stores the keys of every table, as the table count may have
        changed.
        """
        async with self._lock(tid):
            now = self.clock()
            return await self.db.run(self._run, tid, command, check, now, director_key)

    def _run(self, tid: str, command: DeskCommand, check: FormCheck | None, now: float,
             director_key: str | None = None) -> Any:
        try:
            with self.db.unit() as s:
                row = s.get(TournamentRow, tid, with_for_update=True)
                if row is None:
                    raise NoTournament("no_tournament", "there is no tournament at this address")
                t = Tournament.from_json(row.doc)
                stale = check(t) if check is not None else None
                # the command first: when it is refused, its own message says why
                result = atomic(t, _with_codes(command), now)
                if stale:
                    raise StaleForm("stale_form", stale)
                row.doc = t.to_json()
                if director_key is not None:
                    row.table_key_hashes = table_key_hashes(director_key, t.tables)
                row.updated_at = datetime.fromtimestamp(now, UTC)
                s.flush()  # the version check: fails if another process wrote meanwhile
                return result
        except StaleDataError:
            raise StaleForm("stale_form", "the tournament changed while this was being saved; "
                                          "nothing was saved, please check and try again"
                            ) from None


def _with_codes(command: DeskCommand) -> DeskCommand:
    """The command, after giving a code to any player of an older tournament without one."""
    def run(t: Tournament, now: float) -> Any:
        t.give_missing_codes()
        return command(t, now)
    return run
