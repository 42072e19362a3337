"""The table's own work per action, without sockets: what bench_server.py measures minus
uvicorn, the WebSocket frames and the client.

In this process, a hub on an SQLite file (as `make run`, its garbage collector tuned as the
service tunes it) runs N tables of two human seats; each seat's connection is a stand-in
socket that keeps the last state and acknowledgement it was sent, and each seat plays a
random legal action (never a pure rearrangement) from its last state, as bench_server.py's
client does. Reports the process's CPU time per action (the table, the engine, the
database thread, and the stand-in client's parsing of what it was sent) and, with
--breakdown, the CPU of the main steps per action (each inclusive; thread CPU time, so
waiting is not counted; the timing itself adds a few microseconds per step).

    python benchmarks/bench_table.py [--tables 20] [--seconds 10] [--breakdown]
        [--profile FILE]   # cProfile stats of the measured part (CPU time), for pstats
        [--seed N]         # the same games every run (their seeds drawn from N)

With --seed and --seconds long enough for every game to end, each run does the same work,
which a busy machine cannot change in instructions (its CPU time it changes a lot: on this
project's shared 2-core machine, by a third from one run to the next). Instructions per
action, as the difference of two runs (which cancels the start):

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        python benchmarks/bench_table.py --tables 10 --seconds 600 --seed 7
    (the same with --tables 25; "I refs" of the second minus the first, over the
    difference in actions)
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twinrack.card import practice_card
from twinrack.engine.rules import rules_from
from twinrack.server import hub as hub_module
from twinrack.server.app import tune_gc
from twinrack.server.config import Settings
from twinrack.server.hub import Hub, NewSeat
from twinrack.server.table import encoding, wire
from twinrack.server.table import live as table_module
from twinrack.server.table.seats import Connection, TableCommand

#: (module or class, function, label) of the steps --breakdown times
STEPS: list[tuple[Any, str, str]] = [
    (table_module.LiveTable, "_broadcast", "all state messages of a change"),
    (table_module.LiveTable, "state_message", "  one state message"),
    (table_module, "view", "    view()"),
    (encoding.Encoder, "view", "    the view encoded"),
    (table_module, "legal_json", "    legal actions as objects (JSON)"),
    (wire, "claim_advice", "      claim advice"),
    (wire, "log_lines", "    log lines"),
    (wire, "encode", "  JSON encoding"),
    (table_module.LiveTable, "_silent", "seats that may only pass"),
    (table_module, "apply", "apply"),
    (table_module.GameState, "copy", "copy of the game"),
    (table_module, "parse_action", "parse_action"),
    (hub_module.Hub, "_store_batch", "database write (its thread)"),
]


class StandIn:
    """A socket that keeps what a seat needs to play on (its last state, its last
    acknowledgement or refusal) and wakes the seat."""

    def __init__(self) -> None:
        self.state: str | None = None
        self.answer: str | None = None
        self.news = asyncio.Event()
        self.messages = 0

    async def send_text(self, text: str) -> None:
        self.messages += 1
        if text.startswith('{"type":"state"'):
            self.state = text
        elif text.startswith(('{"type":"ack"', '{"type":"error"')):
            self.answer = text
        self.news.set()


async def play(table: Any, conn: Connection, sock: StandIn, rng: random.Random,
               counts: Counter[str]) -> None:
    """One seat: on each new state, a random legal action; then its answer."""
    n = 0
    pending: str | None = None
    while True:
        await sock.news.wait()
        sock.news.clear()
        if pending is not None:
            if sock.answer is None:
                continue
            answer = orjson.loads(sock.answer)
            sock.answer = None
            if answer.get("msg_id") != pending:
                continue
            counts["acks" if answer["type"] == "ack" else "refused"] += 1
            pending = None
        if sock.state is None:
            continue
        state = orjson.loads(sock.state)
        sock.state = None
        if state["view"]["phase"] == "over":
            counts["games"] += 1
            return
        legal = [x["text"] for x in state["legal"] if x["verb"] != "move"]
        if legal:
            n += 1
            pending = f"{conn.seat}-{n}"
            table.submit(TableCommand("action", seat=conn.seat, version=state["version"],
                                      msg_id=pending, text=rng.choice(legal), conn=conn))


def timed(steps: list[tuple[Any, str, str]], spent: Counter[str]) -> None:
    """Wrap each step to add its thread CPU time to ``spent``."""
    for owner, name, label in steps:
        fn = getattr(owner, name)

        def wrapper(*a: Any, _fn: Any = fn, _label: str = label, **k: Any) -> Any:
            began = time.thread_time()
            try:
                return _fn(*a, **k)
            finally:
                spent[_label] += time.thread_time() - began

        setattr(owner, name, functools.wraps(fn)(wrapper))


async def run(tables: int, seconds: float, profile: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        hub = Hub(Settings(database_url=f"sqlite:///{d}/bench.db", bot_delay=0.0,
                           rate_burst=0, call_seconds=120.0))
        await hub.start()
        tune_gc()
        try:
            seats = []
            for _ in range(tables):
                made = await hub.create(rules_from("siamese", 2), practice_card(),
                                        [NewSeat("Ann", "human"), NewSeat("Bea", "human")],
                                        120.0)
                table = hub.tables[made.game_id]
                for seat in (0, 1):
                    sock = StandIn()
                    seats.append((table, await table.join(sock, seat), sock))  # type: ignore[arg-type]
            await asyncio.sleep(0.5)
            counts: Counter[str] = Counter()
            rng = random.Random(1)
            prof = cProfile.Profile(time.process_time) if profile else None
            cpu, began = time.process_time(), time.monotonic()
            if prof is not None:
                prof.enable()
            jobs = [asyncio.create_task(play(t, c, s, random.Random(rng.random()), counts))
                    for t, c, s in seats]
            await asyncio.wait(jobs, timeout=seconds)
            if prof is not None:
                prof.disable()
                prof.dump_stats(profile)
            cpu, elapsed = time.process_time() - cpu, time.monotonic() - began
            for job in jobs:
                job.cancel()
            actions = counts["acks"] + counts["refused"]
            messages = sum(s.messages for _, _, s in seats)
            return {"tables": tables, "seconds": round(elapsed, 1), "actions": actions,
                    "cpu_ms_per_action": round(cpu / max(1, actions) * 1000, 3),
                    "messages_per_action": round(messages / max(1, actions), 2),
                    "games_finished": counts["games"] // 2, "refused": counts["refused"]}
        finally:
            await hub.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--breakdown", action="store_true")
    ap.add_argument("--profile", default=None)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.seconds <= 600:
        sys.exit("--tables 1..1000 and --seconds 1..600")
    spent: Counter[str] = Counter()
    if args.breakdown:
        timed(STEPS, spent)
    if args.seed is not None:  # every game's secret seed (os.urandom in Hub.create) fixed
        draw = random.Random(args.seed)
        hub_module.os.urandom = lambda n: draw.getrandbits(8 * n).to_bytes(n, "little")
    result = asyncio.run(run(args.tables, args.seconds, args.profile))
    print(json.dumps(result))
    print(f"{result['tables']} tables for {result['seconds']} s: {result['actions']} actions, "
          f"{result['cpu_ms_per_action']} ms of CPU per action")
    if args.breakdown and result["actions"]:
        for _, _, label in STEPS:
            print(f"{label:36s} {spent[label] / result['actions'] * 1e6:8.1f} us per action")


if __name__ == "__main__":
    main()
