"""Auto-pass (issue 12): a person who may only pass is passed for at once, so a claim window
closes as soon as every seat has passed or cannot claim; "always ask" keeps it open for
that seat (passing at once tells the table it could not claim)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests.server.drive import Players
from tests.server.helpers import make_client
from tests.server.test_presence import stored_rows


def _asked_to_only_pass(table: Players, seat: int) -> bool:
    """``seat`` is waited for in a window or the declaration round with nothing but Pass
    (and moves between its own racks, which answer nothing)."""
    st = table.states[seat]
    v = st["view"]
    return (v["phase"] in ("window", "declare") and seat in v["to_act"]
            and [x["verb"] for x in st["legal"] if x["verb"] != "move"] == ["pass"])


def _play(table: Players, steps: int, seed: int) -> dict[int, int]:
    """Random actions; how often each seat was left to answer with only Pass."""
    rng = random.Random(seed)
    asked = {0: 0, 1: 0}
    for _ in range(steps):
        if table.over:
            break
        for s in asked:
            asked[s] += _asked_to_only_pass(table, s)
        table.step(rng)
    return asked


def test_nobody_is_asked_when_pass_is_all_they_may_do(database_url: str) -> None:
    with make_client(database_url) as client, Players.at_new_table(client) as table:
        asked = _play(table, 120, seed=5)
        game = client.app.state.hub.tables[table.game_id].state
        passes = sum(a.body() == "pass" for a in game.actions)
    assert asked == {0: 0, 1: 0}
    # the passes were made all the same, by the table, and recorded as the seats' own
    assert passes > 20


def test_always_ask_keeps_the_window_open_for_that_seat(service_url: str) -> None:
    """(In a cluster the switch goes to the worker that runs the table.)"""
    with make_client(service_url) as client, Players.at_new_table(client) as table:
        table.socks[1].send_json({"type": "always_ask", "on": True})
        while table.next_state(1)["always_ask"] is not True:
            pass
        asked = _play(table, 120, seed=5)
    assert asked[0] == 0 and asked[1] > 5


def test_always_ask_is_stored_and_outlives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twinrack.db'}"
    with make_client(url) as client, Players.at_new_table(client) as table:
        table.socks[1].send_json({"type": "always_ask", "on": True})
        while table.next_state(1)["always_ask"] is not True:
            pass
        game_id = table.game_id
    with make_client(url) as client:  # a new process: the table is rebuilt from the rows
        hub = client.app.state.hub  # type: ignore[attr-defined]
        rebuilt = client.portal.call(hub.get, game_id)
        assert [s.always_ask for s in rebuilt.seats] == [False, True]


def test_a_setting_that_cannot_be_stored_changes_nothing(database_url: str,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    with make_client(database_url) as client, Players.at_new_table(client) as table:
        hub = client.app.state.hub  # type: ignore[attr-defined]

        def disk_full(*_: object) -> None:
            raise OperationalError("UPDATE seats", {}, Exception("disk I/O error"))

        monkeypatch.setattr(hub, "_keep", disk_full)
        table.socks[1].send_json({"type": "always_ask", "on": True})
        while (msg := table.socks[1].receive_json())["type"] != "error":
            pass
        assert msg["code"] == "storage_unavailable" and msg["retryable"] is True
        assert hub.tables[table.game_id].seats[1].always_ask is False
        monkeypatch.undo()  # the disk is back: the same switch now takes
        table.socks[1].send_json({"type": "always_ask", "on": True})
        while table.next_state(1)["always_ask"] is not True:
            pass
        assert hub.tables[table.game_id].seats[1].always_ask is True


def _claim_check(client: TestClient, game_id: str, seat: int, version: int) -> str | None:
    """What "pass unless the claim helps" made of the discard for ``seat``, once known."""
    table = client.app.state.hub.tables[game_id]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        got = table.claim_checks.get(seat)
        if got is None or got[0] != version:
            return None
        if got[1] != "checking":
            return str(got[1])
        time.sleep(0.05)
    raise AssertionError("the hints never answered")


def test_with_three_players_a_seat_is_not_stopped_for_a_claim_that_does_not_help(
        database_url: str) -> None:
    """Issue 26: Royale for four stopped the player on nearly every discard, to pass. The
    seat is told it passes (and may still claim); the window keeps its whole call time,
    as when a person is asked and does not answer, so the others learn nothing."""
    with make_client(database_url) as client, Players.at_new_table(
            client, variant="royale", players="3", call_seconds="3") as table:
        rng = random.Random(7)
        for _ in range(300):
            assert not table.over, "no discard was passed for a seat"
            st = table.states[0]
            v = st["view"]
            if v["phase"] != "window":
                table.step(rng)
                continue
            live = client.app.state.hub.tables[table.game_id]  # type: ignore[attr-defined]
            version = live.state.public_version
            checks = {s: _claim_check(client, table.game_id, s, version) for s in v["to_act"]}
            passed = [s for s, c in checks.items() if c == "pass"]
            if not passed:
                table.step_with("pass")
                continue
            seat = passed[0]
            mine = table.next_state(seat) if table.states[seat]["claim_check"] is None or \
                table.states[seat]["claim_check"]["result"] == "checking" else table.states[seat]
            while mine["claim_check"]["result"] != "pass":
                mine = table.next_state(seat)
            assert mine["claim_check"]["reason"]  # the page says why
            assert any(x["verb"] == "claim" for x in mine["legal"])  # it may claim anyway
            for other in table.states:  # the others' messages say nothing of it
                if other not in passed:
                    assert table.states[other]["claim_check"] in (
                        None, {"result": "checking", "reason": ""},
                        {"result": "ask", "reason": ""})
            opened = time.monotonic() - (3000 - (mine["deadline_ms"] or 0)) / 1000
            for other in v["to_act"]:
                if other != seat and other not in passed:
                    table._try(other, "pass")
            while live.state.public_version == version:
                time.sleep(0.05)
            assert time.monotonic() - opened >= 2.8  # the window lasted its whole time
            # the call timer passed for the seat, as for a person who did not answer
            assert (seat, f"{seat}: pass", "timer") in stored_rows(client, table.game_id)
            return
    raise AssertionError("no discard was passed for a seat")
