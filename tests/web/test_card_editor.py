"""The card editor in a real browser: a three-line card built by clicks, an error shown at
its token, the card saved (kept on the server and downloaded as a file that the command line
loads), opened again to edit, and a table started with it (Debian's chromium, Playwright)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    PageErrors,
    _get_json,
    pytestmark,
    shot,
)
from tests.web.test_browser import server as server

SPACE = "next group (space)"


def click(page: Any, *labels: str) -> None:
    for label in labels:
        page.get_by_role("button", name=label, exact=True).click()


def line(page: Any, n: int) -> Any:
    return page.locator(f"ol.lines li[data-line='{n}']")


def shown(page: Any, n: int, locator: Any) -> None:
    """Wait for ``locator``; if it never shows, fail with what line ``n`` and the status
    said instead (a bare timeout says nothing of what the page showed)."""
    try:
        locator.wait_for(timeout=20_000)
    except Exception:  # Playwright's TimeoutError
        raise AssertionError(f"line {n} shows {line(page, n).inner_text()!r}; the status "
                             f"says {page.inner_text('.status')!r}") from None


def card_check(path: Path) -> subprocess.CompletedProcess[str]:
    """``twinrack card check`` on a file, as a player would run it."""
    return subprocess.run([sys.executable, "-c", "from twinrack.cli import main; main()",
                           "card", "check", str(path)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "200"})


def test_a_card_built_by_clicks_is_saved_and_played(server: str, browser: Any,
                                                    tmp_path: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/cards")
    page.get_by_label("Card name").fill("Club Card")

    # line 1, by clicks: a section picked, the tiles and suit letters clicked
    page.get_by_label("Section", exact=True).fill("2468")
    click(page, "Flower", "Flower", SPACE, "2", "2", "2", "suit a", SPACE, "4", "4", "4",
          "suit a", SPACE, "6", "6", "6", "suit b", SPACE, "8", "8", "8", "suit b")
    assert page.get_by_role("textbox", name="Pattern").input_value() == "FF 222a 444a 666b 888b"
    line(page, 1).locator(".ways").filter(has_text="6 ways").wait_for()
    assert line(page, 1).locator(".sample img").count() == 14
    assert page.locator("#line-preview .sample img").count() == 14

    # line 2: a 1 with no suit letter is an error, marked at that very token
    page.click("#add-line")
    page.get_by_label("Section", exact=True).fill("Winds and dragons")
    page.get_by_label("Value", exact=True).fill("30")
    page.get_by_label("Concealed (C)").check()
    click(page, "North", "North", "North", "North", SPACE, "1")
    # (while the line was only "NNNN" it was marked there, for having 4 tiles of 14)
    problem = line(page, 2).locator(".problem")
    shown(page, 2, problem.filter(has_text="1 needs a suit letter a, b or c"))
    assert problem.inner_text() == "1 needs a suit letter a, b or c"
    assert line(page, 2).locator("mark.bad-token").inner_text() == "1"
    assert page.locator("#line-preview mark.bad-token").inner_text() == "1"
    assert "problem" in page.inner_text(".status")
    assert page.is_disabled("#save-card")
    click(page, "backspace", "East", "East", "East", "East", SPACE, "West", "West", "West",
          SPACE, "South", "South", "South")
    line(page, 2).locator(".ways").filter(has_text="1 way").wait_for()
    assert line(page, 2).locator(".problem").count() == 0

    # line 3, by clicks too: a year line (the 0 is the White dragon)
    page.click("#add-line")
    page.get_by_label("Section", exact=True).fill("Year")
    click(page, "2", "White dragon (0)", "2", "6", "suit a", SPACE, "2", "White dragon (0)",
          "2", "6", "suit b", SPACE, "North", "North", "North", SPACE, "South", "South",
          "South")
    assert page.get_by_role("textbox", name="Pattern").input_value() == "2026a 2026b NNN SSS"
    line(page, 3).locator(".ways").filter(has_text="3 ways").wait_for()
    page.locator(".status.good").filter(has_text="3 lines, 10 ways: the card is good.").wait_for()
    shot(page, "card-editor")

    # saved: kept on the server, and downloaded as the TOML file the command line loads
    with page.expect_download() as download:
        page.click("#save-card")
    page.locator("#save-status").filter(
        has_text='Saved "Club Card" for your tables, and downloaded as club-card.toml.').wait_for()
    assert download.value.suggested_filename == "club-card.toml"
    saved = tmp_path / "club-card.toml"
    download.value.save_as(saved)
    checked = card_check(saved)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "3 sections, 3 lines, 10 concrete ways: the card is good." in checked.stdout
    card_id = re.search(r"/cards/(\w+)$", page.url).group(1)

    # opened again, it is the same card, line by line
    page.goto(f"{server}/cards/{card_id}")
    line(page, 3).locator(".ways").filter(has_text="3 ways").wait_for()
    assert [line(page, n).locator(".pattern-text").inner_text() for n in (1, 2, 3)] == [
        "FF 222a 444a 666b 888b", "NNNN EEEE WWW SSS", "2026a 2026b NNN SSS"]
    assert line(page, 2).locator(".badge").inner_text() == "C"
    assert page.get_by_role("link", name="Club Card").get_attribute("href") == \
        f"/cards/{card_id}"

    # and a table is played with it
    page.click("#play-card")
    assert page.locator("#saved-card").input_value() == card_id
    assert page.locator("#card-saved-choice").is_checked()
    page.get_by_label("Your name").fill("Ann")
    page.click("#create-table")
    page.wait_for_selector("#table-app")
    game_id = re.search(r"/t/([0-9a-f]+)", page.url).group(1)
    rec = _get_json(f"{server}/api/games/{game_id}/record")
    assert rec["card"]["name"] == "Club Card"
    assert rec["card"]["source"] == saved.read_text()
    errors.check()
    ctx.close()


def test_a_typed_pattern_is_previewed_as_it_is_typed(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = PageErrors(page)
    page.goto(f"{server}/cards")
    page.get_by_label("Section", exact=True).fill("2468")
    pattern = page.get_by_role("textbox", name="Pattern")
    pattern.fill("FFFF 2222a 4444b ZZZ")
    preview = page.locator("#line-preview")
    preview.locator("mark.bad-token").filter(has_text="ZZZ").wait_for()
    assert preview.locator(".problem").all_inner_texts() == ["unknown symbol 'Z'"]
    pattern.fill("FF 2222a 4444b 6666c")
    preview.locator(".ways").filter(has_text="6 ways").wait_for()
    assert preview.locator(".sample img").count() == 14
    assert preview.locator("mark.bad-token").count() == 0
    errors.check()
    page.close()


def test_every_field_the_editor_writes_loads_with_the_command_line(
        server: str, browser: Any, tmp_path: Path) -> None:
    """The editor only writes the TOML card file; what it writes, for every field, is a
    card the loader reads back with the same values."""
    page = browser.new_page()
    page.goto(f"{server}/cards")
    model = {"name": 'Club "Card"', "edition": "2026", "hands": [
        {"section": "Quints", "pattern": "XXXXX0a XXXX1b XXXXX2c", "value": "40", "id": "Q-1",
         "concealed": True, "star": True, "declared": False, "suits": "any", "x": "1, 2",
         "y": "", "note": 'say "quint"'},
        {"section": "Special", "pattern": "F NEWS 1357Da 2468b", "value": "75", "id": "",
         "concealed": False, "star": False, "declared": True, "suits": "distinct", "x": "",
         "y": "", "note": ""},
    ]}
    text = page.evaluate("""async (card) => {
        const { toToml } = await import('/static/js/cardfile.js');
        return toToml(card).text; }""", model)
    path = tmp_path / "written.toml"
    path.write_text(text)
    checked = card_check(path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    fields = _post_json(page, f"{server}/api/cards/fields", {"source": text})
    assert fields == {"ok": True, "name": 'Club "Card"', "edition": "2026", "hands": [
        {"section": "Quints", "pattern": "XXXXX0a XXXX1b XXXXX2c", "value": 40, "id": "Q-1",
         "concealed": True, "star": True, "suits": "any", "x": [1, 2], "note": 'say "quint"'},
        {"section": "Special", "pattern": "F NEWS 1357Da 2468b", "value": 75,
         "declared": True}]}
    page.close()


def _post_json(page: Any, url: str, body: dict[str, Any]) -> Any:
    """POST JSON as the page's scripts do: its cookies and its CSRF token in the header."""
    token = page.get_attribute('meta[name="csrf-token"]', "content")
    resp = page.request.post(url, data=json.dumps(body), timeout=30_000,
                             headers={"Content-Type": "application/json",
                                      "X-CSRF-Token": token})
    assert resp.ok, resp.text()
    return resp.json()


