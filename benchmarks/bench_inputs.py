"""What a player spends at the web table, measured with the page's own controls in chromium
(issue 26): inputs per own turn, key presses per discard when following the hint, how long
the computer takes to answer, how long the hints take.

A real server (its own SQLite file on 127.0.0.1, the expert computer at every other seat,
the bots' pacing delay set to --bot-delay) and Debian's chromium. The player uses the
keyboard only and follows the hint: the numbered key of the hint's choice, C for a claim
it recommends, P for a pass, D for its discard (G first when D would not take it).
Claim windows the page passes by itself cost nothing: with "Always ask" off, and with
"pass unless the claim helps" (3-4 players) when the page says it will pass for the seat.
An own turn is a turn on which the seat discards or declares Mah Jongg. The computer's
answer is the time from an input until the page is ready for the next one (the other seats'
moves and the server's work, bot delay included); the hint's time is from then until the
hint shows.

    python benchmarks/bench_inputs.py --turns 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.test_browser import served  # noqa: E402

TABLES = {"siamese": ("siamese", 2), "royale-4p": ("royale", 4), "imperial-4p": ("imperial", 4)}
READY = "#table-app[data-ready='true'], #table-app[data-phase='over']"


def open_table(browser: Any, base: str, variant: str, players: int) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{base}/")
    page.check(f"input[type=radio][name=variant][value={variant}]")
    page.select_option("select[name=players]", str(players))
    for s in range(1, players):
        page.select_option(f"select[name=seat{s}]", "expert")
    page.click("#create-table")
    page.wait_for_selector("#table-app")
    return page


def _keys_for(page: Any) -> list[str]:
    """The keys that follow the hint now."""
    best = page.locator(".choices button.choice[data-best='true']")
    if best.count():
        return [best.first.get_attribute("aria-keyshortcuts") or "1"]
    phase = page.get_attribute("#table-app", "data-phase")
    if phase == "window" and page.locator("#claim-check").count():
        return []  # "pass unless the claim helps" passes for the seat when the time is up
    if phase in ("window", "declare"):
        claims = page.locator(".claim-btn[data-best='true']")
        return ["c"] if claims.count() else ["p"]
    text = page.inner_text("#btn-discard") if page.locator("#btn-discard").count() else ""
    return ["d"] if "(hint)" in text or not page.locator(HINTED).count() else ["g", "d"]


HINTED = ".hand-tile[data-suggested='true']"


def play(page: Any, turns: int, hint_wait: float) -> dict[str, Any]:
    """Follow the hint for ``turns`` own turns (or to the end); the counts and times."""
    presses = own = discards = discard_presses = 0
    kinds: dict[str, int] = {}
    answers: list[float] = []
    hints: list[float] = []
    while own < turns:
        start = time.monotonic()
        page.wait_for_selector(READY, timeout=120_000)
        if page.get_attribute("#table-app", "data-phase") == "over":
            break
        ready = time.monotonic()
        answers.append(ready - start)
        try:
            page.wait_for_selector("#hint-now", timeout=hint_wait * 1000)
            hints.append(time.monotonic() - ready)
        except Exception:
            pass
        keys = _keys_for(page)
        mahjongg = page.locator(".mj-choices button.choice[data-best='true']").count() > 0
        version = page.get_attribute("#table-app", "data-version")
        phase = page.get_attribute("#table-app", "data-phase")
        for k in keys:
            page.keyboard.press(k)
        presses += len(keys)
        kind = f"{phase} {'+'.join(keys) or 'none (passed for the seat)'}"
        kinds[kind] = kinds.get(kind, 0) + 1
        if phase == "turn" and keys and (keys[-1] == "d" or mahjongg):
            own += 1
        if phase == "turn" and keys and keys[-1] == "d":
            discards += 1
            discard_presses += len(keys)
        page.wait_for_function("v => { const a = document.getElementById('table-app'); "
                               "return a.dataset.version !== v || a.dataset.phase === 'over'; }",
                               arg=version, timeout=60_000)
    return {"own": own, "presses": presses, "discards": discards,
            "discard_presses": discard_presses, "kinds": kinds, "answers": answers[1:],
            "hints": hints}


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"median {statistics.median(xs) * 1000:.0f} ms, worst {max(xs) * 1000:.0f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=20, help="own turns per table")
    ap.add_argument("--tables", default=",".join(TABLES), help="which tables")
    ap.add_argument("--bot-delay", default="0", help="the server's bot delay (seconds)")
    ap.add_argument("--hint-wait", type=float, default=30.0, help="seconds to wait for a hint")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            served(Path(tmp), TWINRACK_BOT_DELAY=args.bot_delay) as base, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name in args.tables.split(","):
            variant, players = TABLES[name]
            page = open_table(browser, base, variant, players)
            r = play(page, args.turns, args.hint_wait)
            per_turn = r["presses"] / max(1, r["own"])
            per_discard = r["discard_presses"] / max(1, r["discards"])
            print(f"{name}: {r['presses']} inputs in {r['own']} own turns = "
                  f"{per_turn:.2f} per own turn; {per_discard:.2f} key presses per discard "
                  f"({r['discards']} discards); computer's answer {_ms(r['answers'])}; "
                  f"hint {_ms(r['hints'])}", flush=True)
            spent = ", ".join(f"{k}: {n}" for k, n in sorted(r["kinds"].items()))
            print(f"  inputs by phase and keys: {spent}", flush=True)
            page.context.close()
        browser.close()


if __name__ == "__main__":
    main()
