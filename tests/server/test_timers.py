"""The call timer and the grace period of a dropped player."""

from __future__ import annotations

import random
import time

from tests.server.helpers import create_table, make_client, next_state, playing_state, ws_path
from tests.server.test_presence import play_seat, players_of, stored_rows, until


def test_unanswered_call_is_passed_when_the_timer_runs_out(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, seat1="human", call_seconds="3")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as a, \
                client.websocket_connect(ws_path(game_id, tokens[1])) as b:
            socks = {0: a, 1: b}
            state = {0: playing_state(a), 1: playing_state(b)}
            # seat 1 is asked on every discard, even one it cannot claim (else the table
            # would pass for it at once: test_autopass.py)
            b.send_json({"type": "always_ask", "on": True})
            while not state[1].get("always_ask"):
                state[1] = next_state(b)
            # answer the declaration round, then let East discard
            for _ in range(10):
                if state[0]["view"]["phase"] == "turn":
                    break
                seat = state[0]["view"]["to_act"][0]
                st = state[seat]
                while st["version"] < max(state[0]["version"], state[1]["version"]):
                    st = state[seat] = next_state(socks[seat])
                if st["view"]["phase"] == "turn":
                    break
                socks[seat].send_json({"type": "action", "version": st["version"],
                                       "msg_id": f"d{seat}", "action": "pass"})
                state = {0: next_state(a), 1: next_state(b)}
            east = state[0]
            assert east["view"]["phase"] == "turn" and east["view"]["current"] == 0
            discard = next(x["text"] for x in east["legal"] if x["verb"] == "discard")
            a.send_json({"type": "action", "version": east["version"], "msg_id": "x",
                         "action": discard})
            window = next_state(b)
            assert window["view"]["phase"] == "window"
            assert 0 < window["deadline_ms"] <= 3000
            started = time.monotonic()
            moved = next_state(b)  # seat 1 says nothing: the timer passes for it
            assert time.monotonic() - started >= 2.5
            assert moved["view"]["phase"] == "turn" and moved["view"]["current"] == 1


def test_a_bot_plays_for_a_dropped_player_after_the_grace_period(database_url: str) -> None:
    """A player who joined and left (issue 26: one who never came, and a table nobody is
    at, are in test_presence.py)."""
    with make_client(database_url, grace_seconds=0.5) as client:
        game_id, tokens = create_table(client, seat1="human", call_seconds="3")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ann:
            with client.websocket_connect(ws_path(game_id, tokens[1])) as bob:
                playing_state(bob)
            # Bob left: the countdown, then the computer plays his seat while Ann plays on
            until(ann, lambda m: (p := players_of(m)) is not None
                   and p[1]["takeover_ms"] is not None)
            until(ann, lambda m: (p := players_of(m)) is not None and p[1]["bot_playing"])
            play_seat(ann, 0, random.Random(2), lambda: sum(
                seat == 1 and by == "bot" for seat, _, by in stored_rows(client, game_id)) >= 3)
