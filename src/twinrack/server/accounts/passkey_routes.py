"""The passkeys' routes (docs/accounts.md, "Passkeys"; docs/protocol.md): the two
ceremonies, each a pair of JSON calls made by static/js/passkeys.js (the options, then the
browser's answer; both with the page's CSRF token in the X-CSRF-Token header), and the
account page's form that removes a passkey."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from twinrack.server.accounts.passkeys import (
    CHALLENGE_SECONDS,
    MAX_BODY,
    MAX_NAME,
    MAX_PASSKEYS,
    REGISTER,
    SIGNIN,
    Passkey,
    Passkeys,
    PasskeyTaken,
    TooManyPasskeys,
    signed_challenge,
    site_of,
    user_handle,
)
from twinrack.server.accounts.routes import NAME_RE, signed_in_on
from twinrack.server.accounts.web import AccountsDep, Visitor, VisitorDep, require, safe_next
from twinrack.server.deps import LimitsDep

router = APIRouter()
#: what a failed ceremony's answer may be, beside the library's own errors
BAD_INPUT = (WebAuthnException, ValueError, KeyError, TypeError)
EXPIRED = "This passkey request expired or was already used: try again."


def _passkeys(conn: HTTPConnection) -> Passkeys:
    store: Passkeys = conn.app.state.passkeys
    return store


PasskeysDep = Annotated[Passkeys, Depends(_passkeys)]


class Refusal(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def _error(err: Refusal) -> JSONResponse:
    return JSONResponse({"error": err.message, "status": err.status}, status_code=err.status)


async def _body(request: Request) -> dict[str, Any]:
    """The browser's JSON object, within the budget (MAX_BODY characters)."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise Refusal(413, f"the answer is over {MAX_BODY} bytes")
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        raise Refusal(400, "the answer is not JSON") from None
    if not isinstance(body, dict):
        raise Refusal(400, "the answer is not a JSON object")
    return body


def _options(options: Any) -> Response:
    return Response(options_to_json(options), media_type="application/json")


# ---------------------------------------------------------------------- adding a passkey


@router.post("/api/passkeys/register/options", response_model=None)
async def register_options(request: Request, visitor: VisitorDep,
                           passkeys: PasskeysDep) -> Response:
    """The options of ``navigator.credentials.create`` for a new passkey of the signed-in
    account: a discoverable credential (it can sign in without a user name)."""
    if visitor.account is None:
        return _error(Refusal(401, "sign in first"))
    have = await passkeys.of_account(visitor.account.id)
    if len(have) >= MAX_PASSKEYS:
        return _error(Refusal(400, f"an account has at most {MAX_PASSKEYS} passkeys"))
    rp_id, _ = site_of(request)
    options = generate_registration_options(
        rp_id=rp_id, rp_name="TwinRack", user_name=visitor.account.name,
        user_id=user_handle(visitor.account.id),
        challenge=await passkeys.new_challenge(REGISTER, visitor.account.id),
        timeout=int(CHALLENGE_SECONDS * 1000),
        exclude_credentials=[PublicKeyCredentialDescriptor(
            id=base64url_to_bytes(p.credential_id)) for p in have],
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED))
    return _options(options)


@router.post("/api/passkeys/register", response_model=None)
async def register(request: Request, visitor: VisitorDep, passkeys: PasskeysDep) -> Response:
    """The browser's new credential, checked (its challenge, origin, relying party and
    attestation) and kept with the account."""
    try:
        if visitor.account is None:
            raise Refusal(401, "sign in first")
        body = await _body(request)
        name = str(body.get("name") or "").strip()[:MAX_NAME] or "Passkey"
        try:
            credential = parse_registration_credential_json(body.get("credential", ""))
            challenge = signed_challenge(credential.response.client_data_json)
        except BAD_INPUT:
            raise Refusal(400, "the answer is not a passkey's") from None
        if not await passkeys.take_challenge(challenge, REGISTER, visitor.account.id):
            raise Refusal(400, EXPIRED)
        rp_id, origin = site_of(request)
        try:
            made = verify_registration_response(credential=credential,
                                                expected_challenge=challenge,
                                                expected_rp_id=rp_id, expected_origin=origin)
        except BAD_INPUT as err:
            raise Refusal(400, f"the passkey was not accepted: {err}") from None
        try:
            await passkeys.add(visitor.account.id, bytes_to_base64url(made.credential_id),
                               made.credential_public_key, made.sign_count, name)
        except PasskeyTaken:
            raise Refusal(409, "that passkey is already one of an account here") from None
        except TooManyPasskeys:
            raise Refusal(400, f"an account has at most {MAX_PASSKEYS} passkeys") from None
    except Refusal as err:
        return _error(err)
    return JSONResponse({"ok": True, "name": name})


