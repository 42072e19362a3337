"""Chat at the table in chromium (issue 28): two players chat, a line shows as text (not
HTML), one mutes the other (kept in the browser over a reload), the other reports a line,
and the operator's ``twinrack accounts reports`` lists it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    DESKTOP,
    PageErrors,
    pytestmark,
    served,
)


def _say(page: Any, text: str) -> None:
    page.fill("#chat .chat-input", text)
    page.press("#chat .chat-input", "Enter")


def test_two_players_chat_one_mutes_the_other_and_reports_a_line(
        tmp_path: Path, browser: Any) -> None:
    from twinrack.cli import app

    with served(tmp_path) as server:
        host, friend = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
        p1, p2 = host.new_page(), friend.new_page()
        errors = [PageErrors(p1), PageErrors(p2)]
        p1.goto(f"{server}/")
        p1.get_by_label("Your name").fill("Ann")
        p1.select_option("select[name=seat1]", "human")
        p1.click("#create-table")
        invite = p1.input_value("#invite-1")
        p1.click("#go-to-table")
        p2.goto(invite)
        p2.get_by_label("Your name, as the other players will see it").fill("Bea")
        p2.click("#take-seat")
        for p in (p1, p2):
            p.wait_for_selector("#chat .chat-input")
            p.wait_for_function("t => document.querySelector('#chat .chat-title').textContent"
                                " === t", arg="Players' chat")  # its lines are loaded

        _say(p1, "<b>hello</b> Bea & co")
        ann = p2.locator(".chat-line[data-key='s0']")
        ann.wait_for()
        assert ann.locator(".chat-text").inner_text() == "<b>hello</b> Bea & co"
        assert p2.locator(".chat-lines b").count() == 0  # shown as text, never as HTML
        assert ann.locator(".chat-from").inner_text() == "Ann"
        assert p1.locator(".chat-line[data-key='s0'] .chat-mute").count() == 0  # one's own

        _say(p2, "hi Ann")
        p1.locator(".chat-line[data-key='s1']").wait_for()
        p1.click(".chat-line[data-key='s1'] .chat-mute")
        p1.locator(".chat-unmute").wait_for()
        assert p1.inner_text(".chat-unmute") == "Unmute Bea"
        assert p1.locator(".chat-line[data-key='s1']").is_hidden()
        p1.reload()  # the mute is kept in this browser
        p1.locator(".chat-line[data-key='s1']").wait_for(state="attached")
        _say(p2, "are you there?")
        p2.locator(".chat-line[data-key='s1']").nth(1).wait_for()
        p1.wait_for_function("() => document.querySelectorAll(\".chat-line[data-key='s1']\")"
                             ".length === 2")
        assert all(p1.locator(".chat-line[data-key='s1']").nth(i).is_hidden() for i in (0, 1))

        ann.locator(".chat-report").click()
        p2.wait_for_function("() => document.querySelector(\".chat-line[data-key='s0'] "
                             ".chat-report\").textContent === 'Reported'")
        for e in errors:
            e.check()
        host.close()
        friend.close()
        result = CliRunner().invoke(app, ["accounts", "reports", "--database-url",
                                          f"sqlite:///{tmp_path}/t.db"])
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert out[0] == "1 report(s), newest first:"
    assert " reported by Bea (seat 2) [g:" in out[1]
    assert out[2] == '    Ann, seat 1 [s0, to players]: "<b>hello</b> Bea & co"'
