"""Tables nobody can block (issue 26): each table's grace period, turn timer, waiting room
and "open to watch"; each seat's "pass unless the claim helps my plan" setting and whether
the computer plays it until its player comes back.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("grace_seconds", sa.Float, nullable=True))
    op.add_column("games", sa.Column("turn_seconds", sa.Float, nullable=True))
    op.add_column("games", sa.Column("waiting", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("games", sa.Column("listed", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("seats", sa.Column("auto_pass", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("seats", sa.Column("away", sa.Boolean, nullable=False,
                                     server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
        batch.drop_column("auto_pass")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("listed")
        batch.drop_column("waiting")
        batch.drop_column("turn_seconds")
        batch.drop_column("grace_seconds")
