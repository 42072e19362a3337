"""Passkeys (WebAuthn, through the ``webauthn`` library): an account's credentials and the
challenges of the two ceremonies, adding a passkey and signing in with one
(docs/accounts.md, "Passkeys").

A challenge is made here, kept in the database (its sha256: every worker of a cluster
finds it) for five minutes, and used once: the answer of the browser names the challenge
it signed (in its client data), and that challenge is taken out of the database before the
answer is even checked, so an answer replayed, or sent after the five minutes, finds
nothing. The signature counter of each passkey is stored; an answer whose counter did not
go up (when the authenticator keeps one) is refused, as a cloned authenticator's would be,
and the new counter is written only if the old one is still the stored one.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection
from webauthn.helpers import parse_client_data_json

from twinrack.server.accounts.models import ChallengeRow, PasskeyRow
from twinrack.server.accounts.store import digest
from twinrack.server.db import Database

T = TypeVar("T")

#: how long a ceremony may take (seconds), the browser's timeout included
CHALLENGE_SECONDS = 300.0
#: the most passkeys one account may have
MAX_PASSKEYS = 20
#: the longest answer of a browser a ceremony reads (characters of JSON)
MAX_BODY = 16_384
#: the longest passkey name kept
MAX_NAME = 60
#: the two kinds of challenge
REGISTER, SIGNIN = "register", "signin"


@dataclass(frozen=True)
class Passkey:
    id: int
    account_id: int
    credential_id: str  # base64url
    public_key: bytes
    sign_count: int
    name: str
    created: float
    last_used: float | None


def _passkey(row: PasskeyRow) -> Passkey:
    return Passkey(row.id, row.account_id, row.credential_id, row.public_key, row.sign_count,
                   row.name, row.created_at, row.last_used)


class PasskeyTaken(Exception):
    """That credential is already one of an account here."""


class TooManyPasskeys(Exception):
    pass


def site_of(conn: HTTPConnection) -> tuple[str, str]:
    """The relying party's id and the origin its pages are served from: those the operator
    set (TWINRACK_PASSKEY_RP_ID and TWINRACK_PASSKEY_ORIGIN, which a public site must set),
    else the request's own host and origin (a local server, the tests)."""
    configured: tuple[str, str] | None = conn.app.state.passkey_site
    if configured is not None:
        return configured
    url = conn.base_url
    return url.hostname or "localhost", f"{url.scheme}://{url.netloc}"


def user_handle(account_id: int) -> bytes:
    """The user handle an authenticator keeps with an account's passkeys (no name in it)."""
    return f"twinrack-account-{account_id}".encode()


def signed_challenge(client_data_json: bytes) -> bytes:
    """The challenge a browser's answer says it signed (checked against the stored ones)."""
    return parse_client_data_json(client_data_json).challenge


class Passkeys:
    """The passkeys' units of work, each on the database's threads."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        def unit() -> T:
            with self.db.unit() as s:
                return fn(s, *args)
        return await self.db.run(unit)

    async def new_challenge(self, kind: str, account_id: int | None) -> bytes:
        """A fresh challenge for a ceremony (the expired ones are swept away)."""
        challenge = secrets.token_bytes(32)
        await self._run(_new_challenge, digest(challenge.hex()), kind, account_id,
                        self.clock())
        return challenge

    async def take_challenge(self, challenge: bytes, kind: str,
                             account_id: int | None) -> bool:
        """Whether ``challenge`` was given for this ceremony (and account), not used yet
        and not expired; it is used up either way."""
        return await self._run(_take_challenge, digest(challenge.hex()), kind, account_id,
                               self.clock())

    async def of_account(self, account_id: int) -> list[Passkey]:
        return await self._run(_of_account, account_id)

    async def by_credential(self, credential_id: str) -> Passkey | None:
        return await self._run(_by_credential, credential_id)

    async def add(self, account_id: int, credential_id: str, public_key: bytes,
                  sign_count: int, name: str) -> None:
        """A new passkey of the account (PasskeyTaken, TooManyPasskeys)."""
        try:
            await self._run(_add, account_id, credential_id, public_key, sign_count,
                            name[:MAX_NAME], self.clock())
        except IntegrityError:
            raise PasskeyTaken(credential_id) from None

    async def used(self, passkey: Passkey, new_count: int) -> bool:
        """Record a sign-in: the new counter, if the stored one is still the one the
        answer was checked against (False: another sign-in came first)."""
        return await self._run(_used, passkey.id, passkey.sign_count, new_count,
                               self.clock())

    async def remove(self, account_id: int, passkey_id: int) -> bool:
        return await self._run(_remove, account_id, passkey_id)


def _new_challenge(s: Session, challenge_hash: str, kind: str, account_id: int | None,
                   now: float) -> None:
    s.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < now))
    s.add(ChallengeRow(challenge_hash=challenge_hash, kind=kind, account_id=account_id,
                       expires_at=now + CHALLENGE_SECONDS))


def _take_challenge(s: Session, challenge_hash: str, kind: str, account_id: int | None,
                    now: float) -> bool:
    row = s.get(ChallengeRow, challenge_hash)
    if row is None:
        return False
    gone = s.execute(delete(ChallengeRow).where(ChallengeRow.challenge_hash ==
                                                challenge_hash))
    # rowcount: a second worker taking the same challenge at once deletes nothing
    return (bool(getattr(gone, "rowcount", 0)) and row.kind == kind
            and row.account_id == account_id and row.expires_at >= now)


def _of_account(s: Session, account_id: int) -> list[Passkey]:
    rows = s.scalars(select(PasskeyRow).where(PasskeyRow.account_id == account_id)
                     .order_by(PasskeyRow.id)).all()
    return [_passkey(r) for r in rows]


def _by_credential(s: Session, credential_id: str) -> Passkey | None:
    row = s.scalar(select(PasskeyRow).where(PasskeyRow.credential_id == credential_id))
    return _passkey(row) if row is not None else None


def _add(s: Session, account_id: int, credential_id: str, public_key: bytes,
         sign_count: int, name: str, now: float) -> None:
    have = s.scalar(select(func.count()).select_from(PasskeyRow)
                    .where(PasskeyRow.account_id == account_id)) or 0
    if have >= MAX_PASSKEYS:
        raise TooManyPasskeys(account_id)
    s.add(PasskeyRow(account_id=account_id, credential_id=credential_id,
                     public_key=public_key, sign_count=sign_count, name=name, created_at=now))
    s.flush()


def _used(s: Session, passkey_id: int, old_count: int, new_count: int, now: float) -> bool:
    done = s.execute(update(PasskeyRow).where(PasskeyRow.id == passkey_id,
                                              PasskeyRow.sign_count == old_count)
                     .values(sign_count=new_count, last_used=now))
    return bool(getattr(done, "rowcount", 0))


def _remove(s: Session, account_id: int, passkey_id: int) -> bool:
    done = s.execute(delete(PasskeyRow).where(PasskeyRow.id == passkey_id,
                                              PasskeyRow.account_id == account_id))
    return bool(getattr(done, "rowcount", 0))
