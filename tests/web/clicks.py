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


def one_decision(page: Any, clicks: ClickCounter) -> None:
    """Answer what the seat is asked now, as the plain way of playing does."""
    before = _version(page)
    clicks.turns += 1
    mj = page.locator(".mj-choices button.choice")
    if mj.count():
        clicks.click(".mj-choices button.choice >> nth=0", "mahjongg")
    elif page.get_attribute("#table-app", "data-phase") in ("window", "declare"):
        clicks.click("#btn-pass", "pass")
    else:
        chosen = page.locator(".hand-tile[aria-pressed='true'][data-discardable='true']")
        if chosen.count() == 0:
            tile = page.locator(".hand-tile[data-discardable='true']")
            assert tile.count() > 0, "nothing to discard: " + page.inner_text("#prompt")
            tile.last.click(timeout=10000)
            clicks.kinds["select"] += 1
        clicks.click("#btn-discard", "discard")
    page.wait_for_function(CHANGED, arg=before, timeout=20000)


def play_counting_clicks(page: Any, most: int = 800) -> ClickCounter:
    """Play the game on ``page`` to its end; the clicks it took."""
    clicks = ClickCounter(page)
    while True:
        page.wait_for_selector(READY_OR_OVER, timeout=30000)
        if page.get_attribute("#table-app", "data-phase") == "over":
            return clicks
        one_decision(page, clicks)
        assert clicks.turns < most, "the game does not end"
