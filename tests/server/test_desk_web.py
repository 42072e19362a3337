"""The tournament desk's web pages, through their forms (FastAPI TestClient).

A whole tournament is entered through the director's and the tables' forms, and the public
standings must equal those of the desk model fed the same games separately. Every kind of
bad input is refused with its message and leaves the stored tournament exactly as it was.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tests.server.helpers import make_client
from twinrack.desk.export import games_csv, standings_csv
from twinrack.desk.tournament import Tournament

NAMES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay", "Gil", "Hal"]
FLAGS = ("self_picked", "singles_and_pairs", "jokerless", "misnamed", "quint_two_exposures")


# ---------------------------------------------------------------------- driving the pages


def seen_of(html: str) -> str:
    m = re.search(r'name="seen" value="(\w+)"', html)
    assert m is not None, html
    return m.group(1)


def errors_of(html: str) -> list[str]:
    return [unescape(e) for e in re.findall(r'class="error-message">([^<]*)<', html)]


class Desk:
    """One tournament, driven through its web pages as the director and the tables would."""

    def __init__(self, client: TestClient, database_url: str, **form: str) -> None:
        self.client = client
        self.database_url = database_url
        data = {"name": "Spring Open", "seats": "4", "rounds": "4", "minutes": "50",
                "revision": "2024", **form}
        r = client.post("/desk", data=data)
        assert r.status_code == 200, r.text
        m = re.search(r'id="director-link" value="[^"]*/desk/(\w+)\?key=([^"]+)"', r.text)
        assert m is not None, r.text
        self.tid, self.key = m.group(1), m.group(2)

    def table_key(self, n: int = 1) -> str:
        """Table n's own key, as the director's page lists it."""
        m = re.search(rf'<code class="table-key" data-table="{n}">([^<]+)<', self.director())
        assert m is not None
        return m.group(1)

    def code(self, name: str) -> str:
        """A player's confirmation code (printed on the nametag)."""
        doc = json.loads(self.stored()[0])
        found = [p["code"] for p in doc["players"] if p["name"] == name]
        found += [x["code"] for x in doc.get("substitutes", []) if x["name"] == name]
        return found[0] if found else "NOPE0"

    # director
    def director(self) -> str:
        r = self.client.get(f"/desk/{self.tid}", params={"key": self.key})
        assert r.status_code == 200, r.text
        return r.text

    def post_director(self, action: str, expect: int = 303, **data: Any) -> Any:
        form = {"key": self.key, "seen": seen_of(self.director()), **data}
        r = self.client.post(f"/desk/{self.tid}/{action}", data=form, follow_redirects=False)
        assert r.status_code == expect, r.text
        return r

    def add(self, *names: str) -> None:
        self.post_director("players", names="\n".join(names))

    def start(self) -> None:
        self.post_director("start")

    def close(self, force: bool = False) -> None:
        self.post_director("close", **({"force": "on"} if force else {}))

    # tables
    def table(self, n: int, key: str | None = None) -> str:
        r = self.client.get(f"/desk/{self.tid}/table/{n}",
                            params={"key": key or self.table_key(n)})
        assert r.status_code == 200, r.text
        return r.text

    def enter(self, n: int, form: dict[str, Any], expect: int = 303,
              key: str | None = None) -> Any:
        data = {"key": key or self.table_key(n), "seen": seen_of(self.table(n)), **form}
        r = self.client.post(f"/desk/{self.tid}/table/{n}/game", data=data,
                             follow_redirects=False)
        assert r.status_code == expect, r.text
        return r

    def confirm(self, n: int, game: int, by: str, expect: int = 303,
                code: str | None = None) -> Any:
        data = {"key": self.table_key(n), "seen": seen_of(self.table(n)), "game": str(game),
                "by": by, "code": self.code(by) if code is None else code}
        r = self.client.post(f"/desk/{self.tid}/table/{n}/confirm", data=data,
                             follow_redirects=False)
        assert r.status_code == expect, r.text
        return r

    # what is stored
    def stored(self) -> tuple[str, int]:
        engine = create_engine(self.database_url)
        try:
            with engine.connect() as conn:
                row = conn.execute(text("SELECT doc, version FROM tournaments WHERE id = :id"),
                                   {"id": self.tid}).one()
        finally:
            engine.dispose()
        doc = row[0] if isinstance(row[0], dict) else json.loads(row[0])
        return json.dumps(doc, sort_keys=True), int(row[1])

    def public_standings(self) -> list[dict[str, Any]]:
        r = self.client.get(f"/desk/{self.tid}/standings")
        assert r.status_code == 200
        assert '<meta http-equiv="refresh" content="15">' in r.text
        rows = re.findall(r'<tr data-name="([^"]+)" data-rank="(\d+)" data-points="(-?\d+)" '
                          r'data-wins="(\d+)" data-games="(\d+)">\s*<td class="rank">\d+</td>'
                          r'<td class="name">[^<]+</td><td class="nametag">(\w+)</td>', r.text)
        return [{"rank": int(rank), "name": name, "nametag": tag, "points": int(points),
                 "wins": int(wins), "games": int(games)}
                for name, rank, points, wins, games, tag in rows]


