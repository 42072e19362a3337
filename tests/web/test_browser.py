"""The web table in a real browser: Debian's chromium driven by Playwright (sync API).

The real server runs in a subprocess on a free port with its own SQLite file, a fast random
bot and a short call timer. The tests play by clicking, as a person would, and wait on the
page's own state (``#table-app`` carries ``data-phase``, ``data-version`` and ``data-ready``:
true when this seat has something to do and nothing is in flight) instead of sleeping.

Screenshots go to ``screenshots/`` at the top of the project (git-ignored).
Never download a browser for these tests: they use /usr/bin/chromium or are skipped.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM
from twinrack.engine import parse_action
from twinrack.engine.events import parse_event
from twinrack.server.table.wire import PROTOCOL, action_object, lines_of
from twinrack.web.tiles_svg import label as tile_label

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

READY_OR_OVER = "#table-app[data-ready='true'], #table-app[data-phase='over']"
CHANGED = """v => { const a = document.getElementById('table-app');
                   return a.dataset.version !== v || a.dataset.phase === 'over'; }"""

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="/usr/bin/chromium is not installed (apt-get install chromium); "
                              "these tests never download a browser"),
]

sync_api = pytest.importorskip("playwright.sync_api")


# ---------------------------------------------------------------------- fixtures


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read().decode())


@contextmanager
def served(tmp: Path, **env: str) -> Iterator[str]:
    """The real service on a free port of 127.0.0.1 with its own SQLite file in ``tmp``
    (fast bots, a 3 s call timer; ``env`` sets more), its address while it runs."""
    port = _free_port()
    env = {**os.environ, "TWINRACK_PORT": str(port),
           "TWINRACK_DATABASE_URL": f"sqlite:///{tmp}/t.db",
           "TWINRACK_BOT_DELAY": "0.01", "TWINRACK_CALL_SECONDS": "3",
           "TWINRACK_RATE_BURST": "0", **env}
    log_path = tmp / "server.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "twinrack.server.app"], env=env,
                                cwd=tmp, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server exited:\n{log_path.read_text()}")
            try:
                if _get_json(f"{base}/healthz") == {"status": "ok"}:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer /healthz:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        problems = [ln for ln in log_path.read_text().splitlines()
                    if "Traceback" in ln or "ERROR" in ln]
        if problems:
            print("server log problems:\n" + log_path.read_text(), file=sys.stderr)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server")) as base:
        yield base


class PageErrors:
    """JavaScript errors on a page: any is a test failure."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text)
                if m.type == "error" and "favicon" not in m.text
                and "status of 404" not in m.text else None)

    def check(self) -> None:
        assert not self.errors, f"errors in the page: {self.errors}"


