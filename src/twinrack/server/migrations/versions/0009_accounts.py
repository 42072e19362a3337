"""Players' accounts (server/accounts, docs/accounts.md): accounts, sessions, failed
sign-ins, password reset links, the seats accounts took, the facts of finished games and
the ratings.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _account() -> sa.Column[int]:
    return sa.Column("account_id", sa.Integer,
                     sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False)


def _game() -> sa.Column[str]:
    return sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(30), nullable=False),
        sa.Column("name_key", sa.String(30), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("email", sa.String(200), nullable=True),
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        _account(),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("agent", sa.String(200), nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_login_failures_key", "login_failures", ["key"])
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        _account(),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_password_resets_account_id", "password_resets", ["account_id"])
    _game_tables()


def _game_tables() -> None:
    op.create_table("account_seats", _game(), sa.Column("seat", sa.Integer, primary_key=True),
                    _account())
    op.create_index("ix_account_seats_account_id", "account_seats", ["account_id"])
    op.create_table("settled_games", _game(),
                    sa.Column("rated", sa.String(16), nullable=False),
                    sa.Column("at", sa.Float, nullable=False))
    op.create_table(
        "game_stats", _game(), sa.Column("seat", sa.Integer, primary_key=True), _account(),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mahjonggs", sa.Integer, nullable=False),
        sa.Column("doubles", sa.Integer, nullable=False),
        sa.Column("dead_racks", sa.Integer, nullable=False),
        sa.Column("racks", sa.Integer, nullable=False),
        sa.Column("lines", sa.JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_game_stats_account_id", "game_stats", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("pool", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True), _account(),
        sa.Column("pool", sa.String(40), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_account_id", "rating_history", ["account_id"])


def downgrade() -> None:
    for table in ("rating_history", "ratings", "game_stats", "settled_games", "account_seats",
                  "password_resets", "login_failures", "account_sessions", "accounts"):
        op.drop_table(table)