def four_seat_form(result: dict[str, Any]) -> dict[str, Any]:
    """The table form's fields for a result of the section 11 sheet."""
    form: dict[str, Any] = {}
    if "winner" in result:
        form.update(end="mahjongg", winner=result["winner"], value=str(result["value"]),
                    discarder=result.get("discarder", ""),
                    winner_exposures=str(result.get("winner_exposures", 0)))
        for flag in FLAGS:
            if result.get(flag):
                form[flag] = "on"
    else:
        form["end"] = "wall"
    if result.get("dead"):
        form["dead"] = list(result["dead"])
    for i, p in enumerate(result.get("penalties", []), start=1):
        form[f"pen{i}_player"] = p["player"]
        form[f"pen{i}_kind"] = p["kind"]
    return form


def random_result(rng: random.Random, names: list[str]) -> dict[str, Any]:
    if rng.random() < 0.15:
        res: dict[str, Any] = {"wall_game": True}
        if rng.random() < 0.5:
            res["dead"] = [rng.choice(names)]
    else:
        winner = rng.choice(names)
        res = {"winner": winner, "value": rng.choice([25, 30, 35, 40, 50, 75])}
        if rng.random() < 0.3:
            res["self_picked"] = True
        else:
            res["discarder"] = rng.choice([n for n in names if n != winner])
            exposures = rng.choice([0, 1, 2, 3])
            if exposures:
                res["winner_exposures"] = exposures
        if rng.random() < 0.2:
            res["jokerless"] = True
        elif rng.random() < 0.15:
            res["singles_and_pairs"] = True
    if rng.random() < 0.1:
        res["penalties"] = [{"player": rng.choice(names),
                             "kind": rng.choice(["not_seated", "stealing_and_looking",
                                                 "misnamed_exposure_tile"])}]
    return res


def seated_names(t: Tournament, round_no: int, table: int) -> list[str]:
    return [t.name_of(tag) for tag in t.seating(round_no)[table].values()]


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with make_client(database_url) as c:
        yield c


# ---------------------------------------------------------------------- a whole tournament


