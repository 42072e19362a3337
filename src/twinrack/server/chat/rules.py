"""What may be said in a chat channel, checked whole before anything is stored: a short
line of printable text, at most :data:`RATE_LINES` lines per sender in
:data:`RATE_SECONDS`, and under "quiet table" only one of the fixed :data:`PHRASES`.

A refused line is refused whole with a stable code (docs/protocol.md, "Chat"); nothing is
cut or rewritten except the spaces around it and a quiet phrase's spelling."""

from __future__ import annotations

import time
import unicodedata
from collections import OrderedDict, deque

#: the longest line, in characters (a longer one is refused, never cut)
MAX_CHARS = 200
#: how many lines one sender may say in RATE_SECONDS
RATE_LINES = 5
RATE_SECONDS = 10.0
#: what may be said at a quiet table (compared without case and final punctuation)
PHRASES = ("Good game", "Thank you", "Good luck", "Well played")
#: senders a rate window remembers at most (the oldest are forgotten first)
SENDERS_KEPT = 10_000


class ChatRefused(ValueError):
    """A line (or a chat request) refused whole, with a stable code for the client."""

    def __init__(self, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def to_dict(self) -> dict[str, object]:
        return {"type": "error", "code": self.code, "message": self.message, **self.extra}


def _phrase(text: str) -> str | None:
    key = text.strip().rstrip(".!").strip().casefold()
    return next((p for p in PHRASES if p.casefold() == key), None)


def check_text(text: object, quiet: bool = False) -> str:
    """The line to store for ``text``, or :class:`ChatRefused`."""
    if not isinstance(text, str):
        raise ChatRefused("bad_message", "a chat message needs text")
    line = text.strip()
    if not line:
        raise ChatRefused("chat_empty", "there is nothing to send")
    if len(line) > MAX_CHARS:
        raise ChatRefused("chat_too_long", f"a chat line may have at most {MAX_CHARS} "
                          f"characters (this one has {len(line)}): shorten it",
                          limit=MAX_CHARS)
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in line):
        raise ChatRefused("chat_bad_text", "a chat line is one line of printable text")
    if quiet:
        phrase = _phrase(line)
        if phrase is None:
            raise ChatRefused("chat_quiet", "this is a quiet table: only "
                              + ", ".join(f'"{p}"' for p in PHRASES) + " may be said",
                              phrases=list(PHRASES))
        return phrase
    return line


class RateWindow:
    """At most ``lines`` per sender in any ``seconds`` (a sliding window of send times)."""

    def __init__(self, lines: int = RATE_LINES, seconds: float = RATE_SECONDS,
                 kept: int = SENDERS_KEPT) -> None:
        self.lines = lines
        self.seconds = seconds
        self.kept = kept
        self.sent: OrderedDict[str, deque[float]] = OrderedDict()

    def check(self, sender: str, now: float | None = None) -> None:
        """Count one line of ``sender``, or refuse it (``chat_rate_limited``, with the
        milliseconds to wait) without counting it."""
        now = time.monotonic() if now is None else now
        times = self.sent.pop(sender, None) or deque()
        while times and times[0] <= now - self.seconds:
            times.popleft()
        self.sent[sender] = times
        if len(times) >= self.lines:
            wait = int((times[0] + self.seconds - now) * 1000) + 1
            raise ChatRefused("chat_rate_limited", f"at most {self.lines} lines every "
                              f"{self.seconds:g} seconds: wait a moment", retry_after_ms=wait)
        times.append(now)
        while len(self.sent) > self.kept:
            self.sent.popitem(last=False)
