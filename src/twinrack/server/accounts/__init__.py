"""Players' accounts (docs/accounts.md): signing up, in and out, sessions, password
resets, profiles at /u/NAME, "my games" across devices, ratings and the leaderboard.

The rest of the server knows three things of it: :func:`install` (the routes and the
objects on ``app.state``), :func:`seat_taken` (a signed-in player's seat is theirs) and
:func:`signed_in`. (Imports are inside them: ``twinrack accounts`` and the rest of the
command line load this package without the web application.)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.requests import HTTPConnection

    from twinrack.server.accounts.store import Account

__all__ = ["install", "seat_taken", "signed_in"]


def install(app: FastAPI) -> None:
    """The accounts' routes and state, on the app of :func:`twinrack.server.app.create_app`
    (its hub must be on ``app.state``)."""
    from twinrack.server.accounts import passkey_routes, profile_routes, routes
    from twinrack.server.accounts.mail import Mailer
    from twinrack.server.accounts.passkeys import Passkeys
    from twinrack.server.accounts.store import Accounts

    app.state.accounts = Accounts(app.state.hub.db)
    app.state.passkeys = Passkeys(app.state.hub.db)
    rp_id, origin = (os.environ.get(f"TWINRACK_PASSKEY_{k}") for k in ("RP_ID", "ORIGIN"))
    app.state.passkey_site = (rp_id, origin) if rp_id and origin else None
    smtp = os.environ.get("TWINRACK_SMTP_URL")
    app.state.mailer = Mailer(smtp, os.environ.get("TWINRACK_MAIL_FROM",
                                                   "twinrack@localhost")) if smtp else None
    app.include_router(routes.router)
    app.include_router(profile_routes.router)
    app.include_router(passkey_routes.router)


async def signed_in(conn: HTTPConnection) -> Account | None:
    """The account of the request's session cookie (None: a guest)."""
    from twinrack.server.accounts.web import signed_in as account_of

    return await account_of(conn)


async def seat_taken(conn: HTTPConnection, game_id: str, seat: int) -> None:
    """A seat taken by the browser of ``conn``: a signed-in player's from then on."""
    account = await signed_in(conn)
    if account is not None:
        await conn.app.state.accounts.attach_seat(game_id, seat, account.id)