def test_a_whole_tournament_through_the_forms(client: TestClient, database_url: str) -> None:
    desk = Desk(client, database_url)
    model = Tournament("Spring Open", seats=4, rounds_planned=4, round_minutes=50)
    now = time.time()
    desk.add(*NAMES[:5])
    desk.add(*NAMES[5:])
    for name in NAMES:
        model.add_player(name, now)
    page = desk.director()
    for p in model.players:
        assert f'<span class="tag">{p.nametag}</span> {p.name}</li>' in page
    rng = random.Random(11)
    corrected = False
    for round_no in range(1, 5):
        desk.start()
        model.start_round(now)
        for table in (1, 2):
            names = seated_names(model, round_no, table)
            page = desk.table(table)
            # the page shows who sits where this round, East first
            shown = re.findall(r'<span class="seat">(\w)</span> ([^<]+) <span class="tag">',
                               page)
            assert [(letter, name.strip()) for letter, name in shown] == list(
                zip("ESWN", names, strict=True))
            for game in range(1, 5):
                result = random_result(rng, names)
                r = desk.enter(table, four_seat_form(result))
                entry = model.enter_game(table, result, now)
                after = client.get(r.headers["location"]).text
                assert f"Saved: game {game}: " in after
                if entry.winner is not None:
                    signer = model.name_of(model._opposite(round_no, table, entry.winner))
                    assert ("The player opposite the winner signs with their own code: "
                            f"{signer}.") in after
                    desk.confirm(table, game, signer)
                    model.confirm(table, game, signer, now, code=model.player(signer).code)
        # the director sees each table's status before closing
        page = desk.director()
        assert page.count('<td class="num games-count">4 / 4</td>') == 2
        assert "confirmations pending" in page
        desk.close()
        model.close_round(now)
        if round_no == 2 and not corrected:
            # a correction of a locked round, with its reason in the audit trail
            old = model.rounds[0].sheets[1][0]
            names = seated_names(model, 1, 1)
            new = {"winner": names[2], "value": 45, "self_picked": True}
            page = client.get(f"/desk/{desk.tid}/correct",
                              params={"key": desk.key, "round": 1, "table": 1, "game": 1}).text
            form = {"key": desk.key, "seen": seen_of(page), "round": "1", "table": "1",
                    "game": "1", "late": "keep", "reason": "wrong winner on the sheet",
                    **four_seat_form(new)}
            r = client.post(f"/desk/{desk.tid}/correct", data=form, follow_redirects=False)
            assert r.status_code == 303, r.text
            model.correct_game(1, 1, 1, new, now, "wrong winner on the sheet")
            assert old.points != model.rounds[0].sheets[1][0].points
            assert "reason: wrong winner on the sheet" in desk.director()
            corrected = True
    assert corrected
    expected = model.standings()
    shown = desk.public_standings()
    assert shown == [{k: row[k] for k in ("rank", "name", "nametag", "points", "wins", "games")}
                     for row in expected]
    assert sum(row["games"] for row in shown) == 8 * 16
    # the exports are the model's, byte for byte
    r = client.get(f"/desk/{desk.tid}/export/standings.csv", params={"key": desk.key})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.text == standings_csv(model)
    r = client.get(f"/desk/{desk.tid}/export/games.csv", params={"key": desk.key})
    assert r.text == games_csv(model)
    for what in ("table-cards.html", "score-sheets-round-3.html"):
        r = client.get(f"/desk/{desk.tid}/export/{what}", params={"key": desk.key})
        assert r.status_code == 200 and "<table>" in r.text
    # all rounds played: no fifth round
    page = desk.director()
    assert "Final standings" in page and 'id="start-round"' not in page


# ---------------------------------------------------------------------- bad input


@pytest.fixture
def open_round(client: TestClient, database_url: str) -> Desk:
    """8 players, round 1 open; table 1 is Ann E, Bea S, Cat W, Dot N."""
    desk = Desk(client, database_url)
    desk.add(*NAMES)
    desk.start()
    desk.enter(1, {"end": "mahjongg", "winner": "Cat", "value": "30", "discarder": "Bea",
                   "winner_exposures": "2"})
    return desk


def refused(desk: Desk, post: Any, status: int, message: str) -> str:
    """The command is refused with its message, and nothing stored changes."""
    before = desk.stored()
    r = post()
    assert r.status_code == status, r.text
    assert message in unescape(r.text), r.text
    assert desk.stored() == before
    return str(r.text)


@pytest.mark.parametrize(("form", "message"), [
    ({"end": "mahjongg", "winner": "Zed", "value": "25"},
     "winner: no player 'Zed' in this tournament"),
    ({"end": "mahjongg", "winner": ["Ann", "Cat"], "value": "25"},
     "winner: a game has one winner, not 2"),
    ({"end": "mahjongg", "winner": "Ann", "value": "-25"},
     "value: the card value of the winning hand, a whole number from 1 to 100 (got -25)"),
    ({"end": "mahjongg", "winner": "Ann", "value": "lots"},
     'value: the card value of the winning hand, a whole number from 1 to 100 (got "lots")'),
    ({"end": "mahjongg", "winner": "Ann", "value": ""},
     "value: enter the card value of the winning hand"),
    ({"end": "mahjongg", "winner": "Eve", "value": "25"},
     "winner: Eve does not sit at this table this round"),
    ({"end": "mahjongg", "winner": "Ann", "value": "25", "discarder": "Ann"},
     "discarder: the winner cannot throw its own tile"),
    ({"end": "mahjongg", "value": "25"}, "winner: choose who made Mah Jongg"),
    ({"end": "wall", "pen1_player": "Bea"}, "penalty 1: choose both the player and the penalty"),
])
def test_a_bad_game_is_refused_and_nothing_changes(open_round: Desk, form: dict[str, Any],
                                                    message: str) -> None:
    desk = open_round
    html = refused(desk, lambda: desk.enter(1, form, expect=400), 400, message)
    # the page keeps what was typed, so the table can fix it
    assert errors_of(html) == [message] or message in errors_of(html)[0]
    if form.get("value"):
        assert f'value="{form["value"]}"' in html


