"""The open room in a real browser (issue 28): two signed-in players meet through quick
match and finish a rated game against each other (each page played through its own
controls, the plain way of tests/web/clicks.py), both ratings move and the leaderboard
shows them; and a seat the computer takes when the host's wait runs out."""

from __future__ import annotations

import time
from typing import Any

from tests.web.clicks import READY_OR_OVER, ClickCounter, one_decision
from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    DESKTOP,
    PHONE,
    PageErrors,
    game_id,
    pytestmark,
)
from tests.web.test_browser import server as server
from twinrack.server.accounts import ratings

PASSWORD = "a long and quiet passphrase"


def signed_up(browser: Any, base: str, name: str, viewport: Any) -> Any:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(f"{base}/signup")
    page.fill("#signup-form input[name=name]", name)
    page.fill("#signup-form input[name=password]", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector(f"h1:has-text('Your account: {name}')")
    return page


def quick_match(page: Any, base: str, rated: bool = True, wait: str = "") -> None:
    page.goto(f"{base}/")
    page.click("#to-room")
    page.wait_for_selector("#quick-match")
    page.select_option("#quick-variant", "siamese")
    page.fill("#quick-players", "2")
    if rated:
        page.check("#quick-rated")
    if wait:
        page.fill("input[name=wait_seconds]", wait)
    page.click("#quick-go")
    page.wait_for_selector("#table-app")


def play_both_to_the_end(pages: list[Any], most: int = 2000) -> None:
    """Each page answers what its seat is asked, through its controls, until the end."""
    counters = [ClickCounter(p) for p in pages]
    deadline = time.monotonic() + 600
    while True:
        if all(p.get_attribute("#table-app", "data-phase") == "over" for p in pages):
            return
        moved = False
        for p, clicks in zip(pages, counters, strict=True):
            if p.locator("#table-app[data-ready='true']").count():
                one_decision(p, clicks)
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)
        assert sum(c.turns for c in counters) < most and time.monotonic() < deadline, \
            "the game does not end"


def leaderboard_row(page: Any, base: str, name: str) -> list[str]:
    """A player's row of the Siamese people leaderboard: place, name, rating, ranked by,
    games."""
    page.goto(f"{base}/leaderboard?pool=people:siamese")
    row = page.locator("tr", has=page.locator(f"a[href='/u/{name}']"))
    return [str(c) for c in row.locator("td").all_inner_texts()]


def test_two_players_meet_by_quick_match_and_finish_a_rated_game(
        server: str, browser: Any) -> None:
    ann = signed_up(browser, server, "annroom", DESKTOP)
    ben = signed_up(browser, server, "benroom", PHONE)
    errors = [PageErrors(ann), PageErrors(ben)]
    quick_match(ann, server)
    table = game_id(ann)
    ann.wait_for_selector("#waiting-room")
    ben.goto(f"{server}/room")
    row = ben.locator(f"tr[data-game='{table}']")
    assert "annroom" in row.inner_text() and "rated" in row.inner_text()
    quick_match(ben, server)
    assert game_id(ben) == table
    ann.wait_for_selector("#waiting-room", state="detached")
    ann.wait_for_selector(READY_OR_OVER + ", #table-app[data-phase]")
    play_both_to_the_end([ann, ben])
    first = ratings.start()
    for name in ("annroom", "benroom"):
        _, shown, rating, ranked_by, games = leaderboard_row(ann, server, name)
        assert shown == name and games == "1" and "(provisional)" in rating
        # both moved: a draw may leave the rating where it was, never the uncertainty
        assert int(ranked_by) != first.conservative, (name, rating, ranked_by)
    for e in errors:
        e.check()
    ann.context.close()
    ben.context.close()


def test_the_computer_takes_the_seat_nobody_took(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/room")
    page.fill("input[name=name]", "Lone")
    page.fill("input[name=wait_seconds]", "5")  # 60 s unless the host says otherwise
    page.click("#quick-go")
    page.wait_for_selector("#table-app")
    page.wait_for_selector("#waiting-room")
    assert page.locator("#open-tables").count() == 0  # on the table page now
    page.goto(f"{server}/room")
    assert page.locator(f"tr[data-game='{game_id_of_room(page)}']").count() == 1
    page.go_back()
    page.wait_for_selector("#table-app")
    page.get_by_text("bot playing").first.wait_for(timeout=30000)
    page.wait_for_selector("#waiting-room", state="detached")
    errors.check()
    ctx.close()


def game_id_of_room(page: Any) -> str:
    return str(page.get_attribute("#open-tables tr[data-game]", "data-game"))
