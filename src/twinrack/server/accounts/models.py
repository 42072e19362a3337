"""The accounts' tables (migration 0009): accounts, their sessions, failed sign-ins, reset
links, the seats each account took, the facts of each finished game, and the ratings; and
(migration 0010_passkeys) the accounts' passkeys and the ceremonies' challenges."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    false,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from twinrack.server.models import Base


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: the name as the player wrote it, and its lower-case form (unique: names differ in
    #: more than case)
    name: Mapped[str] = mapped_column(String(30))
    name_key: Mapped[str] = mapped_column(String(30), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(200), nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())


class SessionRow(Base):
    """A signed-in browser: the cookie holds the secret, the row its sha256."""

    __tablename__ = "account_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    created_at: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)
    client: Mapped[str] = mapped_column(String(64), default="")
    agent: Mapped[str] = mapped_column(String(200), default="")


class FailureRow(Base):
    """One failed sign-in, by account ("account:NAME") and by client ("client:ADDRESS")."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(100), index=True)
    at: Mapped[float] = mapped_column(Float)


class ResetRow(Base):
    """A one-time password reset link (its sha256), valid until ``expires_at``."""

    __tablename__ = "password_resets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    expires_at: Mapped[float] = mapped_column(Float)


class AccountSeatRow(Base):
    """A seat taken by a signed-in player (or claimed by a guest who signed up)."""

    __tablename__ = "account_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)


class SettledRow(Base):
    """A finished game whose facts (and ratings) have been counted, once."""

    __tablename__ = "settled_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    #: "people", "computer" or "unrated"
    rated: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)


class GameStatRow(Base):
    """What one account's seat did in one finished game (the profile's statistics)."""

    __tablename__ = "game_stats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    variant: Mapped[str] = mapped_column(String(16))
    points: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    mahjonggs: Mapped[int] = mapped_column(Integer)
    doubles: Mapped[int] = mapped_column(Integer)
    dead_racks: Mapped[int] = mapped_column(Integer)
    racks: Mapped[int] = mapped_column(Integer)
    #: the card lines of this seat's Mah Jonggs
    lines: Mapped[list[str]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """An account's rating in one pool ("people:siamese", "computer:royale", ...)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    pool: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingEventRow(Base):
    """A rating after one game (the profile's chart)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    pool: Mapped[str] = mapped_column(String(40))
    game_id: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its id, its public key (COSE), the
    authenticator's last signature counter, and the name the player gave it."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    #: the credential id, base64url (at most 1,023 bytes: 1,364 characters)
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[float] = mapped_column(Float)
    last_used: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChallengeRow(Base):
    """A challenge of a WebAuthn ceremony under way (its sha256): for adding a passkey to
    ``account_id``, or for a sign-in (no account); used once, until ``expires_at``."""

    __tablename__ = "webauthn_challenges"

    challenge_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True)
    expires_at: Mapped[float] = mapped_column(Float, index=True)
