"""Passkeys (docs/accounts.md, "Passkeys"): both ceremonies against a software
authenticator that signs as the specification says (passkey_authenticator.py); the
challenges used once and only in time, the counters, the origin, and the migration."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from tests.server.accounts_helpers import csrf_of, errors_of, sign_up
from tests.server.helpers import make_client
from tests.server.passkey_authenticator import Authenticator, b64
from twinrack.server.accounts import models  # noqa: F401  (the tables, on Base.metadata)
from twinrack.server.db import MIGRATIONS, make_engine, migrate
from twinrack.server.models import Base

EXPIRED = "This passkey request expired or was already used: try again."


def add_passkey(client: Any, key: Authenticator, name: str = "laptop") -> Any:
    options = client.post("/api/passkeys/register/options", json={}).json()
    return client.post("/api/passkeys/register",
                       json={"credential": key.create(options), "name": name})


def signin_options(client: Any, name: str = "") -> dict[str, Any]:
    r = client.post("/api/passkeys/signin/options", json={"name": name})
    assert r.status_code == 200, r.text
    options: dict[str, Any] = r.json()
    return options


def passkey_signin(client: Any, answer: dict[str, Any], next: str = "/account") -> Any:
    return client.post("/api/passkeys/signin", json={"credential": answer, "next": next})


def fresh_browser(client: Any) -> None:
    client.cookies.clear()
    client.get("/")


def test_add_a_passkey_then_sign_in_with_it_by_name_or_discoverably(database_url: str
                                                                     ) -> None:
    key = Authenticator()
    with make_client(database_url) as client:
        sign_up(client, "pia")
        options = client.post("/api/passkeys/register/options", json={}).json()
        assert options["rp"] == {"id": "testserver", "name": "TwinRack"}
        assert options["user"]["name"] == "pia"
        assert options["authenticatorSelection"]["residentKey"] == "required"
        assert options["excludeCredentials"] == []
        r = client.post("/api/passkeys/register",
                        json={"credential": key.create(options), "name": "laptop"})
        assert r.status_code == 200 and r.json() == {"ok": True, "name": "laptop"}
        page = client.get("/account").text
        assert '<span class="passkey-name">laptop</span>' in page and "last used never" in page
        # a second passkey is offered the first one to exclude
        again = client.post("/api/passkeys/register/options", json={}).json()
        assert [c["id"] for c in again["excludeCredentials"]] == [b64(key.credential_id)]
        for name, allowed in (("pia", 1), ("", 0), ("nobody", 0)):
            fresh_browser(client)
            options = signin_options(client, name)
            assert len(options["allowCredentials"]) == allowed
            r = passkey_signin(client, key.get(options), next="/u/pia")
            assert r.status_code == 200 and r.json() == {"ok": True, "next": "/u/pia"}, r.text
            assert "twinrack_session" in r.headers["set-cookie"]
            assert "Your account: pia" in client.get("/account").text
        assert key.count == 3 and "last used never" not in client.get("/account").text


def test_a_challenge_is_used_once_and_only_in_time(database_url: str) -> None:
    key = Authenticator()
    with make_client(database_url) as client:
        sign_up(client, "quinn")
        assert add_passkey(client, key).status_code == 200
        fresh_browser(client)
        answer = key.get(signin_options(client))
        assert passkey_signin(client, answer).status_code == 200
        fresh_browser(client)
        r = passkey_signin(client, answer)  # the same answer again
        assert r.status_code == 400 and r.json()["error"] == EXPIRED
        assert "Sign in" in client.get("/account").text  # not signed in
        answer = key.get(signin_options(client))
        store = client.app.state.passkeys  # type: ignore[attr-defined]
        store.clock = lambda: time.time() + 301  # five minutes and a second later
        r = passkey_signin(client, answer)
        assert r.status_code == 400 and r.json()["error"] == EXPIRED
        store.clock = time.time
        # a challenge given for a sign-in cannot add a passkey, nor one given to another
        sign_up(client, "rosa")
        r = client.post("/api/passkeys/register", json={
            "credential": Authenticator().create({**signin_options(client),
                                                  "rp": {"id": "testserver"},
                                                  "user": {"id": "eA"}})})
        assert r.status_code == 400 and r.json()["error"] == EXPIRED


def test_a_registration_challenge_belongs_to_its_account(database_url: str) -> None:
    with make_client(database_url) as one, make_client(database_url) as two:
        sign_up(one, "sam")
        sign_up(two, "tess")
        options = one.post("/api/passkeys/register/options", json={}).json()
        r = two.post("/api/passkeys/register", json={"credential": Authenticator().create(
            options)})
        assert r.status_code == 400 and r.json()["error"] == EXPIRED
        assert "No passkey yet." in two.get("/account").text


def test_a_counter_that_did_not_go_up_is_refused_as_a_clone(database_url: str) -> None:
    key = Authenticator()
    with make_client(database_url) as client:
        sign_up(client, "uma")
        add_passkey(client, key)
        fresh_browser(client)
        assert passkey_signin(client, key.get(signin_options(client), count=7)).status_code \
            == 200
        fresh_browser(client)
        r = passkey_signin(client, key.get(signin_options(client), count=7))
        assert r.status_code == 400 and "sign count" in r.json()["error"], r.text
        r = passkey_signin(client, key.get(signin_options(client), count=8))
        assert r.status_code == 200


def test_an_answer_for_another_origin_or_a_forged_signature_is_refused(database_url: str
                                                                        ) -> None:
    key = Authenticator()
    with make_client(database_url) as client:
        sign_up(client, "vic")
        options = client.post("/api/passkeys/register/options", json={}).json()
        r = client.post("/api/passkeys/register", json={
            "credential": key.create(options, origin="http://evil.example")})
        assert r.status_code == 400 and "not accepted" in r.json()["error"]
        assert add_passkey(client, key).status_code == 200
        fresh_browser(client)
        r = passkey_signin(client, key.get(signin_options(client),
                                           origin="http://evil.example"))
        assert r.status_code == 400 and "did not verify" in r.json()["error"]
        forged = key.get(signin_options(client))
        forged["response"]["signature"] = Authenticator().get(
            {"rpId": "testserver", "challenge": "AA"})["response"]["signature"]
        r = passkey_signin(client, forged)
        assert r.status_code == 400 and "did not verify" in r.json()["error"]
        for bad in ({}, {"credential": "x"}, {"credential": {"id": 1}}):
            r = client.post("/api/passkeys/signin", json=bad)
            assert r.status_code == 400 and r.json()["error"] == "the answer is not a passkey's"
        r = client.post("/api/passkeys/signin", content=b"{" + b" " * 20_000 + b"}",
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        assert "Sign in" in client.get("/account").text


def test_failed_passkey_answers_count_toward_the_sign_in_lock(database_url: str) -> None:
    key = Authenticator()
    with make_client(database_url) as client:
        sign_up(client, "wade")
        add_passkey(client, key)
        fresh_browser(client)
        for _ in range(5):
            r = passkey_signin(client, key.get(signin_options(client),
                                               origin="http://evil.example"))
            assert r.status_code == 400
        r = passkey_signin(client, key.get(signin_options(client)))
        assert r.status_code == 429 and "Too many failed sign-ins" in r.json()["error"]


def test_a_removed_passkey_no_longer_signs_in_and_deleting_the_account_removes_all(
        database_url: str) -> None:
    one, two = Authenticator(), Authenticator()
    with make_client(database_url) as client:
        sign_up(client, "xena")
        add_passkey(client, one, "phone")
        add_passkey(client, two, "key")
        page = client.get("/account").text
        ids = re.findall(r'name="passkey" value="(\d+)"', page)
        r = client.post("/account/passkeys/remove", data={"passkey": ids[0],
                                                          "csrf": csrf_of(client, "/account")},
                        follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/account?done=passkeys"
        page = client.get("/account").text
        assert "phone" not in page and '<span class="passkey-name">key</span>' in page
        fresh_browser(client)
        r = passkey_signin(client, one.get(signin_options(client)))
        assert r.status_code == 400 and "not one of an account here" in r.json()["error"]
        assert passkey_signin(client, two.get(signin_options(client))).status_code == 200
        r = client.post("/account/delete", data={"password": "correct horse battery",
                                                  "csrf": csrf_of(client, "/account")})
        assert r.status_code == 200 and errors_of(r.text) == []
        sign_up(client, "xena")  # the name again: a new account, with no passkey
        assert "No passkey yet." in client.get("/account").text
        fresh_browser(client)
        r = passkey_signin(client, two.get(signin_options(client)))
        assert r.status_code == 400 and "not one of an account here" in r.json()["error"]


def test_a_guest_cannot_add_a_passkey(database_url: str) -> None:
    with make_client(database_url) as client:
        r = client.post("/api/passkeys/register/options", json={})
        assert r.status_code == 401 and r.json()["error"] == "sign in first"


def test_migration_0010_makes_the_passkeys_tables_and_goes_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/m.db"
    engine = make_engine(url)
    migrate(engine)
    ours = {"passkeys", "webauthn_challenges"}
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert [d for d in diff if any(t in repr(d) for t in ours)] == []
    assert set(inspect(engine).get_table_names()) >= ours
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0009")
    names = set(inspect(create_engine(url)).get_table_names())
    assert not ours & names and "accounts" in names
    engine.dispose()
