"""Every POST of the application is refused without this browser's CSRF token.

The test enumerates the app's routes (as tests/server/test_leaks.py does), so a form route
added later is covered without anyone remembering it. Forms send the token in their hidden
``csrf`` field; the card editor's JSON calls (``/api/...``) send it in the ``X-CSRF-Token``
header: both are read by the one dependency, server/csrf.py.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.routing import APIRoute
from sqlalchemy import create_engine, text

from tests.server.helpers import create_table, make_client
from tests.server.test_leaks import flat_routes
from twinrack.server.csrf import token_of

EXPIRED = "This form has expired"


def posted_routes(app: Any) -> list[str]:
    """Every path that takes a method other than GET/HEAD (they must all be checked)."""
    out = []
    for r in flat_routes(app.routes):
        if isinstance(r, APIRoute) and set(r.methods or ()) - {"GET", "HEAD"}:
            assert set(r.methods) - {"GET", "HEAD"} == {"POST"}, r.path  # no PUT/DELETE yet
            out.append(r.path)
    return sorted(out)


def fill(path: str, game_id: str, tid: str) -> str:
    path = path.replace("{game_id}", game_id).replace("{tid}", tid)
    return re.sub(r"\{[^}]+\}", "1", path)


def refused(r: Any, path: str) -> bool:
    if path.startswith("/api/"):
        return r.status_code == 403 and "CSRF" in r.json()["error"]
    return r.status_code == 403 and EXPIRED in r.text


FORM = {"name": "Ann", "password": "correct horse battery", "session": "all", "token": "x",
        "variant": "siamese", "players": "2", "seat1": "random", "rounds": "1", "seats": "4"}


def test_every_post_route_refuses_a_missing_wrong_or_foreign_token(database_url: str
                                                                   ) -> None:
    with make_client(database_url) as client, make_client(database_url) as other:
        paths = posted_routes(client.app)
        assert "/tables" in paths and "/t/{game_id}/rematch" in paths and len(paths) >= 20
        game_id, _ = create_table(client)
        r = client.post("/desk", data={"name": "Open", "seats": "4", "rounds": "1",
                                       "minutes": "50", "revision": "2024"})
        tid = re.search(r"/desk/(\w+)\?key=", r.text)[1]  # type: ignore[index]
        foreign = other.csrf_token()

        db = create_engine(database_url.removeprefix("cluster:"))

        def games() -> int:  # every game in the database
            with db.connect() as conn:
                return int(conn.execute(text("SELECT count(*) FROM games")).scalar_one())

        assert games() == 1  # the table made above
        for path in paths:
            url = fill(path, game_id, tid)
            before = games()
            for how in ({}, {"csrf": "0" * 64}, {"csrf": foreign}):
                r = client.post(url, data={**FORM, **how}, csrf=False,
                                follow_redirects=False)
                assert refused(r, path), (path, how, r.status_code, r.text[:200])
            for header in ("", "0" * 64, foreign):  # the header, as the scripts send it
                r = client.post(url, json={"source": ""}, csrf=False,
                                headers={"X-CSRF-Token": header}, follow_redirects=False)
                assert refused(r, path), (path, header, r.status_code)
            assert games() == before, path  # the refused posts changed nothing
            # with this browser's own token the check lets it through
            r = client.post(url, data=FORM, follow_redirects=False)
            assert not refused(r, path), path
            if path == "/tables":  # the same form, with the token, makes a table
                assert r.status_code == 303 and games() == before + 1


def test_a_browser_without_cookies_cannot_post_and_its_first_page_gives_it_a_token(
        database_url: str) -> None:
    with make_client(database_url) as client:
        r = client.post("/tables", data={**FORM, "csrf": "0" * 64}, csrf=False,
                        follow_redirects=False)
        assert r.status_code == 403 and EXPIRED in r.text
        assert "twinrack_id" in r.headers.get("set-cookie", "")  # the refusal page's cookie
        client.cookies.clear()
        page = client.get("/").text
        token = re.search(r'name="csrf" value="(\w+)"', page)[1]  # type: ignore[index]
        meta = re.search(r'<meta name="csrf-token" content="(\w+)"', page)[1]  # type: ignore[index]
        assert token == meta == token_of(client.cookies["twinrack_id"])
        r = client.post("/tables", data={**FORM, "csrf": token}, csrf=False,
                        follow_redirects=False)
        assert r.status_code == 303, r.text


def test_signing_in_changes_the_token(database_url: str) -> None:
    from tests.server.accounts_helpers import csrf_of, sign_up

    with make_client(database_url) as client:
        guest = csrf_of(client, "/")
        sign_up(client, "erin")
        member = csrf_of(client, "/")
        assert guest != member == token_of(client.cookies["twinrack_session"])
        r = client.post("/tables", data={**FORM, "csrf": guest}, csrf=False,
                        follow_redirects=False)
        assert r.status_code == 403 and EXPIRED in r.text
