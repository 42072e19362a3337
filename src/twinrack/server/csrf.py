"""Cross-site request forgery: every request that changes something (every POST of the
application, whoever added the route) must carry a token that only a page of this site,
shown to this browser, could hold (docs/security.md, "Forms and CSRF").

The token is an HMAC of the browser's secret cookie: its session's (a signed-in player),
else its id cookie (a guest; a browser without one is given one with its first page).
Another site can neither read these cookies nor compute the token. A form sends it in its
hidden field ``csrf`` (the templates' ``csrf_field()``); the pages' scripts send it in the
``X-CSRF-Token`` header, read from the page's ``<meta name="csrf-token">``.

:func:`require_csrf` is one dependency of the whole application (``create_app``), so a POST
route added later is covered without anyone remembering it; tests/server/test_csrf.py
enumerates the routes to hold that promise.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from jinja2 import pass_context
from markupsafe import Markup
from starlette.requests import HTTPConnection, Request

from twinrack.server.deps import (
    Refused,
    browser_id,
    error_response,
    give_browser_id,
)

#: the cookie of a signed-in browser's session (its secret; the database keeps its hash)
SESSION_COOKIE = "twinrack_session"
#: the form field, and the header, that carry the token
FIELD = "csrf"
HEADER = "x-csrf-token"
#: the methods that may change something (GET, HEAD and OPTIONS never do here)
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def token_of(secret: str) -> str:
    """The CSRF token of a browser whose secret cookie is ``secret``."""
    return hmac.new(secret.encode(), b"twinrack-csrf", hashlib.sha256).hexdigest()


def secret_of(conn: HTTPConnection) -> str:
    """The secret a browser's tokens are made from: its session cookie, else its id."""
    return conn.cookies.get(SESSION_COOKIE) or browser_id(conn)


def csrf_token(conn: HTTPConnection) -> str:
    """The token the pages of this answer carry."""
    return token_of(secret_of(conn))


@pass_context
def _field(ctx: Any) -> Markup:
    return Markup('<input type="hidden" name="csrf" value="{}">').format(
        csrf_token(ctx["request"]))


@pass_context
def _token(ctx: Any) -> str:
    return csrf_token(ctx["request"])


def install_template_helpers(env: Any) -> None:
    """``{{ csrf_field() }}`` in a form and ``{{ csrf_token() }}`` (the page's meta tag)."""
    env.globals["csrf_field"] = _field
    env.globals["csrf_token"] = _token


async def sent_token(request: Request) -> str:
    """The token a request carries: in the header, else in a form's ``csrf`` field."""
    header = request.headers.get(HEADER)
    if header is not None:
        return header
    if request.headers.get("content-type", "").startswith(FORM_TYPES):
        value = (await request.form()).get(FIELD)  # parsed once: the route reads it again
        return value if isinstance(value, str) else ""
    return ""


def csrf_refusal(request: Request) -> Refused:
    """403: a page that says what happened and what to do, or JSON for the API."""
    if request.url.path.startswith("/api/"):
        return Refused(error_response(request, 403, "missing or wrong CSRF token (send "
                                      "the X-CSRF-Token header of the page)"))
    pages = request.app.state.templates
    resp = pages.TemplateResponse(
        request, "message.html", status_code=403,
        context={"title": "This form has expired", "link": request.url.path,
                 "message": "The form did not come from a page of TwinRack shown in this "
                            "browser, or you signed in or out since it was shown: go back, "
                            "reload the page and send it again."})
    give_browser_id(resp, request)
    return Refused(resp)


async def require_csrf(conn: HTTPConnection) -> None:
    """Refuse (403) a POST, PUT, PATCH or DELETE without this browser's token. Sockets
    and safe methods pass."""
    if not isinstance(conn, Request) or conn.method not in UNSAFE:
        return
    sent = await sent_token(conn)
    if not (sent and hmac.compare_digest(sent.encode(), csrf_token(conn).encode())):
        raise csrf_refusal(conn)
