"""``twinrack serve``: the web table service."""

from __future__ import annotations

import os
from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL (default: TWINRACK_DATABASE_URL or a SQLite "
        "file twinrack.db here)")] = None,
) -> None:
    """Run the web table on http://HOST:PORT/ (SQLite by default)."""
    os.environ["TWINRACK_HOST"] = host
    os.environ["TWINRACK_PORT"] = str(port)
    if database_url:
        os.environ["TWINRACK_DATABASE_URL"] = database_url
    from twinrack.server.app import main

    main()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
