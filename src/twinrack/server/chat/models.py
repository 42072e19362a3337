"""Chat's tables (migration 0010_chat): the lines of every channel, the reports players
made of them, what signed-in players muted, and each channel's "quiet table" setting."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from twinrack.server.accounts import models as _accounts  # noqa: F401  (chat_mutes' key)
from twinrack.server.models import Base


class ChatLineRow(Base):
    """One line said in a channel ("t:GAME" for a table, a name such as "room" else)."""

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_channel_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    channel: Mapped[str] = mapped_column(String(48))
    #: the table's game (None for other channels): its lines go with the game
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), nullable=True)
    at: Mapped[float] = mapped_column(Float)
    #: who said it: "s0".. for a table's seat, "a:NAME" for an account, "g:HASH" a guest
    sender_key: Mapped[str] = mapped_column(String(64))
    sender_name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: who may read it: "players", "spectators" (a table in play) or "all"
    audience: Mapped[str] = mapped_column(String(12))
    text: Mapped[str] = mapped_column(String(200))


class ChatReportRow(Base):
    """A line someone reported to the site's operator (``twinrack accounts reports``)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    line_id: Mapped[int] = mapped_column(ForeignKey("chat_lines.id", ondelete="CASCADE"),
                                         index=True)
    channel: Mapped[str] = mapped_column(String(48))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[float] = mapped_column(Float)
    reporter_key: Mapped[str] = mapped_column(String(64))
    reporter_name: Mapped[str] = mapped_column(String(40))
    client: Mapped[str] = mapped_column(String(64))


class ChatMuteRow(Base):
    """A sender a signed-in player muted in a channel (a guest's mutes stay in its
    browser)."""

    __tablename__ = "chat_mutes"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    channel: Mapped[str] = mapped_column(String(48), primary_key=True)
    sender_key: Mapped[str] = mapped_column(String(64), primary_key=True)


class ChatSettingRow(Base):
    """A channel's settings: "quiet table" (only the fixed phrases may be said)."""

    __tablename__ = "chat_settings"

    channel: Mapped[str] = mapped_column(String(48), primary_key=True)
    quiet: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
