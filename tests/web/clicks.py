"""Counting the clicks of a whole game against the computer (issue 12: "Passing costs a third
of all clicks").

One plain way of playing, the same on every version of the page: take a Mah Jongg whenever
one is offered, never claim a discard, pass whenever asked, and discard the tile just
picked (already selected: one click on Discard) or else the last tile that may go (a click
on it, then Discard). Every click goes through :meth:`ClickCounter.click`, which counts it
by what it did.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

READY_OR_OVER = "#table-app[data-ready='true'], #table-app[data-phase='over']"
CHANGED = """v => { const a = document.getElementById('table-app');
                   return a.dataset.version !== v || a.dataset.phase === 'over'; }"""


class ClickCounter:
    """The clicks made on one page, by kind ("pass", "select", "discard", "mahjongg")."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.kinds: Counter[str] = Counter()
        self.turns = 0  # the decisions the seat was asked to make
        self.waits = 0  # claim windows left to the call timer

    def click(self, selector: str, kind: str) -> None:
        self.page.click(selector, timeout=10000)
        self.kinds[kind] += 1

    @property
    def total(self) -> int:
        return sum(self.kinds.values())

    def summary(self) -> str:
        parts = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
        return f"{self.total} clicks in {self.turns} decisions ({parts})"


def _version(page: Any) -> str:
    return str(page.get_attribute("#table-app", "data-version"))


def one_decision(page: Any, clicks: ClickCounter, passing: bool = True) -> None:
    """Answer what the seat is asked now, as the plain way of playing does; with
    ``passing`` off, a claim window is left to its call timer instead of a Pass click."""
    before = _version(page)
    clicks.turns += 1
    mj = page.locator(".mj-choices button.choice")
    if mj.count():
        clicks.click(".mj-choices button.choice >> nth=0", "mahjongg")
    elif page.get_attribute("#table-app", "data-phase") in ("window", "declare"):
        if passing:
            clicks.click("#btn-pass", "pass")
        else:
            clicks.waits += 1
    else:
        chosen = page.locator(".hand-tile[aria-pressed='true'][data-discardable='true']")
        if chosen.count() == 0:
            tile = page.locator(".hand-tile[data-discardable='true']")
            assert tile.count() > 0, "nothing to discard: " + page.inner_text("#prompt")
            tile.last.click(timeout=10000)
            clicks.kinds["select"] += 1
        clicks.click("#btn-discard", "discard")
    page.wait_for_function(CHANGED, arg=before, timeout=20000)


def play_counting_clicks(page: Any, most: int = 800, passing: bool = True) -> ClickCounter:
    """Play the game on ``page`` to its end; the clicks it took."""
    clicks = ClickCounter(page)
    while True:
        page.wait_for_selector(READY_OR_OVER, timeout=30000)
        if page.get_attribute("#table-app", "data-phase") == "over":
            return clicks
        one_decision(page, clicks, passing)
        assert clicks.turns < most, "the game does not end"


def main() -> None:
    """``python -m tests.web.clicks BASE [GAMES] [BOT]``: play GAMES whole games (2) against
    the computer on the server at BASE, through its lobby, and print the clicks of each."""
    import sys

    from playwright.sync_api import sync_playwright

    base = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    bot = sys.argv[3] if len(sys.argv) > 3 else "expert"
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        for _ in range(games):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"{base}/")
            page.select_option("select[name=seat1]", bot)
            page.click("#create-table")  # the lobby's own clicks are not counted
            page.wait_for_selector("#table-app")
            clicks = play_counting_clicks(page)
            print(page.url.split("?")[0], clicks.summary(), flush=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
