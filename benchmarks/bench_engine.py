"""Random-play games per second, per core: Siamese, Royale 4, Imperial 2 and the American
game of 4 (Charleston included) and 3, and (when ``rlcard`` is installed: ``pip install -e
'.[bench]'``) RLCard's four-player mahjong environment under random agents, side by side
in the same run.

    .venv/bin/python benchmarks/bench_engine.py [--seconds 10] [--json]

Every TwinRack game is played through the bot protocol: each decision builds the seat's
view, lists the legal actions and applies the random bot's choice.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from twinrack.bots import RandomBot
from twinrack.card import practice_card
from twinrack.cli.game import play_game
from twinrack.engine import RuleSet
from twinrack.engine.shuffle import derive_seed


def bench_twinrack(variant: str, players: int, seconds: float) -> dict[str, Any]:
    card = practice_card()
    rules = RuleSet(variant=variant, players=players)
    bots = [RandomBot() for _ in range(players)]
    play_game(rules, card, derive_seed(0, "warm"), bots, [random.Random(0)] * players)
    rounds: list[float] = []
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        for _ in range(10):
            g = play_game(rules, card, derive_seed(1, variant, players, games), bots,
                          [random.Random(games * 7 + s) for s in range(players)])
            games += 1
            actions += len(g.actions)
        rounds.append(10 / (time.perf_counter() - t0))
    elapsed = time.perf_counter() - start
    return {"engine": f"twinrack {variant} {players}p", "games": games,
            "games_per_second": round(games / elapsed, 1),
            "median_of_rounds": round(statistics.median(rounds), 1),
            "actions_per_game": round(actions / games, 1),
            "actions_per_second": round(actions / elapsed)}


def bench_rlcard(seconds: float) -> dict[str, Any] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        games += 1
    elapsed = time.perf_counter() - start
    return {"engine": "rlcard mahjong 4p (random agents)", "games": games,
            "games_per_second": round(games / elapsed, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="time per engine")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [bench_twinrack("siamese", 2, args.seconds),
            bench_twinrack("royale", 4, args.seconds),
            bench_twinrack("imperial", 2, args.seconds),
            bench_twinrack("american", 4, args.seconds),
            bench_twinrack("american", 3, args.seconds)]
    rl = bench_rlcard(args.seconds)
    if rl is not None:
        rows.append(rl)
        for r in rows[:-1]:
            r["x_rlcard"] = round(r["games_per_second"] / rl["games_per_second"], 1)
    if args.json:
        print(json.dumps({"rows": rows}))
        return
    print(f"{'engine':<40} {'games/s':>9} {'median':>9} {'actions/game':>13}")
    for r in rows:
        print(f"{r['engine']:<40} {r['games_per_second']:>9} "
              f"{r.get('median_of_rounds', ''):>9} {r.get('actions_per_game', ''):>13}")
    if rl is None:
        print("rlcard is not installed (pip install -e '.[bench]'): no comparison")
    else:
        print(f"Siamese random play: {rows[0]['x_rlcard']}x RLCard's games per second "
              f"(target: 5x); American 4: {rows[3]['x_rlcard']}x")


if __name__ == "__main__":
    main()
