"""``twinrack accounts reports``: the chat lines players reported, for the site's
operator (newest first, each with its line, game and reporter)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any

import typer


def reports(
    database_url_option: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL (default: TWINRACK_DATABASE_URL or the "
        "SQLite file twinrack.db here)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
    limit: Annotated[int, typer.Option(min=1, max=5000, help="at most this many")] = 500,
) -> None:
    """List the chat lines players reported, newest first."""
    from twinrack.server.accounts.cli import operator_database
    from twinrack.server.chat.store import ChatStore
    from twinrack.server.db import Database, migrate

    text = operator_database(database_url_option)
    db = Database(text)
    try:
        migrate(db.engine)
        found = ChatStore(db).reports(limit)
    finally:
        db.close()
    if as_json:
        for r in found:
            print(json.dumps(r, ensure_ascii=False))
        return
    if not found:
        print("No chat line has been reported.")
        return
    print(f"{len(found)} report(s), newest first:")
    for r in found:
        print(describe(r))


def describe(r: dict[str, Any]) -> str:
    """One report in two lines: when, where and by whom; then who said what (the text
    quoted as JSON, so that no line of it can pass for another)."""
    line = r["line"]
    when = datetime.fromtimestamp(r["at"], UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    where = f"game {r['game_id']}" if r["game_id"] else f"channel {r['channel']}"
    seat = f", seat {line['seat'] + 1}" if line["seat"] is not None else ""
    return (f"#{r['id']} {when} {where}: line {line['id']} reported by {r['reporter']} "
            f"[{r['reporter_key']}, {r['client']}]\n"
            f"    {line['from']}{seat} [{line['key']}, to {line['audience']}]: "
            f"{json.dumps(line['text'], ensure_ascii=False)}")
