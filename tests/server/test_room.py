"""The open room (server/room, docs/room.md): quick match seats two signed-in players at
one table and their finished game is rated; a guest may not sit at a rated table; seats
nobody took go to the computer when the host's wait runs out; who is in the room; every
form refused whole with a clear message; the room never shows a table's tiles."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from sqlalchemy import select

from tests.server.accounts_helpers import csrf_of, sign_up
from tests.server.cluster_client import live_table
from tests.server.cluster_harness import PG_URL, REDIS_URL, WHY_NOT
from tests.server.drive import Players
from tests.server.helpers import make_client
from twinrack.engine import view
from twinrack.server.accounts.models import RatingRow
from twinrack.server.models import GameRow, SeatRow
from twinrack.server.room.models import RoomSeatRow
from twinrack.tiles import format_tiles

CLUSTER_READY = bool(PG_URL and REDIS_URL)


def quick(client: Any, **form: str) -> Any:
    data = {"variant": "siamese", "players": "2", "csrf": csrf_of(client, "/room"), **form}
    return client.post("/room/quick", data=data, follow_redirects=False)


def seat_token(resp: Any, game_id: str) -> str:
    found = re.search(rf"twinrack_seat_{game_id}=([^;]+);", resp.headers["set-cookie"])
    assert found is not None
    return found[1]


def game_of(resp: Any) -> str:
    assert resp.status_code == 303, resp.text
    found = re.fullmatch(r"/t/(\w+)", resp.headers["location"])
    assert found is not None
    return found[1]


def test_two_signed_in_players_meet_by_quick_match_and_their_game_is_rated(
        database_url: str) -> None:
    with make_client(database_url) as ann, make_client(database_url) as ben:
        sign_up(ann, "ann")
        sign_up(ben, "ben")
        first = quick(ann, rated="on")
        game_id = game_of(first)
        room = ben.get("/room").text
        assert f'data-game="{game_id}"' in room and "ann <span" in room
        assert "1 taken, 1 free" in room and "rated" in room
        state = ann.app.state.hub.tables[game_id].state
        for seat in range(2):  # nothing of the tiles in the room, nor the seed
            hand = view(state, seat).hand
            assert hand is not None
            assert format_tiles(sorted(t for rack in hand for t in rack)) not in room
        assert state.seed.hex() not in room
        second = quick(ben, rated="on")
        assert game_of(second) == game_id  # the table that fitted, not a new one
        assert f'data-game="{game_id}"' not in ben.get("/room").text  # no free seat left
        tokens = {0: seat_token(first, game_id), 1: seat_token(second, game_id)}
        with Players(ann, game_id, tokens) as players:
            rng = random.Random(7)
            while not players.over:
                players.step(rng)
        board = ann.get("/leaderboard?pool=people:siamese").text
        assert sorted(re.findall(r'<a href="/u/(\w+)">', board)) == ["ann", "ben"]
        with ann.app.state.hub.db.reading() as s:
            rows = s.scalars(select(RatingRow)).all()
            assert sorted((r.pool, r.games) for r in rows) == [("people:siamese", 1)] * 2
            names = s.scalars(select(SeatRow.name).where(SeatRow.game_id == game_id)
                              .order_by(SeatRow.seat)).all()
            assert names == ["ann", "ben"]
            game = s.get(GameRow, game_id)
            assert game is not None and game.turn_seconds == 45.0  # the turn timer is on


def test_a_guest_may_not_sit_at_a_rated_table_but_may_play_unrated(database_url: str) -> None:
    with make_client(database_url) as ann, make_client(database_url) as guest:
        sign_up(ann, "ann")
        game_id = game_of(quick(ann, rated="on"))
        r = quick(guest, rated="on", name="Gus")
        assert r.status_code == 403 and "rated tables are for signed-in players" in r.text
        r = guest.post(f"/room/t/{game_id}/seat", data={"seat": "1", "name": "Gus",
                                                        "csrf": csrf_of(guest, "/room")})
        assert r.status_code == 403
        unrated = game_of(quick(guest, name="Gus"))
        assert unrated != game_id  # a rated table never fits an unrated match
        assert "Gus <span" in ann.get("/room").text


def test_a_seat_is_given_once(database_url: str) -> None:
    with make_client(database_url) as host, make_client(database_url) as a, \
            make_client(database_url) as b:
        game_id = game_of(quick(host, name="Host"))
        form = {"seat": "1", "name": "A"}
        assert a.post(f"/room/t/{game_id}/seat", data={**form, "csrf": csrf_of(a, "/room")},
                      follow_redirects=False).status_code == 303
        r = b.post(f"/room/t/{game_id}/seat", data={**form, "csrf": csrf_of(b, "/room")})
        assert r.status_code == 409 and "someone else took it" in r.text
        with host.app.state.hub.db.reading() as s:
            assert s.scalars(select(RoomSeatRow)).all() == []


def _take(client: Any, game_id: str, seat: int, name: str = "") -> Any:
    return client.post(f"/room/t/{game_id}/seat", follow_redirects=False,
                       data={"seat": str(seat), "name": name, "csrf": csrf_of(client, "/room")})


def test_one_person_takes_one_seat_of_a_table(database_url: str) -> None:
    """A guest host, a guest who took a seat and a signed-in host are each refused a
    second seat of their table (a typed error, 409); quick match seats nobody twice."""
    with make_client(database_url) as gus, make_client(database_url) as ida, \
            make_client(database_url) as ann:
        game_id = game_of(quick(gus, name="Gus", variant="royale", players="3"))
        row = re.search(rf'<tr data-game="{game_id}">.*?</tr>', gus.get("/room").text, re.S)
        assert row is not None and 'class="my-table"' in row[0] and "take-seat" not in row[0]
        row = re.search(rf'<tr data-game="{game_id}">.*?</tr>', ida.get("/room").text, re.S)
        assert row is not None and "my-table" not in row[0] and "take-seat" in row[0]
        r = _take(gus, game_id, 1, "Gus again")
        assert r.status_code == 409 and 'data-code="already_seated"' in r.text
        assert "you already have seat 1 at this table" in r.text
        second = quick(gus, name="Gus", variant="royale", players="3")
        assert game_of(second) != game_id  # a table of its own, not a second seat here
        assert _take(ida, game_id, 1, "Ida").status_code == 303
        r = _take(ida, game_id, 2, "Ida")
        assert r.status_code == 409 and "you already have seat 2 at this table" in r.text
        assert game_of(quick(ida, name="Ida", variant="royale", players="3")) != game_id
        with gus.app.state.hub.db.reading() as s:
            assert s.scalars(select(RoomSeatRow.seat).where(
                RoomSeatRow.game_id == game_id)).all() == [2]  # still free
            owners = s.scalars(select(SeatRow.owner).where(SeatRow.game_id == game_id)
                               .order_by(SeatRow.seat)).all()
            assert owners[0] != owners[1] and owners[2] is None
        sign_up(ann, "ann")
        mine = game_of(quick(ann, rated="on"))
        r = _take(ann, mine, 1)
        assert r.status_code == 409 and "you already have seat 1" in r.text


def _wait_ran_out(client: Any, game_id: str, within: float = 30.0) -> bool:
    """Whether, within ``within`` seconds, the game left its waiting room with seat 1
    handed to the computer (as stored: what every worker reads)."""
    hub = client.app.state.hub
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with hub.db.reading() as s:
            game = s.get(GameRow, game_id)
            away = s.scalar(select(SeatRow.away).where(SeatRow.game_id == game_id,
                                                      SeatRow.seat == 1))
        if game is not None and not game.waiting and away:
            return True
        time.sleep(0.2)
    return False


def test_the_computer_takes_the_seats_nobody_took_when_the_wait_runs_out(
        service_url: str) -> None:
    """On one worker, and on a cluster where the table runs on another worker than the
    one quick match was asked of."""
    with make_client(service_url) as host:
        game_id = game_of(quick(host, name="Host", wait_seconds="5"))
        assert f'data-game="{game_id}"' in host.get("/room").text
        with host.app.state.hub.db.reading() as s:
            game = s.get(GameRow, game_id)
            assert game is not None and game.wait_until is not None
        assert _wait_ran_out(host, game_id)
        assert f'data-game="{game_id}"' not in host.get("/room").text
        players = live_table(host, game_id).players()
        assert players[1]["bot_playing"] is True


def test_the_wait_outlives_a_restart_of_the_server(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    with make_client(url) as host:
        game_id = game_of(quick(host, name="Host", wait_seconds="5"))
    with make_client(url) as again:  # the same database, a new server: it reads the wait
        assert _wait_ran_out(again, game_id)
        assert live_table(again, game_id).players()[1]["bot_playing"] is True


@pytest.mark.postgres
@pytest.mark.skipif(not CLUSTER_READY, reason=WHY_NOT)
def test_the_wait_moves_with_its_table_to_another_worker() -> None:
    """The table runs on worker w2, which drains before the wait runs out: w1 takes the
    table over and acts on the wait."""
    assert PG_URL is not None
    with make_client("cluster:" + PG_URL) as w1:
        game_id = game_of(quick(w1, name="Host", wait_seconds="5"))
        w2 = w1.peer.app.state.hub
        deadline = time.monotonic() + 10
        while game_id not in w2.tables and time.monotonic() < deadline:
            time.sleep(0.05)
        assert game_id in w2.tables and "wait_over" in w2.tables[game_id].timers
        w1.peer.portal.call(w2.node.drain)
        assert _wait_ran_out(w1, game_id)
        mine = w1.app.state.hub
        assert game_id in mine.epochs and game_id not in w2.tables
        assert mine.tables[game_id].players()[1]["bot_playing"] is True


def test_a_rematch_of_a_room_table_has_no_wait(database_url: str) -> None:
    with make_client(database_url) as host:
        game_id = game_of(quick(host, name="Host", wait_seconds="600"))
        hub = host.app.state.hub
        table = hub.tables[game_id]
        assert "wait_over" in table.timers  # the room's wait, scheduled at its start
        new_id = host.portal.call(lambda: hub.rematch(table, 0, None))
        with hub.db.reading() as s:
            wait = s.scalar(select(GameRow.wait_until).where(GameRow.id == new_id))
        assert wait is None and "wait_over" not in hub.tables[new_id].timers


def test_who_is_in_the_room(database_url: str) -> None:
    with make_client(database_url) as ann, make_client(database_url) as guest:
        sign_up(ann, "ann")
        guest.get("/room")  # its first page: it gets its browser cookie
        assert "1 person in the last two minutes: ann" in ann.get("/room").text
        guest.get("/room")
        page = ann.get("/room").text
        assert re.search(r"2 people in the last two minutes: ann, a guest", page)
        assert '<section id="room-chat"' in page


def test_bad_forms_are_refused_whole(database_url: str) -> None:
    with make_client(database_url) as c:
        cases = [({"variant": "chess"}, 400, "there is no variant"),
                 ({"players": "x"}, 400, "whole number"),
                 ({"players": "1"}, 400, "Quick match could not start"),
                 ({"players": "3"}, 400, ""),
                 ({"wait_seconds": "1"}, 400, "between 5 and 600 seconds"),
                 ({"name": "n" * 101}, 400, "at most 100 characters"),
                 ({"csrf": "forged"}, 403, "This form has expired")]
        for form, status, words in cases:
            r = quick(c, **form)
            assert r.status_code == status and words in r.text, (form, r.text[:300])
        r = c.post("/room/t/nosuchgame/seat", data={"seat": "1", "csrf": csrf_of(c, "/room")})
        assert r.status_code == 404 and "not in the room" in r.text
        with c.app.state.hub.db.reading() as s:
            assert s.scalars(select(GameRow)).all() == []


def test_the_wait_migration_matches_the_model_and_downgrades(tmp_path: Any) -> None:
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.config import Config
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine, inspect

    from twinrack.server.db import MIGRATIONS, make_engine, migrate
    from twinrack.server.models import Base

    url = f"sqlite:///{tmp_path}/m.db"
    engine = make_engine(url)
    migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert [d for d in diff if "wait_until" in repr(d)] == []
    columns = {c["name"] for c in inspect(engine).get_columns("games")}
    assert "wait_until" in columns
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0010_room")
    columns = {c["name"] for c in inspect(create_engine(url)).get_columns("games")}
    assert "wait_until" not in columns and "waiting" in columns
    engine.dispose()
