"""The tournament desk in a real browser: Debian's chromium driven by Playwright (sync API).

The real server runs in a subprocess (tests/server/server_process.py) with its own SQLite
file. The director creates a 4-seat tournament and registers 8 players on the director's
page; the tables enter every game of 4 rounds on their phone-sized score-entry pages and
the player opposite each winner confirms it; the director closes each round. The public
standings page must then show the ranking and points that the desk model computes from the
same games.

Screenshots go to ``screenshots/`` at the top of the project (git-ignored).
Never download a browser for these tests: they use /usr/bin/chromium or are skipped.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from twinrack.desk.tournament import Tournament

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay", "Gil", "Hal"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="/usr/bin/chromium is not installed (apt-get install chromium); "
                              "these tests never download a browser"),
]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("desk-server")
    proc = ServerProcess(f"sqlite:///{tmp}/desk.db", log=tmp / "server.log")
    try:
        proc.start()
    except RuntimeError as err:
        log = (tmp / "server.log").read_text() if (tmp / "server.log").exists() else ""
        pytest.fail(f"{err}\n{log}")
    try:
        yield proc.base
    finally:
        proc.stop()
        log = (tmp / "server.log").read_text()
        assert "Traceback" not in log, log


def watch_errors(page: Any) -> list[str]:
    """JavaScript errors and failed sub-resources (a refused form's page is expected)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and r.request.resource_type != "document"
            and not r.url.endswith("/favicon.ico") else None)
    return errors


