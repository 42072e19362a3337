"""Accounts: signing up (NIST SP 800-63B's password rules), in and out, server-side
sessions and their cookies, CSRF tokens on every form, the sign-in limits (kept in the
database), password resets (the operator's link, an e-mail), and deleting an account."""

from __future__ import annotations

import email
import email.policy
import re
import socket
from html import unescape

import pytest
from fastapi.routing import APIRoute
from sqlalchemy import select
from typer.testing import CliRunner

from tests.server.accounts_helpers import PASSWORD, csrf_of, errors_of, sign_in, sign_up
from tests.server.helpers import create_table, make_client
from twinrack.server.accounts import routes
from twinrack.server.accounts.models import AccountRow, AccountSeatRow, SessionRow
from twinrack.server.accounts.passwords import PasswordRefused, check_new
from twinrack.server.accounts.store import ACCOUNT_FAILURES, CLIENT_FAILURES
from twinrack.server.models import SeatRow


@pytest.mark.parametrize(("password", "why"), [
    ("short12", "at least 8 characters (that one has 7)"),
    ("x" * 257, "at most 256 characters"),
    ("password123", "one of the most common ones"),
    ("QWERTYUIOP", "one of the most common ones"),
    ("zzzzzzzzzz", "one of the most common ones"),
    ("my-alice-2024", "may not contain the user name"),
])
def test_a_new_password_is_refused_for_its_length_commonness_or_the_name(
        password: str, why: str) -> None:
    with pytest.raises(PasswordRefused, match=re.escape(why)):
        check_new(password, "Alice")


@pytest.mark.parametrize("password", ["eightchr", "all lower case words", "ÄÖÜ ß €€ 漢字です",
                                      "y" * 10 + "z" * 246])
def test_any_characters_are_allowed_without_composition_rules(password: str) -> None:
    check_new(password, "alice")


def test_sign_up_signs_in_with_a_server_side_session_and_a_safe_cookie(
        database_url: str) -> None:
    with make_client(database_url) as client:
        r = sign_up(client, "Alice")
        assert r.headers["location"] == "/account"
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("twinrack_session=")
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
        token = cookie.split(";")[0].split("=", 1)[1]
        assert "Your account: Alice" in client.get("/account").text
        hub = client.app.state.hub
        with hub.db.reading() as s:
            row = s.scalar(select(SessionRow))
            account = s.scalar(select(AccountRow))
        assert row is not None and token not in row.token_hash  # only its hash is kept
        assert account is not None and account.password_hash.startswith("$argon2id$")
        # the name is taken, in any case
        r = client.post("/signup", data={"name": "ALICE", "password": PASSWORD,
                                         "csrf": csrf_of(client, "/signup")})
        assert r.status_code == 400 and errors_of(r.text) == [
            "the name ALICE is taken: choose another"]


def test_over_https_the_session_cookie_is_secure(database_url: str) -> None:
    with make_client(database_url) as client:
        client.base_url = client.base_url.copy_with(scheme="https")
        r = sign_up(client, "bob")
        assert "Secure" in r.headers["set-cookie"]


def test_a_refused_sign_up_says_why_and_creates_nothing(database_url: str) -> None:
    with make_client(database_url) as client:
        csrf = csrf_of(client, "/signup")
        r = client.post("/signup", data={"name": "al", "password": PASSWORD, "csrf": csrf})
        assert r.status_code == 400 and "3 to 30 characters" in errors_of(r.text)[0]
        r = client.post("/signup", data={"name": "carol", "password": "12345678",
                                         "csrf": csrf})
        assert r.status_code == 400 and "most common" in errors_of(r.text)[0]
        with client.app.state.hub.db.reading() as s:
            assert s.scalar(select(AccountRow)) is None


def _posted_paths() -> list[str]:
    return sorted(p for r in routes.router.routes if isinstance(r, APIRoute)
                  for p in [r.path] if "POST" in r.methods)


def test_every_form_refuses_a_missing_or_wrong_csrf_token(database_url: str) -> None:
    assert _posted_paths() == ["/account/delete", "/account/password", "/account/sessions",
                               "/account/settings", "/forgot", "/reset", "/signin",
                               "/signout", "/signup"]
    with make_client(database_url) as client:
        sign_up(client, "dave")
        for path in _posted_paths():
            for token in ({}, {"csrf": "0" * 64}):
                r = client.post(path, data={"name": "dave", "password": PASSWORD,
                                            "current": PASSWORD, "session": "all", **token},
                                csrf=False)
                assert r.status_code == 403 and "This form has expired" in r.text, path
        # nothing happened: still signed in, the account is there
        assert "Your account: dave" in client.get("/account").text
        # another browser's token is not this one's
        with make_client(database_url) as other:
            theirs = csrf_of(other)
        r = client.post("/signout", data={"csrf": theirs})
        assert r.status_code == 403


