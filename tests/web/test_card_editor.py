"""The card editor in a real browser: a three-line card built by clicks, an error shown at
its token, the card saved, and a table started with it (Debian's chromium, Playwright)."""

from __future__ import annotations

import re
from typing import Any

from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    PageErrors,
    _get_json,
    pytestmark,
    shot,
)
from tests.web.test_browser import browser as browser
from tests.web.test_browser import server as server


def click(page: Any, *labels: str) -> None:
    for label in labels:
        page.get_by_role("button", name=label, exact=True).click()


def line(page: Any, n: int) -> Any:
    return page.locator(f"ol.lines li[data-line='{n}']")


def test_a_card_built_by_clicks_is_saved_and_played(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = PageErrors(page)
    page.goto(f"{server}/cards")
    page.get_by_label("Card name").fill("Club Card")

    page.get_by_label("Section", exact=True).fill("2468")
    click(page, "Flower", "Flower", "next group (space)", "2", "2", "2", "suit a",
          "next group (space)", "4", "4", "4", "suit a", "next group (space)", "6", "6", "6",
          "suit b", "next group (space)", "8", "8", "8", "suit b")
    assert page.get_by_role("textbox", name="Pattern").input_value() == "FF 222a 444a 666b 888b"
    line(page, 1).locator(".ways").filter(has_text="6 ways").wait_for()
    assert line(page, 1).locator(".sample img").count() == 14

    page.click("#add-line")
    page.get_by_label("Section", exact=True).fill("Winds")
    page.get_by_label("Value", exact=True).fill("30")
    click(page, "North", "North", "North", "North", "next group (space)", "1")
    bad = line(page, 2).locator("mark.bad-token")
    bad.wait_for()
    assert bad.inner_text() == "1"
    assert line(page, 2).locator(".problem").inner_text() == "1 needs a suit letter a, b or c"
    assert "problem" in page.inner_text(".status")
    click(page, "backspace", "East", "East", "East", "East", "next group (space)", "West",
          "West", "West", "next group (space)", "South", "South", "South")
    line(page, 2).locator(".ways").filter(has_text="1 way").wait_for()
    assert line(page, 2).locator(".problem").count() == 0

    page.click("#add-line")
    page.get_by_label("Section", exact=True).fill("2026")
    page.get_by_role("textbox", name="Pattern").fill("2026a 2026b NNN SSS")  # typed, not clicked
    line(page, 3).locator(".ways").filter(has_text="3 ways").wait_for()
    page.locator(".status.good").filter(has_text="3 lines, 10 ways: the card is good.").wait_for()
    shot(page, "card-editor")

    page.click("#save-card")
    page.locator("#save-status").filter(has_text='Saved "Club Card"').wait_for()
    card_id = re.search(r"/cards/(\w+)$", page.url).group(1)
    page.click("#play-card")
    assert page.locator("#saved-card").input_value() == card_id
    assert page.locator("#card-saved-choice").is_checked()
    page.get_by_label("Your name").fill("Ann")
    page.click("#create-table")
    page.click("#go-to-table")
    page.wait_for_selector("#table-app")
    game_id = re.search(r"/t/([0-9a-f]+)", page.url).group(1)
    rec = _get_json(f"{server}/api/games/{game_id}/record")
    assert rec["card"]["name"] == "Club Card"
    assert 'pattern = "FF 222a 444a 666b 888b"' in rec["card"]["source"]
    errors.check()
    page.close()
