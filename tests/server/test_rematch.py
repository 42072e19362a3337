"""The rematch is kept in the database: only the first seat to ask makes it (a second try,
on any worker, finds it instead of making another table), each human seat keeps its token
there, and in a cluster the workers that show the finished game to its seats are told."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import func, select

from tests.server.conftest import PG_URL, REDIS_URL
from tests.server.helpers import create_table, make_client
from twinrack.server.hub import NewSeat, RematchTaken, token_hash
from twinrack.server.models import GameRow, SeatRow


def test_only_the_first_rematch_is_made_and_each_seat_keeps_its_token(
        database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, seat1="human")
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[game_id]
        seats = [NewSeat(s.name, s.kind, None, s.token_hash) for s in table.seats]
        again = (table.state.rules, table.card, seats, table.call_seconds)
        first = client.portal.call(lambda: hub.create(*again, rematch_of=game_id))
        assert first.tokens == {}  # nobody got a new token: each seat keeps its own
        with pytest.raises(RematchTaken):
            client.portal.call(lambda: hub.create(*again, rematch_of=game_id))
        with hub.db.reading() as s:
            assert s.scalar(select(func.count()).select_from(GameRow)) == 2  # no orphan
            assert s.get(GameRow, game_id).rematch_id == first.game_id
            kept = s.scalars(select(SeatRow.token_hash).where(
                SeatRow.game_id == first.game_id).order_by(SeatRow.seat)).all()
        assert kept == [token_hash(tokens[0]), token_hash(tokens[1])]
        # the table made at once for the rematch knows its seats by the same tokens
        for seat, token in tokens.items():
            assert client.portal.call(hub.seat_for_token, first.game_id, token) == seat


@pytest.mark.postgres
@pytest.mark.skipif(not (PG_URL and REDIS_URL), reason="needs PostgreSQL and Redis (CI)")
def test_a_rematch_made_on_one_worker_is_offered_on_the_other() -> None:
    with make_client(f"cluster:{PG_URL}") as client:
        game_id, _ = create_table(client, seat1="human")
        peer = client.peer.app.state.hub  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while game_id not in peer.tables and time.monotonic() < deadline:
            time.sleep(0.05)  # w2 adopts the table the client made through w1
        table = peer.tables[game_id]
        assert table.rematch is None
        bus = client.app.state.hub.node.bus  # type: ignore[attr-defined]

        async def tell() -> None:
            bus.rematch_made(game_id, "abc123")

        client.portal.call(tell)
        while table.rematch is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.rematch == "abc123"
        assert table._rematch_url(0) == "/t/abc123" and table._rematch_url(None) is None
