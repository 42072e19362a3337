"""Quick match for three and four players, end to end (server/room, docs/room.md): every
person who presses quick match for the same game lands at the same table, one seat each,
until it is full; the seat nobody took goes to the computer when the host's wait runs
out, and the game starts, the computer playing that seat."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from sqlalchemy import select

from tests.server.conftest import database_urls, on_services
from tests.server.drive import Players
from tests.server.helpers import make_client
from tests.server.test_room import game_of, quick, seat_token
from twinrack.server.models import ActionRow, GameRow, SeatRow
from twinrack.server.room.models import RoomSeatRow

#: the host's wait in these tests (the shortest a form may choose)
WAIT = "5"
#: the most actions the people make before the computer's seat must have moved
MOST_ACTIONS = 400


def _computer_moved(client: Any, game_id: str, seat: int) -> bool:
    with client.app.state.hub.db.reading() as s:
        return s.scalar(select(ActionRow.id).where(
            ActionRow.game_id == game_id, ActionRow.seat == seat, ActionRow.seq > 0,
            ActionRow.by == "bot").limit(1)) is not None


def _play_until_the_computer_moves(players: Players, client: Any, game_id: str,
                                   computer: int, rng: random.Random) -> int:
    """The people play random legal moves (and wait while only the computer may act)
    until the computer's seat has made a move of its own: the actions the people made."""
    made = 0
    while made < MOST_ACTIONS and not players.over:
        if _computer_moved(client, game_id, computer):
            break
        mine = [s for s in players.states[0]["view"]["to_act"] if s in players.socks]
        seat = next((s for s in mine if any(x["verb"] != "move"
                                            for x in players.states[s]["legal"])), None)
        if seat is None:  # only the computer may act: its move comes as a new state
            players.sync(players.next_state(0)["version"])
            continue
        legal = [x["text"] for x in players.states[seat]["legal"] if x["verb"] != "move"]
        if players._try(seat, rng.choice(legal)):
            made += 1
    return made


@pytest.mark.parametrize(("database_url", "variant", "players"), on_services(
    database_urls(),
    [("royale", 3), ("royale", 4), ("imperial", 3), ("imperial", 4), ("american", 4)],
    also={("royale", 4)}), indirect=["database_url"])
def test_people_meet_by_quick_match_and_the_computer_fills_the_last_seat(
        database_url: str, variant: str, players: int) -> None:
    people = players - 1
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(make_client(database_url)) for _ in range(people)]
        form = {"variant": variant, "players": str(players), "wait_seconds": WAIT}
        answers = [quick(c, name=f"P{i}", **form) for i, c in enumerate(clients)]
        games = {game_of(a) for a in answers}
        assert len(games) == 1  # everyone at the table the first one opened
        game_id = games.pop()
        tokens = {seat: seat_token(a, game_id) for seat, a in enumerate(answers)}
        host = clients[0]
        with host.app.state.hub.db.reading() as s:
            free = s.scalars(select(RoomSeatRow.seat)
                             .where(RoomSeatRow.game_id == game_id)).all()
            owners = s.scalars(select(SeatRow.owner).where(SeatRow.game_id == game_id)
                               .order_by(SeatRow.seat)).all()
        computer = players - 1
        assert free == [computer]  # one seat each, in the order they came; one left
        assert len(set(owners[:people])) == people and owners[computer] is None
        room = host.get("/room").text
        assert f'data-game="{game_id}"' in room and f"{people} taken, 1 free" in room
        # the people come to the table; nobody takes the last seat: after the wait the
        # computer takes it and play starts (Players waits for the waiting room to end)
        with Players(host, game_id, tokens) as table:
            assert table.states[0]["waiting"] is False
            with host.app.state.hub.db.reading() as s:
                game = s.get(GameRow, game_id)
                away = s.scalars(select(SeatRow.away).where(SeatRow.game_id == game_id)
                                 .order_by(SeatRow.seat)).all()
            assert game is not None and game.waiting is False
            assert away == [False] * people + [True]  # only the empty seat
            assert table.states[0]["view"]["phase"] != "over"
            _play_until_the_computer_moves(table, host, game_id, computer,
                                           random.Random(players * 7 + len(variant)))
            assert _computer_moved(host, game_id, computer)
        assert f'data-game="{game_id}"' not in host.get("/room").text
