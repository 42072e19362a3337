"""Settings of the table service, read from the environment once at start."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_DB = "sqlite:///twinrack.db"


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DB
    host: str = "127.0.0.1"
    port: int = 8000
    #: seconds a dropped player has to come back before a bot plays for them
    grace_seconds: float = 60.0
    #: seconds between bot moves at a table with people watching (0 for bot-only tables)
    bot_delay: float = 0.6
    #: default call (claim) timer in seconds
    call_seconds: float = 10.0
    data_dir: Path = field(default_factory=lambda: Path("."))
    #: how long an SQLite write waits for another process's lock, in milliseconds
    db_busy_ms: int = 5000
    #: worker processes for slow work (cards, bots, hints, replays)
    workers: int = field(default_factory=lambda: min(4, max(2, os.cpu_count() or 1)))
    #: time limits of one job in the worker pool, in seconds
    job_seconds: float = 10.0
    card_seconds: float = 20.0
    replay_seconds: float = 30.0
    #: the post-game review (server/table/reviews.py): its time limit, and how many decisions the
    #: master plays out and with how many imagined games each (None: the review's defaults)
    review_seconds: float = 60.0
    review_searched: int | None = None
    review_simulations: int | None = None
    #: finished tables nobody watches that stay loaded (the rest are loaded on demand)
    max_idle_tables: int = 50
    #: per client: how many of each costly request it may make in a burst, and how many
    #: more per minute (0 turns the limits off)
    rate_burst: int = 10
    rate_per_minute: float = 30.0
    #: the cluster (docs/deploy.md): with a Redis URL, many workers share one PostgreSQL
    #: database; without one, this process runs every table itself (the default)
    redis_url: str | None = None
    #: this worker's name in the cluster (unique; the host and process id by default)
    worker_id: str = field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}")
    #: seconds a worker's leases last without renewal: its tables are taken over by the
    #: others once it has been silent that long
    lease_seconds: float = 4.0
    #: seconds between two renewals of a worker's leases (and of its heartbeat)
    renew_seconds: float = 1.0
    #: seconds between two looks for tables whose owner's lease ran out
    scan_seconds: float = 0.5
    #: compress WebSocket messages (permessage-deflate) when the browser offers to: a
    #: state message (about 2 KB of JSON) shrinks to a fifth, for about a tenth of a
    #: millisecond of CPU per message; off by default (CPU is what limits a worker)
    ws_compression: bool = False

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            database_url=env.get("TWINRACK_DATABASE_URL", DEFAULT_DB),
            host=env.get("TWINRACK_HOST", "127.0.0.1"),
            port=int(env.get("TWINRACK_PORT", "8000")),
            grace_seconds=float(env.get("TWINRACK_GRACE_SECONDS", "60")),
            bot_delay=float(env.get("TWINRACK_BOT_DELAY", "0.6")),
            call_seconds=float(env.get("TWINRACK_CALL_SECONDS", "10")),
            redis_url=env.get("TWINRACK_REDIS_URL") or None,
            **_optional(env),
        )


def _optional(env: Mapping[str, str]) -> dict[str, Any]:
    """The settings that have defaults of their own, when the environment sets them."""
    out: dict[str, Any] = {}
    for name, key, kind in (("workers", "TWINRACK_WORKERS", int),
                            ("db_busy_ms", "TWINRACK_DB_BUSY_MS", int),
                            ("max_idle_tables", "TWINRACK_MAX_IDLE_TABLES", int),
                            ("rate_burst", "TWINRACK_RATE_BURST", int),
                            ("rate_per_minute", "TWINRACK_RATE_PER_MINUTE", float),
                            ("job_seconds", "TWINRACK_JOB_SECONDS", float),
                            ("review_seconds", "TWINRACK_REVIEW_SECONDS", float),
                            ("review_searched", "TWINRACK_REVIEW_SEARCHED", int),
                            ("review_simulations", "TWINRACK_REVIEW_SIMULATIONS", int),
                            ("worker_id", "TWINRACK_WORKER_ID", str),
                            ("lease_seconds", "TWINRACK_LEASE_SECONDS", float),
                            ("renew_seconds", "TWINRACK_RENEW_SECONDS", float),
                            ("scan_seconds", "TWINRACK_SCAN_SECONDS", float),
                            ("ws_compression", "TWINRACK_WS_COMPRESSION", _yes)):
        if key in env:
            out[name] = kind(env[key])
    return out


def _yes(value: str) -> bool:
    """A switch of the environment: 1, true, yes or on (any case) turn it on."""
    return value.strip().lower() in ("1", "true", "yes", "on")
