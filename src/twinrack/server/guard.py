"""What protects the service from its clients: per-client rate limits on costly requests,
the limits of a WebSocket message, and the security headers of every answer
(docs/security.md)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the longest WebSocket message a browser may send (an action is a few dozen characters)
MAX_MESSAGE_CHARS = 4_096
#: the longest action text and message id
MAX_ACTION_CHARS = 300
MAX_MSG_ID_CHARS = 64

#: where pages may load from: this server only, no inline scripts, no framing
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; "
       "object-src 'none'")


class BadMessage(ValueError):
    """A WebSocket message refused whole, with a code and a message for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def read_message(frame: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON object of a received WebSocket frame, or :class:`BadMessage`."""
    text = frame.get("text")
    if text is None:
        raise BadMessage("bad_message", "messages are JSON text, not binary frames")
    if len(text) > MAX_MESSAGE_CHARS:
        raise BadMessage("message_too_large", f"a message may have at most "
                                              f"{MAX_MESSAGE_CHARS:,} characters")
    try:
        msg = orjson.loads(text)  # a tenth of json.loads's time; ValueError if not JSON
    except (ValueError, RecursionError):
        raise BadMessage("bad_message", "messages are JSON objects") from None
    if not isinstance(msg, dict):
        raise BadMessage("bad_message", "messages are JSON objects")
    return msg


def check_action(msg: dict[str, Any]) -> tuple[int, str, str | None]:
    """The version, action text and message id of an action message, each checked whole
    (too long is refused, never cut)."""
    version, text, msg_id = msg.get("version"), msg.get("action"), msg.get("msg_id")
    if (not isinstance(text, str) or not isinstance(version, int) or isinstance(version, bool)
            or (msg_id is not None and not isinstance(msg_id, str))):
        raise BadMessage("bad_message", "an action needs version, msg_id and action")
    if len(text) > MAX_ACTION_CHARS:
        raise BadMessage("too_long", f"an action may have at most {MAX_ACTION_CHARS} "
                                     "characters")
    if msg_id is not None and len(msg_id) > MAX_MSG_ID_CHARS:
        raise BadMessage("too_long", f"a msg_id may have at most {MAX_MSG_ID_CHARS} "
                                     "characters")
    return version, text, msg_id or None


def check_seat(msg: dict[str, Any]) -> tuple[int, str | None]:
    """The seat and message id of a message about a seat (``hand_over``)."""
    seat, msg_id = msg.get("seat"), msg.get("msg_id")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 8:
        raise BadMessage("bad_message", "which seat? give seat: a number from 0")
    if msg_id is not None and (not isinstance(msg_id, str) or len(msg_id) > MAX_MSG_ID_CHARS):
        raise BadMessage("too_long", f"a msg_id is text of at most {MAX_MSG_ID_CHARS} "
                                     "characters")
    return seat, msg_id or None


class RateLimiter:
    """Token buckets per client and kind of request: ``burst`` at once, then
    ``per_minute`` more each minute. ``burst = 0`` turns the limit off."""

    def __init__(self, burst: int, per_minute: float, clients: int = 10_000) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clients = clients
        self.buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def allow(self, client: str, kind: str, now: float | None = None, scale: int = 1) -> bool:
        """Whether ``client`` may make one more request of ``kind`` (``scale``: this kind
        is cheap, allow that many times more of it)."""
        if self.burst <= 0:
            return True
        now = time.monotonic() if now is None else now
        key = (client, kind)
        burst = float(self.burst * scale)
        tokens, then = self.buckets.pop(key, (burst, now))
        tokens = min(burst, tokens + (now - then) * self.rate * scale)
        allowed = tokens >= 1.0
        self.buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self.buckets) > self.clients:
            self.buckets.popitem(last=False)
        return allowed


class SecurityHeaders:
    """ASGI middleware adding the security headers to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                for k, v in ((b"content-security-policy", CSP.encode()),
                             (b"x-frame-options", b"DENY"),
                             (b"x-content-type-options", b"nosniff"),
                             (b"referrer-policy", b"same-origin")):
                    if k not in names:
                        headers.append((k, v))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
