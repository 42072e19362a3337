"""Signing up, in and out, the account page (sessions, settings, password, deletion) and
password resets (docs/accounts.md)."""

from __future__ import annotations

import re
import time
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from twinrack.server.accounts import passwords
from twinrack.server.accounts.mail import reset_text
from twinrack.server.accounts.store import FORMER_PLAYER, Account, NameTaken
from twinrack.server.accounts.web import (
    MAX_FIELD,
    AccountsDep,
    Visitor,
    VisitorDep,
    end_session,
    message,
    page,
    require,
    safe_next,
    start_session,
)
from twinrack.server.deps import LimitsDep

router = APIRouter()

Field = Annotated[str, Form()]
#: a user name: letters, digits and . _ - (it is the address of the profile, /u/NAME)
NAME_RE = re.compile(r"[A-Za-z0-9_.-]{3,30}")
EMAIL_RE = re.compile(r"[^@\s]{1,100}@[^@\s]{1,100}\.[^@\s.]{1,30}")
BUSY = "Too many requests from your address in a short time: wait a minute and try again."


def _name_problem(name: str) -> str | None:
    if not NAME_RE.fullmatch(name):
        return ("a user name has 3 to 30 characters: letters, digits, and the signs "
                ". _ - (it is the address of your profile)")
    return None


def _too_long(*fields: str) -> bool:
    return any(len(f) > MAX_FIELD for f in fields)


# ---------------------------------------------------------------------- sign up


@router.get("/signup", response_class=HTMLResponse)
async def signup_page(request: Request, visitor: VisitorDep) -> HTMLResponse:
    return page(request, visitor, "signup.html", name="", errors=[])


@router.post("/signup", response_model=None)
async def signup(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                 limits: LimitsDep, name: Field = "", password: Field = "") -> Response:
    """A new account, signed in at once; the guest games of this browser become its."""
    name = name.strip()
    problem = "those fields are too long" if _too_long(name, password) else _name_problem(name)
    if problem is None:
        try:
            passwords.check_new(password, name)
        except passwords.PasswordRefused as err:
            problem = str(err)
    if problem is None and not limits.allow("accounts"):
        problem = BUSY
    if problem is None:
        try:
            hashed = await passwords.hash_off_loop(password)
            account = await accounts.create(name, hashed, visitor.browser)
        except NameTaken:
            problem = f"the name {name} is taken: choose another"
    if problem is not None:
        return page(request, visitor, "signup.html", status=400, name=name[:60],
                    errors=[problem])
    return await _signed_in(visitor, accounts, account, "/account")


async def _signed_in(visitor: Visitor, accounts: AccountsDep, account: Account,
                     target: str) -> Response:
    """A new session (a new secret: never the one the browser had before), and the
    browser's old session, if any, ended."""
    return await signed_in_on(RedirectResponse(target, status_code=303), visitor, accounts,
                              account)


async def signed_in_on(resp: Response, visitor: Visitor, accounts: AccountsDep,
                       account: Account) -> Response:
    """``resp`` with a new session of ``account`` (see :func:`_signed_in`; a passkey's
    sign-in answers with JSON)."""
    if visitor.account is not None and visitor.session_id is not None:
        await accounts.close_session(visitor.account.id, visitor.session_id)
    token = await accounts.open_session(account.id, visitor.client, visitor.agent)
    start_session(resp, token, visitor)
    return resp


# ---------------------------------------------------------------------- sign in, out


@router.get("/signin", response_class=HTMLResponse)
async def signin_page(request: Request, visitor: VisitorDep,
                      next: str = "/account") -> HTMLResponse:
    return page(request, visitor, "signin.html", name="", errors=[], next=safe_next(next))


@router.post("/signin", response_model=None)
async def signin(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                 name: Field = "", password: Field = "",
                 next: Field = "/account") -> Response:
    """Sign in; after too many failures, for the account or from the address, refused
    (even with the right password) until the window has passed."""
    name, target = name.strip()[:60], safe_next(next)
    if _too_long(password):
        password = ""
    refusal = await accounts.locked(name, visitor.client)
    if refusal is None:
        account = await accounts.by_name(name) if NAME_RE.fullmatch(name) else None
        ok = await passwords.verify_off_loop(account.password_hash if account else None,
                                             password)
        if ok and account is not None:
            await accounts.succeeded(name)
            return await _signed_in(visitor, accounts, account, target)
        await accounts.failed(name, visitor.client)
        refusal = "That user name and password do not match."
    return page(request, visitor, "signin.html", status=400 if "match" in refusal else 429,
                name=name, errors=[refusal], next=target)


@router.post("/signout", response_model=None)
async def signout(request: Request, visitor: VisitorDep, accounts: AccountsDep) -> Response:
    if visitor.account is not None:
        await accounts.close_session(visitor.account.id, visitor.session_id)
    resp = RedirectResponse("/", status_code=303)
    end_session(resp, visitor)
    return resp


# ---------------------------------------------------------------------- the account page


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                       done: str = "") -> HTMLResponse:
    return await _account(request, visitor, accounts, [], done[:40])


async def _account(request: Request, visitor: Visitor, accounts: AccountsDep,
                   errors: list[str], done: str = "") -> HTMLResponse:
    me = require(request, visitor)
    sessions = [{**s, "created": _when(s["created"]), "seen": _when(s["seen"]),
                 "this": s["id"] == visitor.session_id}
                for s in await accounts.sessions(me.id)]
    passkeys = [{"id": p.id, "name": p.name, "created": _when(p.created),
                 "used": _when(p.last_used) if p.last_used else "never"}
                for p in await request.app.state.passkeys.of_account(me.id)]
    return page(request, visitor, "account.html", status=400 if errors else 200,
                sessions=sessions, passkeys=passkeys, errors=errors, done=done)


