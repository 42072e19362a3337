"""The web application: the lobby, the tables and their WebSocket, the card editor, the
tournament desk and a small JSON API (docs/protocol.md), each an APIRouter of its own.

The app holds the shared objects on ``app.state`` (the hub, the desk store, the templates,
the rate limits); routes get them through :mod:`twinrack.server.deps`.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from twinrack.server import accounts, chat, doc_routes
from twinrack.server.config import Settings
from twinrack.server.csrf import install_template_helpers, require_csrf
from twinrack.server.deps import Refused, http_error, refused, server_error
from twinrack.server.desk import routes as desk_routes
from twinrack.server.desk.store import DeskStore
from twinrack.server.editor import routes as card_routes
from twinrack.server.guard import RateLimiter, SecurityHeaders
from twinrack.server.hub import Hub
from twinrack.server.lobby import routes as lobby_routes
from twinrack.server.room import routes as room_routes
from twinrack.server.table import invites as invite_routes
from twinrack.server.table import routes as table_routes

WEB = Path(__file__).resolve().parent.parent / "web"


def create_app(settings: Settings | None = None, *, service: bool = False) -> FastAPI:
    """The application (``service``: it is the whole process, as ``twinrack serve`` runs
    it, and may tune the process's garbage collector, see :func:`tune_gc`)."""
    settings = settings or Settings.from_env()
    hub = Hub(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        if service:
            tune_gc()
        yield
        await hub.stop()

    app = FastAPI(title="TwinRack", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json",
                  dependencies=[Depends(require_csrf)])  # every POST: server/csrf.py
    app.state.hub = hub
    app.state.desk = DeskStore(hub.db)
    app.state.templates = Jinja2Templates(directory=str(WEB / "templates"))
    install_template_helpers(app.state.templates.env)
    app.state.limits = RateLimiter(settings.rate_burst, settings.rate_per_minute)
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(Refused, refused)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, http_error)
    app.add_exception_handler(Exception, server_error)
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    for routes in (lobby_routes, invite_routes, desk_routes, card_routes, doc_routes,
                   table_routes):
        app.include_router(routes.router)
    accounts.install(app)
    chat.install(app)
    app.include_router(room_routes.router)
    return app


#: objects allocated (net) between two collections of the youngest generation (Python's
#: default: 700)
GC_YOUNG = 10_000


def tune_gc() -> None:
    """Once the service has started: what it made so far (modules, routes, the compiled
    cards, the games it resumed) is moved out of the collector's sight for good
    (``gc.freeze``), and the youngest generation is collected after 10,000 allocations
    instead of 700. Every action allocates thousands of short-lived objects (views, legal
    actions, messages) that reference counting frees anyway; collecting them and walking
    what lives long took about a sixth of the CPU of an action (about 0.25 ms in an
    in-process loop of 20 tables, 0.06 ms after)."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)


#: seconds a worker sent SIGTERM has to hand its tables over before it stops anyway (a
#: systemd unit's TimeoutStopSec must be longer: docs/deploy.md)
DRAIN_SECONDS = 15.0


def main() -> None:
    """``make run``: the service on 127.0.0.1:8000 with an embedded SQLite file (or a worker
    of a cluster, with TWINRACK_REDIS_URL: docs/deploy.md)."""
    import uvicorn

    settings = Settings.from_env()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    where = (f"worker {settings.worker_id} of a cluster" if settings.redis_url
             else f"database: {settings.database_url}")
    print(f"TwinRack is running: open http://{settings.host}:{settings.port}/ in a browser "
          f"({where}). Stop with Ctrl-C.", flush=True)
    app = create_app(settings, service=True)
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning",
                            ws_ping_interval=20, ws_ping_timeout=20,
                            ws_per_message_deflate=settings.ws_compression)
    DrainingServer(config, app.state.hub).run()


class DrainingServer:
    """uvicorn's server; in a cluster, SIGTERM first hands this worker's tables to the
    others (while its sockets are still open, so they follow their tables), and only then
    stops as uvicorn does."""

    def __init__(self, config: Any, hub: Hub) -> None:
        import uvicorn

        hub_ref = hub

        class Server(uvicorn.Server):
            draining: Any = None

            def handle_exit(self, sig: int, frame: Any) -> None:
                node, loop = hub_ref.node, hub_ref.loop
                if node is None or loop is None or sig != signal.SIGTERM or self.draining:
                    super().handle_exit(sig, frame)
                    return
                self.draining = asyncio.run_coroutine_threadsafe(self._drain(sig, frame), loop)

            async def _drain(self, sig: int, frame: Any) -> None:
                assert hub_ref.node is not None
                try:
                    await asyncio.wait_for(hub_ref.node.drain(), DRAIN_SECONDS)
                except Exception:
                    logging.getLogger("twinrack.server").exception("draining failed")
                super().handle_exit(sig, frame)

        self.server = Server(config)

    def run(self) -> None:
        self.server.run()


if __name__ == "__main__":
    main()
