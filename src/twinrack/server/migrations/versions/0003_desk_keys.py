"""Tournament desk: a key per table.

Each table's score-entry key is derived from the director's key; only its hash is stored,
one per table, in ``table_key_hashes``. The single shared table key of 0002 is dropped:
its links stop working, and the director's page shows each table's new link (opening it
stores the new keys of a tournament made before this revision).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("table_key_hashes", sa.JSON, nullable=True))
        batch.drop_column("table_key_hash")


def downgrade() -> None:
    # the per-table keys cannot become one shared key again: table links must be re-issued
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("table_key_hash", sa.String(64), nullable=False,
                                   server_default=""))
        batch.drop_column("table_key_hashes")
