"""The table protocol's own pieces (docs/protocol.md): legal actions as objects, the
narrated log, the protocol version, and the rules' refusal passed on as it is."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.server.drive import Players
from tests.server.helpers import create_table, make_client, next_error
from twinrack.engine import (
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Pass,
    RuleSet,
    Undeclare,
    Withdraw,
    apply,
    new_game,
    parse_action,
)
from twinrack.server.table import wire
from twinrack.tiles import CANONICAL, parse_tiles, tile_index


def tiles(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_tiles(text)))


@pytest.mark.parametrize(("action", "kills", "sent"), [
    (Discard(0, tile_index("5B")), False,
     {"verb": "discard", "text": "discard 5B", "tile": "5B"}),
    (Pass(1), False, {"verb": "pass", "text": "pass"}),
    (Claim(1, "double"), False,
     {"verb": "claim", "text": "claim double", "kind": "double"}),
    (Expose(1, 1, tiles("6C 6C J")), True,
     {"verb": "expose", "text": "expose 2 6C 6C J", "rack": 1, "tiles": ["6C", "6C", "J"],
      "kills_rack": True}),
    (Expose(0, 0, tiles("5B 5B 5B")), False,
     {"verb": "expose", "text": "expose 1 5B 5B 5B", "rack": 0, "tiles": ["5B", "5B", "5B"],
      "kills_rack": False}),
    (Exchange(0, tile_index("6C"), 1, 1, 0), False,
     {"verb": "exchange", "text": "exchange 6C from 1:2:1", "tile": "6C", "owner": 1,
      "rack": 1, "index": 0}),
    (MahJongg(0, 0, tiles("F F 2B")), False,
     {"verb": "mahjongg", "text": "mahjongg 1 2B F F", "rack": 0, "tiles": ["2B", "F", "F"]}),
    (MahJongg(0, 1), False,
     {"verb": "mahjongg", "text": "mahjongg 2", "rack": 1, "tiles": []}),
    (Move(0, tile_index("N"), 1, 0), False,
     {"verb": "move", "text": "move N 2>1", "tile": "N", "from": 1, "to": 0}),
    (Declare(0, "Special-1", tiles("F N E")), False,
     {"verb": "declare", "text": "declare Special-1 N E F", "hand": "Special-1",
      "tiles": ["N", "E", "F"]}),
    (Undeclare(0), False, {"verb": "undeclare", "text": "undeclare"}),
    (Withdraw(1), False, {"verb": "withdraw", "text": "withdraw"}),
])
def test_a_legal_action_goes_out_as_an_object(action: object, kills: bool,
                                               sent: dict[str, object]) -> None:
    """Each verb with its own fields; only an exposure can kill its rack, and says so."""
    assert wire.action_object(action, kills) == sent  # type: ignore[arg-type]


def test_the_log_is_narrated_for_its_viewer_and_a_pass_after_the_deal_declares() -> None:
    game = new_game(RuleSet(), seed=5)
    for text in ("0: pass", "1: pass", "0: discard 8B", "1: pass"):
        apply(game, parse_action(text))
    names = ["Ann", "Bea"]
    tail = ["Ann declares no Atomic-style hand", "You declare no Atomic-style hand",
            "Ann picks a tile", "Ann discards 8 Bam", "  You pass", "You pick North wind"]
    log = wire.log_lines(game, 1, names)
    assert [x["text"] for x in log[4:]] == tail and len(log) == len(game.events)
    assert [x["tone"] for x in log[4:]] == ["quiet", "quiet", "quiet", "", "quiet", "quiet"]
    assert log[3]["text"].startswith("You are dealt 27: 2 Bam, 4 Bam, 4 Bam, 7 Bam")
    assert log[2]["text"] == "Ann is dealt 27 tiles"  # the other seat's deal, redacted first
    # a connection told the log up to event 5 gets the rest, narrated the same way
    assert [x["text"] for x in wire.log_lines(game, 1, names, 5)] == tail[1:]
    assert [x["text"] for x in wire.log_lines(game, None, names, 6)] == [
        "Ann picks a tile", "Ann discards 8 Bam", "  Bea passes", "Bea picks a tile"]


def test_a_client_of_another_protocol_is_told_to_load_the_page_again(
        database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client)
        for query in (f"?token={tokens[0]}", "?protocol=1", "?protocol=two"):
            with client.websocket_connect(f"/ws/{game_id}{query}") as ws:
                refusal = ws.receive_json()
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
            assert refusal["code"] == "protocol_version" and refusal["protocol"] == 2
            assert refusal["message"].endswith("and the server version 2: load the page again")
            assert closed.value.code == wire.CLOSE_PROTOCOL


def test_an_action_the_rules_refuse_gets_the_engines_own_code(database_url: str) -> None:
    with make_client(database_url) as client, Players.at_new_table(client) as table:
        # after the declarations (passed by the table for a seat that can only pass),
        # East alone is to act: the version stays put
        while table.states[0]["view"]["phase"] == "declare":
            table.step_with("pass")
        east = table.states[0]
        assert east["view"]["to_act"] == [0] and east["view"]["phase"] == "turn"
        held = set(" ".join(east["view"]["hand"]).split())
        missing = next(t for t in CANONICAL if t not in held)  # 37 kinds, 28 tiles at most
        table.send(0, f"discard {missing}", "no")
        err = next_error(table.socks[0])
        assert (err["code"], err["message"], err["msg_id"]) == (
            "tile_not_held", f"seat 0 holds no {missing}", "no")
        game = client.app.state.hub.tables[table.game_id].state
        assert game.version == east["version"]  # nothing applied


def test_the_score_says_how_the_game_ended_to_each_viewer() -> None:
    won = {"totals": [50, -50], "lines": [], "end_reason": "mahjongg", "winner": 0}
    names = ["Ann", "Bea"]
    assert wire.score_object(won, 0, names)["ending"] == \
        "You win with a Mah Jongg on every rack."
    assert wire.score_object(won, 1, names) == {
        **won, "ending": "Ann wins with a Mah Jongg on every rack.",
        "verdict": "You lost by 100, -50 to +50: Ann went Mah Jongg on every rack"}
    wall = {"totals": [0, 0], "lines": [], "end_reason": "wall", "winner": None}
    assert wire.score_object(wall, None, names)["ending"] == "The wall is spent."
