"""The single-process tests run against a cluster of two in-process workers: the test
talks to worker w1 (its pages, its sockets), and every table is run by worker w2, so that
every command and every view goes through Redis and the relay (docs/deploy.md).

``make_client("cluster:" + PG_URL)`` makes one; :func:`owner_hub` finds the hub that runs
a game, for the tests that look at the table itself or break its database on purpose.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.cluster_harness import REDIS_URL, reset_stores
from tests.server.helpers import BrowserClient
from twinrack.server.app import create_app
from twinrack.server.config import Settings
from twinrack.server.hub import Hub
from twinrack.server.table.live import LiveTable

PREFIX = "cluster:"


class ClusterClient(BrowserClient):
    """A test client of worker w1, with worker w2 running beside it."""

    peer: TestClient

    def __enter__(self) -> ClusterClient:
        self.peer.__enter__()
        super().__enter__()
        hub: Hub = self.app.state.hub  # type: ignore[attr-defined]
        assert hub.node is not None

        async def on_the_peer() -> str:
            return "w2"

        hub.node.place = on_the_peer  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            super().__exit__(*exc)
        finally:
            self.peer.__exit__(*exc)


def cluster_client(database_url: str, fresh: bool = True, **overrides: Any) -> ClusterClient:
    if fresh:
        reset_stores()

    def settings(worker: str) -> Settings:
        return Settings(database_url=database_url, bot_delay=0.0, redis_url=REDIS_URL,
                        worker_id=worker, grace_seconds=overrides.get("grace_seconds", 60.0),
                        call_seconds=overrides.get("call_seconds", 10.0),
                        rate_burst=overrides.get("rate_burst", 0), workers=1,
                        **{k: v for k, v in overrides.items()
                           if k not in ("grace_seconds", "call_seconds", "rate_burst")})

    client = ClusterClient(create_app(settings("w1")))
    client.peer = BrowserClient(create_app(settings("w2")))
    return client


def hubs(client: TestClient) -> list[Hub]:
    peer = getattr(client, "peer", None)
    found: list[Hub] = [client.app.state.hub]  # type: ignore[attr-defined]
    if peer is not None:
        found.append(peer.app.state.hub)
    return found


def owner_hub(client: TestClient, game_id: str) -> Hub:
    """The hub that runs ``game_id``: the client's own without a cluster, else the peer's
    (and then surely not the client's: what the test saw came through the relay)."""
    own = hubs(client)
    if len(own) == 1:
        return own[0]
    assert game_id not in own[0].epochs and game_id in own[1].epochs
    return own[1]


def live_table(client: TestClient, game_id: str) -> LiveTable:
    """The table that runs ``game_id``, wherever it runs."""
    return owner_hub(client, game_id).tables[game_id]
