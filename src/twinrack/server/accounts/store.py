"""The accounts in the database: every function here is one unit of work of the service's
database (run on its threads, never the event loop), called through :class:`Accounts`."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from twinrack.server.accounts.models import (
    AccountRow,
    AccountSeatRow,
    FailureRow,
    ResetRow,
    SessionRow,
)
from twinrack.server.db import Database
from twinrack.server.models import CardRow, SeatRow

T = TypeVar("T")

#: a session not used for this long is over (seconds)
SESSION_IDLE = 30 * 24 * 3600.0
#: a session's "last seen" is written at most this often (seconds)
SEEN_EVERY = 300.0
#: a reset link lasts an hour
RESET_SECONDS = 3600.0
#: failed sign-ins counted over this window (seconds), and how many lock the account or
#: the client until the oldest of them is older than the window
FAILURE_WINDOW = 15 * 60.0
ACCOUNT_FAILURES = 5
CLIENT_FAILURES = 20
#: what an account's seats are called once the account is deleted
FORMER_PLAYER = "a former player"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    email: str | None
    private: bool
    password_hash: str


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.email, row.private, row.password_hash)


class NameTaken(Exception):
    pass


class Accounts:
    """The accounts' units of work, each on the database's threads."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        def unit() -> T:
            with self.db.unit() as s:
                return fn(s, *args)
        return await self.db.run(unit)

    # ------------------------------------------------------------- accounts

    async def create(self, name: str, password_hash: str, browser: str | None) -> Account:
        """A new account; the games of the signing-up browser (its "my games") become
        its games. NameTaken when another account has that name (in any case)."""
        try:
            return await self._run(_create, name, password_hash, browser)
        except IntegrityError:
            raise NameTaken(name) from None

    async def by_name(self, name: str) -> Account | None:
        return await self._run(_by_name, name)

    async def by_id(self, account_id: int) -> Account | None:
        return await self._run(_by_id, account_id)

    async def set_password(self, account_id: int, password_hash: str) -> None:
        """A new password; every session of the account ends."""
        await self._run(_set_password, account_id, password_hash)

    async def set_settings(self, account_id: int, email: str | None, private: bool) -> None:
        await self._run(_set_settings, account_id, email, private)

    async def delete(self, account_id: int, browser: str | None) -> list[tuple[str, int]]:
        """The account and everything of the person (sessions, statistics, ratings, the
        browser's saved cards) goes; their seats in games stay, as "a former player"
        (returned: the seats renamed)."""
        return await self._run(_delete, account_id, browser)

    # ------------------------------------------------------------- sessions

    async def open_session(self, account_id: int, client: str, agent: str) -> str:
        """A new session; its secret (for the cookie) is returned, its hash stored."""
        token = secrets.token_urlsafe(32)
        await self._run(_open_session, account_id, digest(token), self.clock(), client,
                        agent[:200])
        return token

    async def session(self, token: str) -> tuple[Account, int] | None:
        """The account and session id of a session cookie (None: none, or over)."""
        if not token or len(token) > 100:
            return None
        return await self._run(_session, digest(token), self.clock())

    async def sessions(self, account_id: int) -> list[dict[str, Any]]:
        return await self._run(_sessions, account_id)

    async def close_session(self, account_id: int, session_id: int | None) -> None:
        """End one session of the account (None: every one)."""
        await self._run(_close_session, account_id, session_id)

    # ------------------------------------------------------------- sign-in limits

    async def locked(self, name: str, client: str) -> str | None:
        """Why a sign-in is refused before its password is even checked (None: it is not):
        too many failures for the account, or from the client, in the window."""
        return await self._run(_locked, name.lower(), client, self.clock())

    async def failed(self, name: str, client: str) -> None:
        await self._run(_failed, name.lower(), client, self.clock())

    async def succeeded(self, name: str) -> None:
        await self._run(_succeeded, name.lower())

    # ------------------------------------------------------------- resets, seats

    async def new_reset(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        await self._run(_new_reset, account_id, digest(token), self.clock() + RESET_SECONDS)
        return token

    async def reset_account(self, token: str) -> Account | None:
        """The account of a reset link still valid (None: unknown, used or too old)."""
        if not token or len(token) > 100:
            return None
        return await self._run(_reset_account, digest(token), self.clock())

    async def use_reset(self, token: str, password_hash: str) -> Account | None:
        """Set the password through a reset link, once: the link (and every session of
        the account) is gone after."""
        if not token or len(token) > 100:
            return None
        return await self._run(_use_reset, digest(token), password_hash, self.clock())

    async def attach_seat(self, game_id: str, seat: int, account_id: int) -> None:
        """The seat is the account's (the first account to take it keeps it)."""
        # another request (or worker) may attach it at the same moment: theirs stays
        with contextlib.suppress(IntegrityError):
            await self._run(_attach_seat, game_id, seat, account_id)


def _create(s: Session, name: str, password_hash: str, browser: str | None) -> Account:
    row = AccountRow(name=name, name_key=name.lower(), password_hash=password_hash)
    s.add(row)
    s.flush()
    if browser:
        _claim_browser(s, row.id, browser)
    return _account(row)


def _claim_browser(s: Session, account_id: int, browser: str) -> None:
    """The seats that browser took as a guest, and no account holds yet."""
    taken = select(AccountSeatRow.game_id, AccountSeatRow.seat)
    seats = s.execute(select(SeatRow.game_id, SeatRow.seat).where(
        SeatRow.owner == browser)).all()
    held = {(g, n) for g, n in s.execute(taken.where(
        AccountSeatRow.game_id.in_([g for g, _ in seats]))).all()}
    for game_id, seat in seats:
        if (game_id, seat) not in held:
            s.add(AccountSeatRow(game_id=game_id, seat=seat, account_id=account_id))


def _by_name(s: Session, name: str) -> Account | None:
    row = s.scalar(select(AccountRow).where(AccountRow.name_key == name.lower()))
    return _account(row) if row is not None else None


def _by_id(s: Session, account_id: int) -> Account | None:
    row = s.get(AccountRow, account_id)
    return _account(row) if row is not None else None


def _set_password(s: Session, account_id: int, password_hash: str) -> None:
    s.execute(update(AccountRow).where(AccountRow.id == account_id)
              .values(password_hash=password_hash))
    s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
    s.execute(delete(ResetRow).where(ResetRow.account_id == account_id))


def _set_settings(s: Session, account_id: int, email: str | None, private: bool) -> None:
    s.execute(update(AccountRow).where(AccountRow.id == account_id)
              .values(email=email, private=private))


def _delete(s: Session, account_id: int, browser: str | None) -> list[tuple[str, int]]:
    from twinrack.server.accounts.models import (
        ChallengeRow,
        GameStatRow,
        PasskeyRow,
        RatingEventRow,
        RatingRow,
    )
    from twinrack.server.chat.store import forget_person
    from twinrack.server.room.store import forget_account

    seats = s.execute(select(AccountSeatRow.game_id, AccountSeatRow.seat)
                      .where(AccountSeatRow.account_id == account_id)).all()
    account = s.get(AccountRow, account_id)
    if account is not None:  # its chat lines, reports and mutes (server/chat/store.py)
        forget_person(s, account_id, account.name, browser, [(g, n) for g, n in seats])
    forget_account(s, account_id, FORMER_PLAYER)  # and its name in the room
    for game_id, seat in seats:
        s.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                  .values(name=FORMER_PLAYER, owner=None))
    if browser:
        s.execute(update(SeatRow).where(SeatRow.owner == browser).values(owner=None))
        s.execute(delete(CardRow).where(CardRow.owner == browser))
    for table in (SessionRow, ResetRow, AccountSeatRow, GameStatRow, RatingRow,
                  RatingEventRow, PasskeyRow, ChallengeRow):
        s.execute(delete(table).where(table.account_id == account_id))
    s.execute(delete(AccountRow).where(AccountRow.id == account_id))
    return [(g, n) for g, n in seats]


