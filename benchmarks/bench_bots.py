"""What the master's search costs: per decision at a budget (wall and processor time),
per future played forward (a *simulation*: one future played once per option), next to
the expert's decision.

    .venv/bin/python benchmarks/bench_bots.py [--games 2] [--simulations 192] [--json]
        [--variant siamese --players 2]

Positions come from seeded expert-against-expert games (Siamese, 2024 rules, unless
``--variant`` and ``--players`` say otherwise); at each of the first seat's decisions the
master decides on the same view, with the same random state, and is timed
(``--simulations 0``: the expert alone). Timings depend on the machine's load: compare
runs made side by side, not across machines; processor time is less bound to the load
than wall time. The bots run on the compiled kernel (card/kernel.py) unless
``TWINRACK_KERNEL=numpy`` (the numpy code alone): run both side by side to compare.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np

from twinrack.bots import ExpertBot, MasterBot, kernels
from twinrack.bots.driver import Driver
from twinrack.card import practice_card
from twinrack.card.compiled import compiled
from twinrack.engine import RuleSet, legal_actions, new_game, view
from twinrack.engine.shuffle import derive_seed


def bench(games: int, simulations: int, variant: str = "siamese",
          players: int = 2) -> dict[str, Any]:
    card = practice_card()
    compiled(card).warm_up()  # the compiled kernel loaded first (as the server's workers do)
    kernels.warm_up()
    master = MasterBot(card, simulations=max(1, simulations))
    decisions: list[float] = []
    cpu_times: list[float] = []  # the master's decisions in processor time
    searched_cpu: list[float] = []
    per_future_cpu: list[float] = []  # the search alone, per future and option
    expert_times: list[float] = []
    expert_cpu: list[float] = []
    for g in range(games):
        rules = RuleSet.for_variant(variant, players)
        seed = (derive_seed(9, "bench-bots", g) if variant == "siamese"
                else derive_seed(9, "bench-bots", variant, players, g))
        game = new_game(rules, seed=seed, card=card)
        bots = {s: ExpertBot(card, budget_ms=float("inf")) for s in range(players)}
        driver = Driver(game, bots, {s: random.Random(g + 100 * s) for s in range(players)})
        while (seat := driver.bot_to_act()) is not None:
            seen, legal = view(game, seat), legal_actions(game, seat)
            start, cpu = time.perf_counter(), time.process_time()
            action = bots[seat].choose(seen, legal, driver.rngs[seat])
            took_cpu = time.process_time() - cpu
            if seat == 0:
                expert_times.append(time.perf_counter() - start)
                expert_cpu.append(took_cpu)
            if seat == 0 and simulations > 0:
                start, cpu = time.perf_counter(), time.process_time()
                master.choose(seen, legal, random.Random(len(decisions)))
                decisions.append(time.perf_counter() - start)
                cpu_times.append(time.process_time() - cpu)
                if master.last_search:
                    searched_cpu.append(cpu_times[-1])
                    search = max(0.0, cpu_times[-1] - took_cpu)
                    per_future_cpu.append(search / (simulations * len(master.last_search)))
            driver.play(action)

    def ms(values: list[float], q: float) -> float:
        return round(float(np.percentile(values, q)) * 1000, 2) if values else 0.0

    return {"games": games, "simulations": simulations, "decisions": len(decisions),
            "searched": len(searched_cpu),
            "master_ms_p50": ms(decisions, 50), "master_ms_p99": ms(decisions, 99),
            "master_cpu_ms_p50": ms(cpu_times, 50), "master_cpu_ms_p99": ms(cpu_times, 99),
            "searched_cpu_ms_p50": ms(searched_cpu, 50),
            "searched_cpu_ms_p99": ms(searched_cpu, 99),
            "future_cpu_us_mean": round(statistics.fmean(per_future_cpu) * 1e6, 1)
            if per_future_cpu else 0.0,
            "expert_ms_p50": ms(expert_times, 50), "expert_ms_p99": ms(expert_times, 99),
            "expert_cpu_ms_p50": ms(expert_cpu, 50), "expert_cpu_ms_p99": ms(expert_cpu, 99),
            "variant": variant, "players": players}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--simulations", type=int, default=MasterBot().simulations)
    ap.add_argument("--variant", default="siamese")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    row = bench(args.games, args.simulations, args.variant, args.players)
    if args.json:
        print(json.dumps(row))
        return
    for k, v in row.items():
        print(f"{k:<22} {v}")


if __name__ == "__main__":
    main()
