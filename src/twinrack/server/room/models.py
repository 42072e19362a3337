"""The room's tables (migration 0010_room)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from twinrack.server.models import Base


class RoomTableRow(Base):
    """A table the room lists while it has free seats: opened by quick match."""

    __tablename__ = "room_tables"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    variant: Mapped[str] = mapped_column(String(16), index=True)
    players: Mapped[int] = mapped_column(Integer)
    #: rated: every seat must be a signed-in player (the card is the default one)
    rated: Mapped[bool] = mapped_column(Boolean)
    host_name: Mapped[str] = mapped_column(String(60))
    host_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    #: seconds the host waits before the computer takes the seats nobody took
    wait_seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)


class RoomSeatRow(Base):
    """A free seat of a room table and its secret token, until someone takes it (the row
    is deleted by the one who takes it: a seat goes to one person only)."""

    __tablename__ = "room_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("room_tables.game_id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(64))


class RoomPresenceRow(Base):
    """Who was in the room, and when last (seconds since 1970)."""

    __tablename__ = "room_presence"

    visitor: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    seen_at: Mapped[float] = mapped_column(Float, index=True)
