"""All tables of the service: creating games, storing every action, resuming after a restart."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table as SATable
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from twinrack.card import Card, parse_card
from twinrack.card.compiled import compiled
from twinrack.engine import GameState, RuleSet, new_game
from twinrack.engine.record import record_for
from twinrack.errors import CardError, TwinRackError
from twinrack.server import jobs
from twinrack.server.chat.rate import LocalRate, RateLimit, RedisRate
from twinrack.server.chat.store import ChatStore
from twinrack.server.config import Settings
from twinrack.server.db import Database
from twinrack.server.hub_pages import HubPages
from twinrack.server.models import ActionRow, GameRow, LeaseRow, SeatRow
from twinrack.server.table import wire
from twinrack.server.table.live import LiveTable
from twinrack.server.table.reviews import Reviews
from twinrack.server.table.seats import LiveSeat, TableSettings
from twinrack.server.workers import Workers
from twinrack.server.writer import ActionWriter

if TYPE_CHECKING:
    from twinrack.server.cluster.node import Node

log = logging.getLogger("twinrack.hub")

#: distinct card texts kept parsed (each table holds its own card too)
CARDS_KEPT = 64
#: replay answers of finished games kept
REPLAYS_KEPT = 16
#: the settings a table's task stores as they change (Hub.keep_settings)
GAME_SETTINGS = frozenset({"waiting"})
SEAT_SETTINGS = frozenset({"always_ask", "auto_pass", "away"})


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class NewSeat:
    name: str
    kind: str  # "human" or a bot level
    owner: str | None = None
    #: a rematch's seat keeps the token of the same seat in the game before
    token_hash: str | None = None


class RematchTaken(Exception):
    """Another seat (perhaps on another worker) made the rematch first."""


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    tokens: dict[int, str]  # seat -> secret token, for the human seats


class StoreFailed(TwinRackError):
    """An action the database would not store."""


def _fenced(err: BaseException) -> bool:
    """Whether the database refused a write for its stale lease epoch (migration 0005)."""
    return "stale_epoch" in str(err)


@dataclass
class StoredGame:
    """A stored game replayed: what a table is made of."""

    game_id: str
    state: GameState
    card: Card
    seats: list[LiveSeat]
    settings: TableSettings
    msg_ids: dict[tuple[int, str], int]
    epoch: int
    rematch: str | None = None
    waiting: bool = False


#: one table's write waiting for the next transaction: its rows, and who waits for it
Pending = tuple[list[dict[str, Any]], asyncio.Future[None]]


def _settle(batch: list[Pending], err: BaseException | None) -> None:
    for _, fut in batch:
        if not fut.done():
            if err is None:
                fut.set_result(None)
            else:
                fut.set_exception(err)


def _parse_and_compile(source: str, name: str) -> Card:
    """Parse a card already checked in the worker pool, and compile what the engine needs
    of it (run on a thread, once per card text)."""
    card = parse_card(source, name)
    compiled(card)
    return card


class Hub(HubPages):
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.database_url, settings.db_busy_ms)
        self.action_writer = ActionWriter(self.db)
        self.chat = ChatStore(self.db)
        self.workers = Workers(settings.workers, settings.job_seconds)
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        self.cards: OrderedDict[str, Card] = OrderedDict()
        self.replays: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.reviews = Reviews(self.workers, settings)
        self.lock = asyncio.Lock()
        self.pending: list[Pending] = []
        self.checkpointer: asyncio.Task[None] | None = None
        self.writer: asyncio.Task[None] | None = None
        #: the lease epoch of each game run here: every action it stores carries it
        self.epochs: dict[str, int] = {}
        self.node: Node | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        #: chat's rate limit: the whole service's (in Redis on a cluster; server/chat/rate.py)
        self.chat_rate: RateLimit = LocalRate()
        if settings.redis_url:
            from twinrack.server.cluster.node import Node

            self.node = Node(self, settings)
            self.chat_rate = RedisRate(self.node.bus.redis)

    # ------------------------------------------------------------------ start and stop

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.db.migrate()
        self.workers.start()
        if self.node is not None:  # the cluster: tables are taken by lease, a few at a time
            await self.node.start()
            return
        ids = await self.db.run(self._unfinished_ids)
        for game_id in ids:
            try:
                table = await self.load(game_id)
            except Exception:
                log.exception("could not resume game %s", game_id)
                continue
            if table is not None:
                table.start()
        log.info("resumed %d unfinished tables", len(ids))
        if self.db.sqlite:
            self.checkpointer = asyncio.create_task(self._checkpoint_loop())

    async def _checkpoint_loop(self) -> None:
        """Every second, fold the write-ahead log into the SQLite file on a thread of its
        own, so that no player's commit ever waits for it."""
        while True:
            await asyncio.sleep(1.0)
            try:
                await self.db.checkpoint()
            except Exception:
                log.exception("checkpoint failed")

    async def stop(self) -> None:
        if self.node is not None:
            await self.node.stop()  # hands every table over first
        if self.checkpointer is not None:
            self.checkpointer.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.workers.stop()
        await self.db.run(self.action_writer.close)
        self.db.close()

    def _unfinished_ids(self) -> list[str]:
        with self.db.reading() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status == "playing")))

    # ------------------------------------------------------------------ cards

    async def card_of(self, source: str, name: str, lane: str = "cards") -> Card:
        """A card from its source. It is checked in the worker pool first (an uploaded
        card is untrusted: its size, nesting and ways are budgeted there), then parsed
        once per distinct text on a thread: every table playing the same card shares one
        (immutable) Card and its compiled arrays."""
        key = hashlib.sha256(source.encode()).hexdigest()
        card = self.cards.get(key)
        if card is not None:
            self.cards.move_to_end(key)
            return card
        problems = await self.workers.run(lane, jobs.check_card_problems, source, name,
                                          timeout=self.settings.card_seconds)
        if problems:
            raise CardError(problems)
        card = await asyncio.to_thread(_parse_and_compile, source, name)
        self.cards[key] = card
        while len(self.cards) > CARDS_KEPT:
            self.cards.popitem(last=False)
        return card

    # ------------------------------------------------------------------ games

    def table_settings(self, call_seconds: float | None = None,
                       grace_seconds: float | None = None, turn_seconds: float | None = None,
                       listed: bool = False, wait_until: float | None = None) -> TableSettings:
        """A table's settings, the server's own where the host chose none."""
        return TableSettings(
            self.settings.call_seconds if call_seconds is None else call_seconds,
            self.settings.grace_seconds if grace_seconds is None else grace_seconds,
            turn_seconds, listed, wait_until)

    async def create(self, rules: RuleSet, card: Card, seats: list[NewSeat],
                     settings: TableSettings | float,
                     rematch_of: str | None = None) -> CreatedGame:
        """A new game and its table (``settings``: the host's, or only a call timer). With
        more than one person at it, it starts in the waiting room (server/table/presence.py);
        with 3 or 4 players, each person passes unless a claim helps their plan."""
        if len(seats) != rules.players:
            raise TwinRackError("bad_seats", f"{rules.players} players need {rules.players} "
                                             "seats")
        if not isinstance(settings, TableSettings):
            settings = self.table_settings(settings)
        people = sum(s.kind == "human" for s in seats)
        waiting = people > 1
        auto_pass = rules.players >= 3
        seed = os.urandom(32)
        state = new_game(rules, seed=seed, card=card)
        game_id = secrets.token_hex(8)
        tokens = {i: secrets.token_urlsafe(18) for i, s in enumerate(seats)
                  if s.kind == "human" and s.token_hash is None}
        hashes = {i: s.token_hash or token_hash(tokens[i]) for i, s in enumerate(seats)
                  if s.kind == "human"}
        # in a cluster the least loaded worker runs it, from epoch 1
        owner = await self.node.place() if self.node is not None else None
        epoch = 0 if owner is None else 1
        await self.db.run(self._insert, game_id, rules, card, seed, state.commitment, seats,
                          hashes, settings, waiting, auto_pass,
                          [str(e) for e in state.events], state.version, owner, epoch,
                          rematch_of)
        if self.node is not None and owner != self.node.worker:
            assert owner is not None
            self.node.placed_on(game_id, owner)
            return CreatedGame(game_id, tokens)
        live = [LiveSeat(i, s.name, s.kind, hashes.get(i), auto_pass=auto_pass)
                for i, s in enumerate(seats)]
        self.epochs[game_id] = epoch
        table = self._table(game_id, state, card, live, settings, {}, waiting)
        table.start()
        if self.node is not None and owner is not None:
            self.node.placed_on(game_id, owner)
        return CreatedGame(game_id, tokens)

    async def rematch(self, table: LiveTable, seat: int, owner: str | None) -> str:
        """The rematch of a finished game (the same seats, names, rules, card and call
        timer, a new seed), made by the first seat to ask on whichever worker it asks; each
        human seat keeps its token. Every table of the old game that any worker runs is
        told, so each seat is offered the link."""
        if table.rematch is None:
            table.rematch = await self.db.run(self._rematch_id, table.id)
        if table.rematch is not None:
            return table.rematch
        seats = [NewSeat(s.name, s.kind, owner if s.seat == seat else None, s.token_hash)
                 for s in table.seats]
        try:  # (the open room's wait was the first game's: a rematch has none)
            made = await self.create(table.state.rules, table.card, seats,
                                     replace(table.settings, wait_until=None),
                                     rematch_of=table.id)
            new_id = made.game_id
        except RematchTaken:
            found = await self.db.run(self._rematch_id, table.id)
            assert found is not None
            new_id = found
        table.offer_rematch(new_id)
        if self.node is not None:
            self.node.bus.rematch_made(table.id, new_id)
        return new_id

    def _rematch_id(self, game_id: str) -> str | None:
        with self.db.reading() as s:
            return s.scalar(select(GameRow.rematch_id).where(GameRow.id == game_id))

    def _insert(self, game_id: str, rules: RuleSet, card: Card, seed: bytes, commitment: str,
                seats: list[NewSeat], hashes: dict[int, str], settings: TableSettings,
                waiting: bool, auto_pass: bool, deal_events: list[str], version: int,
                owner: str | None, epoch: int, rematch_of: str | None) -> None:
        with self.db.unit() as s:
            game = GameRow(id=game_id, status="playing", variant=rules.variant,
                           revision=rules.revision, players=rules.players,
                           rules=rules.to_dict(), card_name=card.name,
                           card_sha256=card.sha256, card_source=card.source, seed=seed.hex(),
                           commitment=commitment, call_seconds=settings.call_seconds,
                           grace_seconds=settings.grace_seconds,
                           turn_seconds=settings.turn_seconds, listed=settings.listed,
                           waiting=waiting, wait_until=settings.wait_until, version=version)
            s.add(game)
            s.flush()  # the game row first: seats and actions refer to it
            for i, seat in enumerate(seats):
                s.add(SeatRow(game_id=game_id, seat=i, name=seat.name, kind=seat.kind,
                              token_hash=hashes.get(i), owner=seat.owner,
                              auto_pass=auto_pass and seat.kind == "human"))
            s.add(LeaseRow(game_id=game_id, owner=owner, epoch=epoch))
            s.flush()  # the lease before the deal: the fencing trigger reads it
            s.add(ActionRow(game_id=game_id, seq=0, seat=-1, action="deal", events=deal_events,
                            by="server", epoch=epoch))
            if rematch_of is not None:  # only the first to ask makes it, whoever else tries
                taken = s.execute(update(GameRow).where(GameRow.id == rematch_of,
                                                        GameRow.rematch_id.is_(None))
                                  .values(rematch_id=game_id))
                if taken.rowcount != 1:  # type: ignore[attr-defined]
                    raise RematchTaken(rematch_of)

    def _table(self, game_id: str, state: GameState, card: Card, seats: list[LiveSeat],
               settings: TableSettings, msg_ids: dict[tuple[int, str], int],
               waiting: bool) -> LiveTable:
        table = LiveTable(game_id, state, card, seats, self.store, self.stored_after,
                          self.workers, settings=settings, waiting=waiting,
                          bot_delay=self.settings.bot_delay, msg_ids=msg_ids,
                          keep=self.keep_settings)
        table.chat_store = self.chat
        table.chat_rate = self.chat_rate
        self.tables[game_id] = table
        self._evict()
        return table

    def _evict(self) -> None:
        """Let go of the finished tables nobody watches, oldest first, beyond the limit
        (they are loaded again from the database when asked for)."""
        idle = [t for t in self.tables.values() if t.idle]
        idle.sort(key=lambda t: t.last_used)
        for table in idle[:max(0, len(idle) - self.settings.max_idle_tables)]:
            self.tables.pop(table.id, None)
            table.closed = True
            if table.task is not None:
                table.task.cancel()

    # ------------------------------------------------------------------ storing

    async def store(self, game_id: str, rows: list[dict[str, Any]]) -> None:
        """Commit applied actions (an action and the passes made at once after it: their
        ``seq``, ``seat``, ``action``, ``events``, ``msg_id``, ``by``, ``version``,
        ``over`` and ``result``) before anyone is told of them; all of them or none.

        Writes from all tables are committed together (group commit): whatever arrives
        while one transaction is being written goes into the next one, so many tables
        share one commit and none waits for more than about two."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        epoch = self.epochs.get(game_id, 0)
        self.pending.append(([{**r, "game_id": game_id, "epoch": epoch} for r in rows], done))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        while self.pending:
            batch, self.pending = self.pending[:500], self.pending[500:]
            try:
                await self.db.run(self._store_batch, [r for rows, _ in batch for r in rows])
            except IntegrityError as err:
                if len(batch) == 1:
                    self._refused(batch[0], err)
                else:  # one clashing write must not fail the other tables' writes
                    for one in batch:
                        try:
                            await self.db.run(self._store_batch, one[0])
                        except IntegrityError as err:
                            self._refused(one, err)
                        except Exception as err:
                            _settle([one], err)
                        else:
                            _settle([one], None)
                continue
            except Exception as err:
                _settle(batch, err)
                continue
            _settle(batch, None)

    def _refused(self, one: Pending, err: IntegrityError) -> None:
        """A write the database refused: a clash with a stored action, or (in a cluster) a
        stale epoch: another worker owns the game now, and this one lets it go."""
        game_id = one[0][0]["game_id"]
        if _fenced(err):
            log.warning("game %s: the database refused epoch %s", game_id, one[0][0]["epoch"])
            if self.node is not None:
                self.node.fenced(game_id)
            _settle([one], StoreFailed("stale_epoch", "another server runs this table now"))
        else:
            _settle([one], StoreFailed("clash", "that action clashes with a stored one"))

    def _store_batch(self, rows: list[dict[str, Any]]) -> None:
        """One transaction for a batch of actions (server/writer.py)."""
        self.action_writer.write(rows)

    async def stored_after(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The actions of a game stored after ``seq``, in order: a paused table asks this
        to learn that the database is back, and whether a write that seemed to fail was
        stored after all."""
        return list(await self.db.run(self._rows_after, game_id, seq))

    def _rows_after(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """Read in a transaction that also writes (the game's version, to itself): the
        answer says the database takes writes again, not only reads."""
        actions = cast(SATable, ActionRow.__table__)
        games = cast(SATable, GameRow.__table__)
        with self.db.core() as conn:
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(version=games.c.version))
            rows = conn.execute(select(actions.c.seq, actions.c.seat, actions.c.action,
                                       actions.c.events, actions.c.msg_id)
                                .where(actions.c.game_id == game_id, actions.c.seq > seq)
                                .order_by(actions.c.seq)).all()
        return [{"seq": r.seq, "seat": r.seat, "action": r.action, "events": r.events,
                 "msg_id": r.msg_id} for r in rows]

    # ------------------------------------------------------------------ loading

    async def get(self, game_id: str) -> LiveTable | None:
        """The table of ``game_id`` for a page or a socket (None: no such game). In a
        cluster, a game in play may run on another worker (see Node.table)."""
        if self.node is not None:
            return await self.node.table(game_id)
        return await self.get_here(game_id)

    def owner_hint(self, game_id: str) -> str | None:
        """In a cluster, the worker that runs the game, as last learnt (see Node.owner_hint);
        None in a single process."""
        return self.node.owner_hint(game_id) if self.node is not None else None

    async def get_here(self, game_id: str) -> LiveTable | None:
        """The table, run by this process (loaded when it is not yet)."""
        table = self.tables.get(game_id)
        if table is not None:
            self.tables.move_to_end(game_id)
            table.last_used = time.monotonic()
            return table
        async with self.lock:
            table = self.tables.get(game_id)
            if table is None:
                table = await self.load(game_id)
                if table is not None:
                    table.start()
        return table

    async def load(self, game_id: str) -> LiveTable | None:
        """Rebuild a table from the database and run it here."""
        got = await self.rebuild(game_id)
        if got is None:
            return None
        if self.node is None:
            self.epochs[game_id] = got.epoch
        table = self._table(game_id, got.state, got.card, got.seats, got.settings,
                            got.msg_ids, got.waiting)
        table.rematch = got.rematch
        return table

    async def rebuild(self, game_id: str) -> StoredGame | None:
        """A game as stored: the same seed, the same actions, in order, replayed in the
        worker pool and checked event by event."""
        loaded = await self.db.run(self._load_rows, game_id)
        if loaded is None:
            return None
        game, seats, actions = loaded
        card = await self.card_of(game["card_source"], game["card_name"], f"load:{game_id}")
        rebuilt = await self.workers.run(f"load:{game_id}", jobs.rebuild, card.source,
                                         card.path, game["rules"], game["seed"], actions,
                                         timeout=self.settings.replay_seconds)
        return StoredGame(game_id, jobs.attach(rebuilt.state, card), card,
                          [LiveSeat(s["seat"], s["name"], s["kind"], s["token_hash"],
                                    always_ask=s["always_ask"], auto_pass=s["auto_pass"],
                                    away=s["away"])
                           for s in seats], self._stored_settings(game), rebuilt.msg_ids,
                          game["epoch"], game["rematch"], game["waiting"])

    def _stored_settings(self, game: dict[str, Any]) -> TableSettings:
        return self.table_settings(game["call_seconds"], game["grace_seconds"],
                                   game["turn_seconds"], game["listed"], game["wait_until"])

    async def routed(self, game_id: str) -> LiveTable | None:
        """A cluster's handle on a game in play, for its pages and sockets (never started:
        its owner runs the game). Its state is only the deal: pages read the seats and
        that the game is in play, the record is read from the database, and sockets get
        everything from the owner."""
        from twinrack.server.cluster.relay import RoutedTable

        loaded = await self.db.run(self._load_rows, game_id)
        if loaded is None:
            return None
        game, seats, _ = loaded
        card = await self.card_of(game["card_source"], game["card_name"], f"load:{game_id}")
        state = await asyncio.to_thread(new_game, RuleSet.from_dict(game["rules"]),
                                        seed=bytes.fromhex(game["seed"]), card=card)
        return RoutedTable(game_id, state, card,
                           [LiveSeat(s["seat"], s["name"], s["kind"], s["token_hash"])
                            for s in seats], self.store, self.stored_after, self.workers,
                           settings=self._stored_settings(game), waiting=game["waiting"],
                           bot_delay=self.settings.bot_delay)

    def _load_rows(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                  list[dict[str, Any]]] | None:
        with self.db.reading() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                return None
            lease = s.get(LeaseRow, game_id)
            g = {"card_source": game.card_source, "card_name": game.card_name,
                 "rules": game.rules, "seed": game.seed, "call_seconds": game.call_seconds,
                 "grace_seconds": game.grace_seconds, "turn_seconds": game.turn_seconds,
                 "listed": game.listed, "waiting": game.waiting,
                 "wait_until": game.wait_until,
                 "epoch": lease.epoch if lease is not None else 0,
                 "rematch": game.rematch_id}
            seats = [{"seat": r.seat, "name": r.name, "kind": r.kind,
                      "token_hash": r.token_hash, "always_ask": r.always_ask,
                      "auto_pass": r.auto_pass, "away": r.away}
                     for r in game.seats]
            rows = s.scalars(select(ActionRow).where(ActionRow.game_id == game_id)
                             .order_by(ActionRow.seq)).all()
            actions = [{"seq": r.seq, "seat": r.seat, "action": r.action, "events": r.events,
                        "msg_id": r.msg_id} for r in rows]
            return g, seats, actions

    # ------------------------------------------------------------------ queries

    async def health(self) -> dict[str, Any]:
        """What /healthz says: in a cluster, the workers this one sees and the tables each
        runs."""
        if self.node is None:
            return {"status": "ok"}
        return await self.node.health()

    async def seat_for_token(self, game_id: str, token: str | None) -> int | None:
        table = await self.get(game_id)
        if table is None or not token:
            return None
        h = token_hash(token)
        for s in table.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    async def claim_owner(self, game_id: str, seat: int, owner: str) -> None:
        await self.db.run(self._claim_owner, game_id, seat, owner)

    async def keep_settings(self, game_id: str, seat: int | None,
                            values: dict[str, Any]) -> None:
        """Store a table's settings (``seat`` None: the game's) that its task changes:
        "always ask", "pass unless the claim helps", away, the waiting room."""
        allowed = GAME_SETTINGS if seat is None else SEAT_SETTINGS
        if not values or not set(values) <= allowed:
            raise ValueError(f"not a setting: {sorted(set(values) - allowed)}")
        await self.db.run(self._keep, game_id, seat, values)

    def _keep(self, game_id: str, seat: int | None, values: dict[str, Any]) -> None:
        with self.db.unit() as s:
            if seat is None:
                s.execute(update(GameRow).where(GameRow.id == game_id).values(**values))
            else:
                s.execute(update(SeatRow).where(SeatRow.game_id == game_id,
                                                SeatRow.seat == seat).values(**values))

    def _claim_owner(self, game_id: str, seat: int, owner: str) -> None:
        with self.db.unit() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                  SeatRow.seat == seat)).one_or_none()
            if row is not None and row.owner is None:
                row.owner = owner

    async def record(self, game_id: str, seat: int | None) -> dict[str, Any] | None:
        """The game record as ``seat`` may see it (``None``: a spectator): during play
        the log as in that seat's view, the whole record once the game is over."""
        table = await self.get(game_id)
        if table is None:
            return None
        state = table.state
        live = self.tables.get(game_id)
        if live is not None:
            state = live.state
        elif self.node is not None:
            # a game run elsewhere: as stored now (acknowledged means stored)
            got = await self.rebuild(game_id)
            if got is None:
                return None
            state = got.state
        rec = record_for(state, seat)
        rec["card"]["source"] = table.card.source
        return rec

    async def replay(self, table: LiveTable) -> dict[str, Any]:
        """Every step of a finished game with every seat's view (computed in the worker
        pool, and kept for the next viewer)."""
        cached = self.replays.get(table.id)
        if cached is not None:
            self.replays.move_to_end(table.id)
            return cached
        rec = record_for(table.state, None)
        names = [s.name for s in table.seats]
        frames = await self.workers.run(f"replay:{table.id}", jobs.replay_frames,
                                        table.card.source, table.card.path, rec, names,
                                        timeout=self.settings.replay_seconds)
        out = {"game": table.id, "names": names, "frames": frames,
               "score": wire.score_object(table.result(), None, names),
               "seed": rec["seed"], "commitment": rec["commitment"]}
        self.replays[table.id] = out
        while len(self.replays) > REPLAYS_KEPT:
            self.replays.popitem(last=False)
        return out

    async def verify(self, table: LiveTable) -> dict[str, Any]:
        """The server's own check of a finished game's record (in the worker pool)."""
        rec = record_for(table.state, None)
        verdict: dict[str, Any] = await self.workers.run(
            f"replay:{table.id}", jobs.verify_game, table.card.source, table.card.path, rec,
            timeout=self.settings.replay_seconds)
        return {**verdict, "commitment": rec["commitment"], "seed": rec["seed"]}
