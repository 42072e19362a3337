"""The database: its engine, sessions, units of work and migrations (Alembic, run at
start)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

T = TypeVar("T")

MIGRATIONS = Path(__file__).parent / "migrations"
#: the PostgreSQL advisory lock held while migrating (any number, the same in every worker)
MIGRATION_LOCK = 7_215_001


def make_engine(url: str, busy_ms: int = 5000) -> Engine:
    """The database engine; ``busy_ms``: how long an SQLite write waits for a lock held by
    another process before it fails (and the table pauses until the database is back)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            # checkpoints run in the background (Hub), never inside a player's commit
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        if engine.url.get_backend_name() == "postgresql":
            # the workers of a cluster start together: one migrates, the others wait
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def checkpoint(engine: Engine) -> None:
    """Copy the SQLite write-ahead log into the database without blocking writers."""
    if engine.url.get_backend_name() != "sqlite":
        return
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


class Database:
    """The service's database, used by the hub and the desk alike: its engine, its
    sessions, and the threads that run its blocking work (never the event loop).

    Work is done in units: :meth:`unit` is one transaction, committed when its block ends
    and rolled back when it raises, so that nothing is half stored."""

    def __init__(self, url: str, busy_ms: int = 5000) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.engine = make_engine(url, busy_ms)
        self.sessions: sessionmaker[Session] = session_factory(self.engine)
        # SQLite takes one writer at a time: one thread, so that writes queue here
        self.threads = ThreadPoolExecutor(max_workers=1 if self.sqlite else 4,
                                          thread_name_prefix="twinrack-db")
        self.checkpoints = ThreadPoolExecutor(max_workers=1,
                                              thread_name_prefix="twinrack-checkpoint")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the database's threads."""
        return await asyncio.get_running_loop().run_in_executor(self.threads, fn, *args)

    def unit(self) -> AbstractContextManager[Session]:
        """One unit of work: a session in one transaction, committed when the block ends."""
        return self.sessions.begin()

    def reading(self) -> Session:
        """A session for reading (use it as a context manager)."""
        return self.sessions()

    def core(self) -> AbstractContextManager[Connection]:
        """One transaction of plain SQL, without the ORM's bookkeeping (storing actions)."""
        return self.engine.begin()

    async def migrate(self) -> None:
        await self.run(migrate, self.engine)

    async def checkpoint(self) -> None:
        """Fold the SQLite write-ahead log into the file, on a thread of its own, so that
        no player's commit waits for it."""
        await asyncio.get_running_loop().run_in_executor(self.checkpoints, checkpoint,
                                                         self.engine)

    def close(self) -> None:
        self.threads.shutdown(wait=True)
        self.checkpoints.shutdown(wait=True)
        if self.sqlite:
            with contextlib.suppress(Exception):
                checkpoint(self.engine)
        self.engine.dispose()
