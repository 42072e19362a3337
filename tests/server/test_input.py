"""Bad input of every kind gets a clear error and changes nothing: refused whole, never cut
to fit, never a server traceback (docs/security.md)."""

from __future__ import annotations

import random
from typing import Any

from tests.server.drive import Players
from tests.server.helpers import create_table, make_client, next_error, next_state, ws_path
from twinrack.card.loader import MAX_WAYS_PER_CARD, MAX_WAYS_PER_LINE

HEAVY_LINE = 'pattern = "XX0a YY0b XX0c YY0a NN EE WW"\nsuits = "any"\n'  # 864 ways


def upload(client: Any, source: str) -> Any:
    return client.post("/tables", data={"name": "Ann", "variant": "siamese", "players": "2",
                                        "seat1": "random", "card_choice": "upload"},
                       files={"card_file": ("mine.toml", source.encode(), "text/plain")})


def heavy_card(lines: int) -> str:
    hands = "".join(f'\n[[hand]]\nsection = "S"\n{HEAVY_LINE}value = 25\n'
                    for _ in range(lines))
    return f'name = "Heavy"\n{hands}'


def test_a_card_over_the_budget_is_refused_at_its_line(database_url: str) -> None:
    """A small card of costly lines used to freeze the whole server while it compiled."""
    with make_client(database_url) as client:
        r = upload(client, heavy_card(4))
        assert r.status_code == 400
        assert (f"mine.toml:23:12: with this line the card makes 3,456 ways; a card may make "
                f"at most {MAX_WAYS_PER_CARD:,}") in r.text
        wide = 'name = "Wide"\n\n[[hand]]\nsection = "S"\npattern = "X0a Y0b X1c Y1a X0b ' \
               'Y0c XX1a YY1b FFF N"\nsuits = "any"\nvalue = 25\n'
        r = upload(client, wide)
        assert r.status_code == 400
        assert "mine.toml:5:12: this line makes 1,365 ways; a line may make at most " \
               f"{MAX_WAYS_PER_LINE:,}" in r.text
        ok = upload(client, heavy_card(3))  # 2,592 ways: within the budget, and it plays
        assert ok.status_code == 200


def test_deep_nesting_and_huge_numbers_in_a_card_are_refused(database_url: str) -> None:
    with make_client(database_url) as client:
        deep = 'name = "x"\nk = ' + "[" * 5000 + "]" * 5000 + "\n"
        r = upload(client, deep)
        assert r.status_code == 400
        assert "mine.toml:2:37: not valid here: arrays or tables nested more than 32 deep" \
            in r.text
        huge = ('name = "x"\n\n[[hand]]\nsection = "A"\npattern = "FF 1111a 2222a 3333b"\n'
                'value = 99999999999999999999999\n')
        r = upload(client, huge)
        assert r.status_code == 400
        assert "mine.toml:6:9: value must be at most 1,000" in r.text


def test_binary_frames_and_deep_json_get_errors_and_the_socket_stays(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            next_state(ws)
            ws.send_bytes(b"\x00\x01binary")
            assert next_error(ws) == {"type": "error", "code": "bad_message", "msg_id": None,
                                      "message": "messages are JSON text, not binary frames"}
            ws.send_text("[" * 100_000 + "]" * 100_000)
            assert next_error(ws)["code"] == "message_too_large"
            ws.send_text("[" * 2000 + "]" * 2000)  # short, but deeper than a parser recurses
            assert next_error(ws)["code"] == "bad_message"
            ws.send_json({"type": "ping"})  # still connected and answering
            while ws.receive_json()["type"] != "pong":
                pass


def test_long_actions_and_message_ids_are_refused_never_cut(database_url: str) -> None:
    with make_client(database_url) as client:
        players = Players.at_new_table(client)
        with players:
            seat = players.states[0]["view"]["to_act"][0]
            version = players.version
            ws = players.socks[seat]
            pass_ = [x["text"] for x in players.states[seat]["legal"]
                     if x["verb"] == "pass"]
            text = (pass_[0] if pass_ else "pass") + " " * 400 + "junk"
            ws.send_json({"type": "action", "version": version, "msg_id": "a",
                          "action": text})
            err, _ = players.reply(seat, "a")
            assert err["code"] == "too_long"
            long_a, long_b = "m" * 64 + "a", "m" * 64 + "b"
            for long_id in (long_a, long_b):
                ws.send_json({"type": "action", "version": version, "msg_id": long_id,
                              "action": "pass"})
                assert next_error(ws)["code"] == "too_long"
            table = client.app.state.hub.tables[players.game_id]
            assert table.state.version == version  # nothing was applied


def test_duplicates_are_per_seat_and_after_the_seat_check(database_url: str) -> None:
    """A spectator sending a seat's msg_id is told it is a spectator, not "duplicate";
    another seat may use the same msg_id for its own action."""
    with make_client(database_url) as client:
        players = Players.at_new_table(client)
        with players, client.websocket_connect(ws_path(players.game_id)) as spectator:
            next_state(spectator)
            rng = random.Random(4)
            seat = players.states[0]["view"]["to_act"][0]
            legal = [x["text"] for x in players.states[seat]["legal"]
                     if x["verb"] != "move"]
            players.send(seat, rng.choice(legal), "same")
            ack, _ = players.reply(seat, "same")
            assert ack["type"] == "ack" and "duplicate" not in ack
            players.sync(ack["version"])
            spectator.send_json({"type": "action", "version": ack["version"], "msg_id": "same",
                                 "action": "pass"})
            assert next_error(spectator)["code"] == "spectator"
            other = players.states[0]["view"]["to_act"][0]
            if other != seat:
                legal = [x["text"] for x in players.states[other]["legal"]
                         if x["verb"] != "move"]
                players.send(other, legal[0], "same")
                ack2, _ = players.reply(other, "same")
                assert ack2["type"] == "ack" and "duplicate" not in ack2


def test_every_answer_carries_the_security_headers(database_url: str) -> None:
    with make_client(database_url) as client:
        for path in ("/", "/history", "/healthz", "/static/js/table.js", "/t/nothing"):
            r = client.get(path)
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
            assert "script-src 'self';" in r.headers["content-security-policy"]
        client.cookies.clear()
        cookie = client.get("/").headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
        client.cookies.clear()
        cookie = client.get("https://testserver/").headers["set-cookie"]
        assert "Secure" in cookie  # served over HTTPS


def test_table_creation_is_rate_limited_per_client(database_url: str) -> None:
    with make_client(database_url, rate_burst=3, rate_per_minute=1) as client:
        codes = [client.post("/tables", data={"name": "A", "variant": "siamese",
                                              "players": "2", "seat1": "random"}).status_code
                 for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        assert "too many new tables" in client.post("/tables", data={"name": "A"}).text


def test_finished_tables_leave_memory(database_url: str) -> None:
    """Nothing used to leave the hub: every finished game stayed loaded for ever."""
    with make_client(database_url, max_idle_tables=2) as client:
        hub = client.app.state.hub
        ids = []
        for seed in range(6):
            players = Players.at_new_table(client)
            with players:
                rng = random.Random(seed)
                while not players.over:
                    players.step(rng)
            ids.append(players.game_id)
            assert len(hub.tables) <= 3  # two idle finished tables at most, and this one
        for game_id in ids:  # asked for again, each is loaded from the database
            rec = client.get(f"/api/games/{game_id}/record").json()
            assert rec["seed"] is not None
            assert len(hub.tables) <= 3
