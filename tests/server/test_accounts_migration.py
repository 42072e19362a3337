"""Migration 0009 makes exactly the accounts' tables the models describe, and goes back."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from twinrack.server.accounts import models  # noqa: F401  (the tables, on Base.metadata)
from twinrack.server.db import MIGRATIONS, make_engine, migrate
from twinrack.server.models import Base

ACCOUNT_TABLES = {"accounts", "account_sessions", "login_failures", "password_resets",
                  "account_seats", "settled_games", "game_stats", "ratings",
                  "rating_history"}


def test_the_migration_matches_the_models_and_downgrades(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/m.db"
    engine = make_engine(url)
    migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    ours = [d for d in diff if any(t in repr(d) for t in ACCOUNT_TABLES)]
    assert ours == []
    assert set(inspect(engine).get_table_names()) >= ACCOUNT_TABLES
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0007")
    assert not ACCOUNT_TABLES & set(inspect(create_engine(url)).get_table_names())
    engine.dispose()
