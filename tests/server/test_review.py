"""The post-game review route (GET /api/games/{id}/review?seat=N): refused during play and
for a seat not at the table, computed in the worker pool once the game is over (the same
review as twinrack.bots.review gives from the game's record), kept for the next viewer,
and a clear error when the job goes over its time limit."""

from __future__ import annotations

import json
import random

from tests.server.helpers import create_table, make_client, play_to_end, ws_path
from twinrack.bots.review import review
from twinrack.card import parse_card

#: small enough to keep the test fast: the master plays out two decisions, three games each
SEARCHED, SIMULATIONS = 2, 3


def test_the_review_of_a_finished_game_is_the_records_review(database_url: str) -> None:
    with make_client(database_url, review_searched=SEARCHED,
                     review_simulations=SIMULATIONS) as client:
        game_id, tokens = create_table(client)
        url = f"/api/games/{game_id}/review"
        during = client.get(f"{url}?seat=0")
        assert (during.status_code, during.json()) == (403, {"error": "the game has not ended"})
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            play_to_end(ws, random.Random(11), [])
        for bad in ("", "?seat=2", "?seat=-1", "?seat=one"):
            r = client.get(url + bad)
            assert (r.status_code, r.json()) == (
                400, {"error": "which seat? ask with ?seat=N, N from 0 to 1"}), bad
        rec = client.get(f"/api/games/{game_id}/record").json()
        card = parse_card(rec["card"]["source"], "record")
        got = client.get(f"{url}?seat=0")
        expected = review(rec, 0, card, searched=SEARCHED, simulations=SIMULATIONS)
        assert got.status_code == 200
        assert got.json() == json.loads(json.dumps(expected.to_dict()))
        assert len(got.json()["chances"]) == got.json()["decisions"] > 0
        hub = client.app.state.hub
        assert set(hub.reviews.kept) == {(game_id, 0)}
        # a reload is answered from what the hub kept, not computed again
        hub.reviews.kept[(game_id, 0)] = {"kept": True}
        assert client.get(f"{url}?seat=0").json() == {"kept": True}


def test_a_review_over_its_time_limit_is_a_clear_503(database_url: str) -> None:
    with make_client(database_url, review_seconds=0.01) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            play_to_end(ws, random.Random(12), [])
        r = client.get(f"/api/games/{game_id}/review?seat=1")
        assert (r.status_code, r.json()) == (
            503, {"error": "the server gave up on that after 0.01 seconds"})
        assert (game_id, 1) not in client.app.state.hub.reviews
