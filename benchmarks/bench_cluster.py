"""Load benchmark of a cluster: tables played through nginx with 1, 2 and 3 workers on one
PostgreSQL and one Redis, and the time from a worker's death to its tables answering again.

For each number of workers it starts the workers and nginx (tests/server/cluster_harness.py,
everything on 127.0.0.1), creates N tables through the proxy and plays every seat from this
process over WebSockets (random legal actions, as bench_server.py does; each socket names
its table's owner in its address, as a table's page does, unless --no-hint), and reports
actions/s, latency p50/p99 (send to acknowledgement), the workers' CPU per action and the
CPU this load client took (it runs on the same machine). Then, with the last cluster, it
kills (SIGKILL) the worker that owns the most tables in play and measures, for each of its
tables, the time from the kill to the first acknowledged action (a new socket through the
proxy, as a browser that reconnects). Bounded by --seconds per run and --takeover-seconds.

    python benchmarks/bench_cluster.py --tables 100 --seconds 20
        [--workers 1,2,3] [--no-hint] [--database-url URL] [--redis-url URL]

The URLs default to TWINRACK_TEST_DATABASE_URL and TWINRACK_TEST_REDIS_URL (the tests'
PostgreSQL and Redis, as .ci/run starts them): the database is emptied first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

#: the proxy's address is the only one the load client uses
PROTOCOL = 2


def client_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


async def hints(base: str, game_ids: list[str]) -> dict[str, str]:
    """The worker that runs each game, as a table's page learns it (docs/deploy.md)."""
    import httpx

    async with httpx.AsyncClient(timeout=30) as client:
        got = [(await client.get(f"{base}/api/games/{g}/worker")).json() for g in game_ids]
    return {g: f"&w={j['worker']}" for g, j in zip(game_ids, got, strict=True) if j["worker"]}


