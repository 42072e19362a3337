"""Leases with fencing epochs, for many workers on one database (docs/deploy.md).

Every game gets a lease row (no owner, epoch 0); every stored action carries the epoch of
the owner that stored it, and a trigger refuses an action whose epoch is not the lease's.
On PostgreSQL the trigger takes a share lock on the lease row, so a takeover (which raises
the epoch) waits for a write in flight, and a write after it sees the new epoch.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: the refusal is an integrity violation (its SQLSTATE), like a clashing sequence number
PG_FENCE = """
CREATE OR REPLACE FUNCTION twinrack_fence() RETURNS trigger AS $$
DECLARE
  held integer;
BEGIN
  SELECT epoch INTO held FROM leases WHERE game_id = NEW.game_id FOR SHARE;
  IF held IS NULL OR held <> NEW.epoch THEN
    RAISE EXCEPTION 'stale_epoch: game % is held at epoch %, not %',
      NEW.game_id, held, NEW.epoch USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
"""
PG_TRIGGER = """
CREATE TRIGGER actions_fence BEFORE INSERT OR UPDATE ON actions
FOR EACH ROW EXECUTE FUNCTION twinrack_fence();
"""
SQLITE_TRIGGERS = [
    """
CREATE TRIGGER actions_fence BEFORE INSERT ON actions
WHEN NEW.epoch IS NOT (SELECT epoch FROM leases WHERE game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'stale_epoch'); END;
""",
    """
CREATE TRIGGER actions_fence_update BEFORE UPDATE ON actions
WHEN NEW.epoch IS NOT (SELECT epoch FROM leases WHERE game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'stale_epoch'); END;
""",
]


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])
    op.create_table(
        "lease_holders",
        sa.Column("worker", sa.String(64), primary_key=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.execute("INSERT INTO leases (game_id, owner, epoch) SELECT id, NULL, 0 FROM games")
    if op.get_bind().dialect.name == "postgresql":
        op.execute(PG_FENCE)
        op.execute(PG_TRIGGER)
    else:
        for trigger in SQLITE_TRIGGERS:
            op.execute(trigger)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS actions_fence ON actions")
        op.execute("DROP FUNCTION IF EXISTS twinrack_fence()")
    else:
        op.execute("DROP TRIGGER IF EXISTS actions_fence")
        op.execute("DROP TRIGGER IF EXISTS actions_fence_update")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("epoch")
    op.drop_table("lease_holders")
    op.drop_table("leases")
