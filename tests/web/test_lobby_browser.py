"""The lobby in a real browser: "Play the computer" opens the table at once, reloading a
created table's pages creates no other table (Post/Redirect/Get), the form offers only the
player counts of the chosen variant, the Copy button copies the absolute invite link, the
invited friend chooses a name that the table shows, and the pages fit a phone."""

from __future__ import annotations

import re
from typing import Any

from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    DESKTOP,
    PHONE,
    PageErrors,
    game_id,
    pytestmark,
    shot,
)
from tests.web.test_browser import server as server


def unfinished(page: Any, base: str) -> list[str]:
    """The ids of this browser's unfinished games ("My games")."""
    page.goto(f"{base}/history")
    links = page.locator("ul.games a[href^='/t/']").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))")
    return sorted(re.sub(r"^/t/", "", h) for h in links if "/replay" not in h)


def test_play_the_computer_and_reloading_creates_no_other_table(server: str,
                                                                browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/")
    page.click("#play-computer")
    page.wait_for_selector("#table-app")
    first = game_id(page)
    assert page.url == f"{server}/t/{first}"  # no token in the address
    assert page.get_attribute("#table-app", "data-seat") == "0"
    page.reload()
    page.wait_for_selector("#table-app")
    assert game_id(page) == first
    assert unfinished(page, server) == [first]

    # a table with a friend: the page of invite links, reloaded twice
    page.goto(f"{server}/")
    page.check("input[name=variant][value=royale]")
    assert page.locator("#players option:not([disabled])").all_inner_texts() == ["3", "4"]
    assert page.input_value("#players") == "3"
    assert page.is_visible("label.seat-choice[data-seat='2']")
    assert not page.is_visible("label.seat-choice[data-seat='3']")
    page.select_option("select[name=seat1]", "human")
    page.click("#create-table")
    page.wait_for_selector("#go-to-table")
    second = re.search(r"/t/(\w+)/ready$", page.url).group(1)
    links = page.locator(".invite-link").evaluate_all("els => els.map(e => e.value)")
    page.reload()
    page.reload()
    assert page.locator(".invite-link").evaluate_all("els => els.map(e => e.value)") == links
    assert unfinished(page, server) == sorted([first, second])
    errors.check()
    ctx.close()


def test_an_invite_is_copied_and_the_friend_chooses_a_name(server: str, browser: Any) -> None:
    host = browser.new_context(viewport=DESKTOP)
    host.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    friend = browser.new_context(viewport=PHONE)
    p1, p2 = host.new_page(), friend.new_page()
    errors = [PageErrors(p1), PageErrors(p2)]
    p1.goto(f"{server}/")
    p1.get_by_label("Your name").fill("Ann")
    p1.select_option("select[name=seat1]", "human")
    p1.click("#create-table")
    copy = p1.locator("li[data-seat='1'] button.copy")
    copy.click()
    # the clipboard answers in its own time; the button says so, then its words go back
    p1.wait_for_selector("li[data-seat='1'] button.copy[data-state='copied']")
    invite = p1.evaluate("navigator.clipboard.readText()")
    assert invite == p1.input_value("#invite-1")
    assert re.fullmatch(rf"{server}/t/\w+/join\?token=[\w-]+", invite)
    shot(p1, "lobby-invites")
    p1.click("#go-to-table")
    p1.wait_for_selector("#table-app")

    p2.goto(invite)
    shot(p2, "join-phone")
    p2.get_by_label("Your name, as the other players will see it").fill("Bea")
    p2.click("#take-seat")
    p2.wait_for_selector("#table-app")
    assert p2.url == p1.url  # the token left the address
    assert p2.get_attribute("#table-app", "data-seat") == "1"
    p1.get_by_text("Bea").first.wait_for()  # the table shows the chosen name
    p1.goto(p1.url.replace(f"/t/{game_id(p1)}", f"/t/{game_id(p1)}/ready"))
    assert "Seat 2: Bea" in p1.inner_text("li[data-seat='1']")
    for e in errors:
        e.check()
    host.close()
    friend.close()


def test_the_lobby_and_the_editor_fit_a_phone(server: str, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    for path in ("/", "/cards", "/docs/card-language.md"):
        page.goto(f"{server}{path}")
        page.wait_for_selector("h1")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], f"{path} is {wide} px wide"
    page.goto(f"{server}/")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip-link")
    assert skip.evaluate("e => e === document.activeElement")
    assert skip.bounding_box()["y"] >= 0  # shown when focused
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.close()