def test_a_score_for_a_locked_round_is_refused(open_round: Desk) -> None:
    desk = open_round
    stale_page = desk.table(1)
    desk.close(force=True)
    form = {"key": desk.table_key(), "seen": seen_of(stale_page), "end": "mahjongg",
            "winner": "Ann", "value": "25"}
    refused(desk, lambda: desk.client.post(f"/desk/{desk.tid}/table/1/game", data=form),
            400, "round 1 is closed and locked; only the director can correct it")
    # the same for a confirmation, and the table page says so
    form = {"key": desk.table_key(), "seen": seen_of(stale_page), "game": "1", "by": "Ann",
            "code": desk.code("Ann")}
    refused(desk, lambda: desk.client.post(f"/desk/{desk.tid}/table/1/confirm", data=form),
            400, "round 1 is closed and locked")
    page = desk.table(1)
    assert "This round is closed and locked." in page and 'id="game-form"' not in page


def test_a_wrong_key_is_refused(open_round: Desk) -> None:
    desk = open_round
    c = desk.client
    form = {"key": "not-the-key", "end": "mahjongg", "winner": "Ann", "value": "25"}
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/table/1/game", data=form), 403,
            "This link's key is not valid here")
    # the table key does not open the director's page or its commands
    assert c.get(f"/desk/{desk.tid}", params={"key": desk.table_key()}).status_code == 403
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/close", data={"key": desk.table_key()}),
            403, "the director's link is needed here")
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/players",
                                 data={"key": "", "names": "Zed"}), 403, "not valid")
    assert c.get(f"/desk/{desk.tid}/export/games.csv").status_code == 403
    assert c.get(f"/desk/{desk.tid}/table/1").status_code == 403
    assert c.get("/desk/nosuch/standings").status_code == 404
    # the director's key opens the table pages too
    assert "Table 1" in desk.table(1, key=desk.key)


def test_confirmations(open_round: Desk) -> None:
    desk = open_round
    refused(desk, lambda: desk.confirm(1, 1, "Bea", expect=400), 400,
            "the win of Cat is confirmed by the player opposite, Ann (1E), not by Bea")
    refused(desk, lambda: desk.confirm(1, 1, "Zed", expect=400), 400,
            "no player 'Zed' in this tournament")
    refused(desk, lambda: desk.confirm(1, 1, "", expect=400), 400,
            "signed by: choose the name of the player who confirms the win")
    desk.confirm(1, 1, "Ann")
    page = desk.table(1)
    assert "Saved" not in page and 'id="confirm-1"' not in page
    assert "<td>Ann</td>" in page
    refused(desk, lambda: desk.confirm(1, 1, "Ann", expect=400), 400,
            "table 1 game 1 is already confirmed by Ann")
    # a wall game has nothing to sign
    desk.enter(1, {"end": "wall"})
    refused(desk, lambda: desk.confirm(1, 2, "Ann", expect=400), 400,
            "only a win in time is confirmed; this game has none")


