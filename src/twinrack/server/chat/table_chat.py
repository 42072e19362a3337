"""Chat at a table, as the table's own task runs it (server/table/live.py): a line is checked
(server/chat/rules.py), stored, and only then sent, over the table's channel, to those who
may read it. In a cluster the table's owner does all this, for its sockets and for those
other workers hold (server/cluster/relay.py), like any other command of the table.

During play the players' lines reach the players only and the spectators' lines the
spectators only: a spectator, who may see more of the game than a seat or talk to one of
its players elsewhere, cannot pass anything on at the table, and players cannot tell the
watchers what they hold. Once the game is over every line reaches everyone."""

from __future__ import annotations

import logging
from typing import Any

from twinrack.engine import GameState
from twinrack.server.chat.rate import LocalRate, RateLimit
from twinrack.server.chat.rules import ChatRefused, check_text
from twinrack.server.chat.store import ChatStore
from twinrack.server.table import wire
from twinrack.server.table.seats import Connection, LiveSeat, TableCommand

log = logging.getLogger("twinrack.chat")

#: the seat that may make a table quiet: the host, who created it
HOST = 0


def audience_of(seat: int | None, over: bool) -> str:
    """Who may read a line said now by ``seat`` (None: a spectator)."""
    if over:
        return "all"
    return "spectators" if seat is None else "players"


def readable(seat: int | None, over: bool) -> set[str]:
    """The audiences whose lines ``seat`` (None: a spectator) may read."""
    if over:
        return {"all", "players", "spectators"}
    return {"all", "spectators" if seat is None else "players"}


def reaches(conn: Connection, audience: str) -> bool:
    return audience == "all" or (audience == "players") == (conn.seat is not None)


class TableChat:
    """The chat part of :class:`~twinrack.server.table.live.LiveTable`."""

    id: str
    state: GameState
    seats: list[LiveSeat]
    conns: set[Connection]
    #: where lines are stored (the hub gives every table its own handle on the database)
    chat_store: ChatStore | None = None
    #: "quiet table": only the fixed phrases (None: not read from the database yet)
    chat_quiet: bool | None = None
    #: the rate limit (the hub gives every table the service's: server/chat/rate.py)
    chat_rate: RateLimit | None = None

    @property
    def chat_channel(self) -> str:
        return f"t:{self.id}"

    async def _chat_command(self, cmd: TableCommand) -> bool:
        """Handle the commands of chat; False for any other."""
        if cmd.kind == "chat":
            await self._chat_say(cmd)
        elif cmd.kind == "chat_quiet":
            await self._chat_set_quiet(cmd)
        else:
            return False
        return True

    async def _quiet_now(self) -> bool:
        if self.chat_quiet is None:
            self.chat_quiet = (await self.chat_store.quiet(self.chat_channel)
                               if self.chat_store is not None else False)
        return self.chat_quiet

    def _sender(self, cmd: TableCommand) -> tuple[str, str]:
        seat = cmd.conn.seat if cmd.conn is not None else None
        if seat is not None:
            return f"s{seat}", self.seats[seat].name
        return cmd.sender or ("g:unknown", "Spectator")

    async def _chat_say(self, cmd: TableCommand) -> None:
        conn = cmd.conn
        assert conn is not None
        seat = conn.seat
        try:
            text = check_text(cmd.text, await self._quiet_now())
            key, name = self._sender(cmd)
            if self.chat_rate is None:
                self.chat_rate = LocalRate()
            await self.chat_rate.check(self.chat_channel, key)
            if self.chat_store is None:
                raise ChatRefused("chat_unavailable", "chat is not available here")
            audience = audience_of(seat, self.state.over)
            try:
                line = await self.chat_store.add(self.chat_channel, sender_key=key,
                                                 sender_name=name, seat=seat,
                                                 audience=audience, text=text)
            except Exception as err:
                log.warning("table %s: storing a chat line failed (%r)", self.id, err)
                raise ChatRefused("storage_unavailable", "the line could not be stored: "
                                  "send it again in a moment", retryable=True) from None
        except ChatRefused as err:
            conn.send({**err.to_dict(), "msg_id": cmd.msg_id})
            return
        self._chat_send({"type": "chat", "line": line}, audience)

    def _chat_send(self, msg: dict[str, Any], audience: str) -> None:
        text = wire.encode(msg)
        for c in list(self.conns):
            if reaches(c, audience):
                c.send(msg, text)

    async def _chat_set_quiet(self, cmd: TableCommand) -> None:
        conn = cmd.conn
        assert conn is not None
        if conn.seat != HOST:
            conn.send({"type": "error", "code": "not_host", "msg_id": cmd.msg_id,
                       "message": "only the host (who created the table) can make it quiet"})
            return
        on = cmd.text == "on"
        try:
            if self.chat_store is not None:
                await self.chat_store.set_quiet(self.chat_channel, on)
        except Exception as err:
            log.warning("table %s: storing quiet failed (%r)", self.id, err)
            conn.send({"type": "error", "code": "storage_unavailable", "retryable": True,
                       "msg_id": cmd.msg_id, "message": "the setting could not be saved: "
                                                        "try again"})
            return
        self.chat_quiet = on
        self._chat_send({"type": "chat_quiet", "on": on}, "all")
