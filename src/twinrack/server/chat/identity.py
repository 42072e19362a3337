"""Who says or reports a chat line, from the request or socket that carries it: a
signed-in account by its name, a guest browser by a hash of its id cookie (never the
cookie itself), a client without that cookie by a hash of its address."""

from __future__ import annotations

import hashlib

from starlette.requests import HTTPConnection

from twinrack.server import accounts
from twinrack.server.deps import COOKIE, client_of


def _short(kind: str, secret: str) -> str:
    return hashlib.sha256(f"twinrack-chat:{kind}:{secret}".encode()).hexdigest()[:16]


def account_key(name: str) -> str:
    """The sender key of a signed-in account's lines (outside its seats at tables)."""
    return f"a:{name.lower()}"


def guest_key(browser: str) -> str:
    """The sender key of a guest browser's lines (its id cookie, hashed)."""
    return f"g:{_short('b', browser)}"


async def sender_of(conn: HTTPConnection) -> tuple[str, str]:
    """(key, name) of whoever is on the other end of ``conn`` (a spectator at a table,
    anyone in a channel such as the room)."""
    account = await accounts.signed_in(conn)
    if account is not None:
        return account_key(account.name), account.name
    browser = conn.cookies.get(COOKIE)
    key = guest_key(browser) if browser else f"c:{_short('c', client_of(conn))}"
    return key, f"Guest {key[2:6]}"


async def account_id_of(conn: HTTPConnection) -> int | None:
    account = await accounts.signed_in(conn)
    return account.id if account is not None else None
