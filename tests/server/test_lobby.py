"""The lobby: "Play the computer", the variants and levels described, only valid player
counts, refusals in the engine's words, Post/Redirect/Get, and the invite links (shown only
to the browser that made the table, each with a Copy button)."""

from __future__ import annotations

import re
from html import unescape

from sqlalchemy import func, select

from tests.server.helpers import create_table, created, make_client, next_state, ws_path
from twinrack.bots import BOTS
from twinrack.server.lobby.forms import LEVEL_TEXT, VARIANT_TEXT
from twinrack.server.models import GameRow


def form_fields(page: str, form_class: str) -> dict[str, str]:
    """The hidden fields of the form of that class."""
    block = re.search(rf'<form [^>]*class="{form_class}".*?</form>', page, re.S)
    assert block is not None
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', block[0]))


def games_stored(client: object) -> int:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with hub.db.reading() as s:
        return int(s.scalar(select(func.count()).select_from(GameRow)))


def test_the_lobby_describes_every_variant_and_every_computer_level(database_url: str) -> None:
    assert set(BOTS) <= set(LEVEL_TEXT), "describe the new computer level in LEVEL_TEXT"
    with make_client(database_url) as client:
        page = unescape(client.get("/").text)
    for title, about in [*VARIANT_TEXT.values(), *(LEVEL_TEXT[b] for b in BOTS)]:
        assert title in page and about in page
    # the player counts of docs/rules.md, section 2, as the engine allows them
    counts = dict(re.findall(r'name="variant" value="(\w+)" data-players="([\d ]+)"', page))
    assert counts == {"siamese": "2", "royale": "3 4", "imperial": "2 3 4", "american": "3 4"}
    assert "Siamese</strong> <span class=\"muted\">2 players" in page
    assert "Royale</strong> <span class=\"muted\">3 or 4 players" in page
    assert "Imperial</strong> <span class=\"muted\">2, 3 or 4 players" in page
    assert "American</strong> <span class=\"muted\">3 or 4 players" in page
    # with Siamese chosen, 3 and 4 players are not offered
    offered = re.findall(r'<option value="(\d)" (disabled hidden)?', page)
    assert offered == [("2", ""), ("3", "disabled hidden"), ("4", "disabled hidden")]


def test_play_the_computer_is_siamese_against_the_expert_with_2024_rules(
        database_url: str) -> None:
    with make_client(database_url) as client:
        quick = form_fields(client.get("/").text, "quick")
        r = client.post("/tables", data=quick, follow_redirects=False)
        game_id, tokens = created(r)
        assert r.headers["location"] == f"/t/{game_id}"  # no invite: straight to the table
        table = client.app.state.hub.tables[game_id]
        rules = table.state.rules
        assert (rules.variant, rules.players, rules.revision) == ("siamese", 2, "2024")
        assert [(s.name, s.kind) for s in table.seats] == [("Player", "human"),
                                                           ("Computer (Expert)", "expert")]
        assert table.card.name == "TwinRack Practice Card"
        page = client.get(f"/t/{game_id}").text  # the seat cookie: this browser's seat
        assert f'data-token="{tokens[0]}"' in page and 'data-seat="0"' in page