def shot(page: Any, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def a_result(rng: random.Random, names: list[str], game: int) -> dict[str, Any]:
    """A game of the section 11 sheet: mostly wins, sometimes a wall game or a penalty."""
    if game == 4 and rng.random() < 0.3:
        res: dict[str, Any] = {"wall_game": True}
        if rng.random() < 0.5:
            res["dead"] = [rng.choice(names)]
    else:
        winner = rng.choice(names)
        res = {"winner": winner, "value": rng.choice([25, 30, 35, 40, 50])}
        if rng.random() < 0.3:
            res["self_picked"] = True
        else:
            res["discarder"] = rng.choice([n for n in names if n != winner])
            exposures = rng.choice([0, 1, 2, 3])
            if exposures:
                res["winner_exposures"] = exposures
        if rng.random() < 0.2:
            res["jokerless"] = True
        elif rng.random() < 0.1:
            res["singles_and_pairs"] = True
    if rng.random() < 0.08:
        res["penalties"] = [{"player": rng.choice(names), "kind": "stealing_and_looking"}]
    return res


def fill_game(page: Any, result: dict[str, Any], shot_name: str | None = None) -> None:
    """Fill the 4-seat entry form as a person would, then save."""
    form = page.locator("#game-form")
    if "winner" in result:
        form.get_by_label("Mah Jongg", exact=True).check()
        form.locator(f"input[name=winner][value='{result['winner']}']").check()
        form.get_by_label("Card value of the winning hand").fill(str(result["value"]))
        for flag, label in (("self_picked", "Self-picked (+15)"),
                            ("jokerless", "Jokerless (+20)"),
                            ("singles_and_pairs", "Singles & Pairs (+15)")):
            if result.get(flag):
                form.get_by_label(label).check()
        if result.get("discarder"):
            form.get_by_label("Thrown by").select_option(result["discarder"])
        form.get_by_label("Winner's exposures before that tile").select_option(
            str(result.get("winner_exposures", 0)))
    else:
        form.get_by_label("Wall game", exact=True).check()
        expect(form.locator("input[name=winner]").first).to_be_hidden()
    for name in result.get("dead", []):
        form.locator(f"input[name=dead][value='{name}']").check()
    for i, p in enumerate(result.get("penalties", []), start=1):
        form.locator("summary", has_text="Penalties").click()
        form.get_by_label(f"Penalty {i}: player").select_option(p["player"])
        form.get_by_label(f"Penalty {i}: what").select_option(p["kind"])
    if shot_name:
        shot(page, shot_name, full_page=True)
    page.click("#save-game")


def test_a_whole_tournament_in_the_browser(server: str, browser: Any) -> None:
    desk_ctx = browser.new_context(viewport=DESKTOP)
    desk_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                    device_scale_factor=2)
    director = desk_ctx.new_page()
    phone = phone_ctx.new_page()
    director_errors = watch_errors(director)
    phone_errors = watch_errors(phone)
    for p in (director, phone):
        p.set_default_timeout(10_000)

    # ---- the director creates the tournament and registers the players
    director.goto(f"{server}/desk")
    director.get_by_label("Name", exact=True).fill("Spring Open")
    director.get_by_label("4 seats (standard)").check()
    director.get_by_label("Rounds").fill("4")
    director.get_by_label("Minutes per round").fill("50")
    director.click("#create-tournament")
    director_url = director.locator("#director-link").input_value()
    # Post/Redirect/Get: the links are a page of their own, and Copy copies the link
    assert re.fullmatch(rf"{server}/desk/\w+/created\?key=[\w-]+", director.url)
    director.click("button[data-copy='director-link']")
    copied = director.locator("button[data-copy='director-link']")
    expect(copied).to_have_attribute("data-state", "copied")
    assert director.evaluate("navigator.clipboard.readText()") == director_url
    director.reload()
    assert director.locator("#director-link").input_value() == director_url
    director.click("#go-director")
    director.get_by_label("Add players, one name a line").fill("\n".join(NAMES))
    director.click("#add-player")
    expect(director.locator("#player-list li")).to_have_count(8)
    expect(director.locator("#player-list")).to_contain_text("1N Dot")
    tid = re.search(r"/desk/(\w+)\?", director_url)
    assert tid is not None
    # each table has its own link; each player a code, printed on the nametags
    table_urls = {n: director.locator(f".table-links a[data-table='{n}']").get_attribute("href")
                  for n in (1, 2)}
    tags = desk_ctx.new_page()
    tags.goto(director_url.replace("?key=", "/export/nametags.html?key="))
    codes = dict(zip(tags.locator(".tag-card .name").all_inner_texts(),
                     tags.locator(".tag-card .code").all_inner_texts(), strict=True))
    tags.close()
    assert sorted(codes) == sorted(NAMES)

    model = Tournament("Spring Open", seats=4, rounds_planned=4, round_minutes=50)
    for name in NAMES:
        model.add_player(name)
    rng = random.Random(2024)

    for round_no in range(1, 5):
        director.click("#start-round")
        expect(director.locator("#desk-done")).to_contain_text(f"start round: round {round_no}")
        expect(director.locator(".timer")).to_contain_text(re.compile(r"^(50:00|49:\d\d) left$"))
        model.start_round(0.0)
        for table in (1, 2):
            names = [model.name_of(tag) for tag in model.seating(round_no)[table].values()]
            phone.goto(str(table_urls[table]))
            expect(phone.locator("ul.seating li")).to_have_text(
                [re.compile(rf"^{letter}\s+{name}\s+\d[ESWN]$")
                 for letter, name in zip("ESWN", names, strict=True)])
            for game in range(1, 5):
                result = a_result(rng, names, game)
                fill_game(phone, result, "desk-entry-form-phone"
                          if (round_no, table, game) == (1, 2, 2) else None)
                expect(phone.locator("#desk-done")).to_contain_text(f"game {game}: ")
                entry = model.enter_game(table, result, 0.0)
                points = ", ".join(f"{model.name_of(tag)} {pts:+d}" if pts else
                                   f"{model.name_of(tag)} 0" for tag, pts in entry.points.items())
                expect(phone.locator("#desk-done")).to_have_text(f"Saved: game {game}: {points}")
                if entry.winner is None:
                    continue
                signer = model.name_of(model._opposite(round_no, table, entry.winner))
                if round_no == 1 and table == 1 and game == 1:
                    # the wrong player cannot sign; the page says who can
                    wrong = next(n for n in names if n not in (signer, model.name_of(
                        entry.winner)))
                    phone.select_option(f"#by-{game}", wrong)
                    phone.fill(f"#code-{game}", codes[wrong])
                    phone.click(f"#confirm-{game}")
                    expect(phone.locator("#desk-errors")).to_contain_text(
                        f"is confirmed by the player opposite, {signer}")
                    shot(phone, "desk-entry-refused-phone", full_page=False)
                phone.select_option(f"#by-{game}", signer)
                phone.fill(f"#code-{game}", codes[signer])
                phone.click(f"#confirm-{game}")
                expect(phone.locator("#desk-done")).to_have_text(
                    f"Saved: game {game} confirmed by {signer}")
                model.confirm(table, game, signer, 0.0, code=model.player(signer).code)
            if round_no == 2 and table == 1:
                shot(phone, "desk-entry-phone", full_page=True)
        director.reload()
        expect(director.locator("#round-status .games-count")).to_have_text(["4 / 4", "4 / 4"])
        if round_no == 3:
            shot(director, "desk-director", full_page=False)
        director.click("#close-round")
        expect(director.locator("#desk-done")).to_contain_text(f"round {round_no} locked")
        model.close_round(0.0)

    # ---- the public standings, on a projector
    viewer = desk_ctx.new_page()
    viewer_errors = watch_errors(viewer)
    viewer.goto(f"{server}/desk/{tid.group(1)}/standings")
    assert viewer.locator("meta[http-equiv=refresh]").get_attribute("content") == "15"
    expect(viewer.locator("#round-state")).to_have_text("Final standings: all rounds played")
    rows = viewer.locator("#standings tbody tr")
    expect(rows).to_have_count(8)
    shown = [[cell.strip() for cell in row.split("\t")]
             for row in rows.evaluate_all("rs => rs.map(r => [...r.cells].map(c => "
                                          "c.innerText).join('\\t'))")]
    expected = [[str(r["rank"]), r["name"], r["nametag"], str(r["points"]), str(r["wins"]),
                 str(r["games"])] for r in model.standings()]
    assert shown == expected
    assert all(row[5] == "16" for row in shown)
    shot(viewer, "desk-standings", full_page=False)
    phone.goto(f"{server}/desk/{tid.group(1)}/standings")
    shot(phone, "desk-standings-phone", full_page=False)

    for errs in (director_errors, phone_errors, viewer_errors):
        assert not errs, f"errors in the page: {errs}"
    desk_ctx.close()
    phone_ctx.close()
