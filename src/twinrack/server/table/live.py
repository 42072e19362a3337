"""One live table: the engine state, its seats and connections, and the task that applies
commands one at a time.

Server authority (docs/protocol.md): every command carries the table version and a message
id; a duplicate is acknowledged again without being applied, a stale one is refused with a
resync. An accepted action is applied to a copy of the game, stored in the database, and
only then does the copy become the table's game and go out, as a view per seat: nothing
else of the game state leaves the server, and nothing is shown that is not stored.

Who plays each seat and when (the waiting room, absent players, the turn timer, "pass
unless the claim helps my plan") is :mod:`twinrack.server.table.presence`'s.

When storing fails the table pauses: its players are told it waits for storage, their
commands are refused as retryable, and the table retries with backoff until the database
answers, then takes in whatever the failed write did store after all, and plays on.
Bots and hints are computed in the worker pool (server/workers.py), never on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket

from twinrack.bots.random_bot import RandomBot
from twinrack.card.model import Card
from twinrack.engine import (
    Action,
    GameState,
    Pass,
    apply,
    legal_actions,
    parse_action,
    view,
)
from twinrack.engine.actions import decisions
from twinrack.errors import IllegalActionError, TwinRackError
from twinrack.server import jobs
from twinrack.server.chat.table_chat import TableChat
from twinrack.server.table import wire
from twinrack.server.table.advice import Advice
from twinrack.server.table.encoding import Encoder
from twinrack.server.table.presence import HOST, KeepSettings, Presence
from twinrack.server.table.seats import Connection, LiveSeat, Mailbox, TableCommand, TableSettings
from twinrack.server.workers import Workers
from twinrack.server.writer import result_of, row_of

log = logging.getLogger("twinrack.table")

Store = Callable[..., Awaitable[None]]
#: the actions stored after ``seq`` (what a write that seemed to fail may have stored)
Tail = Callable[[str, int], Awaitable[list[dict[str, Any]]]]

#: the longest wait between two attempts to reach the database while paused
MAX_BACKOFF = 5.0


class LiveTable(Presence, Advice, TableChat):
    """A game in play (or finished and still open in some browser)."""

    def __init__(self, game_id: str, state: GameState, card: Card, seats: list[LiveSeat],
                 store: Store, tail: Tail, workers: Workers, *, settings: TableSettings,
                 bot_delay: float, waiting: bool = False,
                 msg_ids: dict[tuple[int, str], int] | None = None,
                 keep: KeepSettings | None = None) -> None:
        self.id = game_id
        self.keep = keep
        self.state = state
        self.card = card
        self.seats = seats
        self.store = store
        self.tail = tail
        self.workers = workers
        self.settings = settings
        self.call_seconds = settings.call_seconds
        self.waiting = waiting
        self.turn_clock = {}
        self.claim_checks = {}
        self.bot_delay = bot_delay if any(not s.is_bot for s in seats) else 0.0
        self.msg_ids: dict[tuple[int, str], int] = dict(msg_ids or {})
        self.conns: set[Connection] = set()
        self.queue: Mailbox[TableCommand] = Mailbox()
        self.task: asyncio.Task[None] | None = None
        self.rngs = {s.seat: random.Random(f"{game_id}:{s.seat}") for s in seats}
        self.deadline: tuple[int, float] | None = None  # (version, monotonic deadline)
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.closed = False
        self.paused = False
        self.recovery: asyncio.Task[None] | None = None
        self.thinking: set[tuple[int, int]] = set()  # (seat, version) with a bot job out
        self.hint_cache: dict[tuple[int, int], dict[str, Any] | None] = {}
        self.hint_jobs: set[tuple[int, int]] = set()
        #: seat -> (version, its legal actions as protocol objects, encoded), once a version
        self.legal_sent: dict[int, tuple[int, Any]] = {}
        #: the pieces of state messages encoded once (server/table/encoding.py)
        self.encoder = Encoder()
        self.helpers: set[asyncio.Task[Any]] = set()
        self.last_used = time.monotonic()
        #: the game the seats went on to (made by the first seat to ask; each keeps its
        #: token there, so the link is the same for all and says nothing secret)
        self.rematch: str | None = None
        self.rematch_lock = asyncio.Lock()

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
            self._absent_from_now()
            self._schedule()
            self._resume_wait()

    async def stop(self) -> None:
        self.closed = True
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        for t in [self.task, self.recovery, *self.helpers]:
            if t is not None:
                t.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t
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

    def _spawn(self, coro: Awaitable[Any]) -> None:
        """Run a helper task that ends with the table."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.helpers.add(task)
        task.add_done_callback(self.helpers.discard)

    # ------------------------------------------------------------------ connections

    async def join(self, ws: WebSocket, seat: int | None) -> Connection:
        await self.settle()
        conn = Connection(ws, seat)
        conn.writer = asyncio.create_task(conn.pump())
        self.add(conn)
        return conn

    def add(self, conn: Connection) -> None:
        """Take in a connection made elsewhere (in a cluster, a socket held by another
        worker, or one that followed the table here): it gets the whole state at once."""
        seat = conn.seat
        self.conns.add(conn)
        self.last_used = time.monotonic()
        if seat is not None:
            s = self.seats[seat]
            s.connected += 1
            if not s.is_bot:
                self._arrived(s)
        self._send_state(conn)
        self._broadcast_players()
        self._schedule()

    def leave(self, conn: Connection, close: bool = True) -> None:
        """A connection goes (``close``: its socket's queue is closed too; not when the
        socket follows its table to another worker of a cluster)."""
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self.last_used = time.monotonic()
        if close:
            conn.send(None)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connected = max(0, s.connected - 1)
            self._departed(s)
        self._broadcast_players()
        self._schedule()

    def rename(self, seat: int, name: str) -> None:
        """A seat's player chose a name (already stored): every page shows it from now on."""
        self.seats[seat].name = name
        self._broadcast_players()

    def submit(self, cmd: TableCommand) -> None:
        self.queue.put_nowait(cmd)

    async def settle(self) -> None:
        """Passes owed at once are made before anyone looks (every command queued so far)."""
        if self.task is None or self.closed or self.waiting or not self._silent():
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.submit(TableCommand("autopass", version=self.state.public_version, done=done))
        await done

    @property
    def idle(self) -> bool:
        """Finished and watched by nobody: the hub may let it go."""
        return self.state.over and not self.conns

    # ------------------------------------------------------------------ commands

    async def _handle(self, cmd: TableCommand) -> None:
        st = self.state
        if cmd.kind == "action":
            await self._human_action(cmd)
        elif cmd.kind == "bot":
            self._think(cmd)
        elif cmd.kind == "bot_move":
            if (self.paused or cmd.seat is None or cmd.version != st.seen_version(cmd.seat)
                    or st.over or cmd.seat not in st.to_act()
                    or not (cmd.by == "timer" or self._bot_should_play(cmd.seat))):
                return
            assert cmd.action is not None
            if await self._apply(cmd.action, by=cmd.by, msg_id=None):
                self.rngs[cmd.seat].setstate(cmd.rng_state)
                if cmd.by == "timer":
                    self._timed_move_made(cmd.seat)
        elif cmd.kind == "timer":
            await self._timer(cmd)
        elif cmd.kind == "wake":
            self._schedule()
        elif cmd.kind == "autopass":
            if cmd.version == st.public_version and self._silent() and not self.paused:
                await self._auto_pass()
                self._announce()
        elif cmd.kind == "resume":
            self._resume(cmd.rows)
        elif not await self._chat_command(cmd):
            await self._presence_command(cmd)

    async def _timer(self, cmd: TableCommand) -> None:
        """The call timer ran out (its version is the public one: moves do not count)."""
        st = self.state
        if self.deadline is None or cmd.version != st.public_version or st.over or self.paused:
            return
        if self.abandoned:  # it stands still; whoever comes back gets the whole time
            self.deadline = None
            return
        if time.monotonic() < self.deadline[1] - 0.01:
            self._schedule()
            return
        for seat in list(st.to_act()):
            if self.state.public_version != cmd.version:
                break
            if self.seats[seat].is_bot:
                continue
            passes = [a for a in legal_actions(self.state, seat) if a.body() == "pass"]
            if passes:
                if not await self._apply(passes[0], by="timer", msg_id=None):
                    return
                cmd.version = self.state.public_version

    def _refuse(self, conn: Connection, code: str, message: str, msg_id: str | None,
                **extra: Any) -> None:
        conn.send({"type": "error", "code": code, "message": message, "msg_id": msg_id, **extra})

    async def _human_action(self, cmd: TableCommand) -> None:
        conn = cmd.conn
        assert conn is not None
        if conn.seat is None:
            self._refuse(conn, "spectator", "spectators cannot play", cmd.msg_id)
            return
        key = (conn.seat, cmd.msg_id) if cmd.msg_id else None
        if key is not None and key in self.msg_ids:
            conn.send({"type": "ack", "msg_id": cmd.msg_id, "version": self.msg_ids[key],
                       "duplicate": True})
            return
        if self.paused:
            self._refuse(conn, "storage_unavailable", "the table is waiting for its "
                         "database; send the same command again once it is back", cmd.msg_id,
                         retryable=True)
            return
        if self.waiting:
            self._refuse(conn, "waiting", "the game has not started yet: the host starts it, "
                         "or it starts once everyone is at the table", cmd.msg_id)
            return
        st = self.state
        if cmd.version != st.seen_version(conn.seat):  # others' moves do not make it stale
            self._refuse(conn, "stale_version", "the table moved on: here is the current "
                         "state", cmd.msg_id)
            self._send_state(conn)
            return
        try:
            action = parse_action(cmd.text, seat=conn.seat)
        except TwinRackError as err:
            self._refuse(conn, err.code, err.message, cmd.msg_id)
            return
        if action.seat != conn.seat:
            self._refuse(conn, "not_your_seat", "you can only act for your own seat",
                         cmd.msg_id)
            return
        try:
            stored = await self._apply(action, by="human", msg_id=cmd.msg_id)
        except IllegalActionError as err:  # the rules' own refusal, with its code
            self._refuse(conn, err.code, err.message, cmd.msg_id)
            return
        if not stored:
            self._refuse(conn, "storage_unavailable", "the table could not store that "
                         "action and is waiting for its database; send the same command "
                         "again once it is back", cmd.msg_id, retryable=True)
            return
        self._moved_by_person(conn.seat)
        # the version the action made (passes made at once for others may follow it)
        done = self.msg_ids.get(key) if key is not None else None
        conn.send({"type": "ack", "msg_id": cmd.msg_id,
                   "version": self.state.seen_version(conn.seat) if done is None else done})

    async def _apply(self, action: Action, *, by: str, msg_id: str | None) -> bool:
        """Apply ``action`` and the passes it makes owed at once, store them, and only then
        make them the table's game; then tell everyone. False (and the table pauses) when
        storing failed; an action the rules refuse raises :class:`IllegalActionError` and
        changes nothing."""
        public = self.state.public_version
        if not await self._commit(action, by=by, msg_id=msg_id):
            return False
        if self.state.public_version == public:  # a move: the others see nothing new
            self._broadcast(only=action.seat)
            return True
        await self._prepare_legal()
        self._announce()
        return True

    async def _commit(self, action: Action, *, by: str, msg_id: str | None) -> bool:
        """Apply one action, then pass for the seats that may only pass (see
        :meth:`_silent`), and store them in one write, telling no one yet.

        The table's game object is the one the actions are applied to: the engine
        remembers per state object what it worked out (the seats' legal actions, which
        ``apply`` checks an action against, were listed for this version's messages
        already). Until the write has succeeded, the table shows a copy of the game as it
        was; if it fails, that copy stays the table's game."""
        nxt = self.state
        self.state = nxt.copy()
        try:
            rows = [row_of(nxt, action, apply(nxt, action), by, msg_id)]
        except IllegalActionError:  # refused before anything changed
            self.state = nxt
            raise
        public = nxt.public_version
        version = nxt.seen_version(action.seat)  # what the sender is acknowledged with
        while silent := self._silent(nxt):
            passed = Pass(silent[0])
            rows.append(row_of(nxt, passed, apply(nxt, passed), "auto", None))
        try:
            await self.store(self.id, rows)
        except Exception as err:
            log.warning("table %s: storing action %d failed (%r): pausing", self.id,
                        rows[0]["seq"], err)
            self._pause()
            return False
        self._take(nxt, (action.seat, msg_id) if msg_id else None, version,
                   keep_deadline=nxt.public_version == public)
        return True

    def _take(self, nxt: GameState, key: tuple[int, str] | None, version: int,
              keep_deadline: bool = False) -> None:  # keep it after a move: the timer runs on
        self.state = nxt
        self.last_used = time.monotonic()
        if key is not None:
            self.msg_ids[key] = version
        if not keep_deadline:
            self.deadline = None

    def _adopt(self, nxt: GameState) -> None:
        self._take(nxt, None, nxt.public_version)
        self._announce()

    def _announce(self) -> None:  # the call timer is set first, so the views carry it
        self._schedule(announce=False)
        self._broadcast()

    # ------------------------------------------------------------------ auto-pass

    def _silent(self, st: GameState | None = None) -> list[int]:
        """The people to act whose only choice is to pass (on a discard, or on declaring),
        unless they asked always to be asked (in ``st``: the table's game unless told)."""
        st = self.state if st is None else st
        if st.phase not in ("window", "declare"):
            return []
        out = []
        for seat in st.to_act():
            s = self.seats[seat]
            if s.is_bot or s.always_ask:
                continue
            legal = decisions(legal_actions(st, seat), False)  # moves answer nothing
            if len(legal) == 1 and isinstance(legal[0], Pass):
                out.append(seat)
        return out

    async def _auto_pass(self) -> None:
        """Pass at once for every seat of :meth:`_silent`: no click, no wait for the call
        timer (a claim window closes as soon as every seat has passed or cannot claim)."""
        silent = self._silent()
        if silent and not self.paused and not self.closed:
            await self._commit(Pass(silent[0]), by="auto", msg_id=None)

    # ------------------------------------------------------------------ storage trouble

    def _pause(self) -> None:
        if self.paused:
            return
        self.paused = True
        self.deadline = None
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        self._broadcast()
        self.recovery = asyncio.create_task(self._recover(), name=f"recover-{self.id}")

    async def _recover(self) -> None:
        """Until the database answers: wait, longer each time, and ask it again."""
        delay = 0.25
        while not self.closed:
            await asyncio.sleep(delay)
            try:
                rows = await self.tail(self.id, len(self.state.actions))
            except Exception as err:
                log.info("table %s: database still unavailable (%r)", self.id, err)
                delay = min(MAX_BACKOFF, delay * 2)
                continue
            self.submit(TableCommand("resume", rows=rows))
            return

    def _resume(self, rows: list[dict[str, Any]]) -> None:
        """Take in what a write that seemed to fail stored after all, then play on."""
        nxt = self.state.copy()
        for row in rows:
            apply(nxt, parse_action(row["action"]))
            if row["msg_id"]:
                self.msg_ids[(row["seat"], row["msg_id"])] = nxt.seen_version(row["seat"])
        self.paused = False
        self.recovery = None
        log.info("table %s: database back, %d stored action(s) taken in", self.id, len(rows))
        self._adopt(nxt)

    # ------------------------------------------------------------------ bots and timers

    def _think(self, cmd: TableCommand) -> None:
        """Ask the worker pool for a bot's move; it comes back as a ``bot_move``."""
        st = self.state
        seat = cmd.seat
        if (seat is None or self.paused or cmd.version != st.seen_version(seat) or st.over
                or seat not in st.to_act()
                or not (cmd.by == "timer" or self._bot_should_play(seat))
                or (seat, cmd.version) in self.thinking):
            return
        legal = legal_actions(st, seat)
        if not legal:
            return
        self.thinking.add((seat, cmd.version))
        self._spawn(self._bot_job(seat, cmd.version, view(st, seat), legal, cmd.by))

    async def _bot_job(self, seat: int, version: int, seat_view: Any,
                       legal: list[Action], by: str) -> None:
        kind = self.seats[seat].kind
        level = "greedy" if kind == "human" else kind
        rng_state = self.rngs[seat].getstate()
        try:
            action, after = await self.workers.run(
                self.id, jobs.bot_move, self.card.source, self.card.path, level, seat_view,
                legal, rng_state)
        except TwinRackError as err:  # too slow or failed: a quick fallback move
            log.warning("table %s: bot for seat %d: %s; playing a random move", self.id,
                        seat, err.message)
            rng = random.Random()
            rng.setstate(rng_state)
            action, after = RandomBot().choose(seat_view, legal, rng), rng.getstate()
        finally:
            self.thinking.discard((seat, version))
        self.submit(TableCommand("bot_move", seat=seat, version=version, action=action,
                                 rng_state=after, by=by))

    def _schedule(self, announce: bool = True) -> None:
        """After any change: pass for those who may only pass, let bots move, start the
        call timer and the turn timers, wake for absent players (not in the waiting room,
        nor at a table nobody is at: server/table/presence.py)."""
        st = self.state
        if st.over or self.closed or self.paused or self.waiting:
            return
        version = st.public_version  # the call timer's: private moves do not restart it
        now = time.monotonic()
        if self._silent():
            self._later(0, TableCommand("autopass", version=version))
            return
        if self.abandoned:
            self.turn_clock.clear()
            return
        humans_to_answer = False
        for seat in st.to_act():
            if self._bot_should_play(seat):
                self._later(self.bot_delay, TableCommand("bot", seat=seat,
                                                         version=st.seen_version(seat)))
            if not self.seats[seat].is_bot and st.phase == "window":
                humans_to_answer = True
        self._watch_absent()
        self._run_turn_clocks(now)
        self._check_claims()
        if humans_to_answer:
            if self.deadline is None or self.deadline[0] != version:
                self.deadline = (version, now + self.call_seconds)
                if announce:
                    self._broadcast()
            self._later(max(0.0, self.deadline[1] - now), TableCommand("timer", version=version))

    def _later(self, delay: float, cmd: TableCommand, key: str | None = None) -> None:
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

    def _fire(self, key: str, cmd: TableCommand) -> None:
        self.timers.pop(key, None)
        if not self.closed:
            self.queue.put_nowait(cmd)

    # ------------------------------------------------------------------ messages

    def result(self) -> dict[str, Any]:
        return result_of(self.state)

    def state_message(self, conn: Connection,
                      players: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Everything ``conn``'s viewer may know now, with the log lines it has not been
        sent yet (``players``: :meth:`players`, when the caller made it already)."""
        st = self.state
        seat = conn.seat
        v = view(st, seat)
        total = len(st.events)
        start = conn.log_sent if conn.log_sent <= total else 0
        conn.log_sent = total
        names = [s.name for s in self.seats]
        deadline_ms = None
        if self.deadline is not None and self.deadline[0] == st.public_version:
            deadline_ms = max(0, int((self.deadline[1] - time.monotonic()) * 1000))
        return {"type": "state", "protocol": wire.PROTOCOL, "version": st.seen_version(seat),
                "seat": seat, "view": self.encoder.view(v), "legal": self._legal(seat),
                "log": wire.log_lines(st, seat, names, start,
                                      self.encoder.first_discard(st.events)),
                "log_start": start,
                "players": self.players() if players is None else players,
                "deadline_ms": deadline_ms,
                "hints": self._hints(conn, v), "paused": self.paused,
                "score": wire.score_object(self.result(), seat, names, st.rules.racks)
                if st.over else None,
                "call_seconds": self.call_seconds,
                "always_ask": None if seat is None else self.seats[seat].always_ask,
                "auto_pass": None if seat is None else self.seats[seat].auto_pass,
                "claim_check": self.claim_check(seat),
                "waiting": self.waiting, "host": seat == HOST,
                "grace_seconds": self.settings.grace_seconds,
                "turn_seconds": self.settings.turn_seconds,
                "rematch": self._rematch_url(seat),
                "record_url": f"/api/games/{self.id}/record"}

    def _rematch_url(self, seat: int | None) -> str | None:
        """The rematch, once one was made, for a human seat (its token goes with it when
        it asks this game's rematch route, which sends it on)."""
        if self.rematch is None or seat is None or self.seats[seat].kind != "human":
            return None
        return f"/t/{self.rematch}"

    def offer_rematch(self, game_id: str) -> None:
        """Tell the seats of the finished game that their rematch is ready."""
        if self.rematch != game_id:
            self.rematch = game_id
            self._broadcast()

    async def set_always_ask(self, conn: Connection, on: bool) -> None:
        """The seat's "always ask" setting, stored first (a failed write changes nothing
        and says so); passes it owes at once follow (see _silent)."""
        await self._set_flag(conn, "always_ask", on)

    async def set_auto_pass(self, conn: Connection, on: bool) -> None:
        """The seat's "pass unless the claim helps my plan" setting, stored first."""
        await self._set_flag(conn, "auto_pass", on)

    async def _set_flag(self, conn: Connection, name: str, on: bool) -> None:
        seat = conn.seat
        if seat is not None and getattr(self.seats[seat], name) != on:
            if not await self._keep(seat, **{name: on}):
                conn.send({"type": "error", "code": "storage_unavailable", "retryable": True,
                           "message": "the setting could not be saved: try again"})
                return
            setattr(self.seats[seat], name, on)
            self.claim_checks.pop(seat, None)
            self._schedule()
        self._send_state(conn)

    def _send_state(self, conn: Connection) -> None:
        conn.send(self.state_message(conn))

    def _broadcast(self, only: int | None = None) -> None:
        """Every connection's state (``only``: that seat's, after a move of its own). A
        message is built and encoded once for all the connections that get the same one:
        a seat's tabs, the spectators (same seat, log lines not yet sent, hints setting)."""
        players = self.players()
        made: dict[tuple[int | None, int, bool], tuple[dict[str, Any], str]] = {}
        for conn in list(self.conns):
            if only is not None and conn.seat != only:
                continue
            key = (conn.seat, conn.log_sent, conn.hints)
            got = made.get(key)
            if got is None:
                msg = self.state_message(conn, players)
                got = made[key] = (msg, wire.encode(msg))
            else:
                conn.log_sent = len(self.state.events)
            conn.send(*got)

    def _broadcast_players(self) -> None:
        msg = {"type": "players", "players": self.players()}
        for conn in list(self.conns):
            conn.send(msg)
