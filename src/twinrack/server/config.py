"""Settings of the table service, read from the environment once at start."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

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
        )
