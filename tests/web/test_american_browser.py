"""The American game's table in a real browser: four seats with one rack each, the
Charleston played by clicking three tiles and "Pass right / across / left" (a blind pass,
the vote, the courtesy offer and pass), then a few turns of play.

The real server runs as in test_browser.py (its own SQLite file, fast bots). Never
download a browser: these tests use /usr/bin/chromium or are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import DESKTOP, _get_json, game_id, served, shot
from tests.web.test_table_page import discard_once, open_table, pytestmark  # noqa: F401

ARROWS = {"right": "\u2192", "across": "\u2191", "left": "\u2190"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("american-server"), TWINRACK_BOT_DELAY="0.02") as base:
        yield base


def changed(page: Any, before: str | None) -> None:
    page.wait_for_function("v => document.getElementById('table-app').dataset.version !== v",
                           arg=before, timeout=15000)


def pass_tiles(page: Any, stage: str, blind: int) -> str:
    """Pick the first passable tiles (3 less the blind ones) and press the pass button,
    which says where they go; returns the button's words."""
    if blind:
        page.check(f".ch-blind input[value='{blind}']")
    want = 3 - blind if page.get_attribute("#charleston", "data-kind") == "charleston" else int(
        page.inner_text(".ch-count").split(" of ")[1].split()[0])
    tiles = page.locator(".ch-tile:not([disabled])")
    for i in range(want):
        tiles.nth(i).click()
    assert page.locator(".ch-tile.picked").count() == want
    assert page.inner_text(".ch-count").startswith(f"{want} of {want} chosen")
    words = page.inner_text("#btn-charleston")
    before = page.get_attribute("#table-app", "data-version")
    page.click("#btn-charleston")
    changed(page, before)
    return words


def test_a_charleston_then_a_few_turns_at_a_four_seat_american_table(
        server: str, browser: Any) -> None:
    ctx, page, errors = open_table(browser, server, DESKTOP, variant="american", players=4,
                                   bot="greedy")
    page.wait_for_selector("#charleston")
    # four seats, one rack each; East (this seat) holds 14
    assert page.locator(".seat").count() == 3
    assert page.get_attribute("#table-app", "data-racks") == "1"
    assert page.locator(".ch-tile").count() == 14
    # Jokers can never be passed: their buttons are off
    for j in page.locator(".ch-tile[data-tile='J']").all():
        assert j.is_disabled()
    seen_stages = []
    while page.locator("#charleston").count():
        page.wait_for_selector("#table-app[data-ready='true']", timeout=20000)
        if not page.locator("#charleston").count():
            break
        stage = page.get_attribute("#charleston", "data-stage") or ""
        kind = page.get_attribute("#charleston", "data-kind")
        seen_stages.append(stage)
        assert page.locator(".ch-stages li.now").count() == 1
        if stage == "first-right":
            shot(page, "american-charleston")
        before = page.get_attribute("#table-app", "data-version")
        if kind == "vote":
            page.click("#btn-vote-again")
            changed(page, before)
        elif kind == "offer":
            page.click("#btn-offer-3")
            changed(page, before)
        else:
            direction = "across" if kind == "courtesy" else stage.split("-")[1]
            assert f"Pass {direction}" in page.inner_text("#ch-direction") or kind == "courtesy"
            words = pass_tiles(page, stage, 1 if stage == "first-left" else 0)
            assert words.startswith(f"Pass {direction} {ARROWS[direction]}: ")
            if stage == "first-left":
                assert words.endswith("and 1 blind")
    assert seen_stages[:3] == ["first-right", "first-across", "first-left"]
    assert "vote" in seen_stages
    rec = _get_json(f"{server}/api/games/{game_id(page)}/record")
    passed = [e.split()[1] for e in rec["events"] if e.startswith("passed ")]
    assert passed[:3] == ["first-right", "first-across", "first-left"]
    # what the others chose and received stays theirs: this seat's record redacts it
    assert not [e for e in rec["events"] if e.startswith(("chosen 1 charleston:",
                                                          "receive 2 3:"))]
    log = page.inner_text("#log-box")
    assert "The first Charleston: everyone passes right" in log
    assert "vote" in log
    # then East discards first (no pick), and play goes round
    page.wait_for_selector("#table-app[data-phase='turn'][data-ready='true']", timeout=20000)
    assert page.locator("#btn-move").count() == 0  # one rack: nothing to move between
    for _ in range(3):
        page.wait_for_selector("#table-app[data-ready='true'][data-phase='turn'], "
                               "#table-app[data-phase='over']", timeout=30000)
        if page.get_attribute("#table-app", "data-phase") == "over":
            break
        discard_once(page)
    shot(page, "american-table")
    errors.check()
    ctx.close()
