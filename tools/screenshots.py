"""Render the pictures of docs/images/: the lobby, the card editor, a Siamese table (also on
a phone), its end screen, a Royale and an Imperial table, the American game's Charleston
and its four-seat table.

    .venv/bin/python tools/screenshots.py            # all of them, into docs/images/
    .venv/bin/python tools/screenshots.py --out /tmp/shots lobby siamese

The script starts the real server itself (``python -m twinrack.server.app`` on 127.0.0.1, a
free port, a temporary SQLite file) and stops it at the end. It drives Debian's chromium
(/usr/bin/chromium) with Playwright and never downloads a browser.

To show a game under way, the player plays it on its own page with the page's keys,
following the hint (its marked choice, C or P in a claim window, G then D for its discard);
the computer plays the other seats. (A table whose only person has closed the page stands
still, so closing it and letting the computer play on does not work.)
"""

from __future__ import annotations

import argparse
import io
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
OUT = Path(__file__).resolve().parents[1] / "docs" / "images"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: seconds to wait for a game to reach a point (the stand-in bots play quickly)
GAME_SECONDS = 300.0


class ShotError(Exception):
    """A picture could not be taken: the message says which and why."""


@contextmanager
def running_server(workdir: Path) -> Iterator[str]:
    """The server on 127.0.0.1 with a fresh SQLite file in ``workdir``; yields its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = {**os.environ, "TWINRACK_HOST": "127.0.0.1", "TWINRACK_PORT": str(port),
           "TWINRACK_DATABASE_URL": f"sqlite:///{workdir}/screenshots.db",
           "TWINRACK_BOT_DELAY": "0.05", "TWINRACK_GRACE_SECONDS": "0",
           "TWINRACK_CALL_SECONDS": "10", "TWINRACK_RATE_BURST": "0"}
    log_path = workdir / "server.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "twinrack.server.app"], env=env,
                                cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(base, proc, log_path)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_healthy(base: str, proc: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ShotError(f"the server exited:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=5) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise ShotError(f"the server did not answer /healthz:\n{log_path.read_text()}")


@dataclass
class Studio:
    """One browser on one server, and where the pictures go."""

    browser: Any
    base: str
    out: Path

    def save(self, page: Any, name: str, full_page: bool = False) -> Path:
        """The page as it is on screen (``full_page``: all of it), in at most 256 colours (a
        third of the bytes; the pages are flat colours, so nothing is lost to the eye)."""
        path = self.out / f"{name}.png"
        shot = page.screenshot(animations="disabled", caret="hide", full_page=full_page)
        picture = Image.open(io.BytesIO(shot)).convert("RGB")
        picture.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                         dither=Image.Dither.NONE).save(path, optimize=True)
        return path

    def new_table(self, ctx: Any, **fields: str) -> str:
        """A table made through the lobby's form in ``ctx`` (whose seat cookie it gets)."""
        form = {"name": "Ann", "variant": "siamese", "players": "2", "revision": "2024",
                "card_choice": "practice", **fields}
        form["csrf"] = page_csrf(ctx, self.base)
        resp = ctx.request.post(f"{self.base}/tables", form=form)
        path = resp.url.removeprefix(self.base)
        if resp.status != 200 or not path.startswith("/t/"):
            raise ShotError(f"the lobby refused {form}: {resp.status} {resp.text()[:300]}")
        return path.removeprefix("/t/").split("/")[0]

    def played_to(self, ctx: Any, game_id: str, moves: int) -> Any:
        """The player's page of that table once the game has gone ``moves`` moves on (or is
        over). The player follows the hint with the page's own keys, as a newcomer might (a
        table whose only person has left stands still, so nobody plays it for them)."""
        page = ctx.new_page()
        page.goto(f"{self.base}/t/{game_id}")
        page.wait_for_selector("#table-app")
        goal = int(page.get_attribute("#table-app", "data-version") or 0) + moves
        deadline = time.monotonic() + GAME_SECONDS
        while True:
            if time.monotonic() > deadline:
                raise ShotError(f"table {game_id} did not reach move {goal} in time")
            app = page.locator("#table-app")
            if app.get_attribute("data-phase") == "over" or \
                    int(app.get_attribute("data-version") or 0) >= goal:
                break
            try:
                page.wait_for_selector(READY, timeout=30_000)
            except PlaywrightTimeout:
                continue
            if page.get_attribute("#table-app", "data-phase") == "over":
                break
            follow_the_hint(page)
        page.wait_for_timeout(300)  # let the last update paint
        return page