def test_refusals_say_what_is_wrong_in_the_engines_words(database_url: str) -> None:
    """Siamese with 4 players used to say "That card did not load"."""
    with make_client(database_url) as client:
        for fields, title, message in [
            ({"variant": "siamese", "players": "4"}, "These settings cannot be played.",
             "Siamese is played by 2 players"),
            ({"variant": "royale", "players": "2"}, "These settings cannot be played.",
             "Royale is played by 3 or 4 players"),
            ({"variant": "cluedo"}, "These settings cannot be played.",
             "unknown variant &#39;cluedo&#39; (expected siamese, royale, imperial, american)"),
            ({"revision": "1999"}, "These settings cannot be played.",
             "unknown revision &#39;1999&#39; (expected 2024 or 2019)"),
            ({"players": "two"}, "Please check the form.",
             "the number of players is a whole number"),
            ({"call_seconds": "1"}, "Please check the form.",
             "the call timer is between 3 and 120 seconds"),
            ({"seat1": "oracle"}, "Please check the form.",
             "there is no computer level &#39;oracle&#39;"),
            ({"card_choice": "upload"}, "That card did not load.",
             "choose a card file to upload, or play the practice card"),
        ]:
            r = client.post("/tables", data={"name": "Ann", "seat1": "random", **fields})
            assert r.status_code == 400, fields
            errors = re.search(r'<div class="errors" role="alert".*?</div>', r.text, re.S)
            assert errors is not None
            assert f"<strong>{title}</strong>" in errors[0]
            assert f'<p class="error-message">{message}</p>' in errors[0]
        assert games_stored(client) == 0


def test_a_name_over_its_budget_is_refused_whole(database_url: str) -> None:
    with make_client(database_url) as client:
        r = client.post("/tables", data={"name": "A" * 41, "seat1": "random"})
        assert r.status_code == 400
        assert "a name may have at most 40 characters (that one has 41)" in r.text
        assert games_stored(client) == 0
        game_id, _ = create_table(client, name="B" * 40)
        assert client.app.state.hub.tables[game_id].seats[0].name == "B" * 40


def test_the_post_redirects_and_reloading_the_ready_page_creates_nothing(
        database_url: str) -> None:
    with make_client(database_url) as client:
        r = client.post("/tables", data={"name": "Ann", "variant": "royale", "players": "3",
                                         "seat1": "human", "seat2": "expert"},
                        follow_redirects=False)
        game_id, tokens = created(r)
        assert r.status_code == 303 and r.headers["location"] == f"/t/{game_id}/ready"
        assert set(tokens) == {0, 1}
        first = client.get(f"/t/{game_id}/ready")
        again = client.get(f"/t/{game_id}/ready")
        assert first.status_code == again.status_code == 200
        assert first.text == again.text
        assert games_stored(client) == 1 and len(client.app.state.hub.tables) == 1
        page = first.text
        invite = f"http://testserver/t/{game_id}/join?token={tokens[1]}"
        assert (f'<input class="invite-link" id="invite-1" readonly value="{invite}">'
                in page)
        assert '<button type="button" class="copy" aria-live="polite" data-copy="invite-1">' \
               'Copy</button>' in page
        mine = f"http://testserver/t/{game_id}?token={tokens[0]}"
        assert f'<input class="my-link" id="my-link" readonly value="{mine}"' in page
        assert tokens[0] not in r.headers["location"] and tokens[1] not in r.headers["location"]


def test_invite_links_are_shown_only_to_the_browser_that_made_the_table(
        database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, seat1="human")
        host = client.cookies.get(f"twinrack_host_{game_id}")
        client.cookies.clear()
        for query, cookie in [("", None), (f"?token={tokens[1]}", None),
                              (f"?token={tokens[0]}", None),
                              ("", f"0:{tokens[1]}.1:{tokens[1]}"),  # a seat it is not
                              ("", f"1:{tokens[1]}")]:  # the creator's own seat is needed
            if cookie:
                client.cookies.set(f"twinrack_host_{game_id}", cookie,
                                   path=f"/t/{game_id}/ready")
            r = client.get(f"/t/{game_id}/ready{query}")
            assert r.status_code == 403
            assert "Only the browser that created this table sees its invite links." in r.text
            assert "/join?token=" not in r.text
            client.cookies.clear()
        client.cookies.set(f"twinrack_host_{game_id}", host, path=f"/t/{game_id}/ready")
        assert client.get(f"/t/{game_id}/ready").status_code == 200


