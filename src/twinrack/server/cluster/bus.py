"""Redis between the workers (redis.asyncio): each worker's inbox, its view channel, the
owner announcements and the heartbeats.

- Commands to an owner (a socket joins or leaves, an action, hints on or off, "load this
  table") go to the owner's **inbox, a stream**: an entry waits there while the owner's
  connection to Redis blips, and is read in order. Delivery is at least once; a repeated
  action is recognised by its msg_id at the table.
- Messages for a socket (its state, acks, errors, hints) go to its worker's **channel
  (pub/sub)**: nothing is kept, and nothing needs to be: a lost state is noticed by the
  gap in the log it leaves and asked for again, and any client resyncs by version.
- **Announcements** ("game G is run by W at epoch E") go to one channel every worker hears,
  so sockets follow a table to its new owner at once (they also check the database every
  second, in case one is lost).
- **Heartbeats**: a key per worker with the lease's lifetime says its load (tables owned,
  sockets, draining); new tables go to the least loaded, and /healthz lists them.

Outgoing writes are queued and sent together in one pipeline per turn of the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis

log = logging.getLogger("twinrack.bus")

PREFIX = "twinrack"
OWNERS = f"{PREFIX}:owners"
#: "old new": the finished game ``old`` has its rematch ``new`` (for every worker that
#: shows ``old`` to its seats)
REMATCHES = f"{PREFIX}:rematches"
WORKERS = f"{PREFIX}:workers"
#: entries an inbox keeps at most (older ones are trimmed away)
INBOX_KEPT = 10_000
#: entries read from an inbox in one go
READ_BATCH = 500


def inbox(worker: str) -> str:
    return f"{PREFIX}:inbox:{worker}"


def channel(worker: str) -> str:
    return f"{PREFIX}:to:{worker}"


def heartbeat_key(worker: str) -> str:
    return f"{PREFIX}:worker:{worker}"


class Bus:
    """One worker's connection to Redis."""

    def __init__(self, url: str, worker: str) -> None:
        self.url = url
        self.worker = worker
        self.redis: Redis = Redis.from_url(url, decode_responses=True,
                                           health_check_interval=10)
        self.reader: Redis = Redis.from_url(url, decode_responses=True)
        self.outgoing: list[tuple[str, str, str]] = []  # (how, key, payload)
        self.flusher: asyncio.Task[None] | None = None
        self.tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ sending

    def command(self, worker: str, msg: dict[str, Any]) -> None:
        """Queue a command for ``worker``'s inbox."""
        self._queue("xadd", inbox(worker), json.dumps(msg, separators=(",", ":")))

    def publish(self, worker: str, payload: str) -> None:
        """Queue a message for the sockets of ``worker``."""
        self._queue("publish", channel(worker), payload)

    def announce(self, game_id: str, owner: str, epoch: int) -> None:
        self._queue("publish", OWNERS, f"{game_id} {owner} {epoch}")

    def rematch_made(self, game_id: str, rematch_id: str) -> None:
        self._queue("publish", REMATCHES, f"{game_id} {rematch_id}")

    def _queue(self, how: str, key: str, payload: str) -> None:
        self.outgoing.append((how, key, payload))
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        while self.outgoing:
            batch, self.outgoing = self.outgoing[:2000], self.outgoing[2000:]
            pipe = self.redis.pipeline(transaction=False)
            for how, key, payload in batch:
                if how == "xadd":
                    pipe.xadd(key, {"m": payload}, maxlen=INBOX_KEPT, approximate=True)
                else:
                    pipe.publish(key, payload)
            try:
                await pipe.execute()
            except Exception as err:  # Redis away: what was queued is lost (see above)
                log.warning("redis: %d message(s) not sent (%r)", len(batch), err)
                await asyncio.sleep(0.1)

    # ------------------------------------------------------------------ receiving

    def start(self, on_command: Callable[[dict[str, Any]], None],
              on_message: Callable[[str], None],
              on_announce: Callable[[str, str, int], None],
              on_rematch: Callable[[str, str], None]) -> None:
        self.tasks = [asyncio.create_task(self._read_inbox(on_command), name="bus-inbox"),
                      asyncio.create_task(self._listen(on_message, on_announce, on_rematch),
                                          name="bus-channel")]

    async def _read_inbox(self, on_command: Callable[[dict[str, Any]], None]) -> None:
        """Read this worker's inbox for ever, in order. What a previous process of the same
        name left there is dropped at start: its tables were handed over or taken."""
        key = inbox(self.worker)
        await _retrying(lambda: self.reader.delete(key))
        last = "0-0"
        while True:
            try:
                got = await self.reader.xread({key: last}, count=READ_BATCH, block=1000)
            except Exception as err:
                log.warning("redis: cannot read the inbox (%r)", err)
                await asyncio.sleep(0.5)
                continue
            streams: list[Any] = list(got or [])
            for _key, entries in streams:
                for entry_id, fields in entries:
                    last = entry_id
                    try:
                        on_command(json.loads(fields["m"]))
                    except Exception:
                        log.exception("a command from the inbox failed")
            if got:
                with contextlib.suppress(Exception):
                    await self.reader.xtrim(key, minid=last, approximate=True)

    async def _listen(self, on_message: Callable[[str], None],
                      on_announce: Callable[[str, str, int], None],
                      on_rematch: Callable[[str, str], None]) -> None:
        while True:
            pubsub = self.reader.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.worker), OWNERS, REMATCHES)
                async for item in pubsub.listen():
                    data = item.get("data")
                    if not isinstance(data, str):
                        continue
                    if item.get("channel") == OWNERS:
                        game_id, owner, epoch = data.split(" ")
                        on_announce(game_id, owner, int(epoch))
                    elif item.get("channel") == REMATCHES:
                        on_rematch(*data.split(" "))
                    else:
                        on_message(data)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("redis: channel lost (%r); subscribing again", err)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    # ------------------------------------------------------------------ heartbeats

    async def beat(self, load: dict[str, Any], ttl: float) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(heartbeat_key(self.worker), json.dumps(load), px=int(ttl * 1000))
        pipe.sadd(WORKERS, self.worker)
        await pipe.execute()

    async def workers(self) -> dict[str, dict[str, Any]]:
        """The workers whose heartbeat has not run out, with their load."""
        names = sorted(str(n) for n in await self.redis.smembers(WORKERS))
        if not names:
            return {}
        beats = await self.redis.mget([heartbeat_key(n) for n in names])
        gone = [n for n, b in zip(names, beats, strict=True) if b is None]
        if gone:
            await self.redis.srem(WORKERS, *gone)
        return {n: json.loads(b) for n, b in zip(names, beats, strict=True) if b is not None}

    async def forget(self) -> None:
        """This worker leaves: its heartbeat goes at once."""
        with contextlib.suppress(Exception):
            await self.redis.delete(heartbeat_key(self.worker))
            await self.redis.srem(WORKERS, self.worker)

    async def close(self) -> None:
        for t in self.tasks:
            t.cancel()
        for t in self.tasks:
            with contextlib.suppress(BaseException):
                await t
        if self.flusher is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.flusher, 2)
        await self.redis.aclose()
        await self.reader.aclose()


async def _retrying(call: Callable[[], Awaitable[Any]], tries: int = 20) -> None:
    for _ in range(tries):
        try:
            await call()
            return
        except Exception:
            await asyncio.sleep(0.25)
