"""All tables of the service: creating games, storing every action, resuming after a restart."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table as SATable
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from twinrack.card import Card, parse_card
from twinrack.engine import RuleSet, apply, new_game, parse_action
from twinrack.engine.record import record_of
from twinrack.errors import TwinRackError
from twinrack.server.config import Settings
from twinrack.server.db import checkpoint, make_engine, migrate, session_factory
from twinrack.server.models import ActionRow, GameRow, SeatRow
from twinrack.server.table import Seat, Table

log = logging.getLogger("twinrack.hub")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class NewSeat:
    name: str
    kind: str  # "human" or a bot level
    owner: str | None = None


@dataclass(frozen=True)
class Created:
    game_id: str
    tokens: dict[int, str]  # seat -> secret token, for the human seats


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings.database_url)
        self.sessions: sessionmaker[Session] = session_factory(self.engine)
        workers = 1 if settings.database_url.startswith("sqlite") else 4
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="twinrack-db")
        self.tables: dict[str, Table] = {}
        self.cards: dict[str, Card] = {}
        self.lock = asyncio.Lock()
        self.pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self.sqlite = settings.database_url.startswith("sqlite")
        self.checkpoints = ThreadPoolExecutor(max_workers=1,
                                              thread_name_prefix="twinrack-checkpoint")
        self.checkpointer: asyncio.Task[None] | None = None
        self.writer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ start and stop

    async def start(self) -> None:
        await self._db(migrate, self.engine)
        ids = await self._db(self._unfinished_ids)
        for game_id in ids:
            try:
                table = await self.load(game_id)
            except Exception:
                log.exception("could not resume game %s", game_id)
                continue
            if table is not None:
                table.start()
        log.info("resumed %d unfinished tables", len(ids))
        if self.sqlite:
            self.checkpointer = asyncio.create_task(self._checkpoint_loop())

    async def _checkpoint_loop(self) -> None:
        """Every second, fold the write-ahead log into the SQLite file on a thread of its
        own, so that no player's commit ever waits for it."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(1.0)
            try:
                await loop.run_in_executor(self.checkpoints, checkpoint, self.engine)
            except Exception:
                log.exception("checkpoint failed")

    async def stop(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.pool.shutdown(wait=True)
        self.checkpoints.shutdown(wait=True)
        if self.sqlite:
            checkpoint(self.engine)
        self.engine.dispose()

    async def _db(self, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, fn, *args)

    def _unfinished_ids(self) -> list[str]:
        with self.sessions() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status == "playing")))

    # ------------------------------------------------------------------ games

    def card_of(self, source: str, name: str) -> Card:
        """A card from its source, parsed once per distinct text: every table playing
        the same card shares one (immutable) Card and its compiled arrays."""
        key = hashlib.sha256(source.encode()).hexdigest()
        card = self.cards.get(key)
        if card is None:
            card = parse_card(source, name)
            if len(self.cards) > 64:
                self.cards.clear()
            self.cards[key] = card
        return card

    async def create(self, rules: RuleSet, card: Card, seats: list[NewSeat],
                     call_seconds: float) -> Created:
        if len(seats) != rules.players:
            raise TwinRackError("bad_seats", f"{rules.players} players need {rules.players} "
                                             "seats")
        seed = os.urandom(32)
        state = new_game(rules, seed=seed, card=card)
        game_id = secrets.token_hex(8)
        tokens = {i: secrets.token_urlsafe(18) for i, s in enumerate(seats) if s.kind == "human"}
        await self._db(self._insert, game_id, rules, card, seed, state.commitment, seats,
                       tokens, call_seconds, [str(e) for e in state.events], state.version)
        table = self._table(game_id, state, card, seats, tokens, call_seconds, {})
        self.tables[game_id] = table
        table.start()
        return Created(game_id, tokens)

    def _insert(self, game_id: str, rules: RuleSet, card: Card, seed: bytes, commitment: str,
                seats: list[NewSeat], tokens: dict[int, str], call_seconds: float,
                deal_events: list[str], version: int) -> None:
        with self.sessions.begin() as s:
            game = GameRow(id=game_id, status="playing", variant=rules.variant,
                           revision=rules.revision, players=rules.players,
                           rules=rules.to_dict(), card_name=card.name,
                           card_sha256=card.sha256, card_source=card.source, seed=seed.hex(),
                           commitment=commitment, call_seconds=call_seconds, version=version)
            s.add(game)
            s.flush()  # the game row first: seats and actions refer to it
            for i, seat in enumerate(seats):
                s.add(SeatRow(game_id=game_id, seat=i, name=seat.name, kind=seat.kind,
                              token_hash=token_hash(tokens[i]) if i in tokens else None,
                              owner=seat.owner))
            s.add(ActionRow(game_id=game_id, seq=0, seat=-1, action="deal", events=deal_events,
                            by="server"))

    def _table(self, game_id: str, state: Any, card: Card, seats: list[NewSeat],
               tokens: dict[int, str], call_seconds: float, msg_ids: dict[str, int]) -> Table:
        live = [Seat(i, s.name, s.kind, token_hash(tokens[i]) if i in tokens else None)
                for i, s in enumerate(seats)]
        return Table(game_id, state, card, live, self.store, call_seconds=call_seconds,
                     grace_seconds=self.settings.grace_seconds,
                     bot_delay=self.settings.bot_delay, msg_ids=msg_ids)

    async def store(self, game_id: str, *, seq: int, seat: int, action: str, events: list[str],
                    msg_id: str | None, by: str, version: int, over: bool,
                    result: dict[str, Any] | None) -> None:
        """Commit one applied action (and its events) before anyone is told of it.

        Writes from all tables are committed together (group commit): whatever arrives
        while one transaction is being written goes into the next one, so many tables
        share one commit and none waits for more than about two."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((dict(game_id=game_id, seq=seq, seat=seat, action=action,
                                  events=events, msg_id=msg_id, by=by, version=version,
                                  over=over, result=result), done))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        while self.pending:
            batch, self.pending = self.pending[:500], self.pending[500:]
            try:
                await self._db(self._store_batch, [row for row, _ in batch])
            except Exception as err:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(err)
                continue
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    def _store_batch(self, rows: list[dict[str, Any]]) -> None:
        """One transaction for a batch of actions (SQLAlchemy Core: no ORM bookkeeping)."""
        actions = cast(SATable, ActionRow.__table__)
        games = cast(SATable, GameRow.__table__)
        last: dict[str, dict[str, Any]] = {}
        for r in rows:
            last[r["game_id"]] = r
        with self.engine.begin() as conn:
            conn.execute(insert(actions), [
                {"game_id": r["game_id"], "seq": r["seq"], "seat": r["seat"],
                 "action": r["action"], "events": r["events"], "msg_id": r["msg_id"],
                 "by": r["by"]} for r in rows])
            conn.execute(update(games).where(games.c.id == bindparam("gid"))
                         .values(version=bindparam("v")),
                         [{"gid": g, "v": r["version"]} for g, r in last.items()])
            for g, r in last.items():
                if r["over"]:
                    conn.execute(update(games).where(games.c.id == g)
                                 .values(status="finished", result=r["result"]))

    async def get(self, game_id: str) -> Table | None:
        table = self.tables.get(game_id)
        if table is not None:
            return table
        async with self.lock:
            table = self.tables.get(game_id)
            if table is None:
                table = await self.load(game_id)
                if table is not None:
                    table.start()
        return table

    async def load(self, game_id: str) -> Table | None:
        """Rebuild a table from the database: the same seed, the same actions, in order."""
        loaded = await self._db(self._load_rows, game_id)
        if loaded is None:
            return None
        game, seats, actions = loaded
        card = self.card_of(game["card_source"], game["card_name"])
        rules = RuleSet.from_dict(game["rules"])
        state = new_game(rules, seed=bytes.fromhex(game["seed"]), card=card)
        msg_ids: dict[str, int] = {}
        for row in actions:
            if row["seq"] == 0:
                if row["events"] != [str(e) for e in state.events]:
                    raise TwinRackError("replay_mismatch", f"game {game_id}: the deal differs")
                continue
            events = apply(state, parse_action(row["action"]))
            if [str(e) for e in events] != row["events"]:
                raise TwinRackError("replay_mismatch",
                                    f"game {game_id}: action {row['seq']} replays differently")
            if row["msg_id"]:
                msg_ids[row["msg_id"]] = state.version
        table = Table(game_id, state, card,
                      [Seat(s["seat"], s["name"], s["kind"], s["token_hash"]) for s in seats],
                      self.store, call_seconds=game["call_seconds"],
                      grace_seconds=self.settings.grace_seconds,
                      bot_delay=self.settings.bot_delay, msg_ids=msg_ids)
        self.tables[game_id] = table
        return table

    def _load_rows(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                  list[dict[str, Any]]] | None:
        with self.sessions() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                return None
            g = {"card_source": game.card_source, "card_name": game.card_name,
                 "rules": game.rules, "seed": game.seed, "call_seconds": game.call_seconds}
            seats = [{"seat": r.seat, "name": r.name, "kind": r.kind,
                      "token_hash": r.token_hash} for r in game.seats]
            rows = s.scalars(select(ActionRow).where(ActionRow.game_id == game_id)
                             .order_by(ActionRow.seq)).all()
            actions = [{"seq": r.seq, "action": r.action, "events": r.events,
                        "msg_id": r.msg_id} for r in rows]
            return g, seats, actions

    # ------------------------------------------------------------------ queries

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
        await self._db(self._claim_owner, game_id, seat, owner)

    def _claim_owner(self, game_id: str, seat: int, owner: str) -> None:
        with self.sessions.begin() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                  SeatRow.seat == seat)).one_or_none()
            if row is not None and row.owner is None:
                row.owner = owner

    async def games_of(self, owner: str) -> list[dict[str, Any]]:
        return list(await self._db(self._games_of, owner))

    def _games_of(self, owner: str) -> list[dict[str, Any]]:
        with self.sessions() as s:
            mine = s.scalars(select(SeatRow).where(SeatRow.owner == owner)).all()
            out = []
            for seat in mine:
                g = seat.game
                others = ", ".join(x.name for x in g.seats if x.seat != seat.seat)
                out.append({"id": g.id, "seat": seat.seat, "status": g.status,
                            "variant": g.variant, "opponents": others,
                            "created": g.created_at.strftime("%Y-%m-%d %H:%M")
                            if g.created_at else "", "result": g.result})
            out.sort(key=lambda x: str(x["created"]), reverse=True)
            return out

    async def live_games(self, limit: int = 30) -> list[dict[str, Any]]:
        return list(await self._db(self._live_games, limit))

    def _live_games(self, limit: int) -> list[dict[str, Any]]:
        with self.sessions() as s:
            rows = s.scalars(select(GameRow).where(GameRow.status == "playing")
                             .order_by(GameRow.created_at.desc()).limit(limit)).all()
            return [{"id": g.id, "variant": g.variant, "players": g.players,
                     "names": ", ".join(x.name for x in g.seats)} for g in rows]

    async def record(self, game_id: str) -> dict[str, Any] | None:
        table = await self.get(game_id)
        if table is None:
            return None
        rec = record_of(table.state)
        rec["card"]["source"] = table.card.source
        return rec
