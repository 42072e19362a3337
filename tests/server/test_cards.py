"""The card editor's API: checks with the loader's own messages, cards kept for the browser
that saved them, and a table played with a saved card."""

from __future__ import annotations

import re
from typing import Any

from tests.server.helpers import create_table, make_client

GOOD = 'name = "Mine"\n\n[[hand]]\nsection = "A"\npattern = "FF 1111a 2222a 3333a"\nvalue = 25\n'
BAD = GOOD.replace("3333a", "333x")


def test_a_check_answers_with_the_loaders_messages_and_each_lines_ways(
        database_url: str) -> None:
    with make_client(database_url) as client:
        ok = client.post("/api/cards/check", json={"source": GOOD}).json()
        assert ok["ok"] is True and ok["problems"] == []
        assert ok["hands"] == [{"line": 3, "ways": 3, "sample": [
            ["1B", "1B", "1B", "1B"], ["2B", "2B", "2B", "2B"], ["3B", "3B", "3B", "3B"],
            ["F", "F"]]}]
        bad = client.post("/api/cards/check", json={"source": BAD}).json()
        assert bad["ok"] is False and bad["hands"] == [None]
        assert bad["problems"] == [{"line": 5, "column": 27,
                                    "message": "3 needs a suit letter a, b or c"}]


def test_bad_requests_are_refused_whole(database_url: str) -> None:
    with make_client(database_url) as client:
        assert client.post("/api/cards/check", content=b"not json").status_code == 400
        assert client.post("/api/cards/check", json={"source": 5}).status_code == 400
        big = client.post("/api/cards/check", json={"source": "#" * 200_001})
        assert big.status_code == 413


def test_saved_cards_belong_to_the_browser_that_saved_them(database_url: str) -> None:
    with make_client(database_url) as client:
        # no cookie yet: no CSRF token either (tests/server/test_csrf.py)
        r = client.post("/api/cards", json={"source": GOOD}, csrf=False)
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
        client.get("/cards")  # the editor page gives the browser its id
        saved = client.post("/api/cards", json={"source": GOOD}).json()
        card_id = saved["id"]
        assert saved == {"id": card_id, "name": "Mine", "edit_url": f"/cards/{card_id}",
                         "download_url": f"/cards/{card_id}/card.toml",
                         "file": "mine.toml", "play_url": f"/?card={card_id}"}
        assert client.get(f"/api/cards/{card_id}").json()["source"] == GOOD
        download = client.get(f"/cards/{card_id}/card.toml")
        assert download.text == GOOD
        assert download.headers["content-disposition"] == 'attachment; filename="mine.toml"'
        assert client.get("/api/cards").json() == {"cards": [{"id": card_id, "name": "Mine"}]}
        refused = client.post("/api/cards", json={"source": BAD})
        assert refused.status_code == 400 and "mine" not in refused.json()["error"]
        changed = GOOD.replace("Mine", "Mine too")
        again = client.post(f"/api/cards?card={card_id}", json={"source": changed}).json()
        assert again["id"] == card_id and again["name"] == "Mine too"
        other = client.cookies.get("twinrack_id")
        client.cookies.clear()
        client.get("/")  # another browser
        assert client.cookies.get("twinrack_id") != other
        assert client.get(f"/api/cards/{card_id}").status_code == 404
        assert client.get(f"/cards/{card_id}/card.toml").status_code == 404
        assert client.get(f"/cards/{card_id}").status_code == 404
        assert client.post(f"/api/cards?card={card_id}", json={"source": GOOD}).status_code \
            == 404


def test_a_saved_card_is_offered_in_the_lobby_and_plays(database_url: str) -> None:
    with make_client(database_url) as client:
        client.get("/cards")
        card_id = client.post("/api/cards", json={"source": GOOD}).json()["id"]
        lobby = client.get(f"/?card={card_id}").text
        assert re.search(rf'<option value="{card_id}" selected>Mine</option>', lobby)
        game_id, _ = create_table(client, card_choice="saved", saved_card=card_id)
        rec: dict[str, Any] = client.get(f"/api/games/{game_id}/record").json()
        assert rec["card"]["name"] == "Mine" and rec["card"]["source"] == GOOD
        wrong = client.post("/tables", data={"name": "Ann", "card_choice": "saved",
                                             "saved_card": "nope"})
        assert wrong.status_code == 400
        assert "choose one of the cards you saved in the card editor" in wrong.text


def test_the_card_as_a_player_reads_it_by_section_for_tables_lobby_and_saved_cards(
        database_url: str) -> None:
    from twinrack.card import practice_card
    from twinrack.card.sheet import sheet

    with make_client(database_url) as client:
        practice = client.get("/api/cards/practice/sheet").json()
        assert practice == sheet(practice_card())
        assert practice["lines"] == 70 == sum(len(s["lines"]) for s in practice["sections"])
        game, tokens = create_table(client, seat1="random")
        for query in ("", f"?token={tokens[0]}"):  # public: the same for everyone
            assert client.get(f"/api/games/{game}/card{query}").json() == {
                **practice, "open_lines": True}
        old, _ = create_table(client, seat1="random", revision="2019")
        assert client.get(f"/api/games/{old}/card").json()["open_lines"] is False
        client.get("/cards")
        card_id = client.post("/api/cards", json={"source": GOOD}).json()["id"]
        mine = client.get(f"/api/cards/{card_id}/sheet").json()
        assert mine["name"] == "Mine" and [s["name"] for s in mine["sections"]] == ["A"]
        assert mine["sections"][0]["lines"][0]["value"] == 25
        assert client.post("/api/cards/check", json={"source": GOOD}).json()["sheet"] == mine
        client.cookies.clear()
        client.get("/")
        assert client.get(f"/api/cards/{card_id}/sheet").status_code == 404
