"""A cluster for tests and benchmarks: workers (`twinrack serve` processes) on the test
PostgreSQL and Redis, and nginx in front, from Debian's package, in a temporary folder.

Everything listens on 127.0.0.1 only, and everything started is stopped by ``close``.
The URLs come from the environment (.ci/run sets them): TWINRACK_TEST_DATABASE_URL and
TWINRACK_TEST_REDIS_URL.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.helpers import created, form_post
from tests.server.server_process import ServerProcess, free_port
from twinrack.server.table.wire import PROTOCOL

PG_URL = os.environ.get("TWINRACK_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("TWINRACK_TEST_REDIS_URL")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
READY = bool(PG_URL and REDIS_URL and os.access(NGINX, os.X_OK))
WHY_NOT = ("the cluster tests need a PostgreSQL (TWINRACK_TEST_DATABASE_URL), a Redis "
           "(TWINRACK_TEST_REDIS_URL) and nginx: .ci/run installs Debian's packages, starts "
           "them and sets both")


def reset_stores() -> None:
    """An empty database and an empty Redis database."""
    assert PG_URL and REDIS_URL
    import redis

    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    r = redis.Redis.from_url(REDIS_URL)
    r.flushdb()
    r.close()


def sql(query: str, **params: Any) -> list[Any]:
    assert PG_URL
    engine = create_engine(PG_URL)
    try:
        with engine.begin() as conn:
            return list(conn.execute(text(query), params))
    finally:
        engine.dispose()


class Cluster:
    """``workers`` workers and nginx; ``lease`` seconds of lease (short, for the tests)."""

    def __init__(self, folder: Path, workers: int = 3, lease: float = 2.0,
                 **env: str) -> None:
        self.folder = folder
        self.env = {"TWINRACK_REDIS_URL": str(REDIS_URL),
                    "TWINRACK_LEASE_SECONDS": str(lease),
                    "TWINRACK_RENEW_SECONDS": str(lease / 4),
                    "TWINRACK_SCAN_SECONDS": "0.25", **env}
        self.workers = {f"w{i}": ServerProcess(str(PG_URL), log=folder / f"w{i}.log",
                                               TWINRACK_WORKER_ID=f"w{i}", **self.env)
                        for i in range(1, workers + 1)}
        self.port = free_port()
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game_id: str, token: str | None, worker: str | None = None) -> str:
        """A socket's address through the proxy; ``worker``: the hint a page gives (the
        worker that runs the table), which nginx follows while that worker answers."""
        return (f"ws://127.0.0.1:{self.port}/ws/{game_id}?protocol={PROTOCOL}"
                + (f"&token={token}" if token else "") + (f"&w={worker}" if worker else ""))

    def hint(self, game_id: str) -> str | None:
        """The worker that runs the game, as any worker tells a page that asks."""
        got = httpx.get(f"{self.base}/api/games/{game_id}/worker", timeout=10)
        assert got.status_code == 200, got.text
        worker = got.json()["worker"]
        assert worker is None or isinstance(worker, str)
        return worker

    def start(self) -> Cluster:
        try:
            for w in self.workers.values():
                w.start(timeout=180)  # a worker warms its pool first: slow on a busy machine
            self._nginx()
        except BaseException:
            self.close()  # what did start stops again
            raise
        return self

    def _nginx(self) -> None:
        prefix = self.folder / "nginx"
        (prefix / "logs").mkdir(parents=True, exist_ok=True)
        ups = "\n".join(f"    server 127.0.0.1:{w.port} max_fails=1 fail_timeout=2s;"
                        for w in self.workers.values())
        owners = "\n".join(f"    {name} 127.0.0.1:{w.port};" for name, w in self.workers.items())
        repo = Path(__file__).resolve().parents[2]
        server = re.search(r"  # --- server ---\n(.*)  # --- end ---",
                           (repo / "deploy" / "nginx.conf").read_text(), re.S)
        assert server is not None
        body = server.group(1).replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        temps = "\n".join(f"  {k}_temp_path {prefix}/{k};" for k in
                          ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (prefix / "nginx.conf").write_text(
            f"worker_processes 1;\ndaemon off;\npid {prefix}/nginx.pid;\n"
            f"error_log {prefix}/logs/error.log warn;\nevents {{ worker_connections 4096; }}\n"
            f"http {{\n  access_log off;\n{temps}\n  upstream twinrack {{\n{ups}\n  }}\n"
            f"  map $arg_w $twinrack_worker {{\n    default twinrack;\n{owners}\n  }}\n"
            f"{body}}}\n")
        self.nginx = subprocess.Popen([NGINX, "-c", str(prefix / "nginx.conf"),
                                       "-p", str(prefix)], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/healthz", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("nginx did not start")

    def close(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()
        for w in self.workers.values():
            if w.proc is not None and w.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(w.proc.pid, signal.SIGCONT)  # a paused one must be able to stop
            w.stop()

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def owner_of(self, game_id: str) -> tuple[str | None, int]:
        rows = sql("SELECT owner, epoch FROM leases WHERE game_id = :g", g=game_id)
        return rows[0].owner, rows[0].epoch

    def signal(self, worker: str, sig: int) -> None:
        proc = self.workers[worker].proc
        assert proc is not None
        os.kill(proc.pid, sig)
        if sig == signal.SIGKILL:
            proc.wait(timeout=10)

    def create(self, **form: str) -> tuple[str, dict[int, str]]:
        """A table of people (two seats by default) made through the proxy."""
        data = {"name": "Ann", "variant": "siamese", "players": "2", "seat1": "human",
                "call_seconds": "120", **form}
        return created(form_post(self.base, "/tables", data))


class Player:
    """One seat's socket through the proxy: it reconnects when its worker goes, and sends
    an action until it is acknowledged (the same msg_id every time)."""

    def __init__(self, url: str, seat: int, patience: float = 30.0) -> None:
        self.url = url
        self.seat = seat
        self.patience = patience
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.seen: list[dict[str, Any]] = []
        self.reconnects = 0
        self.connect()

    def connect(self) -> None:
        """(Again) through the proxy; a socket that stayed silent is dropped first, as a
        browser does when its pings go unanswered."""
        if self.ws is not None:
            self.ws.close()
        deadline = time.monotonic() + self.patience
        while True:
            try:
                # entered as a context manager (websockets 17.1 warns otherwise); the
                # socket outlives this call and close() ends it
                self.ws = connect(self.url, open_timeout=5, close_timeout=1).__enter__()
                self.state = self._next_state(10)
                return
            except (OSError, ConnectionClosed, TimeoutError, KeyError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()

    def _recv(self, timeout: float) -> dict[str, Any]:
        assert self.ws is not None
        msg = dict(json.loads(self.ws.recv(timeout=timeout)))
        self.seen.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg

    def _next_state(self, timeout: float) -> dict[str, Any]:
        while True:
            msg = self._recv(timeout)
            if msg["type"] == "state":
                return msg

    def act(self, action: str, msg_id: str) -> dict[str, Any]:
        """Send until acknowledged (reconnecting as needed); returns the ack, or the
        refusal when the table had moved on (it passed for a seat that could only pass),
        once this seat has seen the newer state."""
        deadline = time.monotonic() + self.patience
        while time.monotonic() < deadline:
            try:
                assert self.ws is not None
                sent = self.state["version"]
                self.ws.send(json.dumps({"type": "action", "version": sent,
                                         "msg_id": msg_id, "action": action}))
                wait_until = time.monotonic() + 2.0
                while time.monotonic() < wait_until:
                    msg = self._recv(max(0.05, wait_until - time.monotonic()))
                    if msg.get("msg_id") != msg_id:
                        continue
                    if msg["type"] == "ack":
                        return msg
                    if msg.get("code") == "stale_version":
                        self.catch_up(sent + 1)
                        return msg
                    assert msg.get("retryable") is True, msg
                    time.sleep(0.1)
                    break
            except (ConnectionClosed, OSError, TimeoutError):
                # no answer: the worker or the owner may be gone; the same msg_id again
                self.reconnects += 1
                self.connect()
        raise AssertionError(f"seat {self.seat}: {msg_id} was never acknowledged")

    def wait_for_news(self) -> None:
        """The next message (or a second of silence): while the table is paused its seats
        may do nothing."""
        try:
            self._recv(1.0)
        except TimeoutError:
            pass
        except (ConnectionClosed, OSError):
            self.reconnects += 1
            self.connect()

    def catch_up(self, version: int) -> None:
        deadline = time.monotonic() + self.patience
        while self.state.get("version", -1) < version:
            if time.monotonic() > deadline:
                raise AssertionError(f"seat {self.seat} never saw version {version}")
            try:
                self._recv(3.0)
            except (ConnectionClosed, OSError, TimeoutError):
                self.reconnects += 1
                self.connect()


def play(players: dict[int, Player], rng: random.Random, steps: int, first: int = 0) -> int:
    """``steps`` random legal actions (never a pure rearrangement), or to the end; returns
    how many were acknowledged."""
    n = 0
    give_up = time.monotonic() + 600  # a table that never plays on again fails the test
    while n < steps and players[0].state["view"]["phase"] != "over":
        assert time.monotonic() < give_up, f"the game stood still after {n} actions"
        newest = max(q.state["version"] for q in players.values())
        for q in players.values():
            q.catch_up(newest)
        if players[0].state["view"]["phase"] == "over":
            break
        seat = players[0].state["view"]["to_act"][0]
        p = players[seat]
        legal = [x["text"] for x in p.state["legal"] if x["verb"] != "move"]
        if not legal:  # paused (its database away): nothing to do until it plays on
            p.wait_for_news()
            continue
        ack = p.act(rng.choice(legal), f"c{first + n}")
        if ack["type"] != "ack":
            continue  # the table moved on before the action came: choose again
        for q in players.values():
            q.catch_up(ack["version"])
        n += 1
    return n


def stored(game_id: str) -> list[tuple[int, str | None, int]]:
    """The stored actions of a game: (seq, msg_id, epoch), in order."""
    return [(r.seq, r.msg_id, r.epoch) for r in
            sql("SELECT seq, msg_id, epoch FROM actions WHERE game_id = :g ORDER BY seq",
                g=game_id)]
