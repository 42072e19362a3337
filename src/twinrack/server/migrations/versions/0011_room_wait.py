"""The open room's wait kept with the game (server/room, docs/room.md): when the seats
nobody took go to the computer, so that whichever worker runs the table acts on it, after
a restart or a move to another worker too.

Revision ID: 0011_room_wait
Revises: 0010_room
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_room_wait"
down_revision = "0010_room"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("wait_until", sa.Float, nullable=True))
    # the tables the room opened before this revision: their wait, as the room stored it
    op.execute("UPDATE games SET wait_until = (SELECT room_tables.created_at + "
               "room_tables.wait_seconds FROM room_tables WHERE room_tables.game_id = "
               "games.id) WHERE waiting AND id IN (SELECT game_id FROM room_tables)")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("wait_until")