def test_a_wrong_password_then_a_locked_account_even_with_the_right_one(
        database_url: str) -> None:
    with make_client(database_url) as client:
        sign_up(client, "erin")
        client.cookies.clear()
        for _ in range(ACCOUNT_FAILURES):
            r = sign_in(client, "erin", "not the password")
            assert r.status_code == 400
            assert errors_of(r.text) == ["That user name and password do not match."]
        r = sign_in(client, "erin")
        assert r.status_code == 429
        assert errors_of(unescape(r.text)) == [
            "Too many failed sign-ins for this account: it is locked for 15 more minutes. "
            "If you forgot the password, reset it."]
        # the lock is in the database: another worker of a cluster sees it too
        with make_client(database_url) as other:
            assert sign_in(other, "erin").status_code == 429


def test_too_many_failures_from_one_address_lock_it_for_every_name(database_url: str) -> None:
    with make_client(database_url) as client:
        sign_up(client, "frank")
        client.cookies.clear()
        for i in range(CLIENT_FAILURES):
            assert sign_in(client, f"guess{i}", "whatever it is").status_code == 400
        r = sign_in(client, "frank")
        assert r.status_code == 429 and "from your address" in r.text


def test_a_success_clears_the_account_failures(database_url: str) -> None:
    with make_client(database_url) as client:
        sign_up(client, "gina")
        for _ in range(ACCOUNT_FAILURES - 1):
            sign_in(client, "gina", "nope nope nope")
        assert sign_in(client, "gina").status_code == 303
        assert sign_in(client, "gina", "nope nope nope").status_code == 400
        assert sign_in(client, "gina").status_code == 303


def _sessions(page: str) -> list[tuple[str, bool]]:
    """The sessions an account page lists: (id, whether it is this browser's)."""
    items = re.findall(r"<li>(.*?)</li>", page.split('class="sessions"')[1], re.S)
    return [(re.search(r'name="session" value="(\d+)"', i)[1], "<strong>this browser" in i)
            for i in items]


def _signed_in(client: object) -> bool:
    r = client.get("/account", follow_redirects=False)  # type: ignore[attr-defined]
    return bool(r.status_code == 200)


def test_sessions_are_listed_and_signed_out_one_or_everywhere(database_url: str) -> None:
    with make_client(database_url) as one, make_client(database_url) as two:
        sign_up(one, "hank")
        assert sign_in(two, "hank").status_code == 303
        listed = _sessions(one.get("/account").text)
        assert [this for _, this in listed].count(True) == 1 and len(listed) == 2
        other = next(i for i, this in listed if not this)
        r = one.post("/account/sessions", data={"session": other,
                                                "csrf": csrf_of(one, "/account")},
                     follow_redirects=False)
        assert r.headers["location"] == "/account?done=sessions"
        assert _signed_in(one) and not _signed_in(two)
        # sign out everywhere
        assert sign_in(two, "hank").status_code == 303
        r = one.post("/account/sessions", data={"session": "all",
                                                "csrf": csrf_of(one, "/account")},
                     follow_redirects=False)
        assert r.headers["location"] == "/"
        assert not _signed_in(one) and not _signed_in(two)
        assert one.get("/account", follow_redirects=False).headers["location"] == \
            "/signin?next=/account"


def test_sign_out_ends_the_session(database_url: str) -> None:
    with make_client(database_url) as client:
        sign_up(client, "ivy")
        token = client.cookies.get("twinrack_session")
        r = client.post("/signout", data={"csrf": csrf_of(client, "/account")},
                        follow_redirects=False)
        assert r.status_code == 303
        client.cookies.set("twinrack_session", token)  # the old cookie no longer works
        assert client.get("/account", follow_redirects=False).status_code == 303


def _reset_link(database_url: str, name: str) -> tuple[int, str]:
    from twinrack.cli import app

    result = CliRunner().invoke(app, ["accounts", "reset", name, "--database-url",
                                      database_url, "--base-url", "http://testserver"])
    return result.exit_code, result.output


def test_the_operators_reset_link_works_once_and_ends_every_session(
        database_url: str) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("the command line opens the database itself")
    with make_client(database_url) as client, make_client(database_url) as other:
        sign_up(client, "jack")
        code, out = _reset_link(database_url, "jack")
        assert code == 0, out
        link = out.splitlines()[0]
        assert link.startswith("http://testserver/reset?token=")
        token = link.split("token=")[1]
        assert "A new password for jack" in other.get(f"/reset?token={token}").text
        new = "a brand new passphrase"
        r = other.post("/reset", data={"token": token, "password": new,
                                       "csrf": csrf_of(other, f"/reset?token={token}")},
                       follow_redirects=False)
        assert r.status_code == 303 and "twinrack_session=" in r.headers["set-cookie"]
        assert client.get("/account", follow_redirects=False).status_code == 303  # ended
        assert other.get(f"/reset?token={token}").status_code == 403  # used
        assert sign_in(client, "jack").status_code == 400
        assert sign_in(client, "jack", new).status_code == 303
        code, out = _reset_link(database_url, "nobody")
        assert code == 2 and "there is no account named 'nobody'" in out


