"""Layouts that hold (issue 26): every variant and player count at 1280x800, 1024x768 and a
390x844 phone, checked by element boxes (tests/web/layout.py): no sideways scrolling, no box
of the table over another, no tile or badge spilling out of its seat or rack, no rack name
wrapping; on a phone the opponents' exposures and the wall count sit above your racks.
Each table is looked at on two of the player's turns. Never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM
from tests.web.layout import layout_problems
from tests.web.test_browser import served
from tests.web.test_table_page import discard_once, open_table, wait_turn

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="/usr/bin/chromium is not installed (apt-get install chromium); "
                              "these tests never download a browser"),
]

sync_api = pytest.importorskip("playwright.sync_api")

TABLES = [("siamese", 2), ("royale", 3), ("royale", 4), ("imperial", 2), ("imperial", 3),
          ("imperial", 4)]
VIEWPORTS = {"1280x800": {"width": 1280, "height": 800},
             "1024x768": {"width": 1024, "height": 768},
             "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("layouts"), TWINRACK_BOT_DELAY="0.01") as base:
        yield base


def _above_my_racks(page: Any) -> list[str]:
    """On a phone: what must come before the racks and does not."""
    return list(page.evaluate("""() => {
      const racks = document.querySelector('.my-racks').getBoundingClientRect().top;
      const out = [];
      for (const s of ['.centre .wall-count', '.ring .seat'])
        for (const e of document.querySelectorAll(s))
        if (e.getBoundingClientRect().bottom > racks + 1) out.push(s);
      return out; }"""))


@pytest.mark.parametrize("viewport", list(VIEWPORTS), ids=list(VIEWPORTS))
@pytest.mark.parametrize(("variant", "players"), TABLES, ids=[f"{v}-{n}p" for v, n in TABLES])
def test_the_table_holds_its_layout(server: str, browser: Any, variant: str, players: int,
                                    viewport: str) -> None:
    ctx, page, errors = open_table(browser, server, VIEWPORTS[viewport], variant, players)
    for turn in range(2):
        wait_turn(page)
        page.wait_for_selector("#hint-now", timeout=60000)
        page.evaluate("window.scrollTo(0, 0)")
        assert layout_problems(page) == [], (turn, variant, players, viewport)
        # every seat's discards under a label of their own, apart from its racks
        assert page.locator(".ring .seat .seat-discards .discards-name").count() == players - 1
        if viewport == "phone":
            assert _above_my_racks(page) == []
            assert page.locator(".controls button:disabled:visible").count() == 0
        discard_once(page)
    errors.check()
    ctx.close()
