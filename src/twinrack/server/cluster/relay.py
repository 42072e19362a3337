"""A table's sockets in a cluster: the socket side and the owner side of the relay.

A socket is held by whichever worker nginx gave it to; the table is run by its owner. The
socket's worker sends the owner the socket's commands (its inbox, :mod:`.bus`); the owner
computes everything for that socket's viewer, as it does for its own sockets (the view,
the legal actions and the log of that seat, redacted there), and publishes the finished
text on the socket's worker's channel, addressed to that one socket. A worker thus only
ever forwards to a socket the text the owner made for its viewer.

Each message goes in an envelope, a header line and the text:
``"{socket} {epoch} {version} {log_start} {log_end}\\n{text}"`` (version -1 for messages
other than states). The socket's side drops a message of an older epoch than the one it
follows (an owner that lost its lease and does not know it yet), and a state that would
leave a gap in the log (a lost message): it asks the owner for the whole state instead.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket

from twinrack.server.table import wire
from twinrack.server.table.live import LiveTable
from twinrack.server.table.seats import Connection, TableCommand

if TYPE_CHECKING:
    from twinrack.server.cluster.node import Node

_NUMBERS = itertools.count(1)


@dataclass(frozen=True)
class Envelope:
    socket: str
    epoch: int
    version: int
    log_start: int
    log_end: int
    text: str

    @classmethod
    def read(cls, payload: str) -> Envelope:
        head, _, text = payload.partition("\n")
        socket, epoch, version, start, end = head.split(" ")
        return cls(socket, int(epoch), int(version), int(start), int(end), text)


def seal(socket: str, epoch: int, msg: dict[str, Any], text: str | None = None) -> str:
    """The envelope of one message for one socket (``text``: the message already
    encoded)."""
    if msg.get("type") == "state":
        start = int(msg["log_start"])
        head = f"{socket} {epoch} {msg['version']} {start} {start + len(msg['log'])}"
    else:
        head = f"{socket} {epoch} -1 0 0"
    return f"{head}\n{wire.encode(msg) if text is None else text}"


class RemoteConnection(Connection):
    """The owner's side of a socket another worker holds: what the table sends it goes,
    sealed, to that worker's channel."""

    def __init__(self, node: Node, worker: str, socket: str, seat: int | None,
                 epoch: int) -> None:
        super().__init__(None, seat)
        self.node = node
        self.worker = worker
        self.socket = socket
        self.epoch = epoch

    def send(self, msg: dict[str, Any] | None, text: str | None = None) -> None:
        if msg is None or not self.node.may_speak():
            return
        self.node.bus.publish(self.worker, seal(self.socket, self.epoch, msg, text))


class LocalConnection(Connection):
    """A socket of this worker. While this worker runs its table, the table sends to it
    directly, but only while this worker's leases surely still run; otherwise the relay
    puts the owner's texts in its queue."""

    def __init__(self, node: Node, ws: WebSocket, seat: int | None) -> None:
        super().__init__(ws, seat)
        self.node = node

    def send(self, msg: dict[str, Any] | None, text: str | None = None) -> None:
        if msg is not None and not self.node.may_speak():
            return
        super().send(msg, text)


@dataclass(eq=False)
class Socket:
    """A socket of this worker and the owner it follows."""

    id: str
    game_id: str
    conn: LocalConnection
    owner: str | None = None  # the worker whose table it is joined to, None: none yet
    epoch: int = -1
    log_end: int = 0
    asked: bool = False  # a whole state was asked for after a gap

    @classmethod
    def new(cls, node: Node, game_id: str, ws: WebSocket, seat: int | None) -> Socket:
        return cls(f"{node.worker}.{next(_NUMBERS)}", game_id, LocalConnection(node, ws, seat))

    def tell(self, msg: dict[str, Any] | None) -> None:
        """A message of this worker's own (not the owner's) for the browser."""
        self.conn.outbox.put_nowait(None if msg is None else wire.encode(msg))

    def deliver(self, env: Envelope) -> str | None:
        """Whether to forward ``env`` to the browser: None to forward it, else why not."""
        if env.epoch < self.epoch:
            return "old epoch"
        if env.version >= 0:
            if env.log_start > self.log_end:
                return "gap"
            self.log_end = env.log_end
            self.asked = False
        self.epoch = env.epoch
        return None


class RoutedTable(LiveTable):
    """A game in play, as a worker of a cluster serves it: its pages read the seats and
    the game as stored when the worker loaded it; its sockets go to the owner, wherever
    it runs (here or on another worker). Never started: the owner runs the game."""

    node: Node

    async def join(self, ws: WebSocket, seat: int | None) -> Connection:
        return self.node.open_socket(self.id, ws, seat)

    def leave(self, conn: Connection, close: bool = True) -> None:
        self.node.close_socket(conn)

    def submit(self, cmd: TableCommand) -> None:
        self.node.route(self.id, cmd)

    async def set_hints(self, conn: Connection, on: bool) -> None:
        conn.hints = on
        await self.node.route_setting(self.id, conn, "hints", on)

    async def set_always_ask(self, conn: Connection, on: bool) -> None:
        await self.node.route_setting(self.id, conn, "always_ask", on)

    async def set_auto_pass(self, conn: Connection, on: bool) -> None:
        await self.node.route_setting(self.id, conn, "auto_pass", on)
