"""Does one table slow the others? Latency of a quiet table while a heavy one works.

Starts the service (SQLite, as `make run` does) in a child process and opens a quiet table
whose player pings the server over its WebSocket every 50 ms, while this process also asks
/healthz every 100 ms. It measures both for a while with nothing else going on, then while
the heaviest card the budget allows is uploaded and played: tables with that card, against
an expert computer player, their human seat acting at once and asking for hints on every
decision. It prints the median and 99th percentile of both latencies in each phase.
Bounded: each phase lasts --seconds.

    python benchmarks/bench_isolation.py --seconds 20 --heavy-tables 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
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

from twinrack.server.table.wire import PROTOCOL

#: lines of many ways each (suit letters that may repeat, X and Y free)
HEAVY = 'pattern = "XX0a YY0b XX0c YY0a NN EE WW"\nsuits = "any"\n'  # 864 ways
FILLERS = [('pattern = "XX0a YY0b XX0c YY0a NN EE WW"\n', 288),  # 288 ways, suits distinct
           ('pattern = "XXX0a XXX0b XXXX0c FF NN"\n', 54)]


def heaviest_card(budget: int = 3000) -> str:
    """Lines of the most ways, up to the card budget."""
    parts, total = [], 0
    for text, ways in [(HEAVY, 864)] * 3 + FILLERS * 3:
        if total + ways <= budget:
            parts.append(text)
            total += ways
    hands = "".join(f'\n[[hand]]\nsection = "S"\n{p}value = 25\nid = "L{i}"\n'
                    for i, p in enumerate(parts))
    return f'name = "Heaviest"\n{hands}'


def tokens_of(r: httpx.Response) -> tuple[str, str]:
    """The game and the creator's seat token of the lobby's answer."""
    game_id, tokens = created(r)
    return game_id, tokens[0]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


async def pinger(url: str, stop: asyncio.Event, out: list[float]) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        while not stop.is_set():
            t0 = time.monotonic()
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            out.append(time.monotonic() - t0)
            await asyncio.sleep(0.05)


async def health(base: str, stop: asyncio.Event, out: list[float]) -> None:
    async with httpx.AsyncClient(timeout=60) as client:
        while not stop.is_set():
            t0 = time.monotonic()
            await client.get(f"{base}/healthz")
            out.append(time.monotonic() - t0)
            await asyncio.sleep(0.1)


async def heavy_table(base: str, port: int, stop: asyncio.Event, rng: random.Random,
                      counts: dict[str, float]) -> None:
    """Upload the heaviest card and play it against the expert, with hints on; again when
    the game ends, until the phase is over."""
    while not stop.is_set():
        await heavy_game(base, port, stop, rng, counts)


async def heavy_game(base: str, port: int, stop: asyncio.Event, rng: random.Random,
                     counts: dict[str, float]) -> None:
    async with httpx.AsyncClient(timeout=120) as client:
        t0 = time.monotonic()
        r = await async_form_post(client, base, "/tables", {
            "name": "Heavy", "variant": "siamese", "players": "2", "seat1": "expert",
            "card_choice": "upload", "call_seconds": "120"},
            files={"card_file": ("heaviest.toml", heaviest_card().encode(), "text/plain")})
        counts["upload_s"] = max(counts.get("upload_s", 0.0), time.monotonic() - t0)
    game_id, token = tokens_of(r)
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{game_id}?protocol={PROTOCOL}&token={token}",
                                  max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hints", "on": True}))
        n = 0
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
            except TimeoutError:
                continue
            if msg["type"] != "state" or msg["view"]["phase"] == "over":
                if msg.get("type") == "state":
                    return
                continue
            legal = [x["text"] for x in msg["legal"] if x["verb"] != "move"]
            if legal:
                n += 1
                await ws.send(json.dumps({"type": "action", "version": msg["version"],
                                          "msg_id": f"h{n}", "action": rng.choice(legal)}))
                counts["actions"] = counts.get("actions", 0) + 1


async def load(base: str, port: int, seconds: float, heavy: int) -> dict[str, float]:
    """The heavy tables, for ``seconds``."""
    stop = asyncio.Event()
    counts: dict[str, float] = {}
    rng = random.Random(1)
    tasks = [asyncio.create_task(heavy_table(base, port, stop, rng, counts))
             for _ in range(heavy)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=60)
    return counts


def load_process(base: str, port: int, seconds: float, heavy: int, out: Any) -> None:
    out.put(asyncio.run(load(base, port, seconds, heavy)))


async def phase(base: str, port: int, quiet_url: str, seconds: float,
                heavy: int) -> dict[str, Any]:
    """Measure the quiet table here while another process drives the heavy tables (so
    that the load generator's own work never delays a measurement)."""
    stop = asyncio.Event()
    pings: list[float] = []
    checks: list[float] = []
    counts: dict[str, float] = {}
    proc = None
    if heavy:
        queue: Any = multiprocessing.Queue()
        proc = multiprocessing.Process(target=load_process,
                                       args=(base, port, seconds, heavy, queue))
        proc.start()
    tasks = [asyncio.create_task(pinger(quiet_url, stop, pings)),
             asyncio.create_task(health(base, stop, checks))]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=60)
    if proc is not None:
        counts = await asyncio.to_thread(queue.get, True, 120)
        proc.join(timeout=30)
    return {"ping_ms_p50": round(pct(pings, 0.5), 1), "ping_ms_p99": round(pct(pings, 0.99), 1),
            "ping_ms_max": round(max(pings, default=0) * 1000, 1), "pings": len(pings),
            "healthz_ms_p50": round(pct(checks, 0.5), 1),
            "healthz_ms_p99": round(pct(checks, 0.99), 1), "healthz": len(checks),
            "heavy_upload_s": round(counts.get("upload_s", 0.0), 2),
            "heavy_actions": int(counts.get("actions", 0))}


async def run(base: str, port: int, seconds: float, heavy: int) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as client:
        r = await async_form_post(client, base, "/tables", {
            "name": "Quiet", "variant": "siamese", "players": "2", "seat1": "human",
            "call_seconds": "120"})
    game_id, token = tokens_of(r)
    quiet = f"ws://127.0.0.1:{port}/ws/{game_id}?protocol={PROTOCOL}&token={token}"
    calm = await phase(base, port, quiet, seconds, 0)
    loaded = await phase(base, port, quiet, seconds, heavy)
    return {"quiet": calm, "heavy": loaded}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--heavy-tables", type=int, default=3)
    args = ap.parse_args()
    if not 1 <= args.seconds <= 300 or not 1 <= args.heavy_tables <= 20:
        sys.exit("--seconds 1..300 and --heavy-tables 1..20")
    with tempfile.TemporaryDirectory() as d:
        server = ServerProcess(f"sqlite:///{d}/bench.db", log=Path(d) / "server.log",
                               TWINRACK_BOT_DELAY="0").start()
        try:
            result = asyncio.run(run(server.base, server.port, args.seconds,
                                     args.heavy_tables))
        finally:
            server.stop()
    print(json.dumps(result))
    for name, r in result.items():
        print(f"{name:>5}: quiet table ping p50 {r['ping_ms_p50']} ms, p99 {r['ping_ms_p99']} ms"
              f" (max {r['ping_ms_max']}, n={r['pings']}); /healthz p50 {r['healthz_ms_p50']}"
              f" ms, p99 {r['healthz_ms_p99']} ms (n={r['healthz']}); heavy upload "
              f"{r['heavy_upload_s']} s, {r['heavy_actions']} heavy actions")


if __name__ == "__main__":
    main()
