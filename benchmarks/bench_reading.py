"""The fitted opponent reading at work: a bot that reads its opponents (bots/reading.py)
against the same bot with the fixed danger factors, over duplicate deals.

    .venv/bin/python benchmarks/bench_reading.py --bot expert --deals 300 [--variant siamese]

Both sides are untimed (their decisions do not depend on the machine's load); the report
is the arena's: win rates over decisive games with a Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from twinrack.bots import Bot, ExpertBot, MasterBot
from twinrack.bots.arena import Setup, run
from twinrack.bots.reading import fitted
from twinrack.card import Card, load_card
from twinrack.engine.rules import RuleSet


def make(kind: str, reads: bool, card: Card) -> Bot:
    bot: ExpertBot = (MasterBot(card) if kind == "master"
                      else ExpertBot(card, budget_ms=math.inf))
    bot.reading = fitted() if reads else None
    return bot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", choices=("expert", "master"), default="expert")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--variant", default="siamese")
    ap.add_argument("--revision", default="2024")
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    rules = RuleSet.for_variant(args.variant, revision=args.revision)
    names = ["reader"] + ["plain"] * (rules.players - 1)
    registry = {"reader": partial(make, args.bot, True), "plain": partial(make, args.bot, False)}
    setup = Setup(rules, load_card(), names, args.seed, True, registry=registry)
    result = run(setup, args.deals, jobs=args.jobs)
    for b in result["bots"]:
        print(f"{b['name']:10s} wins {b['wins']:5d}  {b['win_rate']:.4f} "
              f"[{b['ci95'][0]:.4f}-{b['ci95'][1]:.4f}]  points/game {b['points_per_game']}"
              f"  p50 {b['latency_ms_p50']} ms  p99 {b['latency_ms_p99']} ms")
    print(json.dumps({k: result[k] for k in ("games", "decisive", "seconds", "seed")}))


if __name__ == "__main__":
    main()