@router.post("/account/settings", response_model=None)
async def settings(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                   email: Field = "", private: Field = "") -> Response:
    me = require(request, visitor)
    email = email.strip()
    if email and not EMAIL_RE.fullmatch(email):
        return await _account(request, visitor, accounts, ["that is not an e-mail address"])
    await accounts.set_settings(me.id, email or None, private == "on")
    return RedirectResponse("/account?done=settings", status_code=303)


@router.post("/account/password", response_model=None)
async def change_password(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                          current: Field = "", password: Field = "") -> Response:
    """A new password (the current one first); every session ends, this one starts anew."""
    me = require(request, visitor)
    if _too_long(current, password) or not await passwords.verify_off_loop(
            me.password_hash, current):
        return await _account(request, visitor, accounts, ["the current password is wrong"])
    try:
        passwords.check_new(password, me.name)
    except passwords.PasswordRefused as err:
        return await _account(request, visitor, accounts, [str(err)])
    await accounts.set_password(me.id, await passwords.hash_off_loop(password))
    return await _signed_in(visitor, accounts, me, "/account?done=password")


@router.post("/account/sessions", response_model=None)
async def close_sessions(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                         session: Field = "") -> Response:
    """End one session ("sign out" beside it) or every one ("all": sign out everywhere)."""
    me = require(request, visitor)
    everywhere = session == "all"
    if not everywhere and not (session.isdigit() and len(session) < 12):
        return await _account(request, visitor, accounts, ["no such session"])
    await accounts.close_session(me.id, None if everywhere else int(session))
    if everywhere or int(session) == visitor.session_id:
        resp = RedirectResponse("/", status_code=303)
        end_session(resp, visitor)
        return resp
    return RedirectResponse("/account?done=sessions", status_code=303)


@router.post("/account/delete", response_model=None)
async def delete_account(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                         password: Field = "") -> Response:
    """Delete the account (its password first): its data goes, its games stay with its
    seats as "a former player"."""
    me = require(request, visitor)
    if _too_long(password) or not await passwords.verify_off_loop(me.password_hash,
                                                                  password):
        return await _account(request, visitor, accounts, ["the password is wrong: the "
                                                           "account was not deleted"])
    for game_id, seat in await accounts.delete(me.id, visitor.browser):
        table = request.app.state.hub.tables.get(game_id)  # a table loaded here
        if table is not None:
            table.rename(seat, FORMER_PLAYER)
    resp = message(request, visitor, 200, "Account deleted",
                   f"The account {me.name} and its data are gone; its games are kept with "
                   "its seats as \"a former player\".")
    end_session(resp, visitor)
    return resp


# ---------------------------------------------------------------------- password reset


@router.get("/forgot", response_class=HTMLResponse)
async def forgot_page(request: Request, visitor: VisitorDep) -> HTMLResponse:
    mailer = request.app.state.mailer
    return page(request, visitor, "forgot.html", mail=mailer is not None, sent=False)


@router.post("/forgot", response_class=HTMLResponse)
async def forgot(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                 limits: LimitsDep, name: Field = "") -> HTMLResponse:
    """E-mail a reset link to the account's address, if it has one (the answer is the same
    whether it has, so that it tells nobody which names exist)."""
    mailer = request.app.state.mailer
    if not limits.allow("accounts"):
        return message(request, visitor, 429, "Too many requests", BUSY)
    account = await accounts.by_name(name.strip()) if NAME_RE.fullmatch(name.strip()) \
        else None
    if mailer is not None and account is not None and account.email:
        token = await accounts.new_reset(account.id)
        link = f"{str(request.base_url).rstrip('/')}/reset?token={token}"
        await mailer.send(account.email, "TwinRack: reset your password",
                          reset_text(account.name, link))
    return page(request, visitor, "forgot.html", mail=mailer is not None, sent=True)


@router.get("/reset", response_class=HTMLResponse)
async def reset_page(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                     token: str = "") -> HTMLResponse:
    account = await accounts.reset_account(token)
    if account is None:
        return _reset_refused(request, visitor)
    return page(request, visitor, "reset.html", token=token, name=account.name, errors=[])


def _reset_refused(request: Request, visitor: Visitor) -> HTMLResponse:
    return message(request, visitor, 403, "This reset link does not work",
                   "The link is unknown, was used already or is more than an hour old: "
                   "ask for a new one.", "/forgot")


@router.post("/reset", response_model=None)
async def reset(request: Request, visitor: VisitorDep, accounts: AccountsDep,
                token: Field = "", password: Field = "") -> Response:
    account = await accounts.reset_account(token)
    if account is None:
        return _reset_refused(request, visitor)
    try:
        passwords.check_new(password[:MAX_FIELD], account.name)
    except passwords.PasswordRefused as err:
        return page(request, visitor, "reset.html", status=400, token=token,
                    name=account.name, errors=[str(err)])
    used = await accounts.use_reset(token, await passwords.hash_off_loop(password))
    if used is None:
        return _reset_refused(request, visitor)
    await accounts.succeeded(used.name)
    return await _signed_in(visitor, accounts, used, "/account?done=password")
