"""What the master's search costs: per imagined game (a *simulation*, played once per
choice), per rollout, and per decision at a budget, next to the expert's decision.

    .venv/bin/python benchmarks/bench_bots.py [--games 2] [--simulations 8] [--json]
        [--variant siamese --players 2]

Positions come from seeded expert-against-expert games (Siamese, 2024 rules, unless
``--variant`` and ``--players`` say otherwise); at each of the first seat's decisions the
master decides on the same view, with the same random state, and its search is timed
(``--simulations 0``: the expert alone). The expert's decisions are timed in wall time and
in processor time (less bound to the machine's load). Timings depend on the machine's
load: compare runs made side by side, not across machines.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np

from twinrack.bots import ExpertBot, MasterBot
from twinrack.bots.driver import Driver
from twinrack.card import practice_card
from twinrack.engine import RuleSet, legal_actions, new_game, view
from twinrack.engine.shuffle import derive_seed


def bench(games: int, simulations: int, variant: str = "siamese",
          players: int = 2) -> dict[str, Any]:
    card = practice_card()
    master = MasterBot(card, simulations=max(1, simulations))
    decisions: list[float] = []
    searched: list[float] = []
    per_simulation: list[float] = []
    per_rollout: list[float] = []
    expert_times: list[float] = []
    expert_cpu: list[float] = []
    cpu_times: list[float] = []  # the master's decisions in processor time (less load-bound)
    cpu_per_simulation: list[float] = []
    cpu_per_rollout: list[float] = []
    for g in range(games):
        rules = RuleSet.for_variant(variant, players)
        seed = (derive_seed(9, "bench-bots", g) if variant == "siamese"
                else derive_seed(9, "bench-bots", variant, players, g))
        game = new_game(rules, seed=seed, card=card)
        bots = {s: ExpertBot(card, budget_ms=float("inf")) for s in range(players)}
        driver = Driver(game, bots, {s: random.Random(g + 100 * s) for s in range(players)})
        while (seat := driver.bot_to_act()) is not None:
            seen, legal = view(game, seat), legal_actions(game, seat)
            start = time.perf_counter()
            cpu = time.process_time()
            action = bots[seat].choose(seen, legal, driver.rngs[seat])
            expert_took = time.perf_counter() - start
            expert_cpu_took = time.process_time() - cpu
            if seat == 0:
                expert_times.append(expert_took)
                expert_cpu.append(expert_cpu_took)
            if seat == 0 and simulations > 0:
                start = time.perf_counter()
                cpu = time.process_time()
                master.choose(seen, legal, random.Random(len(decisions)))
                took = time.perf_counter() - start
                decisions.append(took)
                cpu_times.append(time.process_time() - cpu)
                if master.last_search:
                    # the search alone: the master's decision less the expert's on it
                    search = max(0.0, took - expert_took)
                    searched.append(took)
                    per_simulation.append(search / simulations)
                    per_rollout.append(search / (simulations * len(master.last_search)))
                    search_cpu = max(0.0, cpu_times[-1] - expert_cpu_took)
                    cpu_per_simulation.append(search_cpu / simulations)
                    cpu_per_rollout.append(search_cpu / (simulations * len(master.last_search)))
            driver.play(action)

    def ms(values: list[float], q: float) -> float:
        return round(float(np.percentile(values, q)) * 1000, 2) if values else 0.0

    def mean_ms(values: list[float]) -> float:
        return round(statistics.fmean(values) * 1000, 2) if values else 0.0

    return {"games": games, "simulations": simulations, "decisions": len(decisions),
            "searched": len(searched),
            "master_ms_p50": ms(decisions, 50), "master_ms_p99": ms(decisions, 99),
            "master_cpu_ms_p50": ms(cpu_times, 50), "master_cpu_ms_p99": ms(cpu_times, 99),
            "searched_ms_p50": ms(searched, 50), "searched_ms_p99": ms(searched, 99),
            "simulation_ms_mean": round(statistics.fmean(per_simulation) * 1000, 2)
            if per_simulation else 0.0,
            "rollout_ms_mean": round(statistics.fmean(per_rollout) * 1000, 2)
            if per_rollout else 0.0,
            "simulation_cpu_ms_mean": mean_ms(cpu_per_simulation),
            "rollout_cpu_ms_mean": mean_ms(cpu_per_rollout),
            "expert_ms_p50": ms(expert_times, 50), "expert_ms_p99": ms(expert_times, 99),
            "expert_cpu_ms_p50": ms(expert_cpu, 50), "expert_cpu_ms_p99": ms(expert_cpu, 99),
            "expert_cpu_ms_mean": mean_ms(expert_cpu), "expert_decisions": len(expert_cpu),
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
        print(f"{k:<20} {v}")


if __name__ == "__main__":
    main()
