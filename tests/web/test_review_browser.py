"""The post-game review beside the replay, in a real browser: a game against the computer
played to its end over the table's WebSocket (fast), then the end panel's Review link opens
the replay page, whose review panel starts at the viewer's own seat, lists exactly the
mistakes the API gives, draws one chart point per decision, takes the replay to a mistake's
step, and reviews the other seat when it is chosen."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import play_to_end
from tests.web.test_browser import (  # noqa: F401  (marks, used by name)
    DESKTOP,
    PageErrors,
    _get_json,
    create_table,
    game_id,
    pytestmark,
    served,
    shot,
)
from twinrack.server.table.wire import PROTOCOL

websockets_sync = pytest.importorskip("websockets.sync.client")


class Socket:
    """A WebSocket to the real server with the two calls play_to_end makes."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def receive_json(self) -> Any:
        return json.loads(self.conn.recv(timeout=30))

    def send_json(self, obj: Any) -> None:
        self.conn.send(json.dumps(obj))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {"TWINRACK_REVIEW_SEARCHED": "2", "TWINRACK_REVIEW_SIMULATIONS": "3"}
    with served(tmp_path_factory.mktemp("review"), **env) as base:
        yield base


def test_the_review_panel_beside_the_replay(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_table(page, server, "Ann", "random")
    gid = game_id(page)
    token = next(c["value"] for c in ctx.cookies() if c["name"] == f"twinrack_seat_{gid}")
    ws_url = server.replace("http", "ws") + f"/ws/{gid}?protocol={PROTOCOL}&token={token}"
    with websockets_sync.connect(ws_url) as conn:
        play_to_end(Socket(conn), random.Random(5), [])
    page.wait_for_selector("#review-link")
    page.click("#review-link")
    page.wait_for_selector("#replay-app")
    assert page.locator("#rv-seat").input_value() == "0"  # the viewer's own seat
    page.wait_for_selector("#rv-result[data-seat='0']", timeout=60_000)
    mine = _get_json(f"{server}/api/games/{gid}/review?seat=0")
    assert page.locator("#rv-mistakes > li").count() == len(mine["mistakes"])
    assert page.locator("#rv-chart circle.rv-point").count() == len(mine["chances"])
    assert page.locator("#rv-chart > title").text_content() == (
        "Ann's chance of finishing, turn by turn")
    # the chart marks each mistake; the review speaks in tiles and lines, not notation
    assert page.locator("#rv-chart .rv-mark").count() == len(mine["mistakes"])
    assert [int(t) for t in page.locator("#rv-chart .rv-mark").evaluate_all(
        "gs => gs.map(g => g.dataset.turn)")] == [m["turn"] for m in mine["mistakes"]]
    for m in mine["mistakes"]:
        assert m["played_words"] and m["best_words"] and m["played_words"] != m["played"]
    text = page.inner_text("#rv-result")
    assert not re.search(r"\b(expose [0-9]|discard [0-9A-Z]{1,2}\b|claim (expose|mahjongg))", text)
    shot(page, "r1-review", full_page=True)
    if mine["mistakes"]:
        first = mine["mistakes"][0]
        assert f"Turn {first['turn']}" in page.inner_text("#rv-mistakes > li >> nth=0")
        page.click("#rv-mistakes > li >> nth=0 >> button.rv-goto")
        assert page.get_attribute("#replay-app", "data-step") == str(first["number"])
    # the replay steps over the passes, and jumps to the viewer's next decision
    page.click("#rp-first")
    for _ in range(12):
        page.click("#rp-next")
        assert not (page.get_attribute("#rp-action", "title") or "").endswith(": pass")
    page.click("#rp-first")
    page.click("#rp-mine")
    step = int(page.get_attribute("#replay-app", "data-step") or 0)
    page.click("#rp-skip")  # unticked: one step at a time, onto the seat's own action
    page.click("#rp-next")
    assert int(page.get_attribute("#replay-app", "data-step") or 0) == step + 1
    assert (page.get_attribute("#rp-action", "title") or "").startswith("0: ")
    page.select_option("#rv-seat", "1")
    page.wait_for_selector("#rv-result[data-seat='1']", timeout=60_000)
    theirs = _get_json(f"{server}/api/games/{gid}/review?seat=1")
    assert page.locator("#rv-mistakes > li, #rv-none").count() == max(
        1, len(theirs["mistakes"]))
    assert page.locator("#rv-chart circle.rv-point").count() == len(theirs["chances"])
    errors.check()
    ctx.close()