def test_a_stale_form_is_refused_politely(open_round: Desk) -> None:
    desk = open_round
    c = desk.client
    page = desk.table(1)  # one phone opens the page...
    desk.enter(1, {"end": "wall"})  # ...another phone enters game 2
    form = {"key": desk.table_key(), "seen": seen_of(page), "end": "mahjongg", "winner": "Ann",
            "value": "25"}
    html = refused(desk, lambda: c.post(f"/desk/{desk.tid}/table/1/game", data=form), 409,
                   "The score sheet of table 1 changed since this page was loaded")
    # the page now shows game 2 and keeps what was typed, ready to submit again
    assert 'id="save-game">Save game 3<' in html and 'value="25"' in html
    form["seen"] = seen_of(html)
    assert c.post(f"/desk/{desk.tid}/table/1/game", data=form,
                  follow_redirects=False).status_code == 303
    # another table's games do not make this table's page stale
    page = desk.table(1)
    desk.enter(2, {"end": "wall"})
    form["seen"] = seen_of(page)
    assert c.post(f"/desk/{desk.tid}/table/1/game", data=form,
                  follow_redirects=False).status_code == 303
    # the director's round buttons: stale after the round changed
    director = desk.director()
    desk.post_director("close", force="on")
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/start",
                                 data={"key": desk.key, "seen": seen_of(director)}), 409,
            "The tournament changed since this page was loaded")


def test_director_commands_refused_with_their_message(open_round: Desk) -> None:
    desk = open_round
    c = desk.client
    seen = seen_of(desk.director())
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/players",
                                 data={"key": desk.key, "seen": seen, "names": "Ida"}), 400,
            "players cannot join once the first round has begun")
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/start",
                                 data={"key": desk.key, "seen": seen}), 400,
            "round 1 is still open: close it first")
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/delay",
                                 data={"key": desk.key, "seen": seen, "table": "9"}), 400,
            "there is no table 9 (1-2)")
    # a correction needs a reason, and its result is checked like any other
    page = c.get(f"/desk/{desk.tid}/correct",
                 params={"key": desk.key, "round": 1, "table": 1, "game": 1}).text
    assert 'value="Cat" checked' in page and 'value="30"' in page  # filled in as entered
    base = {"key": desk.key, "seen": seen_of(page), "round": "1", "table": "1", "game": "1",
            "end": "mahjongg", "winner": "Cat", "value": "35"}
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/correct", data={**base, "reason": " "}),
            400, "a correction needs a reason for the audit trail")
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/correct",
                                 data={**base, "value": "-5", "reason": "typo"}), 400,
            "a whole number from 1 to 100 (got -5)")
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/correct",
                                 data={**base, "result_json": '{"card": "/etc/passwd"}',
                                       "reason": "x"}), 400,
            "card: on the web desk only")
    # adding players before the start: duplicate names and nametag-like names are refused
    d2 = Desk(c, desk.database_url, name="Second")
    d2.add("Ann")
    seen = seen_of(d2.director())
    refused(d2, lambda: c.post(f"/desk/{d2.tid}/players",
                               data={"key": d2.key, "seen": seen, "names": "Bea\nann"}), 400,
            "'ann' is already registered")
    refused(d2, lambda: c.post(f"/desk/{d2.tid}/start", data={"key": d2.key, "seen": seen}),
            400, "1 players do not fill a table of 4: 3 more needed")


def test_creating_a_tournament_checks_the_form(client: TestClient) -> None:
    for form, message in [({"name": ""}, "name: the tournament needs a name"),
                          ({"name": "X", "seats": "3"}, "seats: 4 (standard tables) or 2"),
                          ({"name": "X", "rounds": "0"}, "rounds: a whole number from 1 to 30"),
                          ({"name": "X", "minutes": "-5"}, "minutes: a whole number"),
                          ({"name": "X", "moves": "E=1"}, "East stays at its table")]:
        r = client.post("/desk", data=form)
        assert r.status_code == 400 and message in r.text, (form, r.text)
    r = client.get("/desk")
    assert r.status_code == 200 and 'id="new-tournament"' in r.text


def test_creating_a_tournament_redirects_and_reloading_creates_nothing(
        client: TestClient) -> None:
    """Post/Redirect/Get: the links of the new tournament are a page of their own."""
    r = client.post("/desk", data={"name": "Spring Open", "seats": "4", "rounds": "4",
                                   "minutes": "50", "revision": "2024"},
                    follow_redirects=False)
    assert r.status_code == 303
    m = re.fullmatch(r"/desk/(\w+)/created\?key=([\w-]+)", r.headers["location"])
    assert m is not None, r.headers["location"]
    tid, key = m.groups()
    first, again = client.get(r.headers["location"]), client.get(r.headers["location"])
    assert first.status_code == again.status_code == 200 and first.text == again.text
    assert (f'id="director-link" value="http://testserver/desk/{tid}?key={key}"'
            in first.text)
    for link in ("director-link", "standings-link"):  # absolute, each with a Copy button
        assert f'data-copy="{link}">Copy</button>' in first.text
    store = client.app.state.desk  # type: ignore[attr-defined]
    assert [t["name"] for t in client.portal.call(store.listing)] == ["Spring Open"]
    wrong = client.get(f"/desk/{tid}/created?key=nope")
    assert wrong.status_code == 403 and "director-link" not in wrong.text


