"""A server killed in the middle of a game comes back with the game exactly as it was."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.server.helpers import created, form_post
from tests.server.server_process import ServerProcess
from twinrack.server.table.wire import PROTOCOL


def _recv_state(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=20))
        if msg["type"] == "state":
            return dict(msg)


def _sync(socks: dict[int, Any], states: dict[int, dict[str, Any]]) -> None:
    top = max(s["version"] for s in states.values())
    for seat, ws in socks.items():
        while states[seat]["version"] < top or states[seat]["waiting"]:
            states[seat] = _recv_state(ws)


def _step(socks: dict[int, Any], states: dict[int, dict[str, Any]], rng: random.Random,
          n: int) -> None:
    seat = states[0]["view"]["to_act"][0]
    legal = [x["text"] for x in states[seat]["legal"] if x["verb"] != "move"]
    socks[seat].send(json.dumps({"type": "action", "version": states[seat]["version"],
                                 "msg_id": f"r{n}", "action": rng.choice(legal)}))
    for s, ws in socks.items():
        states[s] = _recv_state(ws)
    _sync(socks, states)


def test_kill_and_restart_resumes_the_identical_game(database_url: str, tmp_path: Any) -> None:
    server = ServerProcess(database_url, log=tmp_path / "server.log").start()
    try:
        r = form_post(server.base, "/tables", {"name": "Ann", "variant": "siamese",
                                                      "players": "2", "seat1": "human"})
        game_id, seat_tokens = created(r)
        t0, t1 = seat_tokens[0], seat_tokens[1]
        tokens = {0: t0, 1: t1}
        ws_url = f"ws://127.0.0.1:{server.port}/ws/{game_id}?protocol={PROTOCOL}&token="
        rng = random.Random(5)
        first = contextlib.ExitStack()
        socks = {s: first.enter_context(connect(ws_url + tok)) for s, tok in tokens.items()}
        states = {s: _recv_state(ws) for s, ws in socks.items()}
        _sync(socks, states)
        n = 0
        while n < 40 and states[0]["view"]["phase"] != "over":
            _step(socks, states, rng, n)
            n += 1
        before = {s: {k: states[s][k] for k in ("version", "view", "legal")} for s in states}
        server.kill()
        first.close()

        server.start()
        second = contextlib.ExitStack()
        socks = {s: second.enter_context(connect(ws_url + tok)) for s, tok in tokens.items()}
        after = {s: _recv_state(ws) for s, ws in socks.items()}
        for s in tokens:
            assert {k: after[s][k] for k in ("version", "view", "legal")} == before[s]
        # the game goes on to its end and its record verifies
        states = after
        while states[0]["view"]["phase"] != "over":
            _step(socks, states, rng, n)
            n += 1
        second.close()
        verdict = httpx.get(f"{server.base}/api/games/{game_id}/verify").json()
        assert verdict["ok"] is True, verdict
    finally:
        server.stop()
