"""Driving a table of people from a test: one WebSocket per seat, random legal actions."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from fastapi.testclient import TestClient

from tests.server.helpers import create_table, ws_path


class Players:
    """Every seat of an all-human table, connected; ``step`` plays one random action."""

    def __init__(self, client: TestClient, game_id: str, tokens: dict[int, str]) -> None:
        self.client = client
        self.game_id = game_id
        self.tokens = tokens
        self.stack = contextlib.ExitStack()
        self.socks = {s: self.stack.enter_context(
            client.websocket_connect(ws_path(game_id, t))) for s, t in tokens.items()}
        self.states = {s: _next_state(ws) for s, ws in self.socks.items()}
        # every seat is at the table: it leaves the waiting room (server/table/presence.py)
        for s, ws in self.socks.items():
            while self.states[s]["waiting"]:
                self.states[s] = _next_state(ws)
        self.sync(max(st["version"] for st in self.states.values()))
        self.n = 0

    @classmethod
    def at_new_table(cls, client: TestClient, **form: str) -> Players:
        players = int(form.get("players", "2"))
        seats = {f"seat{i}": "human" for i in range(1, players)}
        game_id, tokens = create_table(client, **{"call_seconds": "120", **seats, **form})
        return cls(client, game_id, tokens)

    @property
    def over(self) -> bool:
        return bool(self.states[0]["view"]["phase"] == "over")

    @property
    def version(self) -> int:
        return int(self.states[0]["version"])

    def sync(self, version: int) -> None:
        for s, ws in self.socks.items():
            while self.states[s]["version"] < version:
                self.states[s] = _next_state(ws)

    def step(self, rng: random.Random) -> str:
        """One random legal action (never a pure rearrangement) of a seat that must act;
        chosen again from the fresh state when the table had moved on (passes the table
        made for a seat may follow a state these sockets have not read yet)."""
        while True:
            seat = self.states[0]["view"]["to_act"][0]
            legal = [x["text"] for x in self.states[seat]["legal"] if x["verb"] != "move"]
            action = rng.choice(legal)
            if self._try(seat, action):
                return action

    def step_with(self, action: str) -> str:
        """``action`` for the first seat that must act, once it is stored and every seat
        has seen its result."""
        seat = self.states[0]["view"]["to_act"][0]
        assert self._try(seat, action), f"the table moved on before {action!r}"
        return action

    def _try(self, seat: int, action: str) -> bool:
        """Send ``action`` for ``seat``: True once it is stored and every seat has seen
        its result; False when it came too late (``stale_version``), every seat then
        brought up to the fresh state that follows."""
        self.n += 1
        msg_id = f"d{self.n}"
        ws = self.socks[seat]
        sent = self.states[seat]["version"]
        ws.send_json({"type": "action", "version": sent, "msg_id": msg_id,
                      "action": action})
        while True:
            m = ws.receive_json()
            if m["type"] == "state":
                self.states[seat] = m
            elif m.get("msg_id") == msg_id:
                if m["type"] == "error" and m.get("code") == "stale_version":
                    while self.states[seat]["version"] <= sent:
                        self.states[seat] = _next_state(ws)
                    self.sync(self.states[seat]["version"])
                    return False
                assert m["type"] == "ack", m
                self.sync(m["version"])
                return True

    def send(self, seat: int, action: str, msg_id: str) -> None:
        self.socks[seat].send_json({"type": "action", "msg_id": msg_id, "action": action,
                                    "version": self.states[seat]["version"]})

    def reply(self, seat: int, msg_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The answer to ``msg_id`` and the states that came before it (kept as the
        seat's latest state)."""
        states = []
        while True:
            m = self.socks[seat].receive_json()
            if m["type"] == "state":
                self.states[seat] = m
                states.append(m)
            elif m.get("msg_id") == msg_id:
                return m, states

    def next_state(self, seat: int) -> dict[str, Any]:
        self.states[seat] = _next_state(self.socks[seat])
        return self.states[seat]

    def close(self) -> None:
        self.stack.close()

    def __enter__(self) -> Players:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _next_state(ws: Any) -> dict[str, Any]:
    while True:
        m = ws.receive_json()
        if m["type"] == "state":
            return dict(m)
