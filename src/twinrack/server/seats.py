"""A table's seats, its connections (one per browser tab, or a socket another worker of a
cluster holds) and the commands its task applies one at a time (server/table.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from twinrack.engine import Action
from twinrack.server import wire


@dataclass
class LiveSeat:
    seat: int
    name: str
    kind: str  # "human" or a bot level
    token_hash: str | None = None
    connected: int = 0
    left_at: float | None = None  # when the last connection of a human closed
    #: keep claim windows open even when passing is all this seat may do (the page's
    #: "always ask" setting): passing at once would tell the table it could not claim
    always_ask: bool = False

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"


@dataclass(eq=False)
class Connection:
    ws: WebSocket | None  # None: a socket held by another worker of a cluster
    seat: int | None
    hints: bool = False  # the browser turns hints on with {"type": "hints", "on": true}
    log_sent: int = 0
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
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
    kind: str  # "action", "bot", "bot_move", "timer", "wake", "resume", "autopass", "takeover"
    seat: int | None = None
    version: int | None = None
    msg_id: str | None = None
    text: str = ""
    conn: Connection | None = None
    done: asyncio.Future[None] | None = None
    action: Action | None = None
    rng_state: Any = None
    rows: list[dict[str, Any]] = field(default_factory=list)
