"""The arena: many games between bots, with duplicate deals, in parallel processes.

Every game is fixed by the master seed, the deal number and the seat rotation: its wall
comes from ``derive_seed(seed, variant, players, deal)`` and each seat's random generator
from the same labels, so the results do not depend on how many processes play them nor in
which order they finish. With ``duplicate``, each deal is played once per rotation of the
seats (twice with two players), so that every bot sits behind every hand once and the luck
of the deal cancels.

A game's winner is the seat with the highest score of that game; a game whose top score is
shared is not decisive (``shared_top_score`` counts them). Win rates are over decisive
games, with a Wilson 95% interval. How games ended is counted apart: ``wall_spent`` is the
games that ran out of wall (``ends["wall"]``), and ``wall_games`` those of them with no Mah
Jongg up (the rules' wall game, scored +10 each). Decision latency is measured around each
``choose`` call.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from twinrack.bots import BOTS
from twinrack.bots.driver import Bot, Driver
from twinrack.card import Card
from twinrack.engine import GameState, RuleSet, game_facts, new_game, score
from twinrack.engine.record import record_of
from twinrack.engine.shuffle import derive_seed


@dataclass(frozen=True)
class Task:
    """One game to play: deal number, rotation (entry ``j`` sits at seat ``(j + r) % n``)."""

    index: int  # position in the run (game number, from 0)
    deal: int
    rotation: int


@dataclass
class GameResult:
    index: int
    deal: int
    rotation: int
    seats: list[int]  # entry (position in --bots) at each seat
    totals: list[int]
    end_reason: str
    wall_game: bool
    mahjonggs: int
    actions: int
    latencies: list[list[float]]  # per seat, seconds per decision
    record: dict[str, Any] | None = None


@dataclass
class Setup:
    rules: RuleSet
    card: Card
    bots: list[str]  # the entries, by name in ``registry``
    seed: int
    duplicate: bool
    record: bool = False
    #: what makes each named bot (tests give the expert an unlimited thinking time)
    registry: Mapping[str, Callable[[Card], Bot]] = field(default_factory=lambda: BOTS)

    def tasks(self, deals: int) -> list[Task]:
        rotations = self.rules.players if self.duplicate else 1
        out: list[Task] = []
        for d in range(deals):
            for r in range(rotations):
                out.append(Task(len(out), d, r))
        return out


def seat_rng(seed: int, task: Task, seat: int, duplicate: bool) -> random.Random:
    if duplicate:
        return random.Random(f"{seed}:{task.deal}:{task.rotation}:{seat}")
    return random.Random(f"{seed}:{task.deal}:{seat}")


def play_task(setup: Setup, task: Task) -> GameResult:
    """Play one game of the run; fresh bots for every game and seat."""
    rules = setup.rules
    n = rules.players
    seats = [(s - task.rotation) % n for s in range(n)]  # entry at each seat
    bots = {s: setup.registry[setup.bots[e]](setup.card) for s, e in enumerate(seats)}
    rngs = {s: seat_rng(setup.seed, task, s, setup.duplicate) for s in range(n)}
    game = new_game(rules, seed=derive_seed(setup.seed, rules.variant, rules.players,
                                            task.deal), card=setup.card)
    latencies: list[list[float]] = [[] for _ in range(n)]
    for decision in Driver(game, bots, rngs).bot_decisions():
        latencies[decision.seat].append(decision.seconds)
    return result_of(game, task, seats, latencies, setup.record)


def result_of(game: GameState, task: Task, seats: list[int], latencies: list[list[float]],
              with_record: bool) -> GameResult:
    facts = game_facts(game)
    assert game.end_reason is not None
    return GameResult(task.index, task.deal, task.rotation, seats, list(score(game).totals),
                      game.end_reason, facts.wall_game, len(facts.mah_jonggs),
                      len(game.actions), latencies,
                      record_of(game) if with_record else None)


# ---------------------------------------------------------------------------- processes

_SETUP: list[Setup] = []


def _init(setup: Setup) -> None:
    _SETUP.clear()
    _SETUP.append(setup)


def _work(task: Task) -> GameResult:
    return play_task(_SETUP[0], task)


def play_on_ray(setup: Setup, tasks: Sequence[Task], address: str) -> Iterator[GameResult]:
    """The games played as tasks of a Ray cluster (``address``; ``local`` starts one on
    this machine), results in task order: each game is fixed by its task alone, so they
    are the local run's. Needs the optional extra (``pip install -e '.[ray]'``)."""
    import ray  # the optional extra: imported only when asked for

    if not ray.is_initialized():
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    remote = ray.remote(play_task)
    shared = ray.put(setup)
    pending = [remote.remote(shared, t) for t in tasks]
    for ref in pending:
        yield ray.get(ref)