READY = "#table-app[data-ready='true'], #table-app[data-phase='over']"


def follow_the_hint(page: Any) -> None:
    """One decision made with the keys the hint points to (its marked choice, C or P in a
    claim window, D for its discard); if they do nothing, the first enabled control."""
    version = page.get_attribute("#table-app", "data-version")
    if page.locator("#charleston").count():
        charleston_step(page, version)
        return
    with suppress(PlaywrightTimeout):
        page.wait_for_selector("#hint-now", timeout=10_000)
    best = page.locator(".choices button.choice[data-best='true']")
    phase = page.get_attribute("#table-app", "data-phase")
    if best.count():
        keys = [best.first.get_attribute("aria-keyshortcuts") or "1"]
    elif phase == "window" and page.locator("#claim-check").count():
        keys = []  # the page passes for the seat when the call timer runs out
    elif phase in ("window", "declare"):
        keys = ["c"] if page.locator(".claim-btn[data-best='true']").count() else ["p"]
    else:
        keys = ["g", "d"]
    for key in keys:
        page.keyboard.press(key)
    changed = """v => { const a = document.getElementById('table-app');
                        return a.dataset.version !== v || a.dataset.phase === 'over'; }"""
    try:
        page.wait_for_function(changed, arg=version, timeout=10_000)
    except PlaywrightTimeout:
        page.locator(".controls button:enabled").first.click()
        page.wait_for_function(changed, arg=version, timeout=30_000)


def charleston_step(page: Any, version: str | None) -> None:
    """One step of the American game's Charleston with the page's buttons: the hint's pass
    (or the first passable tiles when there is no hint), no second Charleston, no courtesy
    pass."""
    kind = page.get_attribute("#charleston", "data-kind")
    if kind == "vote":
        page.click("#btn-vote-stop")
    elif kind == "offer":
        page.click("#btn-offer-0")
    else:
        with suppress(PlaywrightTimeout):
            page.wait_for_selector("#btn-charleston-hint", timeout=10_000)
        if page.locator("#btn-charleston-hint:enabled").count():
            page.click("#btn-charleston-hint")
        else:
            tiles = page.locator(".ch-tile:not([disabled])")
            for i in range(3):
                tiles.nth(i).click()
            page.click("#btn-charleston")
    page.wait_for_function("""v => { const a = document.getElementById('table-app');
                                return a.dataset.version !== v; }""", arg=version,
                           timeout=30_000)


# ---------------------------------------------------------------------- the pictures


def lobby(studio: Studio) -> list[Path]:
    ctx = studio.browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{studio.base}/")
    page.wait_for_selector("#play-computer")
    shots = [studio.save(page, "lobby")]
    ctx.close()
    return shots


def page_csrf(ctx: Any, base: str) -> str:
    """The CSRF token the lobby's page gives this browser context (server/csrf.py)."""
    page = ctx.request.get(f"{base}/").text()
    found = re.search(r'<meta name="csrf-token" content="(\w+)">', page)
    if found is None:
        raise ShotError("the lobby's page has no CSRF token")
    return found[1]


def editor(studio: Studio) -> list[Path]:
    """The editor with the practice card opened, one line chosen to edit."""
    from twinrack.card import practice_card

    ctx = studio.browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{studio.base}/cards")  # gives the browser the cookie its cards are kept under
    resp = ctx.request.post(f"{studio.base}/api/cards", data={"source": practice_card().source},
                            headers={"X-CSRF-Token": page_csrf(ctx, studio.base)})
    if resp.status != 200:
        raise ShotError(f"the practice card was not saved: {resp.status} {resp.text()[:300]}")
    page.goto(f"{studio.base}{resp.json()['edit_url']}")
    page.locator("ol.lines li .ways").first.wait_for()
    page.wait_for_timeout(500)
    shots = [studio.save(page, "card-editor")]
    ctx.close()
    return shots


