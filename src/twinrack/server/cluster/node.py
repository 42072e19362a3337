"""This worker's part in a cluster (docs/deploy.md): its leases, the tables it takes over,
the sockets it holds for tables run elsewhere, where new tables go, and draining.

Every ``renew_seconds`` the worker renews its leases (one write) and learns from the
answer which games it owns: one it runs but no longer owns was taken over (it lets it go at
once); one it owns but does not run was given to it (it loads it). Every ``scan_seconds``
it takes unfinished games whose owner's leases ran out, and rebuilds each by replay.

An owner speaks to sockets only while its leases surely still run (``may_speak``): a
worker that was paused longer than that says nothing until a renewal has told it what it
still owns, and then sends its sockets the whole state again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket

from twinrack.card import practice_card
from twinrack.server.cluster import leases
from twinrack.server.cluster.bus import Bus
from twinrack.server.cluster.relay import (
    Envelope,
    RemoteConnection,
    RoutedTable,
    Socket,
)
from twinrack.server.config import Settings
from twinrack.server.table.live import LiveTable
from twinrack.server.table.seats import Connection, TableCommand

if TYPE_CHECKING:
    from twinrack.server.hub import Hub

log = logging.getLogger("twinrack.cluster")

#: unfinished games one worker takes over at one look (the others take the rest)
TAKE_AT_ONCE = 25
#: routed tables (the pages' copies of games run elsewhere) kept
ROUTES_KEPT = 2000
#: games in play /healthz lists by owner, at most
HEALTH_GAMES = 1000
#: how long a stopping worker may spend handing its tables over, and on each step after
STOP_SECONDS = 20.0
STOP_STEP_SECONDS = 5.0

MOVING = {"type": "error", "code": "table_moving", "retryable": True,
          "message": "the table is moving to another server; send the same command again "
                     "in a moment"}


class Node:
    def __init__(self, hub: Hub, settings: Settings) -> None:
        assert settings.redis_url is not None
        self.hub = hub
        self.settings = settings
        self.worker = settings.worker_id
        self.bus = Bus(settings.redis_url, self.worker)
        self.sockets: dict[str, Socket] = {}
        self.by_conn: dict[Connection, Socket] = {}
        self.by_game: dict[str, set[Socket]] = {}
        #: the owner's side of sockets other workers hold: (worker, socket) -> (game, conn)
        self.remote: dict[tuple[str, str], tuple[str, RemoteConnection]] = {}
        self.loading: dict[str, asyncio.Task[None]] = {}
        self.waiting: dict[str, list[dict[str, Any]]] = {}
        self.routes: OrderedDict[str, RoutedTable] = OrderedDict()
        self.holders: dict[str, leases.Holder] = {}
        self.alive: set[str] = set()
        self.fresh_until = 0.0
        self.muted = False
        self.draining = False
        self.placed: dict[str, int] = {}
        self.beats: dict[str, dict[str, Any]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.helpers: set[asyncio.Task[Any]] = set()
        self.scan_now = asyncio.Event()

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        # the practice card parsed and the pool warm before the first table comes
        card = practice_card()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.hub.card_of(card.source, card.path, "warm"), 60)
        self.bus.start(self._command, self._message, self._announce, self._rematch)
        await self._renew()
        self.tasks = [asyncio.create_task(self._renew_loop(), name="cluster-renew"),
                      asyncio.create_task(self._scan_loop(), name="cluster-scan")]

    async def stop(self) -> None:
        """Hand every table over (drain), then leave the cluster. Each step has a time
        limit, so a worker asked to stop always stops: what a step could not do (the
        database or Redis away) the leases' expiry does for it."""
        with contextlib.suppress(Exception):
            async with asyncio.timeout(STOP_SECONDS):
                await self.drain()
        for t in [*self.tasks, *self.loading.values(), *self.helpers]:
            t.cancel()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(STOP_STEP_SECONDS):
                await self.hub.db.run(leases.leave, self.hub.db, self.worker)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(STOP_STEP_SECONDS):
                await self.bus.forget()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(STOP_STEP_SECONDS):
                await self.bus.close()

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.helpers.add(task)
        task.add_done_callback(self.helpers.discard)

    def may_speak(self) -> bool:
        """Whether this worker's leases surely still run (by its own clock); when not, what
        it would have sent is sent again, whole, after the next renewal."""
        if time.monotonic() < self.fresh_until:
            return True
        self.muted = True
        return False

    # ------------------------------------------------------------------ leases

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.renew_seconds)
            try:
                await self._renew()
            except Exception as err:
                log.warning("cannot renew the leases (%r)", err)

    async def _renew(self) -> None:
        sent = time.monotonic()
        db = self.hub.db
        renewal = await db.run(leases.renew, db, self.worker, self.settings.lease_seconds)
        self.alive = renewal.alive
        for game_id in self._owned_here():
            if renewal.owned.get(game_id) != self.hub.epochs.get(game_id):
                self.lose(game_id, "its lease was taken")
        if not self.draining:
            for game_id, epoch in renewal.owned.items():
                if game_id not in self.hub.tables and game_id not in self.loading:
                    self.adopt(game_id, epoch)
        self.fresh_until = sent + self.settings.lease_seconds - self.settings.renew_seconds
        if self.muted:
            self.muted = False
            self._resend_all()
        for key, (game_id, conn) in list(self.remote.items()):
            if key[0] not in self.alive:  # that worker died: its sockets went with it
                self._drop_remote(key, game_id, conn)
        try:
            await self.bus.beat(self.load(), self.settings.lease_seconds)
            self.beats = await self.bus.workers()
            self.placed.clear()
        except Exception as err:
            log.warning("redis: no heartbeat (%r)", err)
        await self._check_sockets(list(self.by_game))

    def _owned_here(self) -> list[str]:
        return [g for g, t in self.hub.tables.items()
                if g in self.hub.epochs and not t.state.over and g not in self.loading]

    def load(self) -> dict[str, Any]:
        return {"tables": len(self._owned_here()) + len(self.loading),
                "sockets": len(self.sockets), "draining": self.draining,
                # sockets held here for tables other workers run (relayed through Redis)
                "relayed": sum(s.owner not in (None, self.worker)
                               for s in self.sockets.values()),
                "address": f"{self.settings.host}:{self.settings.port}"}

    async def _scan_loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.scan_now.wait(), self.settings.scan_seconds)
            self.scan_now.clear()
            if self.draining or not self.may_speak():
                continue
            try:
                taken = await self.hub.db.run(leases.take_expired, self.hub.db, self.worker,
                                              TAKE_AT_ONCE)
            except Exception as err:
                log.warning("cannot look for tables to take over (%r)", err)
                continue
            for game_id, epoch in taken.items():
                log.info("taking over game %s (epoch %d)", game_id, epoch)
                self.adopt(game_id, epoch)

    # ------------------------------------------------------------------ owning

    def adopt(self, game_id: str, epoch: int) -> None:
        """Run ``game_id`` here from now on, at ``epoch``: rebuild it from the database."""
        if game_id in self.loading:
            return
        self.hub.epochs[game_id] = epoch
        self.waiting.setdefault(game_id, [])
        self.loading[game_id] = asyncio.create_task(self._adopt(game_id, epoch),
                                                    name=f"adopt-{game_id}")

    async def _adopt(self, game_id: str, epoch: int) -> None:
        try:
            old = self.hub.tables.pop(game_id, None)
            if old is not None:
                await old.stop()
            table = await self.hub.load(game_id)
        except Exception:
            log.exception("could not take over game %s", game_id)
            self.loading.pop(game_id, None)
            self.hub.epochs.pop(game_id, None)
            self.waiting.pop(game_id, None)
            with contextlib.suppress(Exception):
                await self.hub.db.run(leases.hand_over, self.hub.db, self.worker,
                                      {game_id: None})
            return
        self.loading.pop(game_id, None)
        if table is None or self.hub.epochs.get(game_id) != epoch:
            self.waiting.pop(game_id, None)
            return
        table.start()
        self.bus.announce(game_id, self.worker, epoch)
        for sock in list(self.by_game.get(game_id, ())):
            if sock.owner == self.worker and sock.epoch <= epoch:
                sock.epoch = epoch
                if sock.conn not in table.conns:
                    sock.conn.log_sent = 0
                    table.add(sock.conn)
            else:
                self.bind(sock, self.worker, epoch)
        for msg in self.waiting.pop(game_id, []):
            self._command(msg)

    def lose(self, game_id: str, why: str) -> None:
        """Stop running ``game_id`` here at once (another worker owns it now)."""
        table = self.hub.tables.pop(game_id, None)
        self.hub.epochs.pop(game_id, None)
        if table is None:
            return
        log.warning("letting game %s go: %s", game_id, why)
        table.closed = True
        conns = list(table.conns)
        table.conns.clear()
        for conn in conns:
            if isinstance(conn, RemoteConnection):
                self.remote.pop((conn.worker, conn.socket), None)
                self.bus.command(conn.worker, {"k": "moved", "t": game_id})
            elif (sock := self.by_conn.get(conn)) is not None:
                sock.owner = None
        self._spawn(self._after_loss(table))

    async def _after_loss(self, table: LiveTable) -> None:
        await table.stop()
        await self._check_sockets([table.id])

    def fenced(self, game_id: str) -> None:
        """The database refused a write of ``game_id``: its epoch is not ours any more."""
        self.lose(game_id, "the database refused its epoch")

    def _resend_all(self) -> None:
        """After a silence: every socket of every table run here gets the whole state."""
        for game_id in self._owned_here():
            table = self.hub.tables[game_id]
            for conn in list(table.conns):
                conn.log_sent = 0
                self._spawn(table.set_hints(conn, conn.hints))

    async def drain(self) -> None:
        """Give every table run here to the least loaded other workers, at once."""
        self.draining = True
        with contextlib.suppress(Exception):
            await self.bus.beat(self.load(), self.settings.lease_seconds)
            self.beats = await self.bus.workers()
        others = sorted((b.get("tables", 0), w) for w, b in self.beats.items()
                        if w != self.worker and not b.get("draining"))
        owned = self._owned_here()
        counts = {w: n for n, w in others}
        moves: dict[str, str | None] = {}
        for game_id in owned:
            to = min(counts, key=lambda w: (counts[w], w)) if counts else None
            if to is not None:
                counts[to] += 1
            moves[game_id] = to
        tables = [self.hub.tables[g] for g in owned]
        for game_id in owned:
            self.lose(game_id, "this worker is draining")
        for table in tables:
            await table.stop()
        epochs = await self.hub.db.run(leases.hand_over, self.hub.db, self.worker, moves)
        for game_id, epoch in epochs.items():
            to = moves[game_id]
            if to is not None:
                self.bus.command(to, {"k": "adopt", "t": game_id, "e": epoch})
        self.scan_now.set()
        log.info("drained: %d table(s) handed over", len(epochs))
        await self._check_sockets(list(self.by_game))

    # ------------------------------------------------------------------ placing

    async def place(self) -> str:
        """The worker a new table goes to: the least loaded one that is not draining."""
        if not self.beats:
            with contextlib.suppress(Exception):
                self.beats = await self.bus.workers()
        loads = {w: b.get("tables", 0) + self.placed.get(w, 0)
                 for w, b in self.beats.items() if not b.get("draining")}
        if self.worker not in loads and not self.draining:
            loads[self.worker] = len(self._owned_here()) + self.placed.get(self.worker, 0)
        if not loads:
            return self.worker
        best = min(loads, key=lambda w: (loads[w], w != self.worker, w))
        self.placed[best] = self.placed.get(best, 0) + 1
        return best

    def placed_on(self, game_id: str, owner: str) -> None:
        """A table just created with ``owner`` holding its lease at epoch 1."""
        if owner == self.worker:
            self.bus.announce(game_id, owner, 1)
        else:
            self.bus.command(owner, {"k": "adopt", "t": game_id, "e": 1})

    # ------------------------------------------------------------------ the owner's side

    def _command(self, msg: dict[str, Any]) -> None:
        kind, game_id = msg.get("k"), str(msg.get("t"))
        if kind == "adopt":
            if not self.draining and game_id not in self.hub.tables:
                self.adopt(game_id, int(msg["e"]))
            return
        if kind == "moved":
            self._spawn(self._check_sockets([game_id]))
            return
        if game_id in self.loading:
            self.waiting[game_id].append(msg)
            return
        table = self.hub.tables.get(game_id)
        if table is None or game_id not in self.hub.epochs:
            self.bus.command(str(msg.get("w")), {"k": "moved", "t": game_id})
            return
        self._serve(table, msg)

    def _serve(self, table: LiveTable, msg: dict[str, Any]) -> None:
        kind = msg["k"]
        key = (str(msg["w"]), str(msg["s"]))
        if kind == "join":
            old = self.remote.pop(key, None)
            if old is not None:
                table.leave(old[1])
            conn = RemoteConnection(self, key[0], key[1], msg.get("seat"),
                                    self.hub.epochs[table.id])
            conn.hints = bool(msg.get("hints"))
            self.remote[key] = (table.id, conn)
            self._spawn(self._admit(table, key, conn))
            return
        found = self.remote.get(key)
        if found is None or found[0] != table.id:
            self.bus.command(key[0], {"k": "moved", "t": table.id})
            return
        conn = found[1]
        if kind == "leave":
            self.remote.pop(key, None)
            table.leave(conn)
        elif kind == "action":
            table.submit(TableCommand("action", seat=conn.seat, version=msg.get("v"),
                                      msg_id=msg.get("m"), text=str(msg.get("a", "")),
                                      conn=conn))
        elif kind in ("chat", "chat_quiet"):  # a spectator's line comes with who said it
            who = msg.get("who")
            table.submit(TableCommand(kind, msg_id=msg.get("m"), text=str(msg.get("a", "")),
                                      conn=conn, sender=(str(who[0]), str(who[1]))
                                      if isinstance(who, list) and len(who) == 2 else None))
        elif kind in ("start", "hand_over"):  # the seat: the one handed to the computer
            table.submit(TableCommand(kind, seat=msg.get("seat"), msg_id=msg.get("m"),
                                      conn=conn))
        elif kind in ("hints", "resync"):
            if kind == "resync":
                conn.log_sent = 0
            self._spawn(table.set_hints(conn, bool(msg.get("on", conn.hints))))
        elif kind == "always_ask":
            self._spawn(table.set_always_ask(conn, bool(msg.get("on"))))
        elif kind == "auto_pass":
            self._spawn(table.set_auto_pass(conn, bool(msg.get("on"))))

    def _drop_remote(self, key: tuple[str, str], game_id: str, conn: RemoteConnection) -> None:
        self.remote.pop(key, None)
        table = self.hub.tables.get(game_id)
        if table is not None:
            table.leave(conn)

    # ------------------------------------------------------------------ the sockets' side

    async def table(self, game_id: str) -> LiveTable | None:
        """The table of a page or a socket: a game in play is a :class:`RoutedTable`
        (its sockets go to its owner); a finished one is loaded here, as without a
        cluster."""
        db = self.hub.db
        holder = (await db.run(leases.holders, db, [game_id])).get(game_id)
        if holder is None:
            return None
        self.holders[game_id] = holder
        if not holder.playing:
            return await self.hub.get_here(game_id)
        if holder.owner is None or not holder.alive:
            self.scan_now.set()
        routed = self.routes.get(game_id)
        if routed is not None:
            self.routes.move_to_end(game_id)
            return routed
        made = await self.hub.routed(game_id)
        if not isinstance(made, RoutedTable):
            return None
        routed = made
        routed.node = self
        self.routes[game_id] = routed
        while len(self.routes) > ROUTES_KEPT:
            self.routes.popitem(last=False)
        return routed

    def owner_hint(self, game_id: str) -> str | None:
        """The worker that runs ``game_id`` as this worker last learnt it (None: not in play,
        or no live owner): a page passes it in its socket's address, so that the proxy can
        take the socket straight to the owner instead of a worker that relays it."""
        holder = self.holders.get(game_id)
        if holder is None or not holder.playing or not holder.alive:
            return None
        return holder.owner

    def open_socket(self, game_id: str, ws: WebSocket, seat: int | None) -> Connection:
        sock = Socket.new(self, game_id, ws, seat)
        sock.conn.writer = asyncio.create_task(sock.conn.pump())
        self.sockets[sock.id] = sock
        self.by_conn[sock.conn] = sock
        self.by_game.setdefault(game_id, set()).add(sock)
        holder = self.holders.get(game_id)
        if holder is not None and holder.owner is not None and (
                holder.alive or holder.owner == self.worker):
            self.bind(sock, holder.owner, holder.epoch)
        return sock.conn

    def close_socket(self, conn: Connection) -> None:
        sock = self.by_conn.pop(conn, None)
        if sock is None:
            return
        self.sockets.pop(sock.id, None)
        group = self.by_game.get(sock.game_id)
        if group is not None:
            group.discard(sock)
            if not group:
                del self.by_game[sock.game_id]
        self._unbind(sock)
        sock.tell(None)

    def _unbind(self, sock: Socket) -> None:
        if sock.owner == self.worker:
            table = self.hub.tables.get(sock.game_id)
            if table is not None:
                table.leave(sock.conn, close=False)
        elif sock.owner is not None:
            self.bus.command(sock.owner, {"k": "leave", "t": sock.game_id, "s": sock.id,
                                          "w": self.worker})
        sock.owner = None

    async def _admit(self, table: LiveTable, key: tuple[str, str],
                     conn: RemoteConnection) -> None:
        """A socket held by another worker joins once the passes owed at once are made
        (as a local one does), unless it left or joined again meanwhile."""
        await table.settle()
        if self.remote.get(key) == (table.id, conn):
            table.add(conn)

    def bind(self, sock: Socket, owner: str, epoch: int) -> None:
        """Join ``sock`` to the table as ``owner`` runs it at ``epoch``."""
        if sock.owner is not None and (sock.owner != owner or sock.epoch < epoch):
            self._unbind(sock)
        if sock.owner == owner and sock.epoch >= epoch:
            return
        sock.owner, sock.epoch, sock.log_end, sock.asked = owner, epoch, 0, False
        if owner == self.worker:
            table = self.hub.tables.get(sock.game_id)
            if table is not None and sock.game_id not in self.loading:
                sock.conn.log_sent = 0
                table.add(sock.conn)
            elif sock.game_id not in self.loading and not self.draining:
                self.adopt(sock.game_id, epoch)
            return
        self.bus.command(owner, {"k": "join", "t": sock.game_id, "s": sock.id,
                                 "w": self.worker, "seat": sock.conn.seat,
                                 "hints": sock.conn.hints})

    def route(self, game_id: str, cmd: TableCommand) -> None:
        """A command from one of this worker's sockets, to its table's owner."""
        sock = self.by_conn.get(cmd.conn) if cmd.conn is not None else None
        if sock is None:
            return
        if sock.owner == self.worker:
            table = self.hub.tables.get(game_id)
            if table is not None and sock.conn in table.conns:
                table.submit(cmd)
                return
        elif sock.owner is not None:
            if cmd.kind == "action":
                self.bus.command(sock.owner, {"k": "action", "t": game_id, "s": sock.id,
                                              "w": self.worker, "v": cmd.version,
                                              "m": cmd.msg_id, "a": cmd.text})
            elif cmd.kind in ("chat", "chat_quiet"):  # server/chat/table_chat.py
                self.bus.command(sock.owner, {"k": cmd.kind, "t": game_id, "s": sock.id,
                                              "w": self.worker, "m": cmd.msg_id,
                                              "a": cmd.text, "who": cmd.sender})
            else:  # the waiting room's start, a seat handed to the computer
                self.bus.command(sock.owner, {"k": cmd.kind, "t": game_id, "s": sock.id,
                                              "w": self.worker, "seat": cmd.seat,
                                              "m": cmd.msg_id})
            return
        sock.tell({**MOVING, "msg_id": cmd.msg_id})

    async def route_setting(self, game_id: str, conn: Connection, kind: str,
                            on: bool) -> None:
        """A socket's "hints", "always_ask" or "auto_pass" switch, to the table's owner."""
        sock = self.by_conn.get(conn)
        if sock is None:
            return
        if sock.owner == self.worker:
            table = self.hub.tables.get(game_id)
            if table is not None and conn in table.conns:
                setter = {"hints": table.set_hints, "always_ask": table.set_always_ask,
                          "auto_pass": table.set_auto_pass}[kind]
                await setter(conn, on)
        elif sock.owner is not None:
            self.bus.command(sock.owner, {"k": kind, "t": game_id, "s": sock.id,
                                          "w": self.worker, "on": on})

    def _message(self, payload: str) -> None:
        """A sealed message from an owner for one of this worker's sockets."""
        env = Envelope.read(payload)
        sock = self.sockets.get(env.socket)
        if sock is None:
            return
        why = sock.deliver(env)
        if why is None:
            sock.conn.outbox.put_nowait(env.text)
        elif why == "gap" and not sock.asked and sock.owner not in (None, self.worker):
            sock.asked = True
            assert sock.owner is not None
            self.bus.command(sock.owner, {"k": "resync", "t": sock.game_id, "s": sock.id,
                                          "w": self.worker})

    def _announce(self, game_id: str, owner: str, epoch: int) -> None:
        """``owner`` runs ``game_id`` at ``epoch`` now."""
        if owner != self.worker and game_id in self.hub.tables and \
                self.hub.epochs.get(game_id, epoch) < epoch:
            self.lose(game_id, f"{owner} took it over")
        self.holders[game_id] = leases.Holder(owner, epoch, True, True)
        for sock in list(self.by_game.get(game_id, ())):
            self.bind(sock, owner, epoch)

    def _rematch(self, game_id: str, rematch_id: str) -> None:
        """Another worker made the rematch of ``game_id``: offer it here too."""
        table = self.hub.tables.get(game_id)
        if table is not None:
            table.offer_rematch(rematch_id)

    async def _check_sockets(self, game_ids: list[str]) -> None:
        """Ask the database who runs the games of this worker's sockets, and follow."""
        if not game_ids:
            return
        try:
            found = await self.hub.db.run(leases.holders, self.hub.db, game_ids)
        except Exception as err:
            log.warning("cannot check the owners of games (%r)", err)
            return
        for game_id, holder in found.items():
            self.holders[game_id] = holder
            for sock in list(self.by_game.get(game_id, ())):
                if holder.owner is not None and (holder.alive or holder.owner == self.worker):
                    self.bind(sock, holder.owner, holder.epoch)
                elif sock.owner is not None and sock.owner != self.worker:
                    self._unbind(sock)
            if holder.playing and (holder.owner is None or not holder.alive):
                self.scan_now.set()

    # ------------------------------------------------------------------ health

    async def health(self) -> dict[str, Any]:
        """The workers whose heartbeats run, each with its load and the games it owns
        (from the leases; at most HEALTH_GAMES in all)."""
        try:
            beats = await self.bus.workers()
        except Exception as err:
            return {"status": "degraded", "worker": self.worker,
                    "problem": f"redis: {err}", "workers": []}
        try:
            games = await self.hub.db.run(leases.games_by_owner, self.hub.db, HEALTH_GAMES)
        except Exception as err:
            return {"status": "degraded", "worker": self.worker,
                    "problem": f"database: {err}", "workers": []}
        return {"status": "ok", "worker": self.worker,
                "workers": [{"id": w, "tables": b.get("tables", 0),
                             "sockets": b.get("sockets", 0),
                             "relayed": b.get("relayed", 0),
                             "draining": bool(b.get("draining")),
                             "address": b.get("address"),
                             "games": games.get(w, [])} for w, b in sorted(beats.items())]}
