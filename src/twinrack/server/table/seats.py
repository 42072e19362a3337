"""A table's seats, its connections (one per browser tab, or a socket another worker of a
cluster holds) and the commands its task applies one at a time (server/table/live.py)."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from fastapi import WebSocket

from twinrack.engine import Action
from twinrack.server.table import wire

T = TypeVar("T")


@dataclass(frozen=True)
class TableSettings:
    """What the host chose for a table when creating it (kept with the game)."""

    #: the call timer: seconds each person has to claim a discard
    call_seconds: float = 10.0
    #: seconds an absent player (one who has not joined, or left) has before the computer
    #: plays for them
    grace_seconds: float = 60.0
    #: the turn timer: seconds a person has for a move before the computer makes that
    #: move for them (None: no turn timer)
    turn_seconds: float | None = None
    #: "open to watch": listed among the lobby's tables in play
    listed: bool = False
    #: the open room's wait (server/room): when (seconds since 1970, games.wait_until) the
    #: seats nobody took go to the computer and play starts; None: no such wait
    wait_until: float | None = None


@dataclass
class LiveSeat:
    seat: int
    name: str
    kind: str  # "human" or a bot level
    token_hash: str | None = None
    connected: int = 0
    #: since when (monotonic clock) a person's seat has had no connection: its last one
    #: closed, or play started (or the table was loaded) without one
    absent_since: float | None = None
    #: keep claim windows open even when passing is all this seat may do (the page's
    #: "always ask" setting): passing at once would tell the table it could not claim
    always_ask: bool = False
    #: "pass for me unless the claim helps my plan": the seat is not asked about a discard
    #: whose claim the hints say does not help; the call timer passes for it
    auto_pass: bool = False
    #: the computer plays this person's seat until they come back (stored: the grace
    #: period ran out, or the host handed the seat to the computer)
    away: bool = False
    #: turns in a row the turn timer made this person's move (not stored: a restart
    #: counts again from nought)
    timed_out: int = 0
    #: handed to the computer for letting the turn timer run out three times in a row:
    #: the computer plays it although its page is open, until the person moves again
    idle: bool = False

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"


class Mailbox(Generic[T]):
    """Items waiting for one consumer, in order (a connection's messages for its socket, a
    table's commands): what asyncio.Queue does for a single consumer, without its
    bookkeeping (items come and go at every action, so their cost counts)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> T:
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.popleft()

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items


@dataclass(eq=False)
class Connection:
    ws: WebSocket | None  # None: a socket held by another worker of a cluster
    seat: int | None
    hints: bool = False  # the browser turns hints on with {"type": "hints", "on": true}
    log_sent: int = 0
    outbox: Mailbox[str | None] = field(default_factory=Mailbox)
    writer: asyncio.Task[None] | None = None

    async def pump(self) -> None:
        """Send queued messages in order; a slow browser never blocks the table."""
        while True:
            text = await self.outbox.get()
            if text is None or self.ws is None:
                return
            try:
                await self.ws.send_text(text)
            except Exception:  # the socket is gone; the reader side cleans up
                return

    def send(self, msg: dict[str, Any] | None, text: str | None = None) -> None:
        """Queue a message, encoded at once (``text``: already encoded, for a message
        several connections get): queued text holds no objects for the garbage collector
        to walk, however slow the browser."""
        if msg is not None and text is None:
            text = wire.encode(msg)
        self.outbox.put_nowait(text)


@dataclass
class TableCommand:
    #: "action", "bot", "bot_move", "timer", "turn_timer", "wake", "resume", "autopass",
    #: "takeover", "start", "hand_over", "back", "wait_over", "idle", "chat", "chat_quiet"
    kind: str
    seat: int | None = None
    version: int | None = None
    msg_id: str | None = None
    text: str = ""
    conn: Connection | None = None
    done: asyncio.Future[None] | None = None
    action: Action | None = None
    rng_state: Any = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    #: who a bot's move is made for: "bot" (a computer seat, or a person's seat the
    #: computer plays) or "timer" (one move the turn timer makes for a person)
    by: str = "bot"
    #: who says a chat line, when a spectator does: (key, name) (server/chat)
    sender: tuple[str, str] | None = None