def siamese(studio: Studio) -> list[Path]:
    """A Siamese game against the expert, some moves in; the same on a phone; its end."""
    ctx = studio.browser.new_context(viewport=DESKTOP)
    game_id = studio.new_table(ctx, seat1="expert")
    page = studio.played_to(ctx, game_id, 24)
    shots = [studio.save(page, "table-siamese")]
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shots.append(studio.save(page, "table-phone"))
    page.close()
    page = studio.played_to(ctx, game_id, 10_000)  # to the end
    page.set_viewport_size(DESKTOP)
    page.wait_for_selector("#score")
    # the whole page: the score and, below it, Replay, Review, Verify and Rematch
    shots.append(studio.save(page, "end-screen", full_page=True))
    ctx.close()
    return shots


def card(studio: Studio) -> list[Path]:
    """The card panel open at the table, the lines within reach highlighted."""
    ctx = studio.browser.new_context(viewport=DESKTOP)
    game_id = studio.new_table(ctx, seat1="expert")
    page = studio.played_to(ctx, game_id, 12)
    with suppress(PlaywrightTimeout):
        page.wait_for_selector("#hint-now", timeout=30_000)
    page.click("#btn-card")
    page.wait_for_selector("#card-drawer .card-line")
    reach = page.locator(".card-line.in-reach")
    if reach.count():
        reach.first.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    shots = [studio.save(page, "table-card")]
    ctx.close()
    return shots


def royale(studio: Studio) -> list[Path]:
    ctx = studio.browser.new_context(viewport=DESKTOP)
    game_id = studio.new_table(ctx, variant="royale", players="4", seat1="greedy",
                               seat2="greedy", seat3="greedy")
    shots = [studio.save(studio.played_to(ctx, game_id, 40), "table-royale")]
    ctx.close()
    return shots


def imperial(studio: Studio) -> list[Path]:
    ctx = studio.browser.new_context(viewport=DESKTOP)
    game_id = studio.new_table(ctx, variant="imperial", players="4", seat1="greedy",
                               seat2="greedy", seat3="greedy")
    shots = [studio.save(studio.played_to(ctx, game_id, 20), "table-imperial")]
    ctx.close()
    return shots


def american(studio: Studio) -> list[Path]:
    """The Charleston's first pass with the hint's three tiles picked, then the table a
    few turns into play."""
    ctx = studio.browser.new_context(viewport=DESKTOP)
    game_id = studio.new_table(ctx, variant="american", players="4", seat1="greedy",
                               seat2="greedy", seat3="greedy")
    page = ctx.new_page()
    page.goto(f"{studio.base}/t/{game_id}")
    page.wait_for_selector("#charleston[data-stage='first-right']")
    try:  # the hint marks the tiles to pass; the picture shows them picked
        page.wait_for_selector("#btn-charleston-hint", timeout=20_000)
        for tile in page.locator(".ch-tile.suggested").all():
            tile.click()
    except PlaywrightTimeout:
        pass
    page.wait_for_timeout(300)
    shots = [studio.save(page, "american-charleston")]
    page.close()
    shots.append(studio.save(studio.played_to(ctx, game_id, 80), "table-american"))
    ctx.close()
    return shots


PICTURES: dict[str, Callable[[Studio], list[Path]]] = {
    "lobby": lobby, "editor": editor, "siamese": siamese, "card": card, "royale": royale,
    "imperial": imperial, "american": american,
}


def make_screenshots(out: Path = OUT, only: list[str] | None = None) -> list[Path]:
    """Take the pictures named in ``only`` (all of :data:`PICTURES` by default) into
    ``out``; returns the files written."""
    names = only or list(PICTURES)
    unknown = [n for n in names if n not in PICTURES]
    if unknown:
        raise ShotError(f"no picture called {', '.join(unknown)} (there are "
                        f"{', '.join(PICTURES)})")
    if not CHROMIUM.exists():
        raise ShotError(f"{CHROMIUM} is missing: apt-get install chromium (this script "
                        "never downloads a browser)")
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="twinrack-shots-") as tmp, \
            running_server(Path(tmp)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                     headless=True)
        try:
            studio = Studio(browser, base, out)
            for name in names:
                written += PICTURES[name](studio)
        finally:
            browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pictures", nargs="*", metavar="PICTURE",
                        help=f"which to take ({', '.join(PICTURES)}; all by default)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNG files go")
    args = parser.parse_args(argv)
    try:
        written = make_screenshots(args.out, args.pictures)
    except ShotError as err:
        print(f"screenshots: {err}", file=sys.stderr)
        return 1
    for path in written:
        print(f"{path} ({path.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
