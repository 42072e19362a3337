"""Playing a table over its WebSocket from a test."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

from fastapi.testclient import TestClient

from twinrack.engine import (
    Action,
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Pass,
    Undeclare,
    Withdraw,
)
from twinrack.server.app import create_app
from twinrack.server.config import Settings
from twinrack.server.csrf import SESSION_COOKIE, token_of
from twinrack.server.deps import COOKIE
from twinrack.server.table.wire import PROTOCOL
from twinrack.tiles import tile_index


class BrowserClient(TestClient):
    """A test client that posts as a page of the site does: with this browser's CSRF token
    (docs/security.md), in the ``X-CSRF-Token`` header unless the form has its own ``csrf``
    field; a client without cookies first opens the lobby, as a browser would. ``csrf=False``
    posts without a token (tests/server/test_csrf.py: every such POST is refused)."""

    def csrf_token(self) -> str:
        if not (self.cookies.get(SESSION_COOKIE) or self.cookies.get(COOKIE)):
            self.get("/")
        secret = self.cookies.get(SESSION_COOKIE) or self.cookies.get(COOKIE)
        assert secret, "the lobby gave no cookie"
        return token_of(secret)

    def post(self, url: Any, *args: Any, csrf: bool = True, **kw: Any) -> Any:
        data = kw.get("data")
        if csrf and not (isinstance(data, dict) and "csrf" in data):
            kw["headers"] = {"X-CSRF-Token": self.csrf_token(), **(kw.get("headers") or {})}
        return super().post(url, *args, **kw)


def make_client(database_url: str, **overrides: Any) -> TestClient:
    """A test client of the service on ``database_url``; ``"cluster:" + URL``: of a
    cluster of two workers on that PostgreSQL and the test Redis (cluster_client.py)."""
    if database_url.startswith("cluster:"):
        from tests.server.cluster_client import cluster_client

        return cluster_client(database_url.removeprefix("cluster:"), **overrides)
    settings = Settings(database_url=database_url, bot_delay=0.0,
                        grace_seconds=overrides.pop("grace_seconds", 60.0),
                        call_seconds=overrides.pop("call_seconds", 10.0),
                        rate_burst=overrides.pop("rate_burst", 0), **overrides)
    return BrowserClient(create_app(settings))


def action_of(obj: dict[str, Any], seat: int) -> Action:
    """The engine action that a legal-action object of the protocol describes, read from
    its fields alone (not its text), so that a test can compare it with the engine's."""
    tiles = tuple(sorted(tile_index(t) for t in obj.get("tiles", [])))
    tile = tile_index(obj["tile"]) if "tile" in obj else None
    verb = obj["verb"]
    made: dict[str, Callable[[], Action]] = {
        "discard": lambda: Discard(seat, tile),
        "pass": lambda: Pass(seat),
        "claim": lambda: Claim(seat, obj["kind"]),
        "expose": lambda: Expose(seat, obj["rack"], tiles),
        "exchange": lambda: Exchange(seat, tile, obj["owner"], obj["rack"], obj["index"]),
        "mahjongg": lambda: MahJongg(seat, obj["rack"], tiles),
        "move": lambda: Move(seat, tile, obj["from"], obj["to"]),
        "declare": lambda: Declare(seat, obj["hand"], tiles),
        "undeclare": lambda: Undeclare(seat),
        "withdraw": lambda: Withdraw(seat),
    }
    return made[verb]()


def ws_path(game_id: str, token: str | None = None) -> str:
    """The table channel of a game, for the seat of ``token`` (none: a spectator)."""
    return f"/ws/{game_id}?protocol={PROTOCOL}" + (f"&token={token}" if token else "")


def created(r: Any) -> tuple[str, dict[int, str]]:
    """The game id and the seat tokens of a table the lobby just created, from its answer
    (Post/Redirect/Get: a 303 to the table's page, and the creator's cookie that keeps the
    seats' links for the page of invite links)."""
    assert r.status_code == 303, r.text
    game_id = re.fullmatch(r"/t/(\w+)(?:/ready)?", r.headers["location"]).group(1)
    jar = SimpleCookie()
    for header in r.headers.get_list("set-cookie"):
        jar.load(header)
    pairs = jar[f"twinrack_host_{game_id}"].value.split(".")
    return game_id, {int(s): t for s, _, t in (p.partition(":") for p in pairs)}


#: the page's CSRF token, as its scripts read it (server/csrf.py)
CSRF_META = re.compile(r'<meta name="csrf-token" content="(\w+)">')


def page_token(html: str) -> str:
    found = CSRF_META.search(html)
    assert found is not None, "no CSRF token in the page"
    return found[1]


def form_post(base: str, path: str, data: dict[str, str], **kw: Any) -> Any:
    """POST a form to a running server as a browser does: the lobby first (its cookie, and
    the CSRF token of its page), then the form with the token."""
    import httpx

    with httpx.Client(timeout=kw.pop("timeout", 30)) as client:
        token = page_token(client.get(f"{base}/").text)
        return client.post(f"{base}{path}", data={**data, "csrf": token}, **kw)


async def async_form_post(client: Any, base: str, path: str, data: dict[str, str],
                          **kw: Any) -> Any:
    """:func:`form_post` with an ``httpx.AsyncClient`` (the benchmarks)."""
    token = page_token((await client.get(f"{base}/")).text)
    return await client.post(f"{base}{path}", data={**data, "csrf": token}, **kw)


def create_table(client: TestClient, **form: str) -> tuple[str, dict[int, str]]:
    """Create a table through the lobby form; returns the game id and the seat tokens."""
    form.pop("hints", None)
    data = {"name": "Ann", "variant": "siamese", "players": "2", "seat1": "random", **form}
    return created(client.post("/tables", data=data, follow_redirects=False))


def next_state(ws: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if seen is not None:
            seen.append(msg)
        if msg["type"] == "state":
            return msg


def playing_state(ws: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next state of a table in play: a table with friends waits for everyone to be
    at it before anything is played (its states say ``"waiting": true`` until then)."""
    while True:
        msg = next_state(ws, seen)
        if not msg["waiting"]:
            return msg


def choose(msg: dict[str, Any], rng: random.Random) -> str | None:
    """A random legal action, never a pure rearrangement (so games move on)."""
    legal = [x["text"] for x in msg["legal"] if x["verb"] != "move"]
    return rng.choice(legal) if legal else None


def next_error(ws: Any) -> dict[str, Any]:
    """The next error message, skipping the state and player updates in between."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "error":
            return dict(msg)


def play_to_end(ws: Any, rng: random.Random, seen: list[dict[str, Any]],
                limit: int = 5000, hints: bool = False) -> dict[str, Any]:
    """Answer every state with a random legal action until the game is over (``hints``:
    hold the first decision until its hints have come, however busy the machine)."""
    latest: dict[str, Any] | None = None
    pending: str | None = None
    hinted = not hints
    n = 0
    for _ in range(limit):
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == "state":
            if msg["view"]["phase"] == "over":
                return msg
            latest = msg
            hinted = hinted or msg["hints"] is not None
        elif msg["type"] == "hints":
            hinted = True
        elif msg.get("msg_id") is not None and msg.get("msg_id") == pending:
            pending = None
        if not hinted and latest is not None and latest["legal"]:
            continue
        if pending is None and latest is not None:
            action = choose(latest, rng)
            if action is not None:
                n += 1
                pending = f"t{n}"
                ws.send_json({"type": "action", "version": latest["version"], "msg_id": pending,
                              "action": action})
                latest = None
    raise AssertionError("the game did not end")
