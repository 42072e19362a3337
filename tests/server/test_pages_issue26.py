"""The lobby and the pages around a table, as issue 26 found them wanting: each test here
failed before it was fixed."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import update

from tests.server.helpers import create_table, make_client
from twinrack.server.models import GameRow

HTML = {"accept": "text/html,application/xhtml+xml"}


def test_an_unknown_address_is_a_page_for_a_browser_and_json_for_a_client(
        database_url: str) -> None:
    with make_client(database_url) as client:
        page = client.get("/no/such/page", headers=HTML)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "Page not found" in page.text and 'href="/"' in page.text
        assert "detail" not in page.text
        api = client.get("/api/games/nope/nothing")
        assert api.status_code == 404
        assert api.json() == {"error": "page not found", "status": 404}
        script = client.get("/no/such/page")  # no HTML asked for: JSON
        assert script.json()["status"] == 404
        wrong = client.put("/", headers=HTML)
        assert wrong.status_code == 405 and "Not allowed here" in wrong.text


def test_the_levels_go_from_the_weakest_to_the_strongest_and_the_expert_is_offered(
        database_url: str) -> None:
    with make_client(database_url) as client:
        lobby = client.get("/").text
        titles = re.findall(r"<dt>(\w+)<span", lobby)
        assert titles == ["Random", "Beginner", "Intermediate", "Greedy", "Expert", "Master"]
        chosen = re.findall(r'<option value="(\w+)" selected>Computer', lobby)
        assert chosen == ["expert", "expert", "expert"]
        assert "not yet stronger" not in lobby
        # the name field is remembered by the browser (lobby.js)
        assert lobby.count('data-remember="name"') == 2


def test_a_friends_table_is_listed_only_when_its_host_opens_it_to_watch(
        database_url: str) -> None:
    with make_client(database_url) as client:
        hidden, _ = create_table(client, name="Ann", seat1="human")
        shown, _ = create_table(client, name="Cy", seat1="human", listed="on")
        lobby = client.get("/").text
        assert f"/t/{shown}" in lobby and f"/t/{hidden}" not in lobby
        assert "Ann" not in lobby.split('id="live-title"')[-1]


def test_the_join_page_says_what_the_game_is_and_the_link_leaves_the_address_bar(
        database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, name="Ann", variant="royale", players="3",
                                       seat1="human", seat2="expert", revision="2024")
        client.cookies.clear()  # the friend's browser
        r = client.get(f"/t/{game_id}/join?token={tokens[1]}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/t/{game_id}/join"
        assert r.cookies.get(f"twinrack_seat_{game_id}") == tokens[1]
        page = client.get(r.headers["location"]).text
        facts = page[page.index('id="join-facts"'):page.index("</dl>")]
        assert "Royale, 3 players, 2024 rules" in facts
        assert "TwinRack Practice Card" in facts
        assert "has not started" in facts
        assert "seat 2 (South)" in page and "playing with Ann, Computer (Expert)" in page
        # the table page too: a token in its address goes into the cookie, then away
        t = client.get(f"/t/{game_id}?token={tokens[1]}", follow_redirects=False)
        assert t.status_code == 303 and t.headers["location"] == f"/t/{game_id}"


def test_my_games_say_whether_each_was_won_or_lost(database_url: str) -> None:
    with make_client(database_url) as client:
        client.get("/")  # the browser's id cookie
        lost, _ = create_table(client, name="Ann", seat1="expert")
        won, _ = create_table(client, name="Ann", seat1="expert")
        _finish(client, lost, [50, 130])
        _finish(client, won, [120, -40])
        mine = client.get("/history").text
        assert "Lost by 80, +50 to +130" in mine and "Won by 160, +120 to -40" in mine
        assert "points" not in mine


def _finish(client: TestClient, game_id: str, totals: list[int]) -> None:
    db = client.app.state.hub.db  # type: ignore[attr-defined]
    with db.unit() as s:
        s.execute(update(GameRow).where(GameRow.id == game_id).values(
            status="over", result={"totals": totals, "lines": [], "end_reason": "wall",
                                   "winner": None}))


def test_the_desk_says_its_refusals_in_words_not_json() -> None:
    from twinrack.server.desk.forms import sheet_message

    said = sheet_message("the sheet does not say how the game ended: add a mahjongg, "
                         '{"wall_game": true} or the dead racks', [])
    assert said == ("the sheet does not say how the game ended: add a Mah Jongg, a wall "
                    "game or the dead racks")
    said = sheet_message("a game needs a winner, wall_game: true or in_error", [])
    assert said == "a game needs a winner, a wall game or a Mah Jongg in error"
