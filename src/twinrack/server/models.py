"""Database tables: a game is its settings plus its ordered log of actions and events."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    variant: Mapped[str] = mapped_column(String(16))
    revision: Mapped[str] = mapped_column(String(8))
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    card_name: Mapped[str] = mapped_column(String(200))
    card_sha256: Mapped[str] = mapped_column(String(64))
    card_source: Mapped[str] = mapped_column(Text)
    #: the secret shuffle seed (hex); revealed to players only once the game has ended
    seed: Mapped[str] = mapped_column(String(128))
    commitment: Mapped[str] = mapped_column(String(64))
    call_seconds: Mapped[float] = mapped_column(default=10.0)
    #: the game's version when it was created and when it ended; in between its actions
    #: say it (rewriting this row, card and all, at every action cost more than the
    #: action's own row). Kept for the workers of an older release during an upgrade.
    version: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    #: the game its seats went on to play once this one ended (the first to ask made it;
    #: each seat keeps its own token there)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: seconds an absent player has before the computer plays for them (None: the
    #: server's own setting, TWINRACK_GRACE_SECONDS)
    grace_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the turn timer: seconds a person has to make a move before the computer makes it
    #: for them (None: no turn timer)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the waiting room: nothing is played until the host starts the game or every
    #: invited player is at the table (docs/protocol.md, "Tables nobody can block")
    waiting: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the open room's wait (server/room, migration 0011_room_wait): when (seconds since
    #: 1970) the seats nobody took go to the computer and play starts, acted on by
    #: whichever worker runs the table (None: no such wait)
    wait_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: "open to watch": listed in the lobby's tables in play
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    seats: Mapped[list[SeatRow]] = relationship(back_populates="game",
                                                order_by="SeatRow.seat",
                                                cascade="all, delete-orphan")


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(60))
    #: "human" or a bot level ("random", "greedy", "expert")
    kind: Mapped[str] = mapped_column(String(16))
    #: sha256 of the seat's secret invite token (humans only)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: keep claim windows open for this seat even when it may only pass (its page's
    #: "always ask" setting)
    always_ask: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: "pass for me unless the claim helps my plan" (on by default for 3 or 4 players)
    auto_pass: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the computer plays this seat until its player comes back (its grace period ran
    #: out, or the host handed it to the computer)
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the browser (cookie id) that took this seat, for "my games"
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)

    game: Mapped[GameRow] = relationship(back_populates="seats")


class ActionRow(Base):
    """The log: one row per accepted action, with the events it caused (text forms)."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: found through the unique index on (game_id, seq) (migration 0007)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    events: Mapped[list[str]] = mapped_column(JSON)
    msg_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    by: Mapped[str] = mapped_column(String(16), default="human")  # human, bot, timer
    #: the lease epoch of the owner that stored it: the database refuses a row whose epoch
    #: is not the game's lease's (a trigger, migration 0005), so an owner that lost its
    #: lease cannot write the game any more (docs/deploy.md, "Ownership and fencing")
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class LeaseRow(Base):
    """Who runs a game now: its owner (a worker; None: nobody, any worker may take it) and
    the epoch, raised by one at every change of owner (the fencing token)."""

    __tablename__ = "leases"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    epoch: Mapped[int] = mapped_column(Integer, default=0)


class HolderRow(Base):
    """A worker that holds leases, and until when (seconds since 1970 by the database's
    clock): a game's lease runs out when its owner's does, so a worker renews all of its
    leases with one write (docs/deploy.md, "Leases")."""

    __tablename__ = "lease_holders"

    worker: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[float] = mapped_column(Float)


class CardRow(Base):
    """A card a player wrote in the card editor (or uploaded), kept for their tables."""

    __tablename__ = "cards"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: the browser (cookie id) that saved it: only that browser sees it
    owner: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(200))
    sha256: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