def test_the_directors_links_are_absolute_each_with_a_copy_button(open_round: Desk) -> None:
    desk = open_round
    page = desk.director()
    base = f"http://testserver/desk/{desk.tid}"
    assert (f'id="table-link-1" value="{base}/table/1?key={desk.table_key(1)}"' in page)
    assert f'id="director-url" value="{base}?key={desk.key}"' in page
    assert f'id="standings-url" value="{base}/standings"' in page
    for link in ("table-link-1", "table-link-2", "director-url", "standings-url"):
        assert f'data-copy="{link}">Copy</button>' in page
    assert '<script type="module" src="/static/js/copy.js"></script>' in page


def test_late_games_and_a_delayed_table(open_round: Desk) -> None:
    desk = open_round
    store = desk.client.app.state.desk  # type: ignore[attr-defined]
    store.clock = lambda: time.time() + 51 * 60  # the round's 50 minutes are up
    page = desk.table(1)
    assert "time is up" in page
    r = desk.enter(1, {"end": "mahjongg", "winner": "Ann", "value": "50"})
    after = desk.client.get(r.headers["location"]).text
    assert "Saved: game 2: Ann 0, Bea 0, Cat 0, Dot 0 (after time: no points)" in after
    assert "late: game 2" in desk.director()
    desk.post_director("delay", table="1")
    page = desk.director()
    assert "game(s) 2 scored again" in page and ">delayed<" in page
    standings = {row["name"]: row["points"] for row in desk.public_standings()}
    assert standings["Ann"] == 50 and standings["Cat"] == 30


# ---------------------------------------------------------------------- Siamese tables


def test_siamese_tables_enter_game_sheets(client: TestClient, database_url: str) -> None:
    desk = Desk(client, database_url, name="Twins", seats="2", rounds="2", revision="2019")
    desk.add("Ann", "Bea", "Cat", "Dot")
    desk.start()
    model = Tournament("Twins", seats=2, rounds_planned=2, revision="2019")
    for n in ("Ann", "Bea", "Cat", "Dot"):
        model.add_player(n)
    model.start_round(0.0)
    assert seated_names(model, 1, 1) == ["Ann", "Bea"]
    form = {"ev1_kind": "mahjongg", "ev1_player": "Bea", "ev1_rack": "2", "ev1_value": "25",
            "ev1_closed": "on",
            "ev2_kind": "mahjongg", "ev2_player": "Ann", "ev2_rack": "1", "ev2_value": "30",
            "ev2_jokerless": "on", "ev2_claimed": "on",
            "ev3_kind": "mahjongg", "ev3_player": "Ann", "ev3_rack": "2", "ev3_value": "35",
            "ev3_claimed": "on"}
    r = desk.enter(1, form)
    sheet = {"events": [
        {"mahjongg": "Bea", "rack": 2, "value": 25, "closed": True},
        {"mahjongg": "Ann", "rack": 1, "value": 30, "jokerless": True, "discarder": "Bea"},
        {"mahjongg": "Ann", "rack": 2, "value": 35, "discarder": "Bea"}]}
    g = model.enter_game(1, sheet, 0.0)
    points = ", ".join(f"{model.name_of(t)} {p:+d}" for t, p in g.points.items())
    assert f"Saved: game 1: {points}" in client.get(r.headers["location"]).text
    desk.confirm(1, 1, "Bea")
    # a wall game with a dead rack
    desk.enter(1, {"ev1_kind": "dead", "ev1_player": "Bea", "ev1_rack": "2",
                   "ev1_cause": "wrong_wall", "wall_game": "on"})
    model.enter_game(1, {"events": [{"dead": "Bea", "rack": 2, "cause": "wrong_wall"},
                                    {"wall_game": True}]}, 0.0)
    # bad lines are named by their line on the form
    refused(desk, lambda: desk.enter(2, {"ev1_kind": "mahjongg", "ev1_player": "Cat",
                                         "ev1_rack": "1", "ev1_value": "-30"}, expect=400),
            400, "line 1.value: must be a whole number from 1 to 100 (got -30)")
    refused(desk, lambda: desk.enter(2, {"ev2_kind": "mahjongg", "ev2_player": "Zed",
                                         "ev2_rack": "1", "ev2_value": "30"}, expect=400),
            400, "line 2.mahjongg: unknown player 'Zed' (players: Cat, Dot)")
    refused(desk, lambda: desk.enter(2, {}, expect=400), 400,
            "the sheet does not say how the game ended")
    shown = desk.public_standings()
    assert shown == [{k: row[k] for k in ("rank", "name", "nametag", "points", "wins", "games")}
                     for row in model.standings()]