def test_deleting_an_account_keeps_its_games_as_a_former_player(database_url: str) -> None:
    with make_client(database_url) as client:
        sign_up(client, "kate")
        game_id, tokens = create_table(client, name="Kate")
        client.get(f"/t/{game_id}?token={tokens[0]}")
        hub = client.app.state.hub
        with hub.db.reading() as s:
            assert s.scalar(select(AccountSeatRow.game_id)) == game_id
        csrf = csrf_of(client, "/account")
        r = client.post("/account/delete", data={"password": "wrong one!", "csrf": csrf})
        assert r.status_code == 400 and "was not deleted" in r.text
        r = client.post("/account/delete", data={"password": PASSWORD, "csrf": csrf})
        assert r.status_code == 200 and "Account deleted" in r.text
        with hub.db.reading() as s:
            assert s.scalar(select(AccountRow)) is None
            assert s.scalar(select(SessionRow)) is None
            assert s.scalar(select(AccountSeatRow)) is None
            names = s.scalars(select(SeatRow.name).where(SeatRow.game_id == game_id)
                              .order_by(SeatRow.seat)).all()
        assert names == ["a former player", "Computer (Random)"]
        assert [s.name for s in hub.tables[game_id].seats] == names  # the table loaded
        assert sign_in(client, "kate").status_code == 400


class _Inbox:
    """An aiosmtpd handler that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], str]] = []

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        content = envelope.content  # type: ignore[attr-defined]
        self.messages.append((list(envelope.rcpt_tos),  # type: ignore[attr-defined]
                              content.decode() if isinstance(content, bytes) else content))
        return "250 OK"


def test_with_smtp_a_reset_link_is_e_mailed_to_the_accounts_address(
        database_url: str) -> None:
    controller_mod = pytest.importorskip("aiosmtpd.controller")
    from twinrack.server.accounts.mail import Mailer

    inbox = _Inbox()
    with socket.socket() as probe:  # a free port on 127.0.0.1
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = controller_mod.Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        with make_client(database_url) as client:
            client.app.state.mailer = Mailer(f"smtp://127.0.0.1:{port}")
            sign_up(client, "lena")
            r = client.post("/account/settings", data={"email": "lena@example.org",
                                                       "csrf": csrf_of(client, "/account")})
            assert r.status_code == 200
            client.cookies.clear()
            sent = client.post("/forgot", data={"name": "lena",
                                                "csrf": csrf_of(client, "/forgot")})
            assert sent.status_code == 200 and "on its way" in sent.text
            unknown = client.post("/forgot", data={"name": "nobody",
                                                   "csrf": csrf_of(client, "/forgot")})
            assert unknown.text.replace(csrf_of(client, "/forgot"), "") == \
                sent.text.replace(csrf_of(client, "/forgot"), "")  # tells nothing
            assert len(inbox.messages) == 1
            to, raw = inbox.messages[0]
            mail = email.message_from_string(raw, policy=email.policy.default)
            assert to == ["lena@example.org"] and mail["To"] == "lena@example.org"
            assert mail["Subject"] == "TwinRack: reset your password"
            body = mail.get_body().get_content()  # type: ignore[union-attr]
            token = re.search(r"http://testserver/reset\?token=([\w-]+)", body)[1]
            r = client.post("/reset", data={"token": token, "password": "a fresh secret phrase",
                                            "csrf": csrf_of(client, f"/reset?token={token}")},
                            follow_redirects=False)
            assert r.status_code == 303
            assert sign_in(client, "lena", "a fresh secret phrase").status_code == 303
    finally:
        smtp.stop()


def test_a_guest_who_signs_up_keeps_the_games_of_that_browser(database_url: str) -> None:
    with make_client(database_url) as client:
        client.get("/")  # the browser's id cookie
        game_id, _ = create_table(client, name="Guest")
        with make_client(database_url) as stranger:
            stranger.get("/")
            theirs, _ = create_table(stranger, name="Other")
        sign_up(client, "mona")
        with client.app.state.hub.db.reading() as s:
            held = s.execute(select(AccountSeatRow.game_id, AccountSeatRow.seat)).all()
        assert held == [(game_id, 0)] and theirs != game_id


def test_signing_in_again_replaces_the_browsers_session(database_url: str) -> None:
    with make_client(database_url) as client:
        sign_up(client, "nell")
        old = client.cookies.get("twinrack_session")
        assert sign_in(client, "nell").status_code == 303
        assert client.cookies.get("twinrack_session") != old
        with client.app.state.hub.db.reading() as s:
            assert len(s.scalars(select(SessionRow)).all()) == 1


@pytest.mark.parametrize(("target", "lands"), [
    ("/account/games", "/account/games"), ("//evil.example/x", "/account"),
    ("https://evil.example/", "/account"), ("/\\evil.example", "/account")])
def test_after_signing_in_only_a_path_of_this_site_is_followed(
        database_url: str, target: str, lands: str) -> None:
    with make_client(database_url) as client:
        sign_up(client, "olga")
        r = client.post("/signin", data={"name": "olga", "password": PASSWORD,
                                         "csrf": csrf_of(client), "next": target},
                        follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == lands
