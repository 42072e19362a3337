"""A failed write never loses or corrupts a game.

The table changes only after its action is stored; a write that fails gives the sender a
retryable error (the same msg_id is accepted again), the table pauses and tells its players,
retries by itself, takes in what a write that seemed to fail stored after all, and plays on.
After each fault: every acknowledged action is stored with no gap, the game loads again
after a restart, and its record verifies.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text

from tests.server.cluster_client import live_table, owner_hub
from tests.server.drive import Players
from tests.server.helpers import make_client


def stored_seqs(database_url: str, game_id: str) -> list[int]:
    engine = create_engine(database_url.removeprefix("cluster:"))
    with engine.connect() as conn:
        seqs = [r[0] for r in conn.execute(
            text("SELECT seq FROM actions WHERE game_id = :g ORDER BY seq"), {"g": game_id})]
    engine.dispose()
    return seqs


def one_action(players: Players, rng: random.Random) -> tuple[int, str]:
    seat = players.states[0]["view"]["to_act"][0]
    legal = [x["text"] for x in players.states[seat]["legal"]
             if x["verb"] != "move"]
    return seat, rng.choice(legal)


def finish_and_check(client: Any, database_url: str, players: Players,
                     rng: random.Random) -> None:
    """Play to the end; then every action is stored once, in order, and verifies after a
    restart of the service."""
    while not players.over:
        players.step(rng)
    game_id = players.game_id
    state = live_table(client, game_id).state
    assert stored_seqs(database_url, game_id) == list(range(len(state.actions) + 1))
    players.close()


def verify_after_restart(database_url: str, game_id: str) -> None:
    if database_url.startswith("cluster:"):  # the same stores, both workers new
        from tests.server.cluster_client import cluster_client

        again = cluster_client(database_url.removeprefix("cluster:"), fresh=False)
    else:
        again = make_client(database_url)
    with again:
        verdict = again.get(f"/api/games/{game_id}/verify").json()
        assert verdict["ok"] is True, verdict


def test_a_write_lock_held_past_the_busy_timeout_pauses_the_table(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'twinrack.db'}"
    rng = random.Random(8)
    with make_client(url, db_busy_ms=200) as client:
        players = Players.at_new_table(client)
        for _ in range(5):
            players.step(rng)
        table = client.app.state.hub.tables[players.game_id]
        before = table.state.version
        locker = sqlite3.connect(tmp_path / "twinrack.db", isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        seat, action = one_action(players, rng)
        players.send(seat, action, "held")
        refused, states = players.reply(seat, "held")
        assert refused["code"] == "storage_unavailable" and refused["retryable"] is True
        assert states[-1]["paused"] is True and states[-1]["legal"] == []  # told first
        assert table.state.version == before  # nothing changed in memory
        players.send(seat, action, "held")  # still paused: refused again, retryable
        again, _ = players.reply(seat, "held")
        assert again["code"] == "storage_unavailable"
        locker.execute("ROLLBACK")
        locker.close()
        back = players.next_state(seat)
        assert back["version"] == before and back["paused"] is False
        players.send(seat, action, "held")  # the same msg_id is accepted now, once
        ack, _ = players.reply(seat, "held")
        assert ack == {"type": "ack", "msg_id": "held", "version": before + 1}
        players.sync(before + 1)
        finish_and_check(client, url, players, rng)
    verify_after_restart(url, players.game_id)


@pytest.mark.parametrize("point", ["before_write", "inside_transaction", "after_commit"])
def test_a_failure_at_each_store_point_loses_nothing(service_url: str, point: str) -> None:
    database_url = service_url
    rng = random.Random(9)
    with make_client(service_url) as client:
        players = Players.at_new_table(client)
        for _ in range(4):
            players.step(rng)
        hub = owner_hub(client, players.game_id)
        table = hub.tables[players.game_id]
        before = table.state.version
        inject_one_failure(hub, point)
        seat, action = one_action(players, rng)
        players.send(seat, action, "x1")
        refused, _ = players.reply(seat, "x1")
        assert refused["code"] == "storage_unavailable" and refused["retryable"] is True
        back = players.next_state(seat)
        stored = point == "after_commit"  # the write went through although it seemed not to
        # when it did, the table took in the action and the passes stored with it
        assert back["paused"] is False and (back["version"] > before) is stored
        assert stored or back["version"] == before
        players.send(seat, action, "x1")
        ack, _ = players.reply(seat, "x1")
        assert ack["type"] == "ack" and ack["version"] == before + 1
        assert ack.get("duplicate", False) is stored
        players.sync(before + 1)
        finish_and_check(client, database_url, players, rng)
    verify_after_restart(database_url, players.game_id)


def inject_one_failure(hub: Any, point: str) -> None:
    """Make the next write of actions fail once, at ``point``."""
    real = hub._store_batch
    fired = []

    def store(rows: list[dict[str, Any]]) -> None:
        if fired:
            return real(rows)
        fired.append(point)
        if point == "before_write":
            raise OSError("the disk is gone")
        if point == "after_commit":
            real(rows)
            raise OSError("the connection dropped before the commit was confirmed")
        # inside the transaction: the insert runs, then the commit fails (rolled back)

        def fail(conn: Any, *args: Any) -> None:
            raise OSError("the commit failed")

        event.listen(hub.db.engine, "commit", fail)
        try:
            return real(rows)
        finally:
            event.remove(hub.db.engine, "commit", fail)

    hub._store_batch = store
