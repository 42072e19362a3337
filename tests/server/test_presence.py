"""Tables nobody can block (issue 26, server/table/presence.py): the waiting room, the computer
playing an absent seat after the grace period or at once when the host hands it over, the
player taking the seat back, the turn timer, and a table nobody is at standing still."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.server.helpers import create_table, make_client, next_state, ws_path
from twinrack.server.models import ActionRow, SeatRow


def stored_rows(client: TestClient, game_id: str) -> list[tuple[int, str, str]]:
    """The stored actions of a game: (seat, action, who made it)."""
    db = client.app.state.hub.db  # type: ignore[attr-defined]
    with db.reading() as s:
        rows = s.execute(select(ActionRow.seat, ActionRow.action, ActionRow.by)
                         .where(ActionRow.game_id == game_id)
                         .order_by(ActionRow.seq)).all()
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]


def away_flags(client: TestClient, game_id: str) -> list[bool]:
    db = client.app.state.hub.db  # type: ignore[attr-defined]
    with db.reading() as s:
        return [bool(a) for a in s.scalars(select(SeatRow.away).where(
            SeatRow.game_id == game_id).order_by(SeatRow.seat))]


def until(ws: Any, test: Any, limit: int = 400) -> dict[str, Any]:
    """The first message (of at most ``limit``) for which ``test`` holds."""
    for _ in range(limit):
        msg = ws.receive_json()
        if test(msg):
            return dict(msg)
    raise AssertionError("no such message came")


def players_of(msg: dict[str, Any]) -> list[dict[str, Any]] | None:
    return msg.get("players") if msg["type"] in ("state", "players") else None


def play_seat(ws: Any, seat: int, rng: random.Random, done: Any, steps: int = 600) -> None:
    """Random decisions (no moves between racks) for ``seat`` until ``done()``."""
    ws.send_json({"type": "hints", "on": False})  # answered with the state as it is now
    for _ in range(steps):
        if done():
            return
        msg = ws.receive_json()
        if msg["type"] != "state" or msg["view"]["phase"] == "over":
            if msg["type"] == "state":
                return
            continue
        legal = [x["text"] for x in msg["legal"] if x["verb"] != "move"]
        if seat in msg["view"]["to_act"] and legal:
            ws.send_json({"type": "action", "version": msg["version"],
                          "msg_id": f"p{msg['version']}", "action": rng.choice(legal)})
    raise AssertionError("played too long")


def test_a_table_with_a_friend_waits_until_the_host_starts_it(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, seat1="human")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ann:
            first = next_state(ann)
            assert first["waiting"] is True and first["host"] is True
            assert first["legal"] == [] and first["hints"] is None
            # nothing is played: no move, and no countdown for the friend not yet here
            ann.send_json({"type": "action", "version": first["version"], "msg_id": "a",
                           "action": "pass"})
            err = until(ann, lambda m: m["type"] == "error")
            assert (err["code"], err["msg_id"]) == ("waiting", "a")
            assert first["players"][1]["takeover_ms"] is None
            with client.websocket_connect(ws_path(game_id, tokens[1])) as bob:
                # the friend is not the host: it cannot start the table for everyone...
                bob.send_json({"type": "start", "msg_id": "s"})
                err = until(bob, lambda m: m["type"] == "error")
                assert (err["code"], err["msg_id"]) == ("not_host", "s")
                # ...but with everyone at the table, play starts of itself
                until(ann, lambda m: m["type"] == "state" and not m["waiting"])
        assert client.portal.call(client.app.state.hub.game_status, game_id) == (
            "playing", False)  # leaving the waiting room is stored


def test_a_friend_who_never_comes_is_played_by_the_computer_then_takes_the_seat_back(
        database_url: str) -> None:
    with make_client(database_url, grace_seconds=0.6) as client:
        game_id, tokens = create_table(client, seat1="human", call_seconds="3")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ann:
            assert next_state(ann)["waiting"] is True
            ann.send_json({"type": "start", "msg_id": "go"})
            started = until(ann, lambda m: m["type"] == "state" and not m["waiting"])
            # every page shows the countdown before the computer plays the absent seat
            friend = started["players"][1]
            assert friend["connected"] is False and not friend["bot_playing"]
            assert 0 < friend["takeover_ms"] <= 600
            until(ann, lambda m: (p := players_of(m)) is not None and p[1]["bot_playing"])
            assert away_flags(client, game_id) == [False, True]  # stored: it outlives a worker
            play_seat(ann, 0, random.Random(4), lambda: sum(
                seat == 1 and by == "bot" for seat, _, by in stored_rows(client, game_id)) >= 3)
            # the friend comes: the seat is theirs again at once
            with client.websocket_connect(ws_path(game_id, tokens[1])) as bob:
                back = next_state(bob)
                assert back["seat"] == 1 and back["players"][1]["connected"] is True
                assert back["players"][1]["bot_playing"] is False
                deadline = time.monotonic() + 10
                while away_flags(client, game_id) != [False, False]:
                    assert time.monotonic() < deadline, "the seat stayed the computer's"
                    time.sleep(0.05)


def test_the_host_hands_an_absent_seat_to_the_computer_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twinrack.db'}"
    with make_client(url) as client:  # the grace period is a minute
        game_id, tokens = create_table(client, variant="royale", players="3",
                                       seat1="human", seat2="human")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ann, \
                client.websocket_connect(ws_path(game_id, tokens[1])) as bob:
            next_state(ann)
            # only the host may, and only for a seat whose player is not at the table
            bob.send_json({"type": "hand_over", "seat": 2, "msg_id": "b"})
            assert until(bob, lambda m: m["type"] == "error")["code"] == "not_host"
            ann.send_json({"type": "hand_over", "seat": 1, "msg_id": "c"})
            assert until(ann, lambda m: m["type"] == "error")["code"] == "not_absent"
            ann.send_json({"type": "hand_over", "seat": "2", "msg_id": "d"})
            assert until(ann, lambda m: m["type"] == "error")["code"] == "bad_message"
            ann.send_json({"type": "hand_over", "seat": 2, "msg_id": "e"})
            msg = until(ann, lambda m: (p := players_of(m)) is not None and p[2]["bot_playing"])
            assert msg["players"][2]["takeover_ms"] is None
            # every person's seat is now taken or handed over: the waiting room is left
            until(ann, lambda m: m["type"] == "state" and not m["waiting"])
        assert away_flags(client, game_id) == [False, False, True]
    with make_client(url) as client:  # a new process: the table is rebuilt from the rows
        hub = client.app.state.hub  # type: ignore[attr-defined]
        rebuilt = client.portal.call(hub.get, game_id)
        assert [s.away for s in rebuilt.seats] == [False, False, True]
        assert rebuilt.waiting is False


def test_a_table_nobody_is_at_stands_still(database_url: str) -> None:
    """Before issue 26 the computer played the seat of a player who left, against the
    computer, to the end of the game, for nobody."""
    with make_client(database_url, grace_seconds=0.2) as client:
        game_id, tokens = create_table(client)  # against the computer
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            next_state(ws)
        time.sleep(0.5)
        played = len(stored_rows(client, game_id))
        time.sleep(1.5)  # well past the grace period: nothing more is played
        assert len(stored_rows(client, game_id)) == played
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            back = next_state(ws)  # the game is where it was left, and plays on
            assert back["view"]["phase"] != "over"
            assert back["players"][0]["bot_playing"] is False


def test_the_turn_timer_makes_the_move_of_a_player_who_does_not(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, turn_seconds="3")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            st = next_state(ws)
            assert st["turn_seconds"] == 3.0
            started = time.monotonic()
            # whatever East must do (declare or pass, discard), nobody clicks
            msg = until(ws, lambda m: (p := players_of(m)) is not None
                         and p[0]["turn_ms"] is not None)
            assert 0 < msg["players"][0]["turn_ms"] <= 3000
            deadline = time.monotonic() + 30
            while not any(seat == 0 and by == "timer" for seat, _, by in
                          stored_rows(client, game_id)):
                assert time.monotonic() < deadline, "the turn timer did not play"
                time.sleep(0.1)
            assert time.monotonic() - started >= 2.9
            # the player is still at the table: the computer made that one move only
            assert client.app.state.hub.tables[game_id].seats[0].away is False


def test_three_turns_in_a_row_run_out_and_the_computer_takes_the_seat(
        database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, turn_seconds="3")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            next_state(ws)
            msg = until(ws, lambda m: (p := players_of(m)) is not None
                        and p[0]["bot_playing"], limit=2000)
            rows = stored_rows(client, game_id)
            timed = [r for r in rows if r[0] == 0 and r[2] == "timer"]
            # at least the three turns the timer played (a claim window the call timer passed
            # for the seat on the way counts as timed too); nothing by the person
            assert len(timed) >= 3 and not [r for r in rows if r[0] == 0 and r[2] == "human"]
            assert away_flags(client, game_id)[0] is True
            assert msg["players"][0]["connected"] is True  # the page is open all along
            deadline = time.monotonic() + 30
            while not any(seat == 0 and by == "bot" for seat, _, by in
                          stored_rows(client, game_id)):
                assert time.monotonic() < deadline, "the computer did not play the seat"
                time.sleep(0.1)
