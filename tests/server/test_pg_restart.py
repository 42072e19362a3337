"""PostgreSQL restarted in the middle of a game: the game goes on and loses nothing.

Runs where CI says how to restart the test database (TWINRACK_TEST_PG_RESTART, set by
.ci/run, for instance ``pg_ctlcluster 15 main restart``), against the real service in a child
process. Every action is sent until it is acknowledged, with the same msg_id after a
retryable refusal; at the end every stored action is there once and in order, and the
record verifies.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from tests.server.conftest import PG_URL, _reset_postgres
from tests.server.helpers import created, form_post
from tests.server.server_process import ServerProcess
from twinrack.server.table.wire import PROTOCOL

RESTART = os.environ.get("TWINRACK_TEST_PG_RESTART")

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not (PG_URL and RESTART),
                                 reason="needs TWINRACK_TEST_DATABASE_URL and "
                                        "TWINRACK_TEST_PG_RESTART (set by .ci/run)")]


def recv(ws: Any) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=60)))


def latest_state(ws: Any, state: dict[str, Any], version: int) -> dict[str, Any]:
    while state["version"] < version or state.get("paused") or state.get("waiting"):
        m = recv(ws)
        if m["type"] == "state":
            state = m
    return state


def act(socks: dict[int, Any], states: dict[int, dict[str, Any]], seat: int, action: str,
        msg_id: str, refusals: list[str]) -> bool:
    """Send until acknowledged; after a retryable refusal, wait until the table plays on.
    False when the table had moved on (it passed for a seat that could only pass): every
    socket is then caught up, and the caller chooses again."""
    ws = socks[seat]
    while True:
        sent = states[seat]["version"]
        ws.send(json.dumps({"type": "action", "version": sent, "msg_id": msg_id,
                            "action": action}))
        while True:
            m = recv(ws)
            if m["type"] == "state":
                states[seat] = m
            elif m.get("msg_id") == msg_id:
                break
        if m["type"] == "ack":
            for s in socks:
                states[s] = latest_state(socks[s], states[s], m["version"])
            return True
        if m["code"] == "stale_version":
            states[seat] = latest_state(ws, states[seat], sent + 1)
            for s in socks:
                states[s] = latest_state(socks[s], states[s], states[seat]["version"])
            return False
        assert m.get("retryable") is True, m
        refusals.append(m["code"])
        states[seat] = latest_state(ws, {**states[seat], "paused": True}, 0)


def test_a_postgresql_restart_mid_game_loses_nothing(tmp_path: Any) -> None:
    assert PG_URL and RESTART
    _reset_postgres(PG_URL)
    server = ServerProcess(PG_URL, log=tmp_path / "server.log").start()
    try:
        r = form_post(server.base, "/tables", {"name": "Ann", "variant": "siamese",
                                                      "players": "2", "seat1": "human",
                                                      "call_seconds": "120"})
        game_id, seat_tokens = created(r)
        t0, t1 = seat_tokens[0], seat_tokens[1]
        url = f"ws://127.0.0.1:{server.port}/ws/{game_id}?protocol={PROTOCOL}&token="
        rng = random.Random(12)
        refusals: list[str] = []
        with contextlib.ExitStack() as stack:
            socks = {s: stack.enter_context(connect(url + t)) for s, t in ((0, t0), (1, t1))}
            states = {s: recv(ws) for s, ws in socks.items()}
            states = {s: latest_state(ws, states[s], 0) for s, ws in socks.items()}
            n = 0
            restart: subprocess.Popen[bytes] | None = None
            while states[0]["view"]["phase"] != "over":
                if n == 15:  # while the game goes on, as fast as it can
                    restart = subprocess.Popen(RESTART, shell=True)
                seat = states[0]["view"]["to_act"][0]
                legal = [x["text"] for x in states[seat]["legal"]
                         if x["verb"] != "move"]
                if act(socks, states, seat, rng.choice(legal), f"p{n}", refusals):
                    n += 1
            assert restart is not None and restart.wait(timeout=120) == 0
        engine = create_engine(PG_URL)
        with engine.connect() as conn:
            rows = list(conn.execute(text("SELECT seq, msg_id FROM actions WHERE game_id = :g "
                                          "ORDER BY seq"), {"g": game_id}))
        engine.dispose()
        # the deal, then each acknowledged action once, with no gap (between them the
        # table's own passes for a seat that could only pass, which carry no msg_id)
        assert [seq for seq, _ in rows] == list(range(len(rows)))
        ids = [m for _, m in rows if m is not None]
        assert sorted(ids) == sorted(f"p{i}" for i in range(n))
        verdict = httpx.get(f"{server.base}/api/games/{game_id}/verify", timeout=60).json()
        assert verdict["ok"] is True, verdict
        assert set(refusals) <= {"storage_unavailable"}
        print(f"{len(refusals)} refusals while the database restarted")
    finally:
        server.stop()
