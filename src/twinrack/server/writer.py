"""Storing actions: the one write on the path of every move (docs/security.md, "Durable
before visible"), kept cheap.

A batch of actions (group commit: every table's actions that arrived while the last
transaction was written) is one transaction on one connection kept open for it, with its
two statements compiled once for the database's dialect and run on the driver's own
cursor. Through SQLAlchemy's execution of a Core statement, with a connection taken from
the pool for each batch, a batch of one action cost about 0.6-0.9 ms of CPU; this way
about 0.15 ms. The transaction is still SQLAlchemy's (its events fire, a failure rolls it
back), a refusal of the database is raised as SQLAlchemy's error of its kind (an
``IntegrityError`` for a clash or a stale lease epoch), and a connection that failed once
is let go, so the next batch takes a fresh one from the pool.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import Connection, insert, update
from sqlalchemy import Table as SATable
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler

from twinrack.engine import Action, GameState, score
from twinrack.server.db import Database
from twinrack.server.models import ActionRow, GameRow

#: the columns of a stored action, in the order of its row
COLUMNS = ("game_id", "seq", "seat", "action", "events", "msg_id", "by", "epoch")


class Statement:
    """One statement compiled for a dialect, with the binding of its parameters (the
    column types' own conversions, such as JSON's), run on a DBAPI cursor."""

    def __init__(self, compiled: Any, types: dict[str, Any], dialect: Any) -> None:
        assert isinstance(compiled, SQLCompiler)
        self.sql = compiled.string
        self.positional = compiled.positiontup
        self.convert: dict[str, Callable[[Any], Any]] = {}
        for name, kind in types.items():
            process = kind.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                self.convert[name] = process

    def params(self, row: dict[str, Any]) -> Any:
        if self.convert:
            row = {**row, **{k: f(row[k]) for k, f in self.convert.items()}}
        if self.positional is None:
            return row
        return tuple([row[k] for k in self.positional])

    def run(self, cursor: Any, rows: Sequence[dict[str, Any]]) -> None:
        params = [self.params(r) for r in rows]
        cursor.executemany(self.sql, params)


class ActionWriter:
    """Writes batches of actions (see the module's text). Used from one thread at a time
    (the hub writes one batch after the other)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        dialect = db.engine.dialect
        self.actions = cast(SATable, ActionRow.__table__)
        self.games = cast(SATable, GameRow.__table__)
        self.insert = Statement(
            insert(self.actions).compile(dialect=dialect, column_keys=list(COLUMNS)),
            {c: self.actions.c[c].type for c in COLUMNS}, dialect)
        self.conn: Connection | None = None

    def write(self, rows: list[dict[str, Any]]) -> None:
        """One transaction for a batch of actions: each action's row and, for a game that
        ended, its status, result and last version. (The game's row is not rewritten at
        every action: it holds the card's text, and rewriting it cost twice the action's
        own row.)"""
        conn = self.conn if self.conn is not None else self.db.engine.connect()
        self.conn = None  # kept again only when this batch went through
        try:
            with conn.begin():
                self._execute(conn, self.insert, rows)
                for r in rows:
                    if r["over"]:
                        conn.execute(update(self.games)
                                     .where(self.games.c.id == r["game_id"])
                                     .values(status="finished", result=r["result"],
                                             version=r["version"]))
        except BaseException:
            conn.invalidate()  # whatever went wrong, the next batch starts afresh
            conn.close()
            raise
        self.conn = conn

    def _execute(self, conn: Connection, statement: Statement,
                 rows: Sequence[dict[str, Any]]) -> None:
        cursor = conn.connection.cursor()
        try:
            statement.run(cursor, rows)
        except self.db.engine.dialect.loaded_dbapi.Error as err:
            raise DBAPIError.instance(statement.sql, None, err,
                                      self.db.engine.dialect.loaded_dbapi.Error,
                                      dialect=self.db.engine.dialect) from err
        finally:
            cursor.close()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def row_of(state: GameState, action: Action, events: list[Any], by: str,
           msg_id: str | None) -> dict[str, Any]:
    """What is stored of an action just applied to ``state`` (see Hub.store): its
    sequence number, seat, text form and events, and the game's version after it."""
    return {"seq": len(state.actions), "seat": action.seat, "action": str(action),
            "events": [str(e) for e in events], "msg_id": msg_id, "by": by,
            "version": state.version, "over": state.over,
            "result": result_of(state) if state.over else None}


def result_of(state: GameState) -> dict[str, Any]:
    """A finished game's result as stored (and sent, see wire.score_object): the totals,
    the score's lines, the end reason and the winner."""
    sc = score(state)
    return {"totals": list(sc.totals),
            "lines": [{"seat": x.seat, "points": x.points, "reason": x.reason}
                      for x in sc.lines],
            "end_reason": state.end_reason, "winner": state.winner}
