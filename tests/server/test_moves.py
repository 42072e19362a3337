"""A seat moves tiles between its own racks out of turn (docs/rules.md, section 5): only
its own connections hear of it, the other seat's command made at the version it had stays
good, and the call timer of a claim window runs on."""

from __future__ import annotations

from typing import Any

from tests.server.helpers import create_table, make_client, next_state, playing_state, ws_path


def _to_play(socks: dict[int, Any], state: dict[int, dict[str, Any]]) -> None:
    """Answer the declaration round (both seats pass) until East's first turn."""
    for _ in range(10):
        if state[0]["view"]["phase"] == "turn":
            return
        seat = state[0]["view"]["to_act"][0]
        socks[seat].send_json({"type": "action", "version": state[seat]["version"],
                               "msg_id": f"d{seat}", "action": "pass"})
        state[0], state[1] = next_state(socks[0]), next_state(socks[1])
    raise AssertionError("the declaration round did not end")


def _a_move(msg: dict[str, Any]) -> str:
    return next(x["text"] for x in msg["legal"] if x["verb"] == "move")


def test_a_move_out_of_turn_is_the_movers_alone(database_url: str) -> None:
    with make_client(database_url, call_seconds=30.0) as client:
        game_id, tokens = create_table(client, seat1="human")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as a, \
                client.websocket_connect(ws_path(game_id, tokens[1])) as b:
            socks = {0: a, 1: b}
            state = {0: playing_state(a), 1: playing_state(b)}
            b.send_json({"type": "always_ask", "on": True})  # asked on every discard
            while not state[1].get("always_ask"):
                state[1] = next_state(b)
            _to_play(socks, state)
            east, west = state[0], state[1]
            assert east["view"]["current"] == 0 and west["view"]["verbs"] == ["move"]
            # West arranges while East plays: West hears of it, East hears nothing
            b.send_json({"type": "action", "version": west["version"], "msg_id": "m1",
                         "action": _a_move(west)})
            moved = next_state(b)
            assert moved["version"] == west["version"] + 1
            assert moved["view"]["hand"] != west["view"]["hand"]
            assert any("move" in line["text"] for line in moved["log"])  # its own log says so
            # East's discard, chosen at the version East was shown, is not stale
            discard = next(x["text"] for x in east["legal"] if x["verb"] == "discard")
            a.send_json({"type": "action", "version": east["version"], "msg_id": "x",
                         "action": discard})
            first = next_state(a)  # the first state East gets is the window it opened
            assert first["view"]["phase"] == "window"
            assert all("moves" not in line["text"] for line in first["log"])
            window = next_state(b)
            while window["view"]["phase"] != "window":
                window = next_state(b)
            assert 0 < window["deadline_ms"] <= 30_000
            # a move in the window answers nothing and leaves the call timer running
            b.send_json({"type": "action", "version": window["version"], "msg_id": "m2",
                         "action": _a_move(window)})
            again = next_state(b)
            assert again["view"]["phase"] == "window" and again["view"]["to_act"] == [1]
            assert again["deadline_ms"] <= window["deadline_ms"]
            b.send_json({"type": "action", "version": again["version"], "msg_id": "p",
                         "action": "pass"})
            after = next_state(b)
            assert after["view"]["phase"] == "turn" and after["view"]["current"] == 1