def play_all(setup: Setup, tasks: Sequence[Task], jobs: int = 1,
             ray_address: str | None = None) -> Iterator[GameResult]:
    """Results in task order, whatever the number of processes (or the Ray cluster)."""
    if ray_address is not None:
        yield from play_on_ray(setup, tasks, ray_address)
        return
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield play_task(setup, t)
        return
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(jobs, initializer=_init, initargs=(setup,)) as pool:
        yield from pool.imap(_work, tasks, chunksize=1)


# ---------------------------------------------------------------------------- figures


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def entry_names(bots: Sequence[str]) -> list[str]:
    """Names of the entries; a bot named twice gets ``#2``, ``#3``... after its name."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for b in bots:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if seen[b] == 1 else f"{b}#{seen[b]}")
    return out


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def summarize(setup: Setup, results: Sequence[GameResult], seconds: float,
              jobs: int) -> dict[str, Any]:
    """The run's report (plain JSON data)."""
    rules = setup.rules
    n_entries = len(setup.bots)
    games = len(results)
    wins = [0] * n_entries
    points = [0] * n_entries
    lat: list[list[float]] = [[] for _ in range(n_entries)]
    decisive = wall_games = mahjonggs = actions = 0
    ends: dict[str, int] = {}
    for r in results:
        ends[r.end_reason] = ends.get(r.end_reason, 0) + 1
        wall_games += r.wall_game
        mahjonggs += r.mahjonggs
        actions += r.actions
        top = max(r.totals)
        leaders = [s for s, t in enumerate(r.totals) if t == top]
        if len(leaders) == 1:
            decisive += 1
            wins[r.seats[leaders[0]]] += 1
        for s, t in enumerate(r.totals):
            points[r.seats[s]] += t
            lat[r.seats[s]].extend(r.latencies[s])
    names = entry_names(setup.bots)
    bots = []
    for j in range(n_entries):
        lo, hi = wilson(wins[j], decisive)
        bots.append({
            "name": names[j], "bot": setup.bots[j], "seat": j, "wins": wins[j],
            "win_rate": round(wins[j] / decisive, 4) if decisive else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "points_per_game": round(points[j] / games, 2) if games else 0.0,
            "decisions": len(lat[j]),
            "latency_ms_p50": round(percentile(lat[j], 50) * 1000, 3),
            "latency_ms_p99": round(percentile(lat[j], 99) * 1000, 3),
        })
    return {
        "variant": rules.variant, "players": rules.players, "revision": rules.revision,
        "bots": bots, "games": games, "deals": len({r.deal for r in results}),
        "duplicate": setup.duplicate, "decisive": decisive,
        "shared_top_score": games - decisive, "wall_spent": ends.get("wall", 0),
        "wall_games": wall_games, "ends": ends, "mahjonggs": mahjonggs, "actions": actions,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else 0.0,
        "seed": setup.seed, "jobs": jobs,
    }


def run(setup: Setup, deals: int, jobs: int = 1, record_dir: Path | None = None,
        progress: Callable[[GameResult], None] | None = None,
        ray_address: str | None = None) -> dict[str, Any]:
    """Play ``deals`` deals (each once per rotation with ``duplicate``) and report."""
    tasks = setup.tasks(deals)
    results: list[GameResult] = []
    started = time.perf_counter()
    for res in play_all(setup, tasks, jobs, ray_address):
        if record_dir is not None and res.record is not None:
            path = record_dir / f"game-{res.index + 1:05d}.json"
            path.write_text(json.dumps(res.record, indent=1) + "\n", encoding="utf-8")
            res.record = None
        results.append(res)
        if progress is not None:
            progress(res)
    seconds = time.perf_counter() - started
    return summarize(setup, results, seconds, jobs)
