"""Playing a table over its WebSocket from a test."""

from __future__ import annotations

import random
import re
from typing import Any

from fastapi.testclient import TestClient

from twinrack.server.app import create_app
from twinrack.server.config import Settings


def make_client(database_url: str, **overrides: Any) -> TestClient:
    settings = Settings(database_url=database_url, bot_delay=0.0,
                        grace_seconds=overrides.pop("grace_seconds", 60.0),
                        call_seconds=overrides.pop("call_seconds", 10.0),
                        rate_burst=overrides.pop("rate_burst", 0), **overrides)
    return TestClient(create_app(settings))


def create_table(client: TestClient, **form: str) -> tuple[str, dict[int, str]]:
    """Create a table through the lobby form; returns the game id and the seat tokens."""
    form.pop("hints", None)
    data = {"name": "Ann", "variant": "siamese", "players": "2", "seat1": "random", **form}
    r = client.post("/tables", data=data)
    assert r.status_code == 200, r.text
    tokens: dict[int, str] = {}
    mine = re.search(r'href="/t/(\w+)\?token=([^"]+)"', r.text)
    assert mine is not None
    game_id = mine.group(1)
    tokens[0] = mine.group(2)
    for seat, tok in re.findall(r'Seat (\d+): <input class="invite-link" readonly '
                                r'value="[^"]*/t/\w+\?token=([^"]+)"', r.text):
        tokens[int(seat) - 1] = tok
    return game_id, tokens


def next_state(ws: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if seen is not None:
            seen.append(msg)
        if msg["type"] == "state":
            return msg


def choose(msg: dict[str, Any], rng: random.Random) -> str | None:
    """A random legal action, never a pure rearrangement (so games move on)."""
    legal = [x["action"] for x in msg["legal"] if not x["action"].startswith("move")]
    return rng.choice(legal) if legal else None


def next_error(ws: Any) -> dict[str, Any]:
    """The next error message, skipping the state and player updates in between."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "error":
            return dict(msg)


def play_to_end(ws: Any, rng: random.Random, seen: list[dict[str, Any]],
                limit: int = 5000) -> dict[str, Any]:
    """Answer every state with a random legal action until the game is over."""
    latest: dict[str, Any] | None = None
    pending: str | None = None
    n = 0
    for _ in range(limit):
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == "state":
            if msg["view"]["phase"] == "over":
                return msg
            latest = msg
        elif msg.get("msg_id") is not None and msg.get("msg_id") == pending:
            pending = None
        if pending is None and latest is not None:
            action = choose(latest, rng)
            if action is not None:
                n += 1
                pending = f"t{n}"
                ws.send_json({"type": "action", "version": latest["version"], "msg_id": pending,
                              "action": action})
                latest = None
    raise AssertionError("the game did not end")
