"""The table protocol over a real WebSocket (docs/protocol.md)."""

from __future__ import annotations

import random

import pytest

from tests.server.helpers import (
    create_table,
    make_client,
    next_error,
    next_state,
    play_to_end,
)
from twinrack.bots.hints import hints
from twinrack.engine import RuleSet, apply, new_game, parse_action, view
from twinrack.engine.events import parse_event


def test_a_game_against_a_bot_runs_to_the_end_and_verifies(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(f"/ws/{game_id}?token={tokens[0]}") as ws:
            seen: list[dict] = []
            final = play_to_end(ws, random.Random(7), seen)
        record = client.get(f"/api/games/{game_id}/record").json()
        assert final["score"]["totals"] == record["score"]["totals"]
        assert record["seed"] is not None
        verdict = client.get(f"/api/games/{game_id}/verify").json()
        assert verdict == {"ok": True, "problem": "", "commitment": record["commitment"],
                           "seed": record["seed"]}
        frames = client.get(f"/api/games/{game_id}/replay").json()["frames"]
        assert len(frames) == len(record["actions"]) + 1
        assert frames[-1]["views"][0]["phase"] == "over"


def test_duplicate_message_is_acknowledged_and_not_applied_twice(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(f"/ws/{game_id}?token={tokens[0]}") as ws:
            state = next_state(ws)
            while not state["legal"]:
                state = next_state(ws)
            action = state["legal"][0]["action"]
            msg = {"type": "action", "version": state["version"], "msg_id": "same",
                   "action": action}
            ws.send_json(msg)
            replies = []
            while True:
                m = ws.receive_json()
                replies.append(m)
                if m["type"] == "ack":
                    break
            assert m == {"type": "ack", "msg_id": "same", "version": state["version"] + 1}
            ws.send_json(msg)
            while True:
                m = ws.receive_json()
                if m["type"] == "ack":
                    break
            assert m == {"type": "ack", "msg_id": "same", "version": state["version"] + 1,
                         "duplicate": True}
            # the server's own game holds the action once
            actions = [str(a) for a in client.app.state.hub.tables[game_id].state.actions]
            assert actions.count(f"0: {action}") == 1


def test_stale_command_is_refused_with_a_resync(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(f"/ws/{game_id}?token={tokens[0]}") as ws:
            state = next_state(ws)
            ws.send_json({"type": "action", "version": state["version"] - 1, "msg_id": "old",
                          "action": "pass"})
            assert next_error(ws)["code"] == "stale_version"
            resync = ws.receive_json()
            assert resync["type"] == "state" and resync["version"] >= state["version"]


def test_illegal_and_malformed_commands_get_clear_errors(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(f"/ws/{game_id}?token={tokens[0]}") as ws:
            state = next_state(ws)
            ws.send_text("not json")
            assert next_error(ws)["code"] == "bad_message"
            ws.send_json({"type": "action", "version": state["version"], "msg_id": "x",
                          "action": "discard QQ"})
            err = next_error(ws)
            assert err["code"] in ("unknown_tile", "bad_action", "stale_version")
            if err["code"] != "stale_version":
                assert "QQ" in err["message"]
            ws.send_json({"type": "nonsense"})
            assert next_error(ws)["code"] == "bad_message"


def test_spectator_sees_no_hand_and_cannot_act(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, _ = create_table(client)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state = next_state(ws)
            assert state["seat"] is None and state["view"]["hand"] is None
            assert state["legal"] == []
            ws.send_json({"type": "action", "version": state["version"], "msg_id": "s",
                          "action": "pass"})
            assert next_error(ws)["code"] == "spectator"


def test_a_wrong_token_is_refused(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, _ = create_table(client)
        assert client.get(f"/t/{game_id}?token=nope").status_code == 403
        with client.websocket_connect(f"/ws/{game_id}?token=nope") as ws:
            assert ws.receive_json()["code"] == "bad_token"
        assert client.get("/t/doesnotexist").status_code == 404


def test_a_bad_card_upload_shows_line_and_column(database_url: str) -> None:
    with make_client(database_url) as client:
        bad = (b'name = "x"\n\n[[hand]]\nsection = "A"\n'
               b'pattern = "FF 1111a 2222a 333b"\nvalue = 25\n')
        r = client.post("/tables", data={"name": "Ann", "variant": "siamese", "players": "2",
                                         "seat1": "random", "card_choice": "upload"},
                        files={"card_file": ("mine.toml", bad, "text/plain")})
        assert r.status_code == 400
        assert "mine.toml:5:12: pattern has 13 tiles, a hand needs 14" in r.text


def test_two_people_play_by_invite_link(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, seat1="human")
        assert set(tokens) == {0, 1}
        rng = random.Random(3)
        with client.websocket_connect(f"/ws/{game_id}?token={tokens[0]}") as a, \
                client.websocket_connect(f"/ws/{game_id}?token={tokens[1]}") as b:
            socks = {0: a, 1: b}
            states = {0: next_state(a), 1: next_state(b)}
            for _ in range(3000):
                to_act = states[0]["view"]["to_act"]
                if states[0]["view"]["phase"] == "over":
                    break
                seat = to_act[0]
                st = states[seat]
                if st["version"] != states[1 - seat]["version"] or not st["legal"]:
                    # catch up with the newest state on both sockets
                    for s in (0, 1):
                        while states[s]["version"] < max(states[0]["version"],
                                                         states[1]["version"]):
                            states[s] = next_state(socks[s])
                    continue
                legal = [x["action"] for x in st["legal"] if not x["action"].startswith("move")]
                socks[seat].send_json({"type": "action", "version": st["version"],
                                       "msg_id": f"{seat}-{st['version']}",
                                       "action": rng.choice(legal)})
                for s in (0, 1):
                    states[s] = next_state(socks[s])
            assert states[0]["view"]["phase"] == "over"
            assert states[0]["score"] == states[1]["score"]


@pytest.mark.parametrize(("variant", "players", "seed"), [
    ("siamese", "2", 11), ("royale", "3", 12), ("royale", "4", 13), ("imperial", "2", 14)])
def test_every_message_is_exactly_the_engine_view_of_that_seat(
        database_url: str, variant: str, players: str, seed: int) -> None:
    """No hidden tile leaks, over random games of every variant: each state message carries
    the engine's view for its seat at that version (and the engine's views are tested to
    hold nothing hidden), and each log line is the event as that seat may see it."""
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, variant=variant, players=players,
                                       seat1="random", seat2="random", seat3="random",
                                       hints="on")
        player: list[dict] = []
        watcher: list[dict] = []
        with client.websocket_connect(f"/ws/{game_id}") as spectator, \
                client.websocket_connect(f"/ws/{game_id}?token={tokens[0]}") as ws:
            ws.send_json({"type": "hints", "on": True})
            play_to_end(ws, random.Random(seed), player)
            while True:
                m = spectator.receive_json()
                watcher.append(m)
                if m["type"] == "state" and m["view"]["phase"] == "over":
                    break
        record = client.get(f"/api/games/{game_id}/record").json()
    card_source = record["card"]["source"]
    from twinrack.card import parse_card

    card = parse_card(card_source)
    game = new_game(RuleSet.from_dict(record["rules"]), seed=bytes.fromhex(record["seed"]),
                    card=card)
    views: dict[int, dict] = {game.version: {0: view(game, 0).to_dict(),
                                             None: view(game, None).to_dict()}}
    seat_views = {game.version: view(game, 0)}
    for text in record["actions"]:
        apply(game, parse_action(text))
        views[game.version] = {0: view(game, 0).to_dict(), None: view(game, None).to_dict()}
        seat_views[game.version] = view(game, 0)
    all_events = record["events"]
    checked = 0
    for seat, messages in ((0, player), (None, watcher)):
        for m in messages:
            if m["type"] != "state":
                continue
            assert m["view"] == views[m["version"]][seat]
            for k, line in enumerate(m["log"]):
                truth = parse_event(all_events[m["log_start"] + k])
                assert line == str(truth.seen_by(seat))
            if m["view"]["phase"] != "over":
                assert m["view"]["seed"] is None and m["score"] is None
            if m.get("hints"):
                assert seat == 0  # hints go only to their own seat, from its own view
            checked += 1
    assert checked > 50
    assert not any(m["type"] == "hints" for m in watcher)
    hinted = [m for m in player if m["type"] == "hints"]
    assert hinted
    for m in hinted:  # computed in the worker pool from that seat's own view
        assert m["hints"] == hints(seat_views[m["version"]], card).to_dict()


def test_my_games_lead_back_to_my_seat(database_url: str) -> None:
    with make_client(database_url) as client:
        client.get("/")  # the browser gets its id cookie
        game_id, tokens = create_table(client)
        page = client.get(f"/t/{game_id}?token={tokens[0]}")
        assert f'data-token="{tokens[0]}"' in page.text
        history = client.get("/history").text
        assert f'href="/t/{game_id}"' in history
        again = client.get(f"/t/{game_id}")  # no token: the seat cookie brings it back
        assert f'data-token="{tokens[0]}"' in again.text
        client.cookies.clear()
        stranger = client.get(f"/t/{game_id}")
        assert 'data-token=""' in stranger.text