def _open_session(s: Session, account_id: int, token_hash: str, now: float, client: str,
                  agent: str) -> None:
    s.add(SessionRow(token_hash=token_hash, account_id=account_id, created_at=now,
                     last_seen=now, client=client[:64], agent=agent))


def _session(s: Session, token_hash: str, now: float) -> tuple[Account, int] | None:
    row = s.scalar(select(SessionRow).where(SessionRow.token_hash == token_hash))
    if row is None:
        return None
    if now - row.last_seen > SESSION_IDLE:
        s.delete(row)
        return None
    if now - row.last_seen > SEEN_EVERY:
        row.last_seen = now
    account = s.get(AccountRow, row.account_id)
    return (_account(account), row.id) if account is not None else None


def _sessions(s: Session, account_id: int) -> list[dict[str, Any]]:
    rows = s.scalars(select(SessionRow).where(SessionRow.account_id == account_id)
                     .order_by(SessionRow.last_seen.desc())).all()
    return [{"id": r.id, "created": r.created_at, "seen": r.last_seen, "client": r.client,
             "agent": r.agent} for r in rows]


def _close_session(s: Session, account_id: int, session_id: int | None) -> None:
    q = delete(SessionRow).where(SessionRow.account_id == account_id)
    if session_id is not None:
        q = q.where(SessionRow.id == session_id)
    s.execute(q)


