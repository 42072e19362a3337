"""Tables nobody can block (issue 26), in chromium: the host's waiting room and Start, the
countdown every page shows for a friend who has not come, the host handing the seat to
the computer at once, the friend taking it back; the name the lobby remembers; the 404
page; the Siamese seats named East and West."""

from __future__ import annotations

import re
from typing import Any

from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    DESKTOP,
    PHONE,
    PageErrors,
    pytestmark,
)
from tests.web.test_browser import server as server


def test_the_host_starts_without_a_friend_and_hands_the_seat_to_the_computer(
        server: str, browser: Any) -> None:
    host = browser.new_context(viewport=DESKTOP)
    friend = browser.new_context(viewport=PHONE)
    p1, p2 = host.new_page(), friend.new_page()
    errors = [PageErrors(p1), PageErrors(p2)]
    p1.goto(f"{server}/")
    p1.get_by_label("Your name").fill("Ann")
    p1.select_option("select[name=seat1]", "human")
    p1.click("#create-table")
    invite = p1.input_value("#invite-1")
    p1.click("#go-to-table")
    p1.wait_for_selector("#waiting-room")
    assert "Friend 2: not here yet" in p1.inner_text("#waiting-room")
    p1.click("#start-game")
    p1.wait_for_selector("#waiting-room", state="detached")
    # the countdown of the friend who has not come, and the host's button
    notice = p1.locator(".takeover-notice[data-seat='1']")
    notice.wait_for()
    left = int(re.search(r"in (\d+) s", notice.inner_text()).group(1))
    assert 50 <= left <= 60  # the server's grace period: a minute
    p1.click("#hand-over-1")
    p1.wait_for_selector("#absent-seats", state="detached")
    p1.get_by_text("bot playing").first.wait_for()

    # the friend comes after all: the seat is theirs again
    p2.goto(invite)
    assert "has started" in p2.inner_text("#join-started")
    p2.get_by_label("Your name, as the other players will see it").fill("Bea")
    p2.click("#take-seat")
    p2.wait_for_selector("#table-app")
    assert "token" not in p2.url
    assert p2.get_attribute("#table-app", "data-seat") == "1"
    p1.get_by_text("Bea").first.wait_for()
    # the two seats of Siamese are East and West, as the desk and the join page name them
    assert p1.text_content(".my-area .wind") == "East"
    assert p1.text_content(".seat[data-seat='1'] .wind") == "West"
    assert p2.text_content(".my-area .wind") == "West"
    p1.wait_for_function("!document.body.innerText.includes('bot playing')")
    for e in errors:
        e.check()
    host.close()
    friend.close()


def test_the_lobby_remembers_the_name_and_an_unknown_address_is_a_page(
        server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{server}/")
    page.get_by_label("Your name").fill("Dora")
    page.select_option("select[name=seat1]", "expert")
    page.click("#create-table")
    page.wait_for_selector("#table-app")
    page.goto(f"{server}/")
    assert page.get_by_label("Your name").input_value() == "Dora"
    page.click("#play-computer")  # "Play the computer" plays under the name too
    page.wait_for_selector("#table-app")
    page.get_by_text("Dora").first.wait_for()
    r = page.goto(f"{server}/no/such/address")
    assert r.status == 404
    assert page.inner_text("h1") == "Page not found"
    assert "{" not in page.inner_text("body")
    ctx.close()


def test_the_page_says_it_passes_for_the_seat_and_offers_the_rematch_as_a_notice(
        server: str, browser: Any) -> None:
    from tests.web.test_browser import ScriptedServer, create_table, wait_version

    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    fake = ScriptedServer()
    fake.set_state([("pass", False), ("claim expose", False)], log=[], phase="window",
                   current=1, to_act=[0], window={"discarder": 1, "tile": "6C"},
                   version=5, players=3)
    page.route_web_socket(re.compile(r"/ws/"), fake.handler)
    create_table(page, server, "Ann", "random")
    wait_version(page, 5)
    assert page.locator("#claim-check").count() == 0  # asked as usual until it is known
    fake.state["version"] = 6
    fake.send_state(claim_check={"result": "pass", "reason": "6 Crak does not help your plan"},
                    auto_pass=True)
    wait_version(page, 6)
    notice = page.inner_text("#claim-check")
    assert "Passing for you when the call timer runs out: 6 Crak does not help your plan" \
        in notice and "You may still claim it" in notice
    # the switch of "pass unless the claim helps" goes to the server
    assert page.is_checked("#auto-pass")
    page.uncheck("#auto-pass")
    page.wait_for_function("true")
    assert {"type": "auto_pass", "on": False} in fake.received
    # the rematch: a notice, with a button to join it
    fake.state["version"] = 7
    fake.send_state(rematch="/t/abc")
    wait_version(page, 7)
    assert "A rematch is ready" in page.inner_text("#rematch-notice")
    assert page.is_visible("#rematch-notice-join")
    errors.check()
    ctx.close()
