"""One live table: the engine state, its seats and connections, and the task that applies
commands one at a time.

Server authority (docs/protocol.md): every command carries the table version and a message
id; a duplicate is acknowledged again without being applied, a stale one is refused with a
resync. An accepted action is applied by the engine, stored in the database, and only then
sent out, as a view per seat: nothing else of the game state leaves the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from twinrack.bots import BOTS
from twinrack.card.model import Card
from twinrack.engine import (
    Action,
    GameState,
    apply,
    is_legal,
    legal_actions,
    parse_action,
    score,
    view,
    why_illegal,
)
from twinrack.engine.advice import kills_rack
from twinrack.errors import TwinRackError

log = logging.getLogger("twinrack.table")

Store = Callable[..., Awaitable[None]]

_HINTS: list[Any] = []


def _hints_function() -> Any:
    """The hints of twinrack.bots.hints, imported once (None where it is missing)."""
    if not _HINTS:
        try:
            from twinrack.bots.hints import hints

            _HINTS.append(hints)
        except ImportError:
            _HINTS.append(None)
    return _HINTS[0]


@dataclass
class Seat:
    seat: int
    name: str
    kind: str  # "human" or a bot level
    token_hash: str | None = None
    connected: int = 0
    left_at: float | None = None  # when the last connection of a human closed

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"


@dataclass(eq=False)
class Connection:
    ws: WebSocket
    seat: int | None
    hints: bool = False  # the browser turns hints on with {"type": "hints", "on": true}
    log_sent: int = 0
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None

    async def pump(self) -> None:
        """Send queued messages in order; a slow browser never blocks the table."""
        while True:
            text = await self.outbox.get()
            if text is None:
                return
            try:
                await self.ws.send_text(text)
            except Exception:  # the socket is gone; the reader side cleans up
                return

    def send(self, msg: dict[str, Any] | None) -> None:
        """Queue a message, encoded at once: queued text holds no objects for the
        garbage collector to walk, however slow the browser."""
        self.outbox.put_nowait(None if msg is None else json.dumps(msg, separators=(",", ":")))


@dataclass
class Command:
    kind: str  # "action", "bot", "timer", "wake"
    seat: int | None = None
    version: int | None = None
    msg_id: str | None = None
    text: str = ""
    conn: Connection | None = None
    done: asyncio.Future[None] | None = None


class Table:
    """A game in play (or finished and still open in some browser)."""

    def __init__(self, game_id: str, state: GameState, card: Card, seats: list[Seat],
                 store: Store, *, call_seconds: float, grace_seconds: float,
                 bot_delay: float, msg_ids: dict[str, int] | None = None) -> None:
        self.id = game_id
        self.state = state
        self.card = card
        self.seats = seats
        self.store = store
        self.call_seconds = call_seconds
        self.grace_seconds = grace_seconds
        self.bot_delay = bot_delay if any(not s.is_bot for s in seats) else 0.0
        self.msg_ids: dict[str, int] = dict(msg_ids or {})
        self.conns: set[Connection] = set()
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.bots: dict[int, Any] = {}
        self.rngs = {s.seat: random.Random(f"{game_id}:{s.seat}") for s in seats}
        self.deadline: tuple[int, float] | None = None  # (version, monotonic deadline)
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.closed = False
        self.hint_cache: dict[tuple[int, int], dict[str, Any] | None] = {}

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
            self._schedule()

    async def stop(self) -> None:
        self.closed = True
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for c in list(self.conns):
            c.send(None)

    async def _run(self) -> None:
        while True:
            cmd = await self.queue.get()
            try:
                await self._handle(cmd)
            except Exception:  # a bug must not kill the table: log it and carry on
                log.exception("table %s: command %s failed", self.id, cmd.kind)
                if cmd.conn is not None:
                    cmd.conn.send({"type": "error", "code": "server_error",
                                   "message": "the server could not apply that command",
                                   "msg_id": cmd.msg_id})
            finally:
                if cmd.done is not None and not cmd.done.done():
                    cmd.done.set_result(None)

    # ------------------------------------------------------------------ connections

    async def join(self, ws: WebSocket, seat: int | None) -> Connection:
        conn = Connection(ws, seat)
        conn.writer = asyncio.create_task(conn.pump())
        self.conns.add(conn)
        if seat is not None:
            s = self.seats[seat]
            s.connected += 1
            s.left_at = None
        self._send_state(conn)
        self._broadcast_players()
        self._schedule()
        return conn

    def leave(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        conn.send(None)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connected = max(0, s.connected - 1)
            if s.connected == 0:
                s.left_at = time.monotonic()
        self._broadcast_players()
        self._schedule()

    def submit(self, cmd: Command) -> None:
        self.queue.put_nowait(cmd)

    # ------------------------------------------------------------------ commands

    async def _handle(self, cmd: Command) -> None:
        st = self.state
        if cmd.kind == "action":
            await self._human_action(cmd)
        elif cmd.kind == "bot":
            if cmd.version != st.version or st.over or cmd.seat not in st.to_act():
                return
            assert cmd.seat is not None
            if not self._bot_should_play(cmd.seat):
                return
            bot = self._bot_for(cmd.seat)
            legal = legal_actions(st, cmd.seat)
            if not legal:
                return
            action = bot.choose(view(st, cmd.seat), legal, self.rngs[cmd.seat])
            await self._apply(action, by="bot", msg_id=None)
        elif cmd.kind == "timer":
            if self.deadline is None or cmd.version != st.version or st.over:
                return
            if time.monotonic() < self.deadline[1] - 0.01:
                self._schedule()
                return
            for seat in list(st.to_act()):
                if st.version != cmd.version:
                    break
                if self.seats[seat].is_bot:
                    continue
                passes = [a for a in legal_actions(st, seat) if a.body() == "pass"]
                if passes:
                    await self._apply(passes[0], by="timer", msg_id=None)
                    cmd.version = st.version
        elif cmd.kind == "wake":
            self._schedule()

    async def _human_action(self, cmd: Command) -> None:
        st = self.state
        conn = cmd.conn
        assert conn is not None
        if cmd.msg_id and cmd.msg_id in self.msg_ids:
            conn.send({"type": "ack", "msg_id": cmd.msg_id, "version": self.msg_ids[cmd.msg_id],
                       "duplicate": True})
            return
        if conn.seat is None:
            conn.send({"type": "error", "code": "spectator", "msg_id": cmd.msg_id,
                       "message": "spectators cannot play"})
            return
        if cmd.version != st.version:
            conn.send({"type": "error", "code": "stale_version", "msg_id": cmd.msg_id,
                       "message": "the table moved on: here is the current state"})
            self._send_state(conn)
            return
        try:
            action = parse_action(cmd.text, seat=conn.seat)
        except TwinRackError as err:
            conn.send({"type": "error", "code": err.code, "message": err.message,
                       "msg_id": cmd.msg_id})
            return
        if action.seat != conn.seat:
            conn.send({"type": "error", "code": "not_your_seat", "msg_id": cmd.msg_id,
                       "message": "you can only act for your own seat"})
            return
        if not is_legal(st, action):
            refusal = why_illegal(st, action)
            conn.send({"type": "error", "code": refusal.code, "message": refusal.message,
                       "msg_id": cmd.msg_id})
            return
        await self._apply(action, by="human", msg_id=cmd.msg_id)
        if cmd.msg_id:
            conn.send({"type": "ack", "msg_id": cmd.msg_id, "version": st.version})

    async def _apply(self, action: Action, *, by: str, msg_id: str | None) -> None:
        st = self.state
        seq = len(st.actions) + 1
        events = apply(st, action)
        await self.store(self.id, seq=seq, seat=action.seat, action=str(action),
                         events=[str(e) for e in events], msg_id=msg_id, by=by,
                         version=st.version, over=st.over,
                         result=self.result() if st.over else None)
        if msg_id:
            self.msg_ids[msg_id] = st.version
        self.deadline = None
        self._schedule(announce=False)  # sets the call timer first, so the views carry it
        self._broadcast()

    # ------------------------------------------------------------------ bots and timers

    def _bot_for(self, seat: int) -> Any:
        bot = self.bots.get(seat)
        if bot is None:
            kind = self.seats[seat].kind
            if kind == "human":
                kind = "greedy" if "greedy" in BOTS else "random"
            cls = BOTS.get(kind) or BOTS["random"]
            try:
                bot = cls(self.card)
            except TypeError:
                bot = cls()
            self.bots[seat] = bot
        return bot

    def _bot_should_play(self, seat: int) -> bool:
        s = self.seats[seat]
        if s.is_bot:
            return True
        return (s.connected == 0 and s.left_at is not None
                and time.monotonic() - s.left_at >= self.grace_seconds)

    def _schedule(self, announce: bool = True) -> None:
        """After any change: let bots move, start the call timer, wake for absent players."""
        st = self.state
        if st.over or self.closed:
            return
        version = st.version
        now = time.monotonic()
        humans_to_answer = False
        for seat in st.to_act():
            s = self.seats[seat]
            if s.is_bot:
                self._later(self.bot_delay, Command("bot", seat=seat, version=version))
            elif s.connected == 0 and s.left_at is not None:
                wait = s.left_at + self.grace_seconds - now
                if wait <= 0:
                    self._later(self.bot_delay, Command("bot", seat=seat, version=version))
                else:
                    self._later(wait + 0.01, Command("wake", version=version))
            if not s.is_bot and st.phase == "window":
                humans_to_answer = True
        if humans_to_answer:
            if self.deadline is None or self.deadline[0] != version:
                self.deadline = (version, now + self.call_seconds)
                if announce:
                    self._broadcast()
            self._later(max(0.0, self.deadline[1] - now), Command("timer", version=version))

    def _later(self, delay: float, cmd: Command, key: str | None = None) -> None:
        """Queue ``cmd`` after ``delay`` seconds. A timer with the same key replaces the
        previous one, so a table never holds more than one of each kind."""
        key = key or (cmd.kind if cmd.seat is None else f"{cmd.kind}{cmd.seat}")
        old = self.timers.pop(key, None)
        if old is not None:
            old.cancel()
        if delay <= 0:
            self.queue.put_nowait(cmd)
            return
        loop = asyncio.get_running_loop()
        self.timers[key] = loop.call_later(delay, self._fire, key, cmd)

    def _fire(self, key: str, cmd: Command) -> None:
        self.timers.pop(key, None)
        if not self.closed:
            self.queue.put_nowait(cmd)

    # ------------------------------------------------------------------ messages

    def players(self) -> list[dict[str, Any]]:
        return [{"seat": s.seat, "name": s.name, "kind": s.kind, "connected": s.connected > 0,
                 "bot_playing": not s.is_bot and self._bot_should_play(s.seat)}
                for s in self.seats]

    def result(self) -> dict[str, Any]:
        sc = score(self.state)
        return {"totals": list(sc.totals),
                "lines": [{"seat": x.seat, "points": x.points, "reason": x.reason}
                          for x in sc.lines],
                "end_reason": self.state.end_reason, "winner": self.state.winner}

    def state_message(self, conn: Connection) -> dict[str, Any]:
        st = self.state
        seat = conn.seat
        v = view(st, seat)
        legal: list[dict[str, Any]] = []
        if seat is not None:
            legal = [{"action": a.body(), "kills": kills_rack(st, a)}
                     for a in legal_actions(st, seat)]
        total = len(st.events)
        start = conn.log_sent if conn.log_sent <= total else 0
        conn.log_sent = total
        lines = [e.seen_by(seat) for e in st.events[start:]]
        hints = None
        if seat is not None and conn.hints and not st.over and seat in st.to_act():
            hints = self._hints(v, seat)
        deadline_ms = None
        if self.deadline is not None and self.deadline[0] == st.version:
            deadline_ms = max(0, int((self.deadline[1] - time.monotonic()) * 1000))
        return {"type": "state", "version": st.version, "seat": seat, "view": v.to_dict(),
                "legal": legal, "log": [str(e) for e in lines], "log_start": start,
                "players": self.players(), "deadline_ms": deadline_ms, "hints": hints,
                "score": self.result() if st.over else None,
                "call_seconds": self.call_seconds,
                "record_url": f"/api/games/{self.id}/record"}

    def _hints(self, v: Any, seat: int) -> dict[str, Any] | None:
        """Hints for a seat that has a decision to make (computed once per version)."""
        key = (self.state.version, seat)
        if key in self.hint_cache:
            return self.hint_cache[key]
        hints = _hints_function()
        if hints is None:
            return None
        try:
            out: dict[str, Any] | None = hints(v, self.card).to_dict()
        except Exception:  # hints are advice: never let them break the table
            log.exception("hints failed")
            out = None
        if len(self.hint_cache) > 32:
            self.hint_cache.clear()
        self.hint_cache[key] = out
        return out

    def _send_state(self, conn: Connection) -> None:
        conn.send(self.state_message(conn))

    def _broadcast(self) -> None:
        for conn in list(self.conns):
            self._send_state(conn)

    def _broadcast_players(self) -> None:
        msg = {"type": "players", "players": self.players()}
        for conn in list(self.conns):
            conn.send(msg)

    async def set_hints(self, conn: Connection, on: bool) -> None:
        conn.hints = on
        self._send_state(conn)