def test_commands_on_one_tournament_are_serialized(open_round: Desk) -> None:
    """Two phones at table 1 save at the same moment from the same page: one game is
    entered, the other phone is told the sheet changed; nothing is lost or doubled."""
    desk = open_round
    page = desk.table(1)
    forms = [{"key": desk.table_key(), "seen": seen_of(page), "end": "mahjongg", "winner": w,
              "value": "25"} for w in ("Ann", "Dot")]

    def post(form: dict[str, str]) -> int:
        r = desk.client.post(f"/desk/{desk.tid}/table/1/game", data=form,
                             follow_redirects=False)
        return int(r.status_code)

    with ThreadPoolExecutor(2) as pool:
        codes = sorted(pool.map(post, forms))
    assert codes == [303, 409]
    doc, version = desk.stored()
    sheet = json.loads(doc)["rounds"][0]["sheets"]["1"]
    assert [g["number"] for g in sheet] == [1, 2]
    # created (1), 8 players (one command), start, game 1, game 2
    assert version == 5


# ---------------------------------------------------------------------- fixes


def test_a_huge_value_is_refused(open_round: Desk) -> None:
    desk = open_round
    refused(desk, lambda: desk.enter(1, {"end": "mahjongg", "winner": "Ann",
                                         "value": "999999999"}, expect=400), 400,
            "value: the card value of the winning hand, a whole number from 1 to 100 "
            "(got 999999999)")


def test_the_highest_card_value_is_a_setting(client: TestClient, database_url: str) -> None:
    desk = Desk(client, database_url, max_value="75")
    assert "highest card value 75" in desk.director()
    r = client.post("/desk", data={"name": "X", "max_value": "0"})
    assert r.status_code == 400 and "highest card value: a whole number from 1 to 1000" in r.text


def test_a_form_without_its_seen_field_is_refused(open_round: Desk) -> None:
    desk = open_round
    c = desk.client
    message = "This form is missing what page it came from (seen)"
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/table/1/game",
                                 data={"key": desk.table_key(), "end": "wall"}), 400, message)
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/table/1/confirm",
                                 data={"key": desk.table_key(), "game": "1", "by": "Ann"}),
            400, message)
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/close", data={"key": desk.key}), 400,
            message)
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/correct",
                                 data={"key": desk.key, "round": "1", "table": "1",
                                       "game": "1", "end": "wall", "reason": "x"}),
            400, message)


def test_each_table_has_its_own_key(open_round: Desk) -> None:
    desk = open_round
    c = desk.client
    one, two = desk.table_key(1), desk.table_key(2)
    assert one != two
    # table 1's key opens table 1 only: not table 2's page, nor its forms
    assert c.get(f"/desk/{desk.tid}/table/1", params={"key": one}).status_code == 200
    r = c.get(f"/desk/{desk.tid}/table/2", params={"key": one})
    assert r.status_code == 403 and "table 2&#39;s own entry link is needed" in r.text
    seen = seen_of(desk.table(2))
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/table/2/game",
                                 data={"key": one, "seen": seen, "end": "wall"}), 403,
            "table 2's own entry link is needed here")
    refused(desk, lambda: c.post(f"/desk/{desk.tid}/table/2/confirm",
                                 data={"key": one, "seen": seen, "game": "1", "by": "Eve",
                                       "code": desk.code("Eve")}), 403, "not valid here")
    assert c.get(f"/desk/{desk.tid}/table/2", params={"key": two}).status_code == 200
    # only hashes are stored, one per table
    engine = create_engine(desk.database_url)
    with engine.connect() as conn:
        hashes = conn.execute(text("SELECT table_key_hashes FROM tournaments WHERE id = :id"),
                              {"id": desk.tid}).scalar_one()
    engine.dispose()
    hashes = hashes if isinstance(hashes, dict) else json.loads(hashes)
    assert sorted(hashes) == ["1", "2"] and one not in json.dumps(hashes)


