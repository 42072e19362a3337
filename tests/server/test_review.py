"""The post-game review route (GET /api/games/{id}/review?seat=N): refused during play and
for a seat not at the table, computed in the worker pool once the game is over (the same
review as twinrack.bots.review gives from the game's record), kept for the next viewer
(and shared by viewers asking at once), and a clear error when the job goes over its time
limit."""

from __future__ import annotations

import asyncio
import json
import random
from types import SimpleNamespace
from typing import Any

from tests.server.helpers import create_table, make_client, play_to_end, ws_path
from twinrack.bots.review import review
from twinrack.card import parse_card
from twinrack.server.config import Settings
from twinrack.server.table.reviews import Reviews
from twinrack.server.workers import JobFailed, Workers

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
        # the replay page's panel starts at the seat this browser holds, else the first
        client.cookies.clear()
        assert 'data-seat=""' in client.get(f"/t/{game_id}/replay").text
        client.cookies.set(f"twinrack_seat_{game_id}", tokens[0])
        assert 'data-seat="0"' in client.get(f"/t/{game_id}/replay").text


def test_viewers_asking_at_once_wait_for_one_review() -> None:
    """Two viewers asking for the same seat's review while it is being worked out share
    the one job; a failed job is not kept."""
    calls: list[tuple[str, int]] = []

    class Counted(Reviews):
        async def _compute(self, table: Any, seat: int) -> dict[str, Any]:
            calls.append((table.id, seat))
            await asyncio.sleep(0.05)
            if seat == 1:
                raise JobFailed("job_timeout", "too slow")
            self.kept[(table.id, seat)] = {"seat": seat}
            return {"seat": seat}

    async def ask() -> list[Any]:
        reviews = Counted(Workers(1, 1.0), Settings())
        table = SimpleNamespace(id="g")
        got = await asyncio.gather(reviews.of(table, 0), reviews.of(table, 0),
                                   reviews.of(table, 1), reviews.of(table, 1),
                                   return_exceptions=True)
        return [*got, await reviews.of(table, 0), ("g", 1) in reviews]

    got = asyncio.run(ask())
    assert [g if isinstance(g, dict) else g.code for g in got[:5]] == [
        {"seat": 0}, {"seat": 0}, "job_timeout", "job_timeout", {"seat": 0}]
    assert got[5] is False
    assert calls == [("g", 0), ("g", 1)]


def test_a_review_over_its_time_limit_is_a_clear_503(database_url: str) -> None:
    with make_client(database_url, review_seconds=0.01) as client:
        game_id, tokens = create_table(client)
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            play_to_end(ws, random.Random(12), [])
        r = client.get(f"/api/games/{game_id}/review?seat=1")
        assert (r.status_code, r.json()) == (
            503, {"error": "the server gave up on that after 0.01 seconds"})
        assert (game_id, 1) not in client.app.state.hub.reviews
