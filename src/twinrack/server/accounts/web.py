"""What the accounts' routes share: who is asking (a signed-in account or a guest
browser), the CSRF token of their forms, their pages, and the session cookie.

A form's CSRF token is an HMAC of the visitor's secret cookie (the session's, or a guest's
browser id): a token per session, that no other site can read or compute, checked on every
POST of the application by :func:`twinrack.server.csrf.require_csrf`."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection

from twinrack.server.accounts.store import SESSION_IDLE, Account, Accounts
from twinrack.server.csrf import SESSION_COOKIE, secret_of, token_of
from twinrack.server.deps import COOKIE, Refused, browser_id, client_of, https

__all__ = ["SESSION_COOKIE"]
#: the longest form field these routes read (a password has at most 256 characters)
MAX_FIELD = 1024


@dataclass
class Visitor:
    """Who asks: the account (None: a guest), its session, and the secret their forms'
    CSRF tokens are made from."""

    account: Account | None
    session_id: int | None
    secret: str
    #: the guest id cookie of this browser (the owner of its "my games")
    browser: str | None = None
    #: a browser id this answer must give the browser (its first page)
    new_browser: str | None = None
    client: str = "?"
    agent: str = ""
    secure: bool = False

    @property
    def csrf(self) -> str:
        return token_of(self.secret)


def accounts_of(conn: HTTPConnection) -> Accounts:
    store: Accounts = conn.app.state.accounts
    return store


async def signed_in(conn: HTTPConnection) -> Account | None:
    """The account of a request's session cookie (None: a guest): for the small hooks in
    the other routes (the seats a signed-in player takes, "my games")."""
    token = conn.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    found = await accounts_of(conn).session(token)
    return found[0] if found else None


async def _visitor(request: Request) -> Visitor:
    token = request.cookies.get(SESSION_COOKIE)
    found = await accounts_of(request).session(token) if token else None
    browser = browser_id(request)
    fresh = None if request.cookies.get(COOKIE) else browser
    account, session = found if found is not None else (None, None)
    visitor = Visitor(account, session, secret_of(request), browser, new_browser=fresh)
    visitor.client, visitor.secure = client_of(request), https(request)
    visitor.agent = request.headers.get("user-agent", "")[:200]
    return visitor


VisitorDep = Annotated[Visitor, Depends(_visitor)]
AccountsDep = Annotated[Accounts, Depends(accounts_of)]


def page(request: Request, visitor: Visitor, template: str, /, status: int = 200,
         **ctx: Any) -> HTMLResponse:
    """One of the accounts' pages (templates/accounts/), with the visitor and its token."""
    templates = request.app.state.templates
    resp: HTMLResponse = templates.TemplateResponse(
        request, f"accounts/{template}", {"me": visitor.account, "csrf": visitor.csrf, **ctx},
        status_code=status)
    give_browser(resp, visitor)
    return resp


def give_browser(resp: Response, visitor: Visitor) -> None:
    if visitor.new_browser:
        resp.set_cookie(COOKIE, visitor.new_browser, max_age=3600 * 24 * 365, httponly=True,
                        samesite="lax", secure=visitor.secure)


def message(request: Request, visitor: Visitor, status: int, title: str, text: str,
            link: str | None = None) -> HTMLResponse:
    templates = request.app.state.templates
    resp: HTMLResponse = templates.TemplateResponse(
        request, "message.html", {"title": title, "message": text, "link": link},
        status_code=status)
    give_browser(resp, visitor)
    return resp


def check_csrf(request: Request, visitor: Visitor, token: str) -> None:
    """Refuse a form whose CSRF token is missing or not this visitor's (403). (Every POST
    is checked before its route by :func:`twinrack.server.csrf.require_csrf`; this stays
    for a route that reads a token from elsewhere.)"""
    if not token or not hmac.compare_digest(token.encode(), visitor.csrf.encode()):
        raise Refused(message(request, visitor, 403, "This form has expired",
                              "The form did not come from this page of TwinRack, or your "
                              "session changed since it was shown: go back, reload the "
                              "page and send it again.", request.url.path))


def require(request: Request, visitor: Visitor) -> Account:
    """The signed-in account, or a redirect to the sign-in page."""
    if visitor.account is None:
        raise Refused(RedirectResponse(f"/signin?next={request.url.path}", status_code=303))
    return visitor.account


def start_session(resp: Response, token: str, visitor: Visitor) -> None:
    resp.set_cookie(SESSION_COOKIE, token, max_age=int(SESSION_IDLE), httponly=True,
                    samesite="lax", secure=visitor.secure)


def end_session(resp: Response, visitor: Visitor) -> None:
    resp.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax", secure=visitor.secure)


def safe_next(target: str) -> str:
    """Where to go after signing in: a path of this site only (no open redirect)."""
    ok = target.startswith("/") and not target.startswith("//") and "\\" not in target
    return target[:200] if ok else "/account"
