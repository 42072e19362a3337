"""Chat at the table and in the room (issue 28; docs/protocol.md, "Chat";
docs/security.md, "Chat"): short lines, checked whole (rules.py), rate-limited per sender
across the whole service (rate.py: in Redis on a cluster), stored before anyone reads them
(store.py, migration 0010_chat), shown as text only; the players' and the spectators'
lines kept apart while a game is played (table_chat.py); mutes and reports (routes.py),
the reports listed by ``twinrack accounts reports`` (cli.py).

A table's chat goes over the table's own WebSocket (the table's task stores and sends each
line, on the worker that owns the table); other channels (channel.py: the room mounts
"room") over HTTP. One browser panel serves both (web/static/js/chat.js).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["install", "mount_channel"]


def install(app: FastAPI, channels: tuple[str, ...] = ("room",)) -> None:
    """Chat's routes, and its named channels, on the app (its hub on ``app.state``)."""
    from twinrack.server.chat import routes

    app.state.chat_channels = {}
    for name in channels:
        mount_channel(app, name)
    app.include_router(routes.router)


def mount_channel(app: FastAPI, name: str) -> None:
    """Open the channel ``name`` (a lower-case word: "room", "room-royale", ...) on the
    app: ``/api/chat/c/NAME/lines`` reads and says its lines."""
    from twinrack.server.chat.channel import Channel

    if name not in app.state.chat_channels:
        hub = app.state.hub
        app.state.chat_channels[name] = Channel(hub.chat, name, hub.chat_rate)
