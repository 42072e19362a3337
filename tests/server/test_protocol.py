"""The table protocol over a real WebSocket (docs/protocol.md)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tests.server.conftest import database_urls, on_services
from tests.server.helpers import (
    action_of,
    create_table,
    make_client,
    next_error,
    next_state,
    play_to_end,
    playing_state,
    ws_path,
)
from twinrack.bots.hints import hints
from twinrack.engine import (
    Action,
    Claim,
    GameState,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    parse_action,
    view,
)
from twinrack.engine.advice import kills_rack
from twinrack.engine.events import parse_event
from twinrack.narration import LABELS, narrate_log, tone
from twinrack.server.table import wire
from twinrack.server.table.wire import PROTOCOL, claim_advice


def test_a_game_against_a_bot_runs_to_the_end_and_verifies(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
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
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            state = next_state(ws)
            while not state["legal"]:
                state = next_state(ws)
            action = state["legal"][0]["text"]
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
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            state = next_state(ws)
            ws.send_json({"type": "action", "version": state["version"] - 1, "msg_id": "old",
                          "action": "pass"})
            assert next_error(ws)["code"] == "stale_version"
            resync = ws.receive_json()
            assert resync["type"] == "state" and resync["version"] >= state["version"]


def test_illegal_and_malformed_commands_get_clear_errors(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            state = next_state(ws)
            ws.send_text("not json")
            assert next_error(ws)["code"] == "bad_message"
            ws.send_json({"type": "action", "version": state["version"], "msg_id": "x",
                          "action": "discard QQ"})
            err = next_error(ws)  # East's turn: nothing moves while East thinks
            assert err["code"] == "bad_action" and "QQ" in err["message"]
            ws.send_json({"type": "nonsense"})
            assert next_error(ws)["code"] == "bad_message"


def test_spectator_sees_no_hand_and_cannot_act(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, _ = create_table(client)
        with client.websocket_connect(ws_path(game_id)) as ws:
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
        with client.websocket_connect(ws_path(game_id, "nope")) as ws:
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
        with client.websocket_connect(ws_path(game_id, tokens[0])) as a, \
                client.websocket_connect(ws_path(game_id, tokens[1])) as b:
            socks = {0: a, 1: b}
            states = {0: playing_state(a), 1: playing_state(b)}
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
                legal = [x["text"] for x in st["legal"] if x["verb"] != "move"]
                socks[seat].send_json({"type": "action", "version": st["version"],
                                       "msg_id": f"{seat}-{st['version']}",
                                       "action": rng.choice(legal)})
                for s in (0, 1):
                    states[s] = next_state(socks[s])
            assert states[0]["view"]["phase"] == "over"
            scores = [{k: v for k, v in states[s]["score"].items()
                       if k not in ("ending", "verdict")} for s in (0, 1)]
            assert scores[0] == scores[1]  # the same score, its ending told to each seat
            # the verdict speaks to each seat of its own result: won or lost, by how much
            totals = states[0]["score"]["totals"]
            for s in (0, 1):
                mine, theirs = totals[s], totals[1 - s]
                said = (f"A draw, {mine:+d} each:" if mine == theirs else
                        f"You {'won' if mine > theirs else 'lost'} by {abs(mine - theirs)}, "
                        f"{mine:+d} to {theirs:+d}:")
                assert states[s]["score"]["verdict"].startswith(said)


@pytest.mark.parametrize(("database_url", "variant", "players", "seed"), on_services(
    database_urls(),
    [("siamese", "2", 11), ("royale", "3", 12), ("royale", "4", 13), ("imperial", "2", 14)],
    also={("siamese", "2", 11), ("royale", "4", 13)}), indirect=["database_url"])
def test_every_message_is_exactly_the_engine_view_of_that_seat(
        database_url: str, variant: str, players: str, seed: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No hidden tile leaks, over random games of every variant: each state message carries
    the engine's view for its seat at that version (and the engine's views are tested to
    hold nothing hidden), its legal actions as objects that say exactly those actions, and
    the log as that seat may see it, narrated for it. With more than two racks, what a
    claim would do is worked out in the worker pool, never by the server's own process
    (it may take a tenth of a second there)."""

    here: list[int] = []  # the versions the server's own process worked advice out at

    def counted(game: GameState, action: Claim) -> dict[str, Any]:
        here.append(game.version)
        return claim_advice(game, action)

    monkeypatch.setattr(wire, "claim_advice", counted)
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, variant=variant, players=players,
                                       seat1="random", seat2="random", seat3="random",
                                       hints="on")
        player: list[dict] = []
        watcher: list[dict] = []
        with client.websocket_connect(ws_path(game_id)) as spectator, \
                client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            ws.send_json({"type": "hints", "on": True})
            play_to_end(ws, random.Random(seed), player, hints=True)
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
    views: dict[int, dict] = {}
    seat_views = {}
    legal: dict[int, list[tuple[Action, bool]]] = {}
    advice: dict[int, list[dict]] = {}

    def remember() -> None:
        advice[game.version] = [claim_advice(game, a) for a in legal_actions(game, 0)
                                if isinstance(a, Claim)]
        views[game.version] = {0: view(game, 0).to_dict(), None: view(game, None).to_dict()}
        seat_views[game.version] = view(game, 0)
        legal[game.version] = [(a, kills_rack(game, a)) for a in legal_actions(game, 0)]

    remember()
    for text in record["actions"]:
        apply(game, parse_action(text))
        remember()
    names = [p["name"] for p in player[0]["players"]]
    events = [parse_event(e) for e in record["events"]]
    checked = 0
    for seat, messages in ((0, player), (None, watcher)):
        shown = ["You" if s == seat else n for s, n in enumerate(names)]
        seen = [e.seen_by(seat) for e in events]
        log = [{"text": text, "tone": tone(e)}
               for text, e in zip(narrate_log(seen, shown, words=LABELS), seen, strict=True)]
        for m in messages:
            if m["type"] != "state":
                continue
            assert set(m) == STATE_FIELDS and m["protocol"] == PROTOCOL
            assert m["view"] == views[m["version"]][seat]
            sent = [(action_of(x, 0), x.get("kills_rack", False)) for x in m["legal"]]
            assert all(("kills_rack" in x) == (x["verb"] == "expose") for x in m["legal"])
            assert sent == (legal[m["version"]] if seat == 0 else [])
            assert [x["text"] for x in m["legal"]] == [a.body() for a, _ in sent]
            # what each claim would do is the engine's answer for that seat at that version
            assert [x["advice"] for x in m["legal"] if x["verb"] == "claim"] == (
                advice[m["version"]] if seat == 0 else [])
            assert m["log"] == log[m["log_start"]:m["log_start"] + len(m["log"])]
            if m["view"]["phase"] != "over":
                assert m["view"]["seed"] is None and m["score"] is None
            if m.get("hints"):
                assert seat == 0  # hints go only to their own seat, from its own view
            checked += 1
        assert m["log_start"] + len(m["log"]) == len(events)  # the whole log, in the end
    assert checked > 50
    assert not any(m["type"] == "hints" for m in watcher)
    if variant == "imperial":  # four racks: the pool's work (LiveTable._prepare_legal)
        assert here == []
    hinted = [m for m in player if m["type"] == "hints"]
    assert hinted
    for m in hinted:  # computed in the worker pool from that seat's own view and actions
        mine = [a for a, _ in legal[m["version"]]]
        assert m["hints"] == hints(seat_views[m["version"]], card, legal=mine,
                                   budget_ms=math.inf).to_dict()


STATE_FIELDS = {"type", "protocol", "version", "seat", "view", "legal", "log", "log_start",
                "players", "deadline_ms", "hints", "paused", "score", "call_seconds",
                "record_url", "always_ask", "rematch", "auto_pass", "claim_check",
                "waiting", "host", "grace_seconds", "turn_seconds"}


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