@router.post("/account/passkeys/remove", response_model=None)
async def remove(request: Request, visitor: VisitorDep, passkeys: PasskeysDep,
                 passkey: Annotated[str, Form(max_length=12)] = "") -> Response:
    """The account page's "Remove" beside a passkey (a form, with its CSRF field)."""
    me = require(request, visitor)
    removed = passkey.isdigit() and await passkeys.remove(me.id, int(passkey))
    return RedirectResponse(f"/account?done={'passkeys' if removed else 'nothing'}",
                            status_code=303)


# ---------------------------------------------------------------------- signing in


@router.post("/api/passkeys/signin/options", response_model=None)
async def signin_options(request: Request, passkeys: PasskeysDep, accounts: AccountsDep,
                         limits: LimitsDep) -> Response:
    """The options of ``navigator.credentials.get``: with a user name, that account's
    passkeys; without one (or a name nobody has), any passkey of this site the device
    keeps (a discoverable credential)."""
    try:
        body = await _body(request)
    except Refusal as err:
        return _error(err)
    if not limits.allow("passkeys", scale=3):
        return _error(Refusal(429, "too many sign-ins from your address: wait a minute"))
    name = str(body.get("name") or "").strip()
    account = await accounts.by_name(name) if NAME_RE.fullmatch(name) else None
    allow = [] if account is None else [
        PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id))
        for p in await passkeys.of_account(account.id)]
    rp_id, _ = site_of(request)
    options = generate_authentication_options(
        rp_id=rp_id, challenge=await passkeys.new_challenge(SIGNIN, None),
        timeout=int(CHALLENGE_SECONDS * 1000), allow_credentials=allow,
        user_verification=UserVerificationRequirement.PREFERRED)
    return _options(options)


@router.post("/api/passkeys/signin", response_model=None)
async def signin(request: Request, visitor: VisitorDep, passkeys: PasskeysDep,
                 accounts: AccountsDep) -> Response:
    """The browser's signed answer: its challenge used up, its signature checked with the
    passkey's public key, its counter higher than the stored one; then a new session, as a
    password's sign-in makes (and the same limits on failures)."""
    try:
        body = await _body(request)
        target = safe_next(str(body.get("next") or "/account"))
        passkey, checked = await _checked_assertion(request, visitor, passkeys, accounts,
                                                    body.get("credential"))
        account = await accounts.by_id(passkey.account_id)
        if account is None:
            raise Refusal(400, "that passkey's account is gone")
        if not await passkeys.used(passkey, checked):
            raise Refusal(409, "that passkey was used at the same moment elsewhere: try again")
        await accounts.succeeded(account.name)
    except Refusal as err:
        return _error(err)
    return await signed_in_on(JSONResponse({"ok": True, "next": target}), visitor, accounts,
                              account)


async def _checked_assertion(request: Request, visitor: Visitor, passkeys: Passkeys,
                             accounts: AccountsDep, raw: Any) -> tuple[Passkey, int]:
    """The passkey that signed ``raw`` and its new counter (Refusal otherwise)."""
    try:
        credential = parse_authentication_credential_json(raw)
        challenge = signed_challenge(credential.response.client_data_json)
    except BAD_INPUT:
        raise Refusal(400, "the answer is not a passkey's") from None
    if not await passkeys.take_challenge(challenge, SIGNIN, None):
        raise Refusal(400, EXPIRED)
    passkey = await passkeys.by_credential(bytes_to_base64url(credential.raw_id))
    if passkey is None:
        await accounts.failed("", visitor.client)
        raise Refusal(400, "that passkey is not one of an account here (it may have been "
                           "removed): sign in with your password")
    account = await accounts.by_id(passkey.account_id)
    name = account.name if account is not None else ""
    refusal = await accounts.locked(name, visitor.client)
    if refusal is not None:
        raise Refusal(429, refusal)
    handle = credential.response.user_handle
    rp_id, origin = site_of(request)
    try:
        if handle is not None and handle != user_handle(passkey.account_id):
            raise ValueError("the passkey names another account")
        checked = verify_authentication_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
            expected_origin=origin, credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count)
    except BAD_INPUT as err:
        await accounts.failed(name, visitor.client)
        raise Refusal(400, f"the passkey's answer did not verify: {err}") from None
    return passkey, checked.new_sign_count