# ---------------------------------------------------------------- issue 26: the editor's manners

COUNT_INPUTS = """() => { window.__inputs = {clicks: 0, keys: 0};
  document.addEventListener('click', (e) => { if (e.isTrusted) window.__inputs.clicks++; }, true);
  document.addEventListener('keydown', (e) => { if (e.isTrusted) window.__inputs.keys++; }, true);
}"""


def test_a_new_card_opens_clean_and_says_what_to_do(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = PageErrors(page)
    page.goto(f"{server}/cards")
    status = page.locator(".status")
    status.filter(has_text="Start with line 1").wait_for()
    assert "problem" not in status.inner_text()
    assert page.locator(".problem").count() == 0
    assert page.locator("mark.bad-token").count() == 0
    assert page.is_disabled("#save-card")
    # the pattern field has the keyboard, and the first line a section to start from
    assert page.evaluate("document.activeElement.name") == "pattern"
    assert page.get_by_label("Section", exact=True).input_value() != ""
    errors.check()
    page.close()


def test_counts_are_singular_for_one(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = PageErrors(page)
    page.goto(f"{server}/cards")
    page.get_by_label("Section", exact=True).fill("Winds and dragons")
    page.get_by_role("textbox", name="Pattern").fill("NNNN EEEE WWW SSS")
    page.locator(".status.good").filter(has_text="1 line, 1 way: the card is good.").wait_for()
    page.get_by_role("textbox", name="Pattern").press("Enter")
    page.keyboard.type("FF 2222a 4444b 6666c")
    page.locator(".status.good").filter(has_text="2 lines, 7 ways: the card is good.").wait_for()
    errors.check()
    page.close()


def test_a_busy_server_is_asked_again_and_the_card_is_checked(server: str,
                                                             browser: Any) -> None:
    """A check the server answers "busy" (503) is not the card's fault: the page says it
    checks again, and does, instead of showing that error until the next edit."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    busy = {"left": 2}

    def answer(route: Any) -> None:
        if busy["left"] > 0:
            busy["left"] -= 1
            route.fulfill(status=503, content_type="application/json",
                          body=json.dumps({"error": "the server is busy"}))
        else:
            route.continue_()

    page.route("**/api/cards/check", answer)
    page.goto(f"{server}/cards")
    page.get_by_label("Section", exact=True).fill("Winds and dragons")
    page.get_by_role("textbox", name="Pattern").fill("NNNN EEEE WWW SSS")
    page.locator(".status.bad").filter(has_text="checking again in a moment").wait_for()
    page.locator(".status.good").filter(has_text="1 line, 1 way: the card is good.").wait_for()
    assert busy["left"] == 0
    page.close()


def test_a_tile_count_error_marks_the_whole_pattern_not_its_first_group(
        server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = PageErrors(page)
    page.goto(f"{server}/cards")
    page.get_by_role("textbox", name="Pattern").fill("FF 222a 444a 666b 88b")
    preview = page.locator("#line-preview")
    preview.locator(".problem").filter(has_text="pattern has 13 tiles").wait_for()
    assert preview.locator("mark.bad-token").inner_text() == "FF 222a 444a 666b 88b"
    # an error on one group still marks that group, and only it
    page.get_by_role("textbox", name="Pattern").fill("FF 222a 444a 666b 88")
    preview.locator(".problem").filter(has_text="needs a suit letter").wait_for()
    assert preview.locator("mark.bad-token").inner_text() == "88"
    errors.check()
    page.close()


def test_three_lines_by_keyboard_in_few_inputs(server: str, browser: Any) -> None:
    """Enter in the pattern field adds the line and starts the next (same section and
    value), with the keyboard there: three lines are typed with no click at all."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = PageErrors(page)
    page.goto(f"{server}/cards")
    page.locator(".status").filter(has_text="Start with line 1").wait_for()
    page.evaluate(COUNT_INPUTS)
    patterns = ["FF 222a 444a 666b 888b", "NNNN EEEE WWW SSS", "2026a 2026b NNN SSS"]
    for k, text in enumerate(patterns):
        if k:
            page.keyboard.press("Enter")
        page.keyboard.type(text)
    page.locator(".status.good").filter(has_text="3 lines, 10 ways: the card is good.").wait_for()
    assert [line(page, n).locator(".pattern-text").inner_text() for n in (1, 2, 3)] == patterns
    inputs = page.evaluate("window.__inputs")
    assert inputs == {"clicks": 0, "keys": sum(len(p) for p in patterns) + 2}
    print(f"\nthree lines: {inputs['clicks']} clicks, {inputs['keys']} key presses")
    errors.check()
    page.close()