def test_a_confirmation_needs_the_opposite_players_code(open_round: Desk) -> None:
    desk = open_round
    page = desk.table(1)
    assert 'name="code"' in page and desk.code("Ann") not in page  # never shown to tables
    refused(desk, lambda: desk.confirm(1, 1, "Ann", expect=400, code=desk.code("Cat")), 400,
            "code: that is not Ann's code")
    refused(desk, lambda: desk.confirm(1, 1, "Ann", expect=400, code=" "), 400,
            "code: the player who signs types their own code")
    desk.confirm(1, 1, "Ann")
    assert "<td>Ann</td>" in desk.table(1)


def test_wrong_codes_pause_a_tables_confirmations(open_round: Desk) -> None:
    desk = open_round
    for _ in range(5):
        desk.confirm(1, 1, "Ann", expect=400, code="AAAAA")
    refused(desk, lambda: desk.confirm(1, 1, "Ann", expect=400), 400,
            "5 wrong codes at table 1: confirmations there wait 10 minute(s)")
    store = desk.client.app.state.desk  # type: ignore[attr-defined]
    later = time.time() + 601
    store.clock = lambda: later
    desk.confirm(1, 1, "Ann")


def test_close_round_lists_what_is_missing(open_round: Desk) -> None:
    desk = open_round
    page = desk.director()
    assert "Before round 1 is locked:" in page
    assert "<li>table 1 game 1: the win of Cat is not confirmed (Ann signs)</li>" in page
    assert "<li>table 2 entered no game</li>" in page
    refused(desk, lambda: desk.post_director("close", expect=400), 400,
            "Round 1 is not complete: table 1 game 1: the win of Cat is not confirmed (Ann "
            "signs); table 2 entered no game. Tick \"lock anyway\" to close it as it is.")
    desk.close(force=True)
    assert "round 1 locked (2 open point(s) left" in desk.director()


def test_find_your_seat_and_no_win_labels(client: TestClient, database_url: str) -> None:
    desk = Desk(client, database_url, name="Twins", seats="2", rounds="2")
    desk.add("Dot", "bea", "Cat", "Ann", "Eve")
    r = client.get(f"/desk/{desk.tid}/seats", params={"round": 2})
    assert r.status_code == 200
    names = re.findall(r'<tr data-name="([^"]+)">', r.text)
    assert names == ["Ann", "bea", "Cat", "Dot", "Eve"]
    assert "bye" in r.text
    assert client.get(f"/desk/{desk.tid}/seats", params={"round": 9}).status_code == 404
    desk.start()
    # a Mah Jongg without a win is not a wall game
    desk.enter(1, {"ev1_kind": "mahjongg", "ev1_player": "Dot", "ev1_rack": "1",
                   "ev1_value": "30", "ev2_kind": "wrong_tile_count", "ev2_player": "bea"})
    page = desk.table(1)
    assert "no win: Mah Jongg by Dot" in page and "wall game" not in page.split("Game 2")[0]
    # an empty seat: that table has a bye
    page = desk.table(3)
    assert 'id="bye"' in page and 'id="game-form"' not in page


def test_withdraw_and_substitute_on_the_director_page(open_round: Desk) -> None:
    desk = open_round
    desk.post_director("withdraw", player="1S")
    assert "(withdrawn from round 2)" in desk.director()
    desk.post_director("substitute", seat="1S", sub_round="2", sub_name="Zoe")
    assert "Zoe on seat 1S (table 2) in round 2" in desk.director()
    refused(desk, lambda: desk.post_director("substitute", expect=400, seat="1S",
                                             sub_round="2", sub_name="Ann"), 400,
            "'Ann' is a registered player")
