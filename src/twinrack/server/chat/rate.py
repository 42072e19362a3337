"""Chat's rate limit, one for the whole service: at most ``RATE_LINES`` lines per sender and
channel in ``RATE_SECONDS`` (server/chat/rules.py), however many workers the sender's
requests reach.

Without a cluster the worker's own sliding window (:class:`LocalRate`) is the whole
service's. In a cluster every worker counts in Redis (:class:`RedisRate`): one sorted set
of send times per sender and channel, checked and added to by one script, so two
workers cannot both let the sixth line through, on Redis's clock, so the workers' clocks
do not matter. When Redis does not answer, the worker's own window holds the line until it
does (a sender may then say a little more, never without a limit)."""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Protocol

from twinrack.server.chat.rules import RATE_LINES, RATE_SECONDS, ChatRefused, RateWindow

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("twinrack.chat")

#: the Redis keys of the windows (one per channel and sender, gone once it is empty)
PREFIX = "twinrack:chat:rate"

#: KEYS[1] the window; ARGV: lines, window (microseconds), a unique member. 0: counted;
#: else the milliseconds until the oldest line leaves the window (nothing counted)
SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.floor((tonumber(oldest[2]) + window - now) / 1000) + 1
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000) + 1000)
return 0
"""


def refused(lines: int, seconds: float, wait_ms: int) -> ChatRefused:
    return ChatRefused("chat_rate_limited", f"at most {lines} lines every {seconds:g} "
                       "seconds: wait a moment", retry_after_ms=wait_ms)


class RateLimit(Protocol):
    async def check(self, channel: str, sender: str) -> None:
        """Count one line of ``sender`` in ``channel``, or refuse it
        (``chat_rate_limited``, with the milliseconds to wait) without counting it."""


class LocalRate:
    """The limit kept by this worker alone (the service without a cluster)."""

    def __init__(self, lines: int = RATE_LINES, seconds: float = RATE_SECONDS) -> None:
        self.window = RateWindow(lines, seconds)

    async def check(self, channel: str, sender: str) -> None:
        self.window.check(f"{channel}\n{sender}")


class RedisRate:
    """The limit kept in Redis, shared by every worker of a cluster."""

    def __init__(self, redis: Redis, lines: int = RATE_LINES,
                 seconds: float = RATE_SECONDS) -> None:
        self.redis = redis
        self.lines = lines
        self.seconds = seconds
        self.script = redis.register_script(SCRIPT)
        self.fallback = LocalRate(lines, seconds)

    def key(self, channel: str, sender: str) -> str:
        return f"{PREFIX}:{channel}:{sender}"

    async def check(self, channel: str, sender: str) -> None:
        try:
            wait = await self.script(keys=[self.key(channel, sender)],
                                     args=[self.lines, int(self.seconds * 1_000_000),
                                           secrets.token_hex(8)])
        except Exception as err:  # Redis away: this worker's own window meanwhile
            log.warning("redis: chat's rate limit kept here for now (%r)", err)
            await self.fallback.check(channel, sender)
            return
        if int(wait) > 0:
            raise refused(self.lines, self.seconds, int(wait))
