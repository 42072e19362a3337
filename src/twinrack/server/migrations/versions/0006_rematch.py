"""Kept in the database so that every worker knows them (and a restart forgets nothing):
the rematch of a finished game, and each seat's "always ask" setting.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch_id", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("always_ask", sa.Boolean, nullable=False,
                                     server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("always_ask")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_id")
