"""``twinrack serve``: the web table service.

Every option is checked before the service starts or says it is running: the port is a
port number that can be listened on now, and the database URL parses, names a driver
TwinRack supports and answers a connection within a few seconds.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

#: the SQLAlchemy drivers the service is tested with
DRIVERS = ("sqlite", "sqlite+pysqlite", "postgresql+psycopg")
DEFAULT_DB = "sqlite:///twinrack.db"
CONNECT_SECONDS = 5


def _fail(message: str) -> NoReturn:
    print(f"twinrack: {message}", file=sys.stderr)
    raise typer.Exit(2)


def database_url(text: str, option: str) -> URL:
    """The URL, when it parses and names a supported driver."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(text)
    except ArgumentError:
        _fail(f"{option}: '{text}' is not a database URL (expected one like {DEFAULT_DB} "
              "or postgresql+psycopg://user:pass@host/db)")
    if url.drivername not in DRIVERS:
        _fail(f"{option}: unsupported database driver '{url.drivername}' (use sqlite or "
              "postgresql+psycopg)")
    return url


def check_listen(host: str, port: int) -> None:
    """Refuse an address and port nobody can listen on now (a port in use, say)."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as err:
        _fail(f"--host: cannot listen on {host}:{port}: {getattr(err, 'strerror', err)}")
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as err:
            option = "--port" if err.errno in (errno.EADDRINUSE, errno.EACCES) else "--host"
            _fail(f"{option}: cannot listen on {host}:{port}: {err.strerror or err}")


def check_connect(url: URL, option: str) -> None:
    """Refuse a database that does not answer within ``CONNECT_SECONDS``."""
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    sqlite = url.get_backend_name() == "sqlite"
    args = {"timeout": CONNECT_SECONDS} if sqlite else {"connect_timeout": CONNECT_SECONDS}
    try:
        engine = create_engine(url, connect_args=args)
        try:
            with engine.connect():
                pass
        finally:
            engine.dispose()
    except (SQLAlchemyError, OSError) as err:
        why = str(getattr(err, "orig", None) or err).strip().splitlines()
        _fail(f"{option}: cannot connect to {url.render_as_string(hide_password=True)}: "
              f"{why[0] if why else type(err).__name__}")


def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port, 1 to 65535")] = 8000,
    database_url_option: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL, sqlite or postgresql+psycopg (default: "
        "TWINRACK_DATABASE_URL or a SQLite file twinrack.db here)")] = None,
) -> None:
    """Run the web table on http://HOST:PORT/ (SQLite by default)."""
    if not host.strip():
        _fail("--host: no address given (the name is empty)")
    if not 1 <= port <= 65535:
        _fail(f"--port must be a port number from 1 to 65535, not {port}")
    if database_url_option is not None:
        text, option = database_url_option, "--database-url"
    elif "TWINRACK_DATABASE_URL" in os.environ:
        text, option = os.environ["TWINRACK_DATABASE_URL"], "TWINRACK_DATABASE_URL"
    else:
        text, option = DEFAULT_DB, "the default database"
    url = database_url(text, option)
    check_listen(host, port)
    check_connect(url, option)
    os.environ["TWINRACK_HOST"] = host
    os.environ["TWINRACK_PORT"] = str(port)
    os.environ["TWINRACK_DATABASE_URL"] = text
    from twinrack.server import app

    app.main()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
