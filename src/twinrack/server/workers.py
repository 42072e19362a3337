"""A bounded pool of worker processes for the slow work of the service (server/jobs.py).

The event loop that serves every socket must never compute anything slow: parsing an
uploaded card, a bot's decision, hints, rebuilding or replaying a game all run here, in
other processes, each job with a time limit (a job over its limit has its process killed
and replaced, and the caller gets :class:`JobFailed`).

Fair share: each job belongs to a *lane* (a table, or a client uploading a card). A lane
has at most one job in the pool at a time, so a table that asks for many jobs waits behind
its own work, never in front of other tables'.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from pebble import ProcessPool

from twinrack.errors import TwinRackError
from twinrack.server import jobs

log = logging.getLogger("twinrack.workers")

T = TypeVar("T")


class JobFailed(TwinRackError):
    """A job that went over its time limit, or whose worker died."""


class Workers:
    def __init__(self, processes: int, timeout: float) -> None:
        self.processes = max(1, processes)
        self.timeout = timeout
        self.pool: ProcessPool | None = None
        self.lanes: dict[str, asyncio.Lock] = {}
        self.waiting: dict[str, int] = {}

    def start(self) -> None:
        if self.pool is None:
            # forkserver: the workers never inherit the server's threads and sockets
            ctx = multiprocessing.get_context("forkserver")
            self.pool = ProcessPool(max_workers=self.processes, initializer=jobs.warm_up,
                                    context=ctx)

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.stop()  # type: ignore[no-untyped-call]
            self.pool.join(timeout=5)
            self.pool = None

    async def run(self, lane: str, fn: Callable[..., T], *args: Any,
                  timeout: float | None = None) -> T:
        """Run ``fn(*args)`` in a worker, after the lane's previous job has finished."""
        self.start()
        lock = self.lanes.get(lane)
        if lock is None:
            lock = self.lanes[lane] = asyncio.Lock()
        self.waiting[lane] = self.waiting.get(lane, 0) + 1
        try:
            async with lock:
                return await self._submit(fn, args, timeout or self.timeout)
        finally:
            self.waiting[lane] -= 1
            if not self.waiting[lane]:
                del self.waiting[lane]
                self.lanes.pop(lane, None)

    async def _submit(self, fn: Callable[..., T], args: tuple[Any, ...],
                      timeout: float) -> T:
        assert self.pool is not None
        future = self.pool.schedule(fn, args=args, timeout=timeout)
        try:
            result: T = await asyncio.wrap_future(future)
        except FutureTimeout:
            raise JobFailed("job_timeout", f"the server gave up on that after {timeout:g} "
                                           "seconds") from None
        except TwinRackError:
            raise
        except Exception as err:  # a worker that died or a bug in the job
            log.warning("job %s failed: %r", getattr(fn, "__name__", fn), err)
            raise JobFailed("job_failed", "the server could not finish that work") from None
        return result
