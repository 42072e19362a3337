"""How long the review of a whole game takes (issue 14's measure: under 10 s).

Plays seeded games between two bots (expert against greedy by default) in each variant
asked for, then reviews every seat of every game with the defaults the server and
`twinrack review` use, and reports, per variant, the wall and processor seconds of one
review (p50 and the most), with the decisions rated and the searched ones. The games are
the same for the same --seed, so two runs do the same work.

    python benchmarks/bench_review.py [--games 4] [--seed 1] [--variants siamese,royale,imperial]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bots.untimed import UNTIMED_BOTS

from twinrack.bots.review import review
from twinrack.card import practice_card
from twinrack.engine import RuleSet, apply, legal_actions, new_game, view
from twinrack.engine.record import record_of
from twinrack.engine.shuffle import derive_seed

PLAYERS = {"siamese": 2, "royale": 4, "imperial": 2}


def played(variant: str, seed: bytes, bots: list[str]) -> dict[str, Any]:
    """The record of one seeded game between ``bots`` (seat by seat, in turn)."""
    card = practice_card()
    players = PLAYERS[variant]
    game = new_game(RuleSet.for_variant(variant, players), seed=seed, card=card)
    seated = [UNTIMED_BOTS[bots[i % len(bots)]](card) for i in range(players)]
    rngs = [random.Random(seed + bytes([i])) for i in range(players)]
    while not game.over:
        seat = game.to_act()[0]
        action = seated[seat].choose(view(game, seat), legal_actions(game, seat), rngs[seat])
        apply(game, action)
    return record_of(game)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4, help="games per variant (1..50)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default="siamese,royale,imperial")
    ap.add_argument("--bots", default="expert,greedy")
    args = ap.parse_args()
    variants = args.variants.split(",")
    bots = args.bots.split(",")
    if not 1 <= args.games <= 50 or not set(variants) <= set(PLAYERS) or \
            not set(bots) <= set(UNTIMED_BOTS):
        sys.exit(f"--games 1..50, --variants of {sorted(PLAYERS)}, "
                 f"--bots of {sorted(UNTIMED_BOTS)}")
    card = practice_card()
    print("variant   reviews  wall s p50  wall s max  CPU s p50  CPU s max  decisions p50")
    for variant in variants:
        walls: list[float] = []
        cpus: list[float] = []
        decisions: list[int] = []
        for g in range(args.games):
            record = played(variant, derive_seed(args.seed, f"{variant}-{g}"), bots)
            for seat in range(PLAYERS[variant]):
                w0, c0 = time.perf_counter(), time.process_time()
                got = review(record, seat, card)
                walls.append(time.perf_counter() - w0)
                cpus.append(time.process_time() - c0)
                decisions.append(len(got.ratings))
        print(f"{variant:<9} {len(walls):>7}  {statistics.median(walls):>10.2f}  "
              f"{max(walls):>10.2f}  {statistics.median(cpus):>9.2f}  {max(cpus):>9.2f}  "
              f"{statistics.median(decisions):>13g}", flush=True)


if __name__ == "__main__":
    main()
