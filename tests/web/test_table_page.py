"""The table page, second edition (issue 12), in a real browser: calls that flow (auto-pass,
a claim that says what it does, a withdrawn claim), the log that keeps following, Imperial
on one 1280x800 screen, the phone layout, Royale's seats, the end screen and the rematch,
the takeover countdown.

The real server runs as in test_browser.py (its own SQLite file, fast bots, a 3 s call
timer, a 20 s grace period); some tests script the table channel instead to reach an exact
position. Never download a browser: these tests use /usr/bin/chromium or are skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.clicks import play_counting_clicks
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
    shot,
    wait_version,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="/usr/bin/chromium is not installed (apt-get install chromium); "
                              "these tests never download a browser"),
]

sync_api = pytest.importorskip("playwright.sync_api")

GRACE = 20


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("table-server"), TWINRACK_BOT_DELAY="0.02",
                TWINRACK_GRACE_SECONDS=str(GRACE)) as base:
        yield base


@pytest.fixture
def quick_calls(tmp_path: Path) -> Iterator[str]:
    """The same server with a half-second call timer, for the whole game that leaves every
    claim window it could claim in to the timer (the lobby offers three seconds at least;
    the server's own default may be shorter)."""
    with served(tmp_path, TWINRACK_BOT_DELAY="0.02", TWINRACK_GRACE_SECONDS=str(GRACE),
                TWINRACK_CALL_SECONDS="0.5") as base:
        yield base


def open_table(browser: Any, server: str, viewport: dict[str, int], variant: str = "siamese",
               players: int = 2, bot: str = "random") -> tuple[Any, Any, PageErrors]:
    """A new table of ``variant`` against bots, opened at this seat."""
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/")
    page.check(f"input[type=radio][name=variant][value={variant}]")
    page.select_option("select[name=players]", str(players))
    for s in range(1, players):
        page.select_option(f"select[name=seat{s}]", bot)
    page.fill("input[name=call_seconds]", "")  # the server's own call timer
    page.click("#create-table")  # every other seat a bot's: straight to the table
    page.wait_for_selector("#table-app")
    return ctx, page, errors


def discard_once(page: Any) -> None:
    """On this seat's turn: discard the last tile that may go."""
    before = page.get_attribute("#table-app", "data-version")
    page.locator(".hand-tile[data-discardable='true']").last.click()
    page.click("#btn-discard")
    page.wait_for_function("v => document.getElementById('table-app').dataset.version !== v",
                           arg=before, timeout=15000)


def wait_turn(page: Any) -> None:
    """Wait for this seat's turn, passing the declaration round when the deal lets this
    seat declare a hand (then the round waits for it)."""
    ready = "#table-app[data-ready='true']"
    while True:
        page.wait_for_selector(f"{ready}[data-phase='turn'], {ready}[data-phase='declare']",
                               timeout=30000)
        if page.get_attribute("#table-app", "data-phase") == "turn":
            return
        before = page.get_attribute("#table-app", "data-version")
        page.click("#btn-pass")
        page.wait_for_function("v => document.getElementById('table-app').dataset.version "
                               "!== v", arg=before, timeout=15000)


def page_size(page: Any) -> tuple[int, int]:
    w, h = page.evaluate("[document.documentElement.scrollWidth, "
                         "document.documentElement.scrollHeight]")
    return int(w), int(h)


# ---------------------------------------------------------------------- a whole game


def test_a_whole_game_without_a_pass_click_then_the_end_screen_and_a_rematch(
        quick_calls: str, browser: Any) -> None:
    """Auto-pass: where this seat cannot claim, the window closes without it; where it
    could, the call timer runs out (no Pass is ever clicked). Then the end screen: the
    verdict first, every hand shown, the score, Replay, Verify, Rematch and New game; the
    rematch seats the same players at a new table with a new shuffle."""
    server = quick_calls
    ctx, page, errors = open_table(browser, server, DESKTOP)
    gid = game_id(page)
    names = page.locator(".seat-head h2, .seat-head h3").all_inner_texts()
    # a first game: "How Siamese works" is open (it is closed from the next game on)
    assert page.locator("details#howto[open]").count() == 1
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"  # off by default
    page.click("#btn-sound")
    assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
    clicks = play_counting_clicks(page, passing=False)
    assert clicks.kinds["pass"] == 0
    rec = _get_json(f"{server}/api/games/{gid}/record")
    windows = sum(1 for a in rec["actions"] if a == "0: pass")
    assert windows > 10  # seat 0 passed that often, the table doing it for it
    assert "turn" in page.evaluate("window.__twinrackSounds || []")

    # the end screen
    page.wait_for_selector("#verdict")
    order = page.evaluate("""() => [...document.querySelector('.table-main').children]
        .map(e => e.id || e.className.split(' ')[0])""")
    assert order[0] == "verdict" and order[-1] == "score"
    mine, theirs = rec["score"]["totals"]
    verdict = page.inner_text("#verdict-text")
    # won or lost, and by how much (issue 26: a loss read "You scored +50")
    said = (f"A draw, {mine:+d} each:" if mine == theirs else
            f"You {'won' if mine > theirs else 'lost'} by {abs(mine - theirs)}, "
            f"{mine:+d} to {theirs:+d}:")
    assert verdict.startswith(said), verdict
    # the score names each seat by its name alone (issue 26: "Seat 2 (Computer 2 (expert))")
    rows = page.locator("th[scope=row]").all_inner_texts()
    assert rows and not [r for r in rows if r.startswith("Seat ")], rows
    # Bea's concealed tiles are shown face up, rack by rack, as her own last view holds them
    bea = page.locator(".seat[data-seat='1']")
    hand = _get_json(f"{server}/api/games/{gid}/replay")["frames"][-1]["views"][1]["hand"]
    faces = [bea.locator(f".rack-public[data-rack='{r + 1}'] .concealed-tiles img").count()
             for r in range(2)]
    assert faces == [len(h.split()) for h in hand]
    assert bea.locator(".backs").count() == 0
    buttons = page.evaluate("""() => [...document.querySelectorAll(
        '#replay-link, #verify-btn, #rematch-btn, #new-game')].map(e => e.id)""")
    assert sorted(buttons) == ["new-game", "rematch-btn", "replay-link", "verify-btn"]
    page.click("#verify-btn")
    page.wait_for_selector("#verify-result[data-ok='true']", timeout=15000)
    shot(page, "t1-end-screen", full_page=True)

    # the rematch: the same seats, a new table, a new commitment
    page.click("#rematch-btn")
    page.wait_for_selector("#table-app[data-seat='0']")
    new_gid = game_id(page)
    assert new_gid != gid
    assert page.url == f"{server}/t/{new_gid}"  # the seat's token is not in the address
    new = _get_json(f"{server}/api/games/{new_gid}/record")
    assert new["commitment"] != rec["commitment"]
    assert new["rules"] == rec["rules"]
    assert page.locator(".seat-head h2, .seat-head h3").all_inner_texts() == names
    # after a first whole game the explanation starts closed (and still opens)
    page.wait_for_selector("details#howto")
    assert page.locator("details#howto[open]").count() == 0
    errors.check()
    ctx.close()


# ---------------------------------------------------------------------- layouts


def test_imperial_fits_one_1280x800_screen(server: str, browser: Any) -> None:
    ctx, page, errors = open_table(browser, server, DESKTOP, variant="imperial")
    for _ in range(3):
        wait_turn(page)
        page.evaluate("window.scrollTo(0, 0)")
        width, height = page_size(page)
        assert width == 1280, width  # never sideways
        if not page.locator(".choices").count():  # a list of choices may take the page down
            assert height == 800, height
        assert page.locator(".my-rack").count() == 4
        # one move button per rack the selected tile may go to, not four alike
        page.locator(".hand-tile").first.click()
        assert page.locator("[id^='btn-move-']").count() <= 3
        discard_once(page)
    shot(page, "t2-imperial")
    errors.check()
    ctx.close()


def test_phone_layout(server: str, browser: Any) -> None:
    ctx, page, errors = open_table(browser, server, PHONE)
    wait_turn(page)
    width, _ = page_size(page)
    assert width <= PHONE["width"]
    sizes = page.evaluate("""() => [...document.querySelectorAll(
        '.hand-tile, .controls button')].filter(e => e.offsetParent !== null).map(e => {
          const r = e.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert sizes and min(min(w, h) for w, h in sizes) >= 44, sizes
    # the prompt, the buttons and the hint sit together, above the racks
    page.wait_for_selector("#hint-now", timeout=15000)
    top = page.evaluate("""() => Object.fromEntries(['#prompt', '.controls', '#hint-now',
        '.my-racks'].map(s => [s, document.querySelector(s).getBoundingClientRect()]))""")
    assert top["#prompt"]["bottom"] <= top[".controls"]["top"] + 1
    assert top[".controls"]["bottom"] <= top["#hint-now"]["top"] + 1
    assert top["#hint-now"]["top"] - top["#prompt"]["top"] < 400
    assert top["#hint-now"]["bottom"] <= top[".my-racks"]["top"] + 1
    shot(page, "t3-phone", full_page=True)
    errors.check()
    ctx.close()


def test_royale_seats_have_winds_and_their_own_discards(server: str, browser: Any) -> None:
    ctx, page, errors = open_table(browser, server, DESKTOP, variant="royale", players=4)
    for _ in range(3):
        wait_turn(page)
        discard_once(page)
    wait_turn(page)
    winds = page.locator(".seat .wind").all_inner_texts()
    assert [w.strip().lower() for w in winds] == ["south", "west", "north"]
    places = [page.get_attribute(f".seat[data-seat='{s}']", "class") for s in (1, 2, 3)]
    assert ["seat-right" in places[0], "seat-top" in places[1], "seat-left" in places[2]] == \
        [True, True, True]
    rec = _get_json(f"{server}/api/games/{game_id(page)}/record")
    shown = {s: page.locator(f".discard-row[data-seat='{s}'] .pool-tile").count()
             for s in range(4)}
    thrown = {s: sum(1 for e in rec["events"] if e.startswith(f"discard {s} ")) for s in range(4)}
    # a granted claim takes the tile off the discards, a withdrawn one puts it back
    claimed = sum(1 for e in rec["events"] if e.startswith("grant ")) - sum(
        1 for e in rec["events"] if e.startswith("withdraw "))
    assert sum(shown.values()) == sum(thrown.values()) - claimed
    assert all(shown[s] <= thrown[s] for s in range(4))
    # the last discard is marked, once
    assert page.locator(".pool-tile.latest").count() == 1
    # a row of discards is one tab stop; the arrow keys go through it
    row = page.locator(".discard-row[data-seat='1']")
    row.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.classList.contains('pool-tile')")
    shot(page, "t4-royale")
    errors.check()
    ctx.close()


# ---------------------------------------------------------------------- a seat that left


def test_a_countdown_shows_when_a_bot_takes_over(server: str, browser: Any) -> None:
    ctx1 = browser.new_context(viewport=DESKTOP)
    p1 = ctx1.new_page()
    p1.goto(f"{server}/")
    p1.get_by_label("Your name").fill("Ann")
    p1.select_option("select[name=seat1]", "human")
    p1.click("#create-table")
    invite = p1.locator(".invite-link").first.input_value()
    p1.click("#go-to-table")
    p1.wait_for_selector("#table-app")
    ctx2 = browser.new_context(viewport=DESKTOP)
    p2 = ctx2.new_page()
    p2.goto(invite)  # the friend chooses a name first
    p2.get_by_label("Your name").fill("Bea")
    p2.click("#take-seat")
    p2.wait_for_selector("#table-app")
    p1.wait_for_selector(".seat[data-seat='1'] .badge.on")
    ctx2.close()  # the friend leaves
    timer = p1.locator(".seat[data-seat='1'] .takeover")
    timer.wait_for(timeout=10000)
    left = int(re.search(r"in (\d+) s", timer.inner_text()).group(1))  # type: ignore[union-attr]
    assert 0 < left <= GRACE
    p1.wait_for_function(
        f"() => {{ const t = document.querySelector(\".seat[data-seat='1'] .takeover\");"
        f" return t && parseInt(t.innerText.match(/in (\\d+) s/)[1]) < {left}; }}")
    ctx1.close()


# ---------------------------------------------------------------------- scripted positions


def _scripted(browser: Any, server: str) -> tuple[Any, Any, ScriptedServer, PageErrors]:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    fake = ScriptedServer()
    page.route_web_socket(re.compile(r"/ws/"), fake.handler)
    return ctx, page, fake, errors


def test_a_claim_says_what_it_would_do_and_can_be_withdrawn(server: str, browser: Any) -> None:
    """The forced dead rack: every exposure of the West kills a rack. The claim button says
    so before it is pressed; once granted, the dialog offers to withdraw the claim."""
    ctx, page, fake, errors = _scripted(browser, server)
    says = "Every exposure of West wind kills a rack"
    fake.set_state([("claim expose", False), ("pass", False)], phase="window", current=1,
                   to_act=[0], window={"discarder": 1, "tile": "W"}, version=5,
                   log=["start siamese 2 2024 " + "ab" * 32, "deal 1 27", "discard 1 W"])
    fake.state["legal"][0]["advice"] = {"says": says, "warn": True, "withdraw": True}
    create_table(page, server, "Ann", "random")  # a table of bots opens at once
    wait_version(page, 5)
    claim = page.locator("#btn-claim-expose")
    assert says in claim.inner_text() and "warn" in (claim.get_attribute("class") or "")
    assert page.get_by_role("button", name=re.compile(says)).count() == 1
    claim.click()
    wait_version(page, 6)
    assert fake.actions()[-1]["action"] == "claim expose"

    fake.set_state([("expose 1 W W W", True), ("expose 2 W W W", True), ("withdraw", False)],
                   must="expose", claim={"seat": 0, "kind": "expose", "tile": "W",
                                         "discarder": 1}, acquired="W", placed=0,
                   verbs=["expose", "withdraw"])
    fake.send_state()
    wait_version(page, 7)
    assert "or withdraw the claim" in page.inner_text("#prompt")
    page.click("[data-action='expose 1 W W W']")
    page.wait_for_selector("#confirm-withdraw")
    shot(page, "t5-withdraw")
    page.click("#confirm-withdraw")
    wait_version(page, 8)
    assert fake.actions()[-1]["action"] == "withdraw"
    assert len(fake.actions()) == 2  # nothing was exposed
    errors.check()
    ctx.close()


def test_the_log_keeps_following_when_one_update_adds_many_lines(server: str,
                                                                  browser: Any) -> None:
    ctx, page, fake, errors = _scripted(browser, server)
    start = ["start siamese 2 2024 " + "ab" * 32, "deal 1 27"]
    fake.set_state([("pass", False)], log=start, version=3)
    create_table(page, server, "Ann", "random")  # a table of bots opens at once
    wait_version(page, 3)
    at_bottom = """() => { const b = document.getElementById('log-box');
        return b.scrollHeight - b.scrollTop - b.clientHeight; }"""
    many = [f"pick 1 {t}" for t in ["1B", "2B", "3B", "4B"] * 60]
    for n, version in ((120, 4), (240, 5)):
        fake.set_state([("pass", False)], log=start + many[:n], version=version)
        fake.send_state()
        wait_version(page, version)
        page.wait_for_function(f"() => document.querySelectorAll('#game-log li').length"
                               f" === {len(start) + n}")
        assert page.evaluate(at_bottom) < 2
    # a reader who scrolled up is left where they are
    page.evaluate("() => { const b = document.getElementById('log-box'); b.scrollTop = 0; "
                  "b.dispatchEvent(new Event('scroll')); }")
    fake.set_state([("pass", False)], log=start + many, version=6)
    fake.send_state()
    wait_version(page, 6)
    assert page.evaluate("document.getElementById('log-box').scrollTop") == 0
    assert json.loads(json.dumps(fake.actions())) == []
    errors.check()
    ctx.close()
