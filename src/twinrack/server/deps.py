"""What every route of the service may ask for (FastAPI ``Depends``): the hub (and through
it the database), the desk, the page renderer, the asking browser's cookie and its rate
limits.

They live on ``app.state`` (set once by :func:`twinrack.server.app.create_app`), so a route
module holds no state of its own. A handler that must stop with a page or an answer raises
:class:`Refused`; the app turns it into that response.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from twinrack.server.desk.store import DeskStore
from twinrack.server.guard import RateLimiter
from twinrack.server.hub import Hub

#: the cookie that tells one browser from another ("my games", "my cards")
COOKIE = "twinrack_id"


class Refused(Exception):
    """Stop a request with this response (a 404 page, a 403 answer, ...)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


async def refused(_request: Request, err: Exception) -> Response:
    """The app's handler of :class:`Refused`."""
    assert isinstance(err, Refused)
    return err.response


#: the words of an error page for its status (anything else: "Something went wrong")
ERROR_WORDS = {
    404: ("Page not found", "There is nothing at this address. It may have been mistyped, "
                            "or the table or card it named is gone."),
    405: ("Not allowed here", "This address does not answer that kind of request."),
    422: ("Please check the form", "Something sent to this address was missing or not of "
                                   "the right kind."),
    500: ("Something went wrong", "The server could not answer this request. Try again in a "
                                  "moment; if it keeps happening, go back to the lobby."),
}


def wants_json(request: HTTPConnection) -> bool:
    """Whether an error goes back as JSON (the API, sockets, scripts) or as a page (a
    browser asking for HTML)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/")) or path == "/healthz":
        return True
    return "text/html" not in request.headers.get("accept", "")


def error_response(request: Request, status: int, detail: str | None = None) -> Response:
    """An error as a page for browsers ("Page not found", with a way back) and as
    ``{"error": ..., "status": N}`` for the API and other clients."""
    title, words = ERROR_WORDS.get(status, ERROR_WORDS[500] if status >= 500 else
                                   (f"Error {status}", detail or "That request was refused."))
    if wants_json(request):
        return JSONResponse({"error": detail or title.lower(), "status": status},
                            status_code=status)
    return _pages(request).message(status, title, words)


async def http_error(request: Request, err: Exception) -> Response:
    """The app's handler of HTTP errors raised by the framework (no such address, a
    method not allowed, a form field of the wrong kind)."""
    status = getattr(err, "status_code", 500)
    detail = getattr(err, "detail", None)
    if isinstance(err, RequestValidationError):
        status, detail = 422, "a field is missing or not of the right kind"
    headers = getattr(err, "headers", None)
    resp = error_response(request, status, detail if isinstance(detail, str) and
                          detail not in ("Not Found", "Method Not Allowed") else None)
    if headers:
        resp.headers.update(headers)
    return resp


async def server_error(request: Request, err: Exception) -> Response:
    """The app's last resort: a bug answers as a page (or JSON), never a traceback."""
    logging.getLogger("twinrack.server").exception("%s %s failed", request.method,
                                                   request.url.path, exc_info=err)
    return error_response(request, 500)


def https(request: HTTPConnection) -> bool:
    """Cookies are marked Secure when the page is served over HTTPS (directly or, with
    uvicorn's proxy headers, behind a proxy that says so)."""
    return request.url.scheme == "https"


def client_of(request: HTTPConnection) -> str:
    return request.client.host if request.client else "?"


def browser_id(conn: HTTPConnection) -> str:
    """The browser's id cookie, or the one this answer gives a browser that has none yet
    (made once per request, so that a page's CSRF token and its cookie agree)."""
    have = conn.cookies.get(COOKIE)
    if have:
        return have
    fresh: str | None = getattr(conn.state, "new_browser", None)
    if fresh is None:
        fresh = conn.state.new_browser = secrets.token_hex(16)
    return fresh


def give_browser_id(resp: Response, conn: HTTPConnection) -> None:
    """The id cookie, on the answer to a browser that had none (see :func:`browser_id`)."""
    if COOKIE not in conn.cookies:
        resp.set_cookie(COOKIE, browser_id(conn), max_age=3600 * 24 * 365, httponly=True,
                        samesite="lax", secure=https(conn))


@dataclass
class Pages:
    """Renders the service's pages for one request; a browser without the id cookie gets
    one with its first page."""

    templates: Jinja2Templates
    request: Request

    def __call__(self, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        resp = self.templates.TemplateResponse(self.request, name, ctx, status_code=status)
        give_browser_id(resp, self.request)
        return resp

    def message(self, status: int, title: str, message: str,
                link: str | None = None) -> HTMLResponse:
        """A page that only says something (no such table, wrong key, ...)."""
        return self("message.html", status=status, title=title, message=message, link=link)

    def refuse(self, status: int, title: str, message: str, link: str | None = None) -> Refused:
        return Refused(self.message(status, title, message, link))


@dataclass
class Limits:
    """The asking client's rate limits (docs/security.md, "Limits")."""

    limiter: RateLimiter
    client: str

    def allow(self, kind: str, scale: int = 1) -> bool:
        """Whether this client may make one more request of ``kind``."""
        return self.limiter.allow(self.client, kind, scale=scale)


def _hub(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


def _desk(conn: HTTPConnection) -> DeskStore:
    store: DeskStore = conn.app.state.desk
    return store


def _pages(request: Request) -> Pages:
    return Pages(request.app.state.templates, request)


def _limits(conn: HTTPConnection) -> Limits:
    return Limits(conn.app.state.limits, client_of(conn))


def _owner(conn: HTTPConnection) -> str | None:
    return conn.cookies.get(COOKIE)


HubDep = Annotated[Hub, Depends(_hub)]
DeskDep = Annotated[DeskStore, Depends(_desk)]
PagesDep = Annotated[Pages, Depends(_pages)]
LimitsDep = Annotated[Limits, Depends(_limits)]
#: the browser's id cookie (None for a browser that has not been given one yet)
OwnerDep = Annotated[str | None, Depends(_owner)]