def shot(page: Any, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


# ---------------------------------------------------------------------- helpers


def create_table(page: Any, base: str, name: str, seat1: str) -> None:
    """Create a table from the lobby; it opens at once unless a friend is invited (then
    the page of invite links comes first, and this goes on to the table)."""
    page.goto(f"{base}/")
    page.get_by_label("Your name").fill(name)
    page.select_option("select[name=seat1]", seat1)
    page.click("#create-table")
    if seat1 == "human":
        page.click("#go-to-table")
    page.wait_for_selector("#table-app")


def game_id(page: Any) -> str:
    m = re.search(r"/t/([0-9a-f]+)", page.url)
    assert m, page.url
    return m.group(1)


def version(page: Any) -> str:
    return str(page.get_attribute("#table-app", "data-version"))


def act_once(page: Any) -> str:
    """One action on a page whose seat is ready: pass on a discard (or on declaring), else
    click a tile (the one just picked if it can go) and Discard. Returns what it did."""
    before = version(page)
    if page.is_enabled("#btn-pass"):
        try:
            page.click("#btn-pass", timeout=5000)
        except sync_api.TimeoutError:
            # the call timer passed for us first (3 s): the table has moved on
            assert version(page) != before
        did = "pass"
    else:
        tile = page.locator(".hand-tile[data-acquired='true'][data-discardable='true']")
        if tile.count() == 0:
            tile = page.locator(".hand-tile[data-discardable='true']")
        assert tile.count() > 0, "nothing to discard: " + page.inner_text("#prompt")
        target = tile.last
        label = target.locator("img").get_attribute("alt")
        target.click()
        discard = page.locator("#btn-discard")
        assert discard.is_enabled()
        assert discard.inner_text().strip() == f"Discard {label}"
        discard.click()
        did = "discard"
    page.wait_for_function(CHANGED, arg=before, timeout=15000)
    return did


#: act_once in one round trip: the same clicks, made by the page's own script (a tile
#: chosen, then Discard once the page has drawn it enabled); None when nothing was clickable
QUICK_ACT = """async () => {
  const pass = document.getElementById('btn-pass');
  if (pass && !pass.disabled) { pass.click(); return 'pass'; }
  const discard = () => document.getElementById('btn-discard');
  if (!document.querySelector(".hand-tile[aria-pressed='true'][data-discardable='true']")) {
    let tiles = document.querySelectorAll(
      ".hand-tile[data-acquired='true'][data-discardable='true']");
    if (!tiles.length) tiles = document.querySelectorAll(".hand-tile[data-discardable='true']");
    if (!tiles.length) return null;
    tiles[tiles.length - 1].click();
    for (let i = 0; i < 50 && (!discard() || discard().disabled); i++)
      await new Promise(r => setTimeout(r, 10));
  }
  if (!discard() || discard().disabled) return null;
  discard().click();
  return 'discard';
}"""


def act_quick(page: Any) -> str | None:
    """What act_once does, once its clicks were checked the slow way earlier in a game:
    the rest of a whole game goes three times faster."""
    before = version(page)
    did = page.evaluate(QUICK_ACT)
    if did is not None:
        page.wait_for_function(CHANGED, arg=before, timeout=15000)
    return did


def totals_on_page(page: Any) -> list[int]:
    return [int(x) for x in page.locator("#score-totals td.total")
            .evaluate_all("els => els.map(e => e.dataset.total)")]


def check_score_and_verify(page: Any, base: str, gid: str) -> dict[str, Any]:
    page.wait_for_selector("#score")
    rec = _get_json(f"{base}/api/games/{gid}/record")
    assert totals_on_page(page) == rec["score"]["totals"]
    assert page.locator("#score-lines tbody tr").count() == max(1, len(rec["score"]["lines"]))
    assert page.inner_text("#seed").strip() == rec["seed"]
    assert page.inner_text("#commitment").strip() == rec["commitment"]
    page.click("#verify-btn")
    page.wait_for_selector("#verify-result[data-ok='true']", timeout=15000)
    assert "Verified" in page.inner_text("#verify-result")
    return rec


# ---------------------------------------------------------------------- the tests


def test_play_a_bot_to_the_end_verify_and_replay(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_table(page, server, "Ann", "random")  # no invite: straight to the table
    shot(page, "a0-created")
    gid = game_id(page)

    # the help dialog and the hints switch, by keyboard
    page.keyboard.press("?")
    page.wait_for_selector("#help")
    page.keyboard.press("Escape")
    assert page.locator("#help").count() == 0
    hints = page.locator("#btn-hints")
    assert hints.get_attribute("aria-pressed") == "true"
    page.keyboard.press("h")
    assert hints.get_attribute("aria-pressed") == "false"
    hints.click()
    assert hints.get_attribute("aria-pressed") == "true"

    moved = False
    window_shot = False
    actions = 0
    while True:
        page.wait_for_selector(READY_OR_OVER, timeout=20000)
        phase = page.get_attribute("#table-app", "data-phase")
        if phase == "over":
            break
        if phase == "turn" and not moved:
            # move a tile to the other rack with the button, once
            shot(page, "a1-first-turn")
            rack2 = page.locator(".my-rack[data-rack='2'] .hand-tile").count()
            page.locator(".my-rack[data-rack='1'] .hand-tile").first.click()
            before = version(page)
            page.click("#btn-move")
            page.wait_for_function(CHANGED, arg=before, timeout=15000)
            assert page.locator(".my-rack[data-rack='2'] .hand-tile").count() == rack2 + 1
            moved = True
            # a spectator (another browser: this one would be led back to its seat by
            # its seat cookie) sees the table without anyone's concealed tiles
            other = browser.new_context(viewport=DESKTOP)
            watcher = other.new_page()
            watcher.goto(f"{server}/t/{gid}")
            watcher.wait_for_selector("#table-app[data-seat='']")
            assert watcher.locator(".seat-panel").count() == 2
            assert watcher.locator(".hand-tile, #btn-discard, #btn-hints").count() == 0
            assert watcher.get_by_text("spectating").count() == 1
            other.close()
            # this browser, without its link, is led back to its own seat
            mine = ctx.new_page()
            mine.goto(f"{server}/t/{gid}")
            mine.wait_for_selector("#table-app[data-seat='0']")
            mine.close()
            continue
        if phase == "window" and not window_shot:
            page.wait_for_selector("#countdown")
            shot(page, "a2-claim-window")
            window_shot = True
        if actions == 40:
            shot(page, "a3-mid-game")
            page.set_viewport_size(PHONE)
            shot(page, "a4-phone", full_page=True)
            page.set_viewport_size(DESKTOP)
        if actions < 60:
            act_once(page)
        else:
            act_quick(page)
        actions += 1
        assert actions < 600, "the game does not end"

    assert moved
    shot(page, "a5-game-over")
    rec = check_score_and_verify(page, server, gid)
    shot(page, "a6-verified")
    log_lines = page.locator("#game-log li")
    assert log_lines.count() == len(rec["events"])
    assert page.locator("#game-log").get_attribute("aria-live") == "polite"
    first_discard = next(e for e in rec["events"] if e.startswith("discard "))
    _, seat, tile = first_discard.split()
    said = tile_label(tile).removesuffix(" (Soap)")
    readable = f"You discard {said}" if seat == "0" else f"Computer 2 (random) discards {said}"
    assert readable in page.locator("#game-log li").all_inner_texts()

    # the replay: step through with the buttons, the keyboard and the slider
    page.click("#replay-link")
    page.wait_for_selector("#replay-app")
    app = page.locator("#replay-app")
    steps = int(app.get_attribute("data-steps") or 0)
    assert steps == len(rec["actions"]) + 1
    assert page.locator(".replay-hand").count() == 4  # both racks of both seats, face up
    assert page.is_checked("#rp-skip")  # passes are skipped by default: one step at a time here
    page.uncheck("#rp-skip")
    for _ in range(3):
        page.click("#rp-next")
    assert app.get_attribute("data-step") == "3"
    page.click("#rp-prev")
    assert app.get_attribute("data-step") == "2"
    page.keyboard.press("ArrowRight")
    assert app.get_attribute("data-step") == "3"
    shot(page, "a7-replay")
    page.locator("#rp-slider").focus()
    page.keyboard.press("End")
    assert app.get_attribute("data-step") == str(steps - 1)
    page.wait_for_selector("#score")
    assert totals_on_page(page) == rec["score"]["totals"]
    page.click("#verify-btn")
    page.wait_for_selector("#verify-result[data-ok='true']", timeout=15000)
    shot(page, "a8-replay-end", full_page=True)
    errors.check()
    ctx.close()


def test_two_friends_play_by_invite_link(server: str, browser: Any) -> None:
    ctx1 = browser.new_context(viewport=DESKTOP)
    ctx2 = browser.new_context(viewport=PHONE)
    p1 = ctx1.new_page()
    p2 = ctx2.new_page()
    errors = [PageErrors(p1), PageErrors(p2)]
    p1.goto(f"{server}/")
    p1.get_by_label("Your name").fill("Ann")
    p1.select_option("select[name=seat1]", "human")
    p1.click("#create-table")
    invite = p1.locator(".invite-link").first.input_value()
    assert invite.startswith(f"{server}/t/") and "/join?token=" in invite
    p1.click("#go-to-table")
    p1.wait_for_selector("#table-app")
    p2.goto(invite)  # the first time, the friend chooses a name
    p2.get_by_label("Your name").fill("Bea")
    p2.click("#take-seat")
    p2.wait_for_selector("#table-app")
    assert p1.get_attribute("#table-app", "data-seat") == "0"
    assert p2.get_attribute("#table-app", "data-seat") == "1"
    gid = game_id(p1)
    assert game_id(p2) == gid
    # Ann sees her friend arrive
    p1.wait_for_selector(".seat-panel[data-seat='1'] .badge.on")
    pages = {0: p1, 1: p2}

    dropped = False
    actions = 0
    while True:
        if p1.get_attribute("#table-app", "data-phase") == "over":
            break
        acted = False
        for page in pages.values():
            if page.get_attribute("#table-app", "data-ready") == "true":
                if not dropped:
                    act_once(page)
                elif act_quick(page) is None:
                    continue
                acted = True
                actions += 1
        if actions >= 30 and not dropped:
            # the friend's connection drops: the page says so and comes back by itself
            shot(p2, "b1-phone-friend", full_page=True)
            p2.evaluate("window.__twinrack.socket.ws.close()")
            p2.wait_for_selector(".banner.reconnecting", timeout=5000)
            p2.wait_for_selector("#conn-status.conn-open", timeout=15000)
            dropped = True
        if not acted:
            # wait until either page may act or has news: Ann's page may not have heard
            # yet of what Bea's already shows, so watching one page alone can wait forever
            seen = {s: version(p) for s, p in pages.items()}
            deadline = time.monotonic() + 15
            while not any(p.get_attribute("#table-app", "data-ready") == "true"
                          or version(p) != seen[s]
                          or p.get_attribute("#table-app", "data-phase") == "over"
                          for s, p in pages.items()):
                assert time.monotonic() < deadline, "the game stood still for 15 s"
                p1.wait_for_timeout(50)
        assert actions < 1200, "the game does not end"

    assert dropped
    p2.wait_for_selector("#table-app[data-phase='over']", timeout=15000)
    shot(p1, "b2-over-ann")
    rec = check_score_and_verify(p1, server, gid)
    p2.wait_for_selector("#score")
    assert totals_on_page(p2) == rec["score"]["totals"]
    shot(p2, "b3-over-friend-phone", full_page=True)
    for e in errors:
        e.check()
    ctx1.close()
    ctx2.close()


BAD_CARD = b'''name = "Bad card"
edition = "2026"

[[hand]]
section = "Test"
pattern = "FFFF 2222a 4444b ZZZ"
value = 25
'''


def test_card_upload_error_shows_line_and_column(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{server}/")
    page.check("#card-upload-choice")
    page.set_input_files("input[name=card_file]", files=[
        {"name": "bad-card.toml", "mimeType": "text/plain", "buffer": BAD_CARD}])
    page.click("#create-table")
    errors = page.locator(".errors[role='alert']")
    errors.wait_for()
    text = errors.inner_text()
    assert "bad-card.toml:6:29: unknown symbol 'Z'" in text
    shot(page, "c1-card-error")
    ctx.close()


RECONNECT_ASKS = """async ([game, token]) => {
  const { TableSocket } = await import("/static/js/protocol.js");
  const seen = [];
  const s = new TableSocket(game, token, {
    worker: "w9", onMessage: (m) => seen.push(m.type), onStatus: () => {} });
  s.attempt = 1;  // as after a dropped connection
  s.connect();
  const asking = s.asking;
  for (let i = 0; i < 100 && !seen.includes("state"); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = s.ws && s.ws.url;
  s.close();
  return { asking, worker: s.worker, url, seen };
}"""


def test_a_reconnecting_socket_asks_which_worker_runs_its_table(server: str,
                                                                 browser: Any) -> None:
    """The page's socket, reconnecting with the worker hint of a cluster, first asks the
    server which worker runs the table now and uses the answer (a single server: none)."""
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    create_table(page, server, "Hint", "random")
    gid = game_id(page)
    assert page.get_attribute("#table-root", "data-worker") == ""  # one process: no hint
    token = page.get_attribute("#table-root", "data-token")
    got = page.evaluate(RECONNECT_ASKS, [gid, token])
    assert got["asking"] is True and got["worker"] == ""
    assert "state" in got["seen"], got
    assert "w=" not in got["url"] and f"/ws/{gid}?protocol=" in got["url"]
    ctx.close()


# ---------------------------------------------------------------------- a scripted server

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def _rack(exposures: list[str] | None = None, dead: str | None = None) -> dict[str, Any]:
    return {"exposures": exposures or [], "dead": dead, "killer": 0 if dead else None,
            "mahjongg": None, "error_tiles": ""}


def _view(**kw: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "seat": 0, "variant": "siamese", "players": 2, "racks": 2, "revision": "2024",
        "phase": "turn", "current": 0, "to_act": [0], "turn": 7, "wall_left": 80, "die": 3,
        "commitment": "ab" * 32, "seed": None, "discards": [[0, "9B"], [1, "6C"]],
        "window": None, "answered": [], "claim": None, "must": None,
        "seats": [{"seat": 0, "concealed": 25, "declared": None, "stopped": False,
                   "racks": [_rack(), _rack()]},
                  {"seat": 1, "concealed": 24, "declared": None, "stopped": False,
                   "racks": [_rack(["5D 5D J"]), _rack(["2B 2B 2B"], dead="exposure")]}],
        "hand": ["1B 2B 3B 6C 6C 6C J", "N N E E W W S S R R G G 0 F 5D J"],
        "acquired": None, "placed": None, "free": "", "fixed_rack": None, "open_racks": [0, 1],
        "verbs": [], "end_reason": None, "winner": None, "version": 1}
    view.update(kw)
    return view


class ScriptedServer:
    """Stands in for the table channel: sends the states a test scripts, records what the
    page sends, acknowledges every action with a new version."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.routes: list[Any] = []
        self.state: dict[str, Any] = {}
        self.events: list[str] = []  # the log, in the events' text form
        self.log_sent = 0

    def handler(self, ws: Any) -> None:
        self.routes.append(ws)
        self.log_sent = 0
        ws.on_message(lambda raw: self._on_message(ws, raw))
        if self.state:
            self.send_state()

    def _on_message(self, ws: Any, raw: str | bytes) -> None:
        msg = json.loads(raw)
        self.received.append(msg)
        if msg.get("type") == "action":
            self.state["version"] += 1
            ws.send(json.dumps({"type": "ack", "msg_id": msg["msg_id"],
                                "version": self.state["version"]}))
            self.send_state()

    def set_state(self, legal: list[tuple[str, bool]], log: list[str] | None = None,
                  version: int | None = None, **kw: Any) -> None:
        """A state with these legal actions (text, kills the rack) and log (events in their
        text form), sent as the server would: objects and narrated lines."""
        version = version or (self.state.get("version", 0) + 1)
        if log is not None:
            self.events = log
        self.state = {
            "type": "state", "protocol": PROTOCOL, "version": version, "seat": 0,
            "view": _view(version=version, **kw),
            "legal": [action_object(parse_action(a, seat=0), k) for a, k in legal],
            "all_log": lines_of([parse_event(e) for e in self.events], ["You", "Bea"]),
            "players": [{"seat": 0, "name": "Ann", "kind": "human", "connected": True,
                         "bot_playing": False},
                        {"seat": 1, "name": "Bea", "kind": "human", "connected": False,
                         "bot_playing": True}],
            "deadline_ms": kw.pop("deadline_ms", None), "hints": None, "score": None,
            "call_seconds": 5, "record_url": "/api/games/x/record"}

    def send_state(self, **extra: Any) -> None:
        msg = {k: v for k, v in self.state.items() if k != "all_log"}
        msg.update(extra)
        lines = self.state["all_log"]
        msg["log_start"] = self.log_sent
        msg["log"] = lines[self.log_sent:]
        self.log_sent = len(lines)
        self.routes[-1].send(json.dumps(msg))

    def actions(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == "action"]


def wait_version(page: Any, v: int) -> None:
    page.wait_for_selector(f"#table-app[data-version='{v}']")


def test_table_controls_against_a_scripted_server(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    fake = ScriptedServer()
    kills = "expose 2 6C 6C J"
    fake.set_state(
        [("expose 1 6C 6C 6C", False), (kills, True), ("exchange 5D from 1:1:1", False),
         ("mahjongg 1 1B 2B 3B 6C 6C 6C J", False)],
        log=["start siamese 2 2024 " + "ab" * 32, "deal 1 27", "discard 1 6C",
             "grant 0 expose 6C from 1", "expose 1 2 2B 2B 2B", "dead 1 2 exposure"],
        must="expose", claim={"seat": 0, "kind": "expose", "tile": "6C", "discarder": 1},
        acquired="6C", placed=0, version=10)
    page.route_web_socket(re.compile(r"/ws/"), fake.handler)
    create_table(page, server, "Ann", "random")
    wait_version(page, 10)

    # the log reads as sentences; badges and DEAD marks are shown
    log = page.locator("#game-log li")
    assert log.nth(2).inner_text() == "Bea discards 6 Crak"
    assert log.nth(5).inner_text() == "Bea's rack 2 is DEAD: its exposures fit no line"
    assert log.nth(5).get_attribute("class") == "ev ev-dead"
    bea = page.locator(".seat-panel[data-seat='1']")
    assert bea.locator(".badge.dead").count() == 1
    assert bea.locator(".badge.bot", has_text="bot playing").count() == 1
    assert bea.get_by_role("img", name="24 concealed tiles").count() == 1
    # the acquired tile is marked, its image labelled
    acq = page.locator(".hand-tile[data-acquired='true']")
    assert acq.count() == 1 and acq.locator("img").get_attribute("alt") == "6 Crak"
    assert page.get_by_role("img", name="White dragon").count() == 1
    # nothing that is not legal can be pressed
    for button in ("#btn-discard", "#btn-move", "#btn-claim-expose", "#btn-claim-mahjongg",
                   "#btn-pass"):
        assert page.locator(button).is_disabled(), button
    shot(page, "d1-choices")

    # an exposure that kills its rack asks first; Cancel sends nothing
    page.click(f"[data-action='{kills}']")
    dialog = page.get_by_role("alertdialog")
    assert ("This exposure matches no hand on the card: rack 2 will be dead. Expose anyway?"
            in " ".join(dialog.locator("#confirm-text").inner_text().split()))
    shot(page, "d2-confirm-kill")
    page.click("#confirm-cancel")
    assert page.locator("#confirm").count() == 0
    page.keyboard.press("Escape")
    assert fake.actions() == []
    page.click(f"[data-action='{kills}']")
    page.click("#confirm-ok")
    wait_version(page, 11)
    sent = fake.actions()
    assert len(sent) == 1
    assert sent[0]["action"] == kills and sent[0]["version"] == 10
    assert UUID.match(sent[0]["msg_id"])

    # a plain turn: the keyboard selects and discards, the button and a drag move tiles
    fake.set_state([("discard 1B", False), ("discard 2B", False), ("discard N", False),
                    ("move 1B 1>2", False), ("move 2B 1>2", False), ("move N 2>1", False)],
                   log=[*fake.events, "expose 0 2 6C 6C J", "dead 0 2 exposure"])
    fake.send_state()
    wait_version(page, 12)
    page.locator(".hand-tile").last.click()
    page.keyboard.press("ArrowRight")  # wraps round to the first tile
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.locator(".hand-tile[aria-pressed='true']").get_attribute("data-tile") == "1B"
    assert page.locator("#btn-discard").inner_text() == "Discard 1 Bam"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("d")
    wait_version(page, 13)
    assert fake.actions()[-1]["action"] == "discard 2B"
    page.locator(".hand-tile[data-tile='1B']").click()
    page.click("#btn-move")
    wait_version(page, 14)
    assert fake.actions()[-1]["action"] == "move 1B 1>2"
    page.drag_and_drop(".my-rack[data-rack='2'] .hand-tile[data-tile='N'] >> nth=0",
                       ".my-rack[data-rack='1']")
    wait_version(page, 15)
    assert fake.actions()[-1]["action"] == "move N 2>1"
    # not legal: the 6C cannot be discarded, so D sends nothing
    page.locator(".hand-tile[data-tile='6C']").first.click()
    assert page.locator("#btn-discard").is_disabled()
    page.keyboard.press("d")
    assert len(fake.actions()) == 4

    # a claim window with its countdown: C claims (Mah Jongg first), P passes
    fake.set_state([("claim expose", False), ("claim mahjongg", False), ("pass", False)],
                   phase="window", current=1, to_act=[0], window={"discarder": 1, "tile": "6C"},
                   deadline_ms=5000)
    fake.send_state()
    wait_version(page, 16)
    page.wait_for_selector("#countdown")
    first = float(page.inner_text("#countdown").split()[0])
    assert 0 < first <= 5
    page.wait_for_function(
        f"() => parseFloat(document.querySelector('#countdown').innerText) < {first}")
    shot(page, "d3-claim-window")
    page.keyboard.press("c")
    wait_version(page, 17)
    assert fake.actions()[-1]["action"] == "claim mahjongg"
    page.keyboard.press("p")
    wait_version(page, 18)
    assert fake.actions()[-1]["action"] == "pass"

    # hints: shown from the state, switched off with H
    fake.send_state(hints={"summary": "Best plan: Honors-4 on rack 1 (3 away): 9 away in all",
        "mahjongg": None, "claim": None, "racks": [{"rack": 1, "lines": [
        {"id": "Honors-4", "section": "Honors", "away": 3, "value": 30, "concealed": False,
         "needs": [{"tile": "N", "count": 2, "unseen": 2}, {"tile": "E", "count": 1,
                                                            "unseen": 1}],
         "plan_away": 9}]}, {"rack": 2, "lines": []}],
        "discard": {"tile": "1B", "reason": "no hand in reach needs it"},
        "plans": [{"ids": ["Honors-4", "2468-1"], "away": 9, "value": 55}]})
    page.wait_for_selector(".hint-discard")
    hints_text = page.inner_text(".hints")
    assert "3 away" in hints_text and "1 Bam" in hints_text
    assert "North wind \u00d72 (2 unseen), East wind (1 unseen)" in hints_text
    shot(page, "d4-hints")
    page.keyboard.press("h")
    assert fake.received[-1] == {"type": "hints", "on": False}
    assert page.locator(".hints").count() == 0

    # the declaration round after the deal, and going off a declared hand
    declare = "declare Special-1 1B 3B 5B 7B 9B 2C 4C 6C N E W S F"
    fake.set_state([("pass", False), (declare, False)], phase="declare", turn=0)
    fake.send_state()
    wait_version(page, 19)
    assert page.inner_text("#btn-pass") == "Pass (no declaration)"
    page.click(f"[data-action='{declare}']")
    wait_version(page, 20)
    assert fake.actions()[-1]["action"] == declare
    fake.set_state([("undeclare", False), ("discard 1B", False)])
    fake.send_state()
    wait_version(page, 21)
    page.get_by_role("button", name="Go off the declared hand").click()
    wait_version(page, 22)
    assert fake.actions()[-1]["action"] == "undeclare"

    # every control has an accessible name
    nameless = page.evaluate("""() => [...document.querySelectorAll(
        'button, a[href], input, select, [role=timer], [tabindex]')].filter(el => {
          const own = (el.getAttribute('aria-label') || el.innerText || el.value || '').trim();
          const img = [...el.querySelectorAll('img')].some(i => i.alt.trim());
          const by = el.getAttribute('aria-labelledby');
          return !own && !img && !by;
        }).map(el => el.outerHTML.slice(0, 120))""")
    assert nameless == []

    # a refusal is shown; a dropped connection says "reconnecting..." and comes back
    fake.routes[-1].send(json.dumps({"type": "error", "code": "not_your_turn",
                                     "message": "it is not your turn", "msg_id": "x"}))
    page.get_by_role("alert").filter(has_text="it is not your turn").wait_for()
    fake.routes[-1].close(code=1011, reason="server restart")
    page.locator(".banner.reconnecting", has_text="reconnecting...").wait_for()
    shot(page, "d5-reconnecting")
    page.wait_for_selector("#conn-status.conn-open", timeout=10000)
    assert len(fake.routes) == 2
    # the new connection is told that hints are off
    assert {"type": "hints", "on": False} in fake.received[-2:]
    assert page.locator("#game-log li").count() == len(fake.state["all_log"])
    errors.check()
    ctx.close()
