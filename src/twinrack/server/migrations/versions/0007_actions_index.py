"""The actions table loses its index on ``game_id`` alone: the unique index on
``(game_id, seq)`` already finds a game's actions in order, and every stored action paid
for keeping the second one up to date.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_actions_game_id", table_name="actions")


def downgrade() -> None:
    op.create_index("ix_actions_game_id", "actions", ["game_id"])