def _count(s: Session, key: str, since: float) -> tuple[int, float]:
    n, oldest = s.execute(select(func.count(), func.min(FailureRow.at))
                          .where(FailureRow.key == key, FailureRow.at > since)).one()
    return int(n), float(oldest or 0.0)


def _locked(s: Session, name: str, client: str, now: float) -> str | None:
    since = now - FAILURE_WINDOW
    s.execute(delete(FailureRow).where(FailureRow.at <= since))
    for key, limit, whose in ((f"account:{name}", ACCOUNT_FAILURES, "for this account"),
                              (f"client:{client}", CLIENT_FAILURES, "from your address")):
        n, oldest = _count(s, key, since)
        if n >= limit:
            minutes = max(1, round((oldest + FAILURE_WINDOW - now) / 60))
            return (f"Too many failed sign-ins {whose}: it is locked for {minutes} more "
                    f"minute{'s' if minutes != 1 else ''}. If you forgot the password, "
                    "reset it.")
    return None


def _failed(s: Session, name: str, client: str, now: float) -> None:
    s.add(FailureRow(key=f"account:{name}"[:100], at=now))
    s.add(FailureRow(key=f"client:{client}"[:100], at=now))


def _succeeded(s: Session, name: str) -> None:
    s.execute(delete(FailureRow).where(FailureRow.key == f"account:{name}"))


def _new_reset(s: Session, account_id: int, token_hash: str, expires: float) -> None:
    s.add(ResetRow(token_hash=token_hash, account_id=account_id, expires_at=expires))


def _reset_account(s: Session, token_hash: str, now: float) -> Account | None:
    row = s.get(ResetRow, token_hash)
    if row is None or row.expires_at < now:
        return None
    return _by_id(s, row.account_id)


def _use_reset(s: Session, token_hash: str, password_hash: str, now: float) -> Account | None:
    account = _reset_account(s, token_hash, now)
    if account is None:
        return None
    _set_password(s, account.id, password_hash)
    return account


def _attach_seat(s: Session, game_id: str, seat: int, account_id: int) -> None:
    if s.get(AccountSeatRow, (game_id, seat)) is None:
        s.add(AccountSeatRow(game_id=game_id, seat=seat, account_id=account_id))
