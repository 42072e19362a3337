"""A chat channel other than a table's: one stream of lines that everyone in it reads (the
open room mounts "room"; docs/protocol.md, "Chat"). What may be said is the same as at a
table (rules.py); lines are stored before anyone can read them, and read from the
database, so every worker of a cluster serves the same channel.

The rate limit is the whole service's (rate.py: in Redis on a cluster), so a sender whose
requests go to several workers may say no more than through one."""

from __future__ import annotations

import re
from typing import Any

from twinrack.server.chat.rate import LocalRate, RateLimit
from twinrack.server.chat.rules import ChatRefused, check_text
from twinrack.server.chat.store import RECENT, ChatStore

#: the names a channel may have ("t:..." is a table's, never one of these)
NAME = re.compile(r"[a-z][a-z0-9-]{0,30}")


class Channel:
    """One named channel: :meth:`say` checks, rate-limits and stores a line; :meth:`recent`
    reads the lines after one the reader has."""

    def __init__(self, store: ChatStore, name: str, rate: RateLimit | None = None) -> None:
        if not NAME.fullmatch(name):
            raise ValueError(f"not a channel name: {name!r}")
        self.store = store
        self.name = name
        self.rate: RateLimit = rate if rate is not None else LocalRate()

    async def say(self, sender_key: str, sender_name: str, text: object) -> dict[str, Any]:
        """Store a line and return it as the protocol sends it, or :class:`ChatRefused`."""
        line = check_text(text, await self.store.quiet(self.name))
        await self.rate.check(self.name, sender_key)
        try:
            return await self.store.add(self.name, sender_key=sender_key,
                                        sender_name=sender_name, seat=None, audience="all",
                                        text=line)
        except Exception as err:
            raise ChatRefused("storage_unavailable", "the line could not be stored: send it "
                              "again in a moment", retryable=True) from err

    async def recent(self, after: int = 0, limit: int = RECENT) -> list[dict[str, Any]]:
        return await self.store.lines(self.name, {"all"}, after, limit)

    async def quiet(self) -> bool:
        return await self.store.quiet(self.name)

    async def set_quiet(self, on: bool) -> None:
        """Only the fixed phrases from now on (or any short line again)."""
        await self.store.set_quiet(self.name, on)
