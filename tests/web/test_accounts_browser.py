"""Accounts in a real browser: a guest's game kept on sign-up, the same history signed in
from a second browser, a wrong password, then a locked account."""

from __future__ import annotations

from typing import Any

from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    DESKTOP,
    PHONE,
    PageErrors,
    game_id,
    pytestmark,
)
from tests.web.test_browser import server as server

PASSWORD = "a long and quiet passphrase"


def my_games(page: Any, base: str) -> list[str]:
    page.goto(f"{base}/account/games")
    page.wait_for_selector("h1:has-text('My games')")
    hrefs = page.locator("table.my-games a").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))")
    return sorted({h.split("/")[2] for h in hrefs})


def fill_and_send(page: Any, form: str, name: str, password: str) -> None:
    page.fill(f"{form} input[name=name]", name)
    page.fill(f"{form} input[name=password]", password)
    page.click(f"{form} button[type=submit]")


def test_a_guests_game_is_kept_on_sign_up_and_seen_from_a_second_browser(
        server: str, browser: Any) -> None:
    phone = browser.new_context(viewport=PHONE)
    page = phone.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/")
    page.click("#play-computer")
    page.wait_for_selector("#table-app")
    guest_game = game_id(page)
    page.goto(f"{server}/signup")
    fill_and_send(page, "#signup-form", "Nora", PASSWORD)
    page.wait_for_selector("h1:has-text('Your account: Nora')")
    assert my_games(page, server) == [guest_game]
    errors.check()

    laptop = browser.new_context(viewport=DESKTOP)
    other = laptop.new_page()
    other.goto(f"{server}/account")  # a guest is sent to sign in first
    fill_and_send(other, "#signin-form", "nora", PASSWORD)
    other.wait_for_selector("h1:has-text('Your account: Nora')")
    assert other.locator("ul.sessions li").count() == 2
    assert my_games(other, server) == [guest_game]
    # a table opened on the laptop is in the phone's list too
    other.goto(f"{server}/")
    other.click("#play-computer")
    other.wait_for_selector("#table-app")
    second = game_id(other)
    assert my_games(page, server) == sorted([guest_game, second])
    phone.close()
    laptop.close()


def test_a_wrong_password_then_a_locked_account(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/signup")
    fill_and_send(page, "#signup-form", "oscar", PASSWORD)
    page.wait_for_selector("h1:has-text('Your account: oscar')")
    page.click("#signout")
    page.wait_for_url(f"{server}/")
    errors.check()  # from here on the refusals answer 400 and 429, as they should
    for _ in range(5):
        page.goto(f"{server}/signin")
        fill_and_send(page, "#signin-form", "oscar", "not my password")
        page.wait_for_selector(".errors")
        assert page.inner_text(".errors") == "That user name and password do not match."
    page.goto(f"{server}/signin")
    fill_and_send(page, "#signin-form", "oscar", PASSWORD)
    page.wait_for_selector(".errors")
    assert "Too many failed sign-ins for this account: it is locked for 15 more minutes" \
        in page.inner_text(".errors")
    assert page.locator("h1").inner_text() == "Sign in"
    ctx.close()