def test_an_invited_friend_chooses_a_name_before_taking_the_seat(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, name="Ann", seat1="human")
        hub = client.app.state.hub
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ann:
            next_state(ann)
            client.cookies.clear()  # the friend's browser
            join = f"/t/{game_id}/join?token={tokens[1]}"
            form = client.get(join)
            assert form.status_code == 200
            assert f'<input type="hidden" name="token" value="{tokens[1]}">' in form.text
            assert 'placeholder="Friend 2"' in form.text and "playing with Ann" in form.text
            assert '<meta name="referrer" content="no-referrer">' in form.text

            too_long = client.post(f"/t/{game_id}/join", data={"token": tokens[1],
                                                               "name": "Bo" * 21})
            assert too_long.status_code == 400
            assert "a name may have at most 40 characters (that one has 42)" in too_long.text
            empty = client.post(f"/t/{game_id}/join", data={"token": tokens[1], "name": " "})
            assert empty.status_code == 400
            assert "please write the name the other players will see" in empty.text
            assert hub.tables[game_id].seats[1].name == "Friend 2"

            r = client.post(f"/t/{game_id}/join", data={"token": tokens[1], "name": " Bob "},
                            follow_redirects=False)
            assert r.status_code == 303 and r.headers["location"] == f"/t/{game_id}"
            assert client.cookies.get(f"twinrack_seat_{game_id}") == tokens[1]
            names = ["Ann", "Friend 2"]
            while names == ["Ann", "Friend 2"]:  # Ann's page is told at once
                msg = ann.receive_json()
                if msg["type"] == "players":
                    names = [p["name"] for p in msg["players"]]
            assert names == ["Ann", "Bob"]
        assert hub.tables[game_id].seats[1].name == "Bob"
        assert [s.name for s in hub.tables[game_id].seats] == ["Ann", "Bob"]
        # the name is stored with the seat: a table loaded again from the database has it
        hub.tables.clear()
        with client.websocket_connect(ws_path(game_id, tokens[1])) as bob:
            assert [p["name"] for p in next_state(bob)["players"]] == ["Ann", "Bob"]
        # the second time, the link goes straight to the table
        again = client.get(join, follow_redirects=False)  # the token into the cookie first
        assert again.status_code == 303 and again.headers["location"] == f"/t/{game_id}/join"
        again = client.get(again.headers["location"], follow_redirects=False)
        assert again.status_code == 303 and again.headers["location"] == f"/t/{game_id}"
        # a wrong token names nobody
        bad = client.post(f"/t/{game_id}/join", data={"token": "nope", "name": "Eve"})
        assert bad.status_code == 403
        assert client.get(f"/t/{game_id}/join?token=nope").status_code == 403


def test_the_card_language_is_served_as_a_page(database_url: str) -> None:
    with make_client(database_url) as client:
        r = client.get("/docs/card-language.md")
        assert r.status_code == 200
        assert '<h1 id="writing-your-own-card">Writing your own card</h1>' in r.text
        assert '<h2 id="4-suits-a-b-c-and-the-suits-key">' in r.text
        assert '<a href="#4-suits-a-b-c-and-the-suits-key">' in r.text
        assert "doc-test" not in r.text
        assert client.get("/docs/rules.md").status_code == 200
        assert client.get("/docs/security.md").status_code == 404  # for developers
        assert client.get("/docs/nothing.md").status_code == 404


def test_an_american_table_for_four_with_the_tournament_sheet(database_url: str) -> None:
    with make_client(database_url) as client:
        r = client.post("/tables", data={"name": "Ann", "variant": "american", "players": "4",
                                         "scoring": "tournament", "seat1": "greedy",
                                         "seat2": "greedy", "seat3": "greedy"},
                        follow_redirects=False)
        game_id, _tokens = created(r)
        rules = client.app.state.hub.tables[game_id].state.rules
        assert (rules.variant, rules.players, rules.racks, rules.american_scoring) == (
            "american", 4, 1, "tournament")
        bad = client.post("/tables", data={"name": "Ann", "variant": "american",
                                           "players": "4", "scoring": "chinese"})
        assert bad.status_code == 400
        assert "american_scoring must be &#39;nmjl&#39; or &#39;tournament&#39;" in bad.text
