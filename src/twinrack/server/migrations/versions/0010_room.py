"""The open room (server/room, docs/room.md): the tables it lists, the tokens of their
free seats (until someone takes one) and who is in the room.

Revision ID: 0010_room
Revises: 0010_passkeys
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_room"
down_revision = "0010_passkeys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_tables",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("host_name", sa.String(60), nullable=False),
        sa.Column("host_account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("wait_seconds", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_room_tables_variant", "room_tables", ["variant"])
    op.create_table(
        "room_seats",
        sa.Column("game_id", sa.String(32),
                  sa.ForeignKey("room_tables.game_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("token", sa.String(64), nullable=False),
    )
    op.create_table(
        "room_presence",
        sa.Column("visitor", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_room_presence_seen_at", "room_presence", ["seen_at"])


def downgrade() -> None:
    op.drop_table("room_presence")
    op.drop_table("room_seats")
    op.drop_table("room_tables")
