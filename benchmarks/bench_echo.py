"""The ceiling to quote beside bench_server.py: a bare FastAPI WebSocket echo, served by the
same uvicorn on 127.0.0.1, driven by the same kind of client.

A child process serves one route that sends back every text frame it gets; this process
opens --sockets connections and on each sends a small JSON message and waits for its echo,
over and over, for --seconds. It reports round trips per second and the server's own CPU
time per round trip (from /proc, which the machine's load changes far less than the rate),
so the figure per core is 1000 / (CPU ms per round trip).

    python benchmarks/bench_echo.py --sockets 50 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import cpu_seconds

APP = textwrap.dedent("""
    import sys

    import uvicorn
    from fastapi import FastAPI, WebSocket, WebSocketDisconnect

    app = FastAPI()

    @app.websocket("/echo")
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                await ws.send_text(await ws.receive_text())
        except WebSocketDisconnect:
            return

    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
""")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def one_socket(url: str, until: float, trips: list[int]) -> None:
    msg = json.dumps({"type": "action", "version": 12, "msg_id": "m1", "action": "discard 5B"})
    async with websockets.connect(url) as ws:
        while time.monotonic() < until:
            await ws.send(msg)
            await ws.recv()
            trips[0] += 1


async def drive(port: int, pid: int, sockets: int, seconds: float) -> dict[str, float]:
    url = f"ws://127.0.0.1:{port}/echo"
    deadline = time.monotonic() + 20
    while True:  # the server is up when a socket opens
        try:
            async with websockets.connect(url):
                break
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)
    trips = [0]
    cpu0, start = cpu_seconds(pid), time.monotonic()
    await asyncio.gather(*(one_socket(url, start + seconds, trips) for _ in range(sockets)))
    cpu1, took = cpu_seconds(pid), time.monotonic() - start
    cpu_ms = (cpu1 - cpu0) / trips[0] * 1000 if cpu0 is not None and cpu1 is not None else 0
    return {"round_trips": trips[0], "per_second": round(trips[0] / took, 1),
            "server_cpu_ms_per_trip": round(cpu_ms, 4),
            "per_core": round(1000 / cpu_ms, 0) if cpu_ms else 0.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sockets", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    if not 1 <= args.sockets <= 1000 or not 0 < args.seconds <= 300:
        ap.error("--sockets is 1 to 1000 and --seconds 0 to 300")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", APP, str(port)])
    try:
        result = asyncio.run(drive(port, server.pid, args.sockets, args.seconds))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(json.dumps(result))
    print(f"echo: {result['per_second']} round trips/s on {args.sockets} sockets; server "
          f"{result['server_cpu_ms_per_trip']} ms CPU per round trip "
          f"({result['per_core']:.0f} per core)")


if __name__ == "__main__":
    main()
