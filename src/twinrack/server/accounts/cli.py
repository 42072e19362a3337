"""``twinrack accounts ...``: the operator's commands (a password reset link)."""

from __future__ import annotations

import asyncio
import os
from typing import Annotated

import typer

accounts_app = typer.Typer(no_args_is_help=True, help="Players' accounts (the operator's "
                           "commands).")

def operator_database(database_url_option: str | None) -> str:
    """The database an operator's command works on (``--database-url``, else
    TWINRACK_DATABASE_URL, else the default file), checked to be reachable."""
    from twinrack.cli.server import DEFAULT_DB, check_connect, database_url

    if database_url_option is not None:
        text, option = database_url_option, "--database-url"
    else:
        text = os.environ.get("TWINRACK_DATABASE_URL", DEFAULT_DB)
        option = "TWINRACK_DATABASE_URL" if "TWINRACK_DATABASE_URL" in os.environ else \
            "the default database"
    check_connect(database_url(text, option), option)
    return text



def reset(
    name: Annotated[str, typer.Argument(help="the user name")],
    database_url_option: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL (default: TWINRACK_DATABASE_URL or the "
        "SQLite file twinrack.db here)")] = None,
    base_url: Annotated[str, typer.Option(
        "--base-url", help="the site's address, as players open it")] = "",
) -> None:
    """Print a one-time link (valid for an hour) that sets a new password for NAME."""
    from twinrack.cli.server import _fail
    from twinrack.server.accounts.store import Accounts
    from twinrack.server.db import Database

    text = operator_database(database_url_option)
    base = base_url.rstrip("/") or (f"http://{os.environ.get('TWINRACK_HOST', '127.0.0.1')}:"
                                    f"{os.environ.get('TWINRACK_PORT', '8000')}")
    db = Database(text)
    try:
        token = asyncio.run(_reset_token(Accounts(db), db, name))
    finally:
        db.close()
    if token is None:
        _fail(f"there is no account named {name!r}")
    print(f"{base}/reset?token={token}")
    print("Give this link to the player only: it sets a new password once, within an hour.")


async def _reset_token(accounts: object, db: object, name: str) -> str | None:
    from twinrack.server.accounts.store import Accounts
    from twinrack.server.db import Database

    assert isinstance(accounts, Accounts) and isinstance(db, Database)
    await db.migrate()
    account = await accounts.by_name(name)
    return await accounts.new_reset(account.id) if account is not None else None


def register(app: typer.Typer) -> None:
    from twinrack.server.chat.cli import reports  # chat's reports (server/chat)

    accounts_app.command("reset")(reset)
    accounts_app.command("reports")(reports)
    app.add_typer(accounts_app, name="accounts")
