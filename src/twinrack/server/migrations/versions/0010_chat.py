"""Chat at the table and in the room (server/chat): lines, reports, mutes and each
channel's "quiet table" setting.

Revision ID: 0010_chat
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_chat"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("channel", sa.String(48), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("sender_key", sa.String(64), nullable=False),
        sa.Column("sender_name", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("audience", sa.String(12), nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
    )
    op.create_index("ix_chat_lines_channel_id", "chat_lines", ["channel", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("line_id", sa.Integer, sa.ForeignKey("chat_lines.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("channel", sa.String(48), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("reporter_key", sa.String(64), nullable=False),
        sa.Column("reporter_name", sa.String(40), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
    )
    op.create_index("ix_chat_reports_line_id", "chat_reports", ["line_id"])
    op.create_table(
        "chat_mutes",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("channel", sa.String(48), primary_key=True),
        sa.Column("sender_key", sa.String(64), primary_key=True),
    )
    op.create_table(
        "chat_settings",
        sa.Column("channel", sa.String(48), primary_key=True),
        sa.Column("quiet", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_table("chat_settings")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_line_id", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_lines_channel_id", table_name="chat_lines")
    op.drop_table("chat_lines")
