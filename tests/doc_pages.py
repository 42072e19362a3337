"""The doc-test kinds about the web pages (tests/test_docs.py lists every kind): the
addresses a document lists are the app's routes, and the pictures it shows are made by
tools/screenshots.py."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_docs import ROOT, Context, Marked, check, spans, table_rows

# ---------------------------------------------------------------------------- routes

ROUTE = re.compile(r"(GET|POST|WS) (/\S*)")


def _route_path(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path.split("?", 1)[0])


def app_routes(tmp: Path) -> set[tuple[str, str]]:
    """Every (method, path) the web app answers, each parameter written ``{}``."""
    from fastapi.routing import APIWebSocketRoute
    from starlette.routing import Mount, WebSocketRoute

    from tests.server.test_leaks import flat_routes
    from twinrack.server.app import create_app
    from twinrack.server.config import Settings

    web = create_app(Settings(database_url=f"sqlite:///{tmp}/routes.db"))
    out: set[tuple[str, str]] = set()
    for r in flat_routes(web.routes):
        if isinstance(r, Mount):
            out.add(("GET", r.path))
        elif isinstance(r, APIWebSocketRoute | WebSocketRoute):
            out.add(("WS", _route_path(r.path)))
        else:
            out.update((method, _route_path(r.path)) for method in r.methods if method != "HEAD")
    return out


@check("routes")
def _routes(m: Marked, ctx: Context) -> None:
    listed = {(method, _route_path(path)) for cells in table_rows(m.body)
              for span in spans(cells[0]) if (found := ROUTE.fullmatch(span))
              for method, path in [found.groups()]}
    assert listed, "no METHOD /path in the table's first column"
    real = app_routes(ctx.tmp)
    unknown = sorted(f"{m} {p}" for m, p in listed - real)
    assert not unknown, f"not routes of the app: {unknown}"
    covers = tuple(m.args["covers"].split(",")) if "covers" in m.args else ()
    skip = tuple(m.args["except"].split(",")) if "except" in m.args else ()
    missing = sorted(f"{m} {p}" for m, p in real - listed
                     if covers and p.startswith(covers) and not (skip and p.startswith(skip)))
    assert not missing, f"routes of the app the table does not list: {missing}"


# ---------------------------------------------------------------------------- pictures


@check("pictures")
def _pictures(m: Marked, ctx: Context) -> None:
    shown = re.findall(r"\]\((docs/images/[\w-]+\.png)\)", m.body)
    assert shown, "no picture of docs/images/ in the text"
    script = (ROOT / "tools/screenshots.py").read_text(encoding="utf-8")
    for path in shown:
        assert (ROOT / path).is_file(), f"{path} is missing: run tools/screenshots.py"
        name = Path(path).stem
        assert f'"{name}"' in script, f"tools/screenshots.py does not make {name}.png"
