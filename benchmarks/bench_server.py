"""Load benchmark of the table service over real WebSockets on 127.0.0.1.

Starts the service (SQLite file, as `make run` does) in a child process, creates N tables
whose seats are all played by this process through WebSockets (random legal actions, as
bot-only tables), and measures, for every action, the time from sending it to receiving its
acknowledgement (the server has applied it, committed it to the database and sent the new
views), and the server process's own CPU time per action (which the load of the machine
changes far less than the latencies). Bounded: it stops after --seconds or when every game
has ended, whichever is first.

    python benchmarks/bench_server.py --tables 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.server.helpers import async_form_post, created
from tests.server.server_process import ServerProcess

#: the table protocol this client speaks (docs/protocol.md); a server of protocol 1 ignores
#: the parameter, so the same script measures both
PROTOCOL = 2



async def create_tables(base: str, n: int) -> list[tuple[str, dict[int, str]]]:
    out = []
    async with httpx.AsyncClient(timeout=30) as client:
        for _ in range(n):
            r = await async_form_post(client, base, "/tables", {
                "name": "Load", "variant": "siamese", "players": "2", "seat1": "human",
                "call_seconds": "120"})
            out.append(created(r))
    return out


def choices(state: dict[str, Any]) -> list[str]:
    """The texts of the legal actions of a state, but moves (so that games go on); the
    legal actions of protocol 1 (before 2: strings under "action") are read too, so that
    one script measures both."""
    texts = [x.get("text") or x["action"] for x in state["legal"]]
    return [t for t in texts if not t.startswith("move")]


async def play_seat(url: str, seat: int, rng: random.Random, measure_from: float,
                    stop_at: float, think: float, latencies: list[float],
                    counts: dict[str, int]) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        sent: dict[str, float] = {}
        latest: dict[str, Any] | None = None
        pending: str | None = None
        n = 0
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at -
                                                                    time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "state":
                if msg["view"]["phase"] == "over":
                    counts["games"] += 1
                    return
                latest = msg
            elif kind in ("ack", "error") and msg.get("msg_id") == pending:
                now = time.monotonic()
                if now >= measure_from:
                    latencies.append(now - sent.pop(pending))
                else:
                    sent.pop(pending)
                counts["acks" if kind == "ack" else "refused"] += 1
                pending = None
            if pending is None and latest is not None:
                legal = choices(latest)
                if legal:
                    if think > 0:  # a bot's pace: think, then act on the newest state
                        await asyncio.sleep(think * (0.5 + rng.random()))
                        while True:
                            try:
                                raw = await asyncio.wait_for(ws.recv(), timeout=0.001)
                            except TimeoutError:
                                break
                            newer = json.loads(raw)
                            if newer["type"] == "state":
                                latest = newer
                        if latest is None or latest["view"]["phase"] == "over":
                            continue
                        legal = choices(latest)
                        if not legal:
                            latest = None
                            continue
                    n += 1
                    pending = f"{seat}-{n}"
                    sent[pending] = time.monotonic()
                    await ws.send(json.dumps({"type": "action", "version": latest["version"],
                                              "msg_id": pending, "action": rng.choice(legal)}))
                    latest = None


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user and system) of process ``pid`` so far, where /proc says it."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def cpu_at(pid: int, moment: float) -> float | None:
    await asyncio.sleep(max(0.0, moment - time.monotonic()))
    return cpu_seconds(pid)


async def run(base: str, port: int, pid: int, tables: int, seconds: float, think: float,
              warmup: float) -> dict[str, Any]:
    created = await create_tables(base, tables)
    latencies: list[float] = []
    counts = {"games": 0, "acks": 0, "refused": 0}
    begin = time.monotonic()
    start = begin + warmup  # connections open and first deals are sent before measuring
    stop_at = start + seconds
    rng = random.Random(1)
    jobs = [play_seat(f"ws://127.0.0.1:{port}/ws/{gid}?protocol={PROTOCOL}&token={tok}", seat,
                      random.Random(rng.random()), start, stop_at, think, latencies,
                      counts)
            for gid, tokens in created for seat, tok in tokens.items()]
    # the server's own CPU per action: what the load of this machine changes least
    cpu_start = asyncio.create_task(cpu_at(pid, start))
    await asyncio.gather(*jobs)
    elapsed = max(1e-9, time.monotonic() - start)
    cpu_end, cpu_begun = cpu_seconds(pid), await cpu_start
    cpu_ms = (None if cpu_end is None or cpu_begun is None or not latencies
              else round((cpu_end - cpu_begun) / len(latencies) * 1000, 2))
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {"tables": tables, "think_s": think, "seconds": round(elapsed, 1), "actions": len(lat),
            "actions_per_second": round(len(lat) / elapsed, 1),
            "latency_ms_p50": round(statistics.median(lat) * 1000, 1) if lat else None,
            "latency_ms_p99": round(pct(0.99), 1), "latency_ms_max": round(pct(1.0), 1),
            "server_cpu_ms_per_action": cpu_ms,
            "games_finished": counts["games"], "refused": counts["refused"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", type=float, default=0.5,
                    help="mean seconds a seat waits before acting (0: as fast as possible)")
    ap.add_argument("--warmup", type=float, default=3.0,
                    help="seconds to connect and settle before latencies are counted")
    ap.add_argument("--database-url", default=None)
    args = ap.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.seconds <= 600:
        sys.exit("--tables 1..1000 and --seconds 1..600")
    with tempfile.TemporaryDirectory() as d:
        url = args.database_url or f"sqlite:///{d}/bench.db"
        server = ServerProcess(url, log=Path(d) / "server.log").start()
        try:
            assert server.proc is not None
            result = asyncio.run(run(server.base, server.port, server.proc.pid, args.tables,
                                     args.seconds, args.think, args.warmup))
        finally:
            server.stop()
    print(json.dumps(result))
    print(f"{result['tables']} concurrent tables (think {args.think} s) for "
          f"{result['seconds']} s: "
          f"{result['actions_per_second']} actions/s, latency p50 {result['latency_ms_p50']} ms,"
          f" p99 {result['latency_ms_p99']} ms (send to acknowledgement), server CPU "
          f"{result['server_cpu_ms_per_action']} ms per action")


if __name__ == "__main__":
    main()
