"""The coach at the web table (issue 26), in a real browser: the card panel with its lines
in reach and every line name a link to it, choices that say what they are (the coach's
words, ranked, the hint's marked, numbered keys), D discarding the hinted tile, G going to
it, and "Arrange as the plan" moving the racks until the plan needs no move.

The real server runs as in test_browser.py; the choices are scripted on the table channel
to reach an exact position. Never download a browser: /usr/bin/chromium or skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM
from tests.web.test_browser import (
    DESKTOP,
    PHONE,
    PageErrors,
    ScriptedServer,
    _get_json,
    create_table,
    game_id,
    served,
    wait_version,
)
from tests.web.test_table_page import open_table, wait_turn

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="/usr/bin/chromium is not installed (apt-get install chromium); "
                              "these tests never download a browser"),
]

sync_api = pytest.importorskip("playwright.sync_api")

HINTED = "#table-app[data-ready='true'][data-phase='turn'] .hand-tile[data-suggested='true']"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("coach-server"), TWINRACK_BOT_DELAY="0.02") as base:
        yield base


def test_the_card_panel_shows_the_card_and_opens_at_a_line_named_in_the_hints(
        server: str, browser: Any) -> None:
    ctx, page, errors = open_table(browser, server, DESKTOP)
    wait_turn(page)
    page.wait_for_selector("#hint-now", timeout=60000)
    sheet = _get_json(f"{server}/api/games/{game_id(page)}/card")
    assert sheet["lines"] == 70 and sheet["open_lines"] is True  # the 2024 revision
    page.keyboard.press("k")
    page.wait_for_selector("#card-drawer")
    assert page.locator(".card-line").count() == 70
    assert page.locator(".card-section h3").all_inner_texts() == [
        s["name"] for s in sheet["sections"]]
    assert page.locator("#open-lines").count() == 1
    first = sheet["sections"][0]["lines"][0]
    row = page.locator(f".card-line[data-line='{first['id']}']")
    assert row.locator(".cl-points").inner_text() == str(first["value"])
    assert row.locator(".cl-mark").inner_text() == ("C" if first["concealed"] else "X")
    reach = page.locator(".card-line.in-reach")
    assert reach.count() > 0 and re.fullmatch(r"\d+ away", reach.first.locator(
        ".cl-away").inner_text())
    page.click("#card-close")
    link = page.locator(".hints .line-link").first
    name = link.get_attribute("data-line")
    link.click()
    page.wait_for_selector(f".card-line.focus[data-line='{name}']")
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    errors.check()
    ctx.close()


def test_d_discards_the_hinted_tile_and_g_goes_to_it(server: str, browser: Any) -> None:
    ctx, page, errors = open_table(browser, server, DESKTOP)
    wait_turn(page)
    hinted = page.wait_for_selector(HINTED, timeout=60000).get_attribute("data-tile")
    page.keyboard.press("g")
    assert page.get_attribute(".hand-tile[aria-pressed='true']", "data-tile") == hinted
    page.keyboard.press("Escape")
    before = page.get_attribute("#table-app", "data-version")
    page.keyboard.press("d")  # one key: the hint's tile, not the fresh one
    page.wait_for_function("v => document.getElementById('table-app').dataset.version !== v",
                           arg=before, timeout=15000)
    mine = page.locator(".my-discards .pool-tile")
    assert mine.last.get_attribute("data-tile") == hinted
    errors.check()
    ctx.close()


def test_arrange_as_the_plan_moves_until_no_move_is_left(server: str, browser: Any) -> None:
    for _ in range(4):  # a deal whose racks do not show the plan already
        ctx, page, errors = open_table(browser, server, DESKTOP)
        wait_turn(page)
        page.wait_for_selector("#hint-now", timeout=60000)
        if page.locator("#btn-arrange").count():
            break
        ctx.close()
    else:
        pytest.fail("four deals whose racks were already arranged as the plan")
    before = int(page.get_attribute("#table-app", "data-version") or 0)
    page.keyboard.press("a")
    page.wait_for_function("v => Number(document.getElementById('table-app').dataset.version) > v",
                           arg=before, timeout=15000)
    page.wait_for_selector("#hint-now", timeout=60000)
    page.wait_for_selector("#btn-arrange", state="detached", timeout=60000)
    assert page.get_attribute("#table-app", "data-phase") == "turn"  # moves only
    errors.check()
    ctx.close()


def _coach(text: str, verb: str, note: str, line: str | None, points: int | None,
           best: bool = False) -> dict[str, Any]:
    return {"text": text, "verb": verb, "note": note, "line": line, "points": points,
            "away": 2, "jokers": text.count("J"), "best": best}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_choices_name_their_line_best_first_with_the_hints_marked_and_keys(
        server: str, browser: Any, viewport: dict[str, int]) -> None:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors = PageErrors(page)
    fake = ScriptedServer()
    page.route_web_socket(re.compile(r"/ws/"), fake.handler)
    legal = [("expose 1 6C J J", False), ("expose 1 6C 6C J", False),
             ("expose 2 6C 6C 6C", False), ("mahjongg 2", False), ("discard 1B", False)]
    fake.set_state(legal, version=5, log=["start siamese 2 2024 " + "ab" * 32, "deal 1 27"],
                   verbs=["expose", "mahjongg", "discard"])
    fake.state["hints"] = {
        "summary": "Mah Jongg now with Pairs-2", "mahjongg": None, "claim": None, "racks": [],
        "discard": None, "plans": [], "exchange": None, "warnings": [], "arrange": [],
        "reach": [{"id": "Pairs-2", "away": 0}],
        "action": {"text": "mahjongg 2", "verb": "mahjongg", "reason": "Pairs-2, 60 points"},
        "choices": [
            _coach("mahjongg 2", "mahjongg", "Pairs-2, 60 points, concealed", "Pairs-2", 60,
                   best=True),
            _coach("expose 2 6C 6C 6C", "expose", "three 6 Crak for Like-1 (25 points): "
                   "your plan then 2 away", "Like-1", 25),
            _coach("expose 1 6C 6C J", "expose", "two 6 Crak and a Joker for Like-1 (25 "
                   "points): your plan then 2 away", "Like-1", 25),
            _coach("expose 1 6C J J", "expose", "6 Crak with two Jokers for Like-1 (25 "
                   "points): your plan then 3 away", "Like-1", 25)]}
    create_table(page, server, "Ann", "random")
    wait_version(page, 5)
    buttons = page.locator(".choices button.choice")
    assert [buttons.nth(i).get_attribute("data-action") for i in range(4)] == [
        "mahjongg 2", "expose 2 6C 6C 6C", "expose 1 6C 6C J", "expose 1 6C J J"]
    mj = buttons.nth(0)
    assert mj.get_attribute("data-best") == "true"
    assert "Mah Jongg on rack 2: Pairs-2, 60 points, concealed" in mj.inner_text()
    assert "Expose on rack 2: Like-1, 25 points" in buttons.nth(1).inner_text()
    assert "three 6 Crak" in buttons.nth(1).inner_text()
    assert page.locator(".choices .line-link").all_inner_texts() == ["Pairs-2", "Like-1"]
    assert [buttons.nth(i).get_attribute("data-best") for i in range(1, 4)] == ["false"] * 3
    assert [buttons.nth(i).get_attribute("aria-keyshortcuts") for i in range(4)] == [
        "1", "2", "3", "4"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.keyboard.press("3")
    wait_version(page, 6)
    assert fake.actions()[-1]["action"] == "expose 1 6C 6C J"
    page.locator("body").focus()
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Enter")  # what the hint says: its marked choice
    wait_version(page, 7)
    assert fake.actions()[-1]["action"] == "mahjongg 2"
    errors.check()
    ctx.close()


def test_view_the_card_in_the_lobby_and_the_card_editor(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/")
    page.click("#view-card")
    page.wait_for_selector("#card-drawer .card-line")
    assert page.locator(".card-line").count() == 70
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("#card-close")
    # an uploaded file, read by the server's check before any table is made
    page.check("#card-upload-choice")
    source = ('name = "Two lines"\n\n[[hand]]\nid = "A-1"\nsection = "A"\n'
              'pattern = "FF 2222a 0000 2222b"\nvalue = 25\n\n[[hand]]\nid = "B-1"\n'
              'section = "B"\npattern = "11a 22a 33a 44a 55a 66a 77a"\nvalue = 50\n'
              'concealed = true\n')
    page.set_input_files("input[name=card_file]", files=[{
        "name": "two.toml", "mimeType": "text/plain", "buffer": source.encode()}])
    page.click("#view-card")
    page.wait_for_selector("#card-drawer .card-line[data-line='B-1']")
    assert page.locator(".card-section h3").all_inner_texts() == ["A", "B"]
    assert page.inner_text(".card-line[data-line='B-1'] .cl-mark") == "C"
    page.goto(f"{server}/cards")
    assert page.locator("#view-card").is_disabled()  # a new card: nothing to show yet
    page.set_input_files(".card-head input[type=file]", files=[{
        "name": "two.toml", "mimeType": "text/plain", "buffer": source.encode()}])
    page.wait_for_selector("#view-card:enabled")
    page.click("#view-card")
    page.wait_for_selector("#card-drawer .card-line[data-line='A-1']")
    assert page.locator(".card-line").count() == 2
    errors.check()
    ctx.close()


def test_a_discard_that_may_feed_an_opponent_is_warned_of_before_it_is_made(
        server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    fake = ScriptedServer()
    page.route_web_socket(re.compile(r"/ws/"), fake.handler)
    fake.set_state([("discard 1B", False), ("discard 2B", False)], version=5,
                   log=["start siamese 2 2024 " + "ab" * 32, "deal 1 27"], verbs=["discard"],
                   acquired="2B", placed=0)
    said = ("Careful: 1 Bam may nearly complete the hand of {who} on rack 1: its 2 exposures "
            "fit only lines that still want it (Runs-1).")
    fake.state["hints"] = {
        "summary": "", "mahjongg": None, "claim": None, "racks": [], "plans": [],
        "discard": {"tile": "3B", "reason": "3 Bam is the tile your plan needs least"},
        "exchange": None, "arrange": [], "reach": [], "choices": [],
        "action": {"text": "discard 3B", "verb": "discard", "reason": ""},
        "warnings": [{"tile": "1B", "seat": 1, "rack": 0, "lines": ["Runs-1"], "wins": False,
                      "text": said}]}
    fake.state["legal"].append(fake.state["legal"][0] | {"text": "discard 3B", "tile": "3B"})
    create_table(page, server, "Ann", "random")
    wait_version(page, 5)
    button = page.locator("#btn-discard")
    assert "Discard 3 Bam (hint)" in button.inner_text()  # the hint's tile, not the fresh one
    assert button.get_attribute("data-feeds") == "false"
    assert page.locator("#hint-warnings").count() == 0
    page.click(".hand-tile[data-tile='1B']")
    assert button.get_attribute("data-feeds") == "true"
    assert page.inner_text("#hint-warnings") == said.replace("{who}", "Bea")
    assert page.locator("#hint-warnings .line-link[data-line='Runs-1']").count() == 1
    errors.check()
    ctx.close()
