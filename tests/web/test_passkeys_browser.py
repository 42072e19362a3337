"""Passkeys in chromium, with its DevTools virtual authenticator (a CTAP2 platform
authenticator that keeps discoverable credentials and verifies its user): add a passkey on
the account page, sign out, sign in with it from the sign-in page (without a user name),
then remove it. WebAuthn needs a secure context and a domain as the relying party's id, so
the pages are opened at http://localhost (not 127.0.0.1)."""

from __future__ import annotations

from typing import Any

from tests.web.test_browser import (  # noqa: F401  (fixtures and marks, used by name)
    DESKTOP,
    PageErrors,
    pytestmark,
)
from tests.web.test_browser import server as server

PASSWORD = "a long and quiet passphrase"


def virtual_authenticator(page: Any) -> tuple[Any, str]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return cdp, made["authenticatorId"]


def test_add_a_passkey_sign_in_with_it_and_remove_it(server: str, browser: Any) -> None:
    base = server.replace("127.0.0.1", "localhost")
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = PageErrors(page)
    cdp, authenticator = virtual_authenticator(page)
    page.goto(f"{base}/signup")
    page.fill("#signup-form input[name=name]", "Petra")
    page.fill("#signup-form input[name=password]", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("h1:has-text('Your account: Petra')")
    assert page.inner_text("#no-passkeys") == "No passkey yet."
    page.fill("#passkey-name", "this laptop")
    page.click("#passkey-add")
    page.wait_for_selector(".passkey-name:has-text('this laptop')")
    stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert [c["isResidentCredential"] for c in stored["credentials"]] == [True]
    assert stored["credentials"][0]["rpId"] == "localhost"
    page.click("#signout")
    page.wait_for_url(f"{base}/")

    page.goto(f"{base}/signin")
    page.click("#passkey-signin")  # no user name: the passkey tells who
    page.wait_for_selector("h1:has-text('Your account: Petra')")
    assert "last used never" not in page.inner_text("#passkeys")
    counted = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert counted["credentials"][0]["signCount"] >= 1

    page.click("#passkeys button:has-text('Remove')")
    page.wait_for_selector("#no-passkeys")
    page.click("#signout")
    page.wait_for_url(f"{base}/")
    errors.check()  # from here on the refusal answers 400, as it should
    page.goto(f"{base}/signin")
    page.click("#passkey-signin")  # the device still has it; the site no longer does
    page.wait_for_selector("#passkey-status:has-text('not one of an account here')")
    assert "Sign in" in page.inner_text("h1")
    ctx.close()
