"""Speed of the compiled card against the plain oracle, on the practice card.

    .venv/bin/python benchmarks/bench_card.py [--seed N] [--scale X]

Prints the median time in microseconds (time.perf_counter_ns over many repetitions) of:
tiles away of a 14-tile rack against the whole card; the best pairs of lines for a 28-tile
two-rack holding; scoring every candidate discard of a 28-tile holding; one Mah Jongg
validation. Each measure runs the fast code (twinrack.card.compiled) and the plain oracle
(tests/card/oracle.py) on the same seeded holdings, drawn from a shuffled 152-tile wall.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the oracle lives with the tests
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402
from tests.card import oracle  # noqa: E402
from tests.card.holdings import mah_jongg_rack, random_holding  # noqa: E402

from twinrack.card import Card, load_card  # noqa: E402
from twinrack.card.compiled import CompiledCard  # noqa: E402
from twinrack.errors import TwinRackError  # noqa: E402

PRACTICE = ROOT / "src" / "twinrack" / "cards" / "practice.toml"
#: targets on the project's 2-core reference machine, microseconds
TARGETS = {"away": 50.0, "pairs": 1000.0, "discards": 300.0, "match": 100.0}


def median_us(fn: Callable[[Any], object], inputs: list[Any], reps: int) -> float:
    """Median wall time of ``fn(x)`` in microseconds, cycling through ``inputs``."""
    for x in inputs[: min(len(inputs), 20)]:  # warm up
        fn(x)
    times: list[int] = []
    gc.collect()
    gc.disable()
    try:
        for i in range(reps):
            x = inputs[i % len(inputs)]
            start = time.perf_counter_ns()
            fn(x)
            times.append(time.perf_counter_ns() - start)
    finally:
        gc.enable()
    return statistics.median(times) / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every repetition count (e.g. 0.1 for a quick look)")
    args = parser.parse_args()
    if not PRACTICE.exists():
        print(f"bench_card: the practice card is missing ({PRACTICE}); nothing to measure.")
        return 1
    try:
        card: Card = load_card(PRACTICE)
    except TwinRackError as err:
        print(f"bench_card: the practice card does not load:\n{err}")
        return 1
    cc = CompiledCard(card)

    def reps(n: int) -> int:
        return max(3, int(n * args.scale))

    rng = random.Random(args.seed)
    racks14 = [random_holding(rng, 14) for _ in range(200)]
    vectors14 = [np.array(c, dtype=np.int16) for c in racks14]
    holdings28 = [random_holding(rng, 28) for _ in range(100)]
    vectors28 = [np.array(c, dtype=np.int16) for c in holdings28]
    mj_racks = [mah_jongg_rack(rng, card) for _ in range(200)]
    made = sum(bool(cc.matches(r.counts, r.exposures)) for r in mj_racks)

    rows: list[tuple[str, str, float, float]] = []

    fast = median_us(cc.hand_aways, vectors14, reps(20000))
    slow = median_us(lambda c: oracle.card_hand_aways(card, c), racks14, reps(300))
    rows.append(("away", "tiles away, 14-tile rack, whole card", fast, slow))

    fast = median_us(lambda c: cc.best_pairs(c, top=10), vectors28, reps(3000))
    slow = median_us(lambda c: oracle.best_pairs(card, c, top=10), holdings28[:20], reps(20))
    rows.append(("pairs", "best 10 pairs, 28-tile two-rack holding", fast, slow))

    fast = median_us(cc.discard_scores, vectors28, reps(3000))
    slow = median_us(lambda c: oracle.best_discards(card, c), holdings28[:5], reps(5))
    rows.append(("discards", "every discard, 28-tile two-rack holding", fast, slow))

    fast = median_us(lambda r: cc.matches(r.counts, r.exposures), mj_racks, reps(20000))
    slow = median_us(lambda r: oracle.matches(card, r.counts, r.exposures), mj_racks,
                     reps(1000))
    rows.append(("match", "Mah Jongg validation, 14-tile rack", fast, slow))

    print(f"TwinRack card benchmark: {card.name} {card.edition}".rstrip()
          + f", {len(card.hands)} lines, {card.way_count} ways")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} cpus; seed {args.seed}; holdings drawn from a shuffled "
          f"152-tile wall ({made} of {len(mj_racks)} validation racks are a Mah Jongg)")
    print()
    print(f"{'measure (median us)':42s} {'fast':>9s} {'oracle':>11s} {'ratio':>8s} "
          f"{'target':>8s}")
    ok = True
    for key, label, fast, slow in rows:
        target = TARGETS[key]
        mark = "ok" if fast <= target else "SLOW"
        ok &= fast <= target
        print(f"{label:42s} {fast:9.1f} {slow:11.1f} {slow / fast:7.0f}x {target:8.0f} {mark}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