async def load(cluster: Any, tables: int, seconds: float, think: float, warmup: float,
               hint: bool) -> tuple[dict[str, Any], list[tuple[str, dict[int, str]]]]:
    from bench_server import cpu_seconds, create_tables, play_seat

    created = await create_tables(cluster.base, tables)
    owner = await hints(cluster.base, [g for g, _ in created]) if hint else {}
    latencies: list[float] = []
    counts = {"games": 0, "acks": 0, "refused": 0}
    start = time.monotonic() + warmup
    stop_at = start + seconds
    rng = random.Random(1)
    jobs = [play_seat(f"ws://127.0.0.1:{cluster.port}/ws/{gid}?protocol={PROTOCOL}&token={t}"
                      f"{owner.get(gid, '')}", seat, random.Random(rng.random()), start,
                      stop_at, think, latencies, counts)
            for gid, tokens in created for seat, t in tokens.items()]
    pids = [w.proc.pid for w in cluster.workers.values()]

    async def at_start() -> tuple[float, float]:
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        return sum(cpu_seconds(p) or 0.0 for p in pids), client_cpu()

    began = asyncio.create_task(at_start())
    await asyncio.gather(*jobs)
    elapsed = max(1e-9, time.monotonic() - start)
    server_cpu = sum(cpu_seconds(p) or 0.0 for p in pids)
    own_cpu = client_cpu()
    server0, own0 = await began
    lat = sorted(latencies)

    def pct(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

    return {"workers": len(pids), "tables": tables, "think_s": think, "hinted": len(owner),
            "seconds": round(elapsed, 1), "actions": len(lat),
            "actions_per_second": round(len(lat) / elapsed, 1),
            "latency_ms_p50": round(statistics.median(lat) * 1000, 1) if lat else None,
            "latency_ms_p99": pct(0.99),
            "workers_cpu_ms_per_action":
                round((server_cpu - server0) / len(lat) * 1000, 2) if lat else None,
            "load_client_cpu_percent": round((own_cpu - own0) / elapsed * 100, 1),
            "games_finished": counts["games"], "refused": counts["refused"]}, created


async def answers(url: str, tokens: dict[int, str], game_id: str, deadline: float) -> float:
    """Seconds until an action at ``game_id`` is acknowledged through the proxy (a new
    socket for each try, as a browser that reconnects); inf if not by ``deadline``."""
    began = time.monotonic()
    n = 0
    while time.monotonic() < deadline:
        n += 1
        try:
            async with websockets.connect(f"{url}/ws/{game_id}?protocol={PROTOCOL}&token="
                                          f"{tokens[0]}", open_timeout=2) as ws0:
                state = await _state(ws0)
                seat = state["view"]["to_act"][0] if state["view"]["to_act"] else 0
                if state["view"]["phase"] == "over":
                    return time.monotonic() - began
                if seat == 0:
                    acked = await _act(ws0, state, f"takeover-{n}")
                else:
                    async with websockets.connect(
                            f"{url}/ws/{game_id}?protocol={PROTOCOL}&token={tokens[seat]}",
                            open_timeout=2) as ws:
                        acked = await _act(ws, await _state(ws), f"takeover-{n}")
                if acked:
                    return time.monotonic() - began
        except (OSError, TimeoutError, websockets.ConnectionClosed, KeyError, IndexError):
            pass
        await asyncio.sleep(0.05)
    return float("inf")


async def _act(ws: Any, state: dict[str, Any], msg_id: str) -> bool:
    """Send one legal action; whether it is acknowledged within a second."""
    from bench_server import choices

    await ws.send(json.dumps({"type": "action", "version": state["version"],
                              "msg_id": msg_id, "action": choices(state)[0]}))
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
        if msg.get("msg_id") == msg_id:
            return bool(msg["type"] == "ack")


async def _state(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
        if msg["type"] == "state":
            return dict(msg)


async def takeover(cluster: Any, created: list[tuple[str, dict[int, str]]],
                   limit: float) -> dict[str, Any] | None:
    from tests.server.cluster_harness import sql

    rows = sql("SELECT l.owner, l.game_id FROM leases l JOIN games g ON g.id = l.game_id "
               "WHERE g.status = 'playing'")
    owned: dict[str, list[str]] = {}
    for r in rows:
        owned.setdefault(r.owner, []).append(r.game_id)
    if not owned:
        return None  # every game ended during the load (more tables, or fewer seconds)
    victim = max(owned, key=lambda w: len(owned[w]))
    tokens = dict(created)
    games = owned[victim][:30]
    cluster.signal(victim, signal.SIGKILL)
    deadline = time.monotonic() + limit
    times = sorted(await asyncio.gather(*[
        answers(f"ws://127.0.0.1:{cluster.port}", tokens[g], g, deadline) for g in games]))
    return {"killed": victim, "its_tables": len(owned[victim]), "measured": len(games),
            "lease_s": float(cluster.env["TWINRACK_LEASE_SECONDS"]),
            "answer_s_median": round(statistics.median(times), 2),
            "answer_s_max": round(times[-1], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think", type=float, default=0.2,
                    help="mean seconds a seat waits before acting (0: as fast as possible)")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--workers", default="1,2,3")
    ap.add_argument("--lease", type=float, default=4.0, help="the workers' lease, seconds")
    ap.add_argument("--takeover-seconds", type=float, default=30.0)
    ap.add_argument("--no-hint", action="store_true",
                    help="sockets without the owner's hint (?w=): nginx spreads them blindly, "
                         "as before the hint existed")
    ap.add_argument("--database-url", default=os.environ.get("TWINRACK_TEST_DATABASE_URL"))
    ap.add_argument("--redis-url", default=os.environ.get("TWINRACK_TEST_REDIS_URL"))
    args = ap.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    if not args.database_url or not args.redis_url:
        sys.exit("needs --database-url (PostgreSQL) and --redis-url (or the TWINRACK_TEST_ "
                 "variables .ci/run sets)")
    if not 1 <= args.tables <= 1000 or not 1 <= args.seconds <= 600 or \
            not all(1 <= n <= 8 for n in counts):
        sys.exit("--tables 1..1000, --seconds 1..600, --workers of 1..8 each")
    os.environ["TWINRACK_TEST_DATABASE_URL"] = args.database_url
    os.environ["TWINRACK_TEST_REDIS_URL"] = args.redis_url
    from tests.server.cluster_harness import Cluster, reset_stores

    results: list[dict[str, Any]] = []
    moved: dict[str, Any] | None = None
    for i, n in enumerate(counts):
        reset_stores()
        with tempfile.TemporaryDirectory() as d, \
                Cluster(Path(d), workers=n, lease=args.lease) as cluster:
            result, created = asyncio.run(load(cluster, args.tables, args.seconds,
                                               args.think, args.warmup, not args.no_hint))
            results.append(result)
            print(json.dumps(result), flush=True)
            if i == len(counts) - 1 and n > 1:
                moved = asyncio.run(takeover(cluster, created, args.takeover_seconds))
                print(json.dumps(moved or {"takeover": "no game left in play to kill"}),
                      flush=True)
    print(f"\n{args.tables} tables through nginx (think {args.think} s), "
          f"{args.seconds:g} s each, sockets "
          f"{'spread blindly' if args.no_hint else 'sent to the owner (hint)'}:")
    print("workers  actions/s  p50 ms  p99 ms  workers' CPU ms/action  load client CPU")
    for r in results:
        print(f"{r['workers']:>7}  {r['actions_per_second']:>9}  {r['latency_ms_p50']:>6}  "
              f"{r['latency_ms_p99']:>6}  {r['workers_cpu_ms_per_action']:>22}  "
              f"{r['load_client_cpu_percent']:>13}%")
    if moved is not None:
        print(f"worker killed: its tables answered again after {moved['answer_s_median']} s "
              f"(median) / {moved['answer_s_max']} s (max) of {moved['measured']}, "
              f"lease {moved['lease_s']:g} s")


if __name__ == "__main__":
    main()
