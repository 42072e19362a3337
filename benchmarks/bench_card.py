"""Speed of the compiled card on both of its paths (the compiled kernel and the numpy
code) against the plain oracle, on the practice card, and how it grows with the card.

    .venv/bin/python benchmarks/bench_card.py [--seed N] [--scale X] [--no-growth]

Prints the median time in microseconds (time.perf_counter_ns over many repetitions) of:
tiles away of a 14-tile rack against the whole card; the best pairs of lines for a 28-tile
two-rack holding; scoring every candidate discard of a 28-tile holding; one Mah Jongg
validation. Each measure runs the compiled kernel (card/kernel.py), the numpy code (the
fallback) and the plain oracle (tests/card/oracle.py) on the same seeded holdings, drawn
from a shuffled 152-tile wall; the goals are the kernel's. Then the same measures (but the
oracle's) on cards of two and four times the practice card's lines (its lines repeated in
sections of their own; the fourfold card has more ways than the loader accepts, and is
built directly). The first line says how long the kernel took to start in this process
(numba's import and its compiled code loaded from the cache on disk, or compiled afresh
the first time after an install or an edit of the kernel). Exit status 1 when a goal is
missed.
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
from tests.card.holdings import grown_card, mah_jongg_rack, random_holding  # noqa: E402

from twinrack.card import Card, kernel, load_card  # noqa: E402
from twinrack.card.compiled import CompiledCard  # noqa: E402
from twinrack.errors import TwinRackError  # noqa: E402

PRACTICE = ROOT / "src" / "twinrack" / "cards" / "practice.toml"
#: goals on the project's 2-core reference machine, microseconds (issue 30 for the first
#: three; the validation's is the one it had)
GOALS = {"away": 10.0, "pairs": 300.0, "discards": 150.0, "match": 100.0}
LABELS = {"away": "tiles away, 14-tile rack, whole card",
          "pairs": "best 10 pairs, 28-tile two-rack holding",
          "discards": "every discard, 28-tile two-rack holding",
          "match": "Mah Jongg validation, 14-tile rack"}


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


class Inputs:
    """The seeded holdings every measure reads."""

    def __init__(self, seed: int, card: Card) -> None:
        rng = random.Random(seed)
        self.racks14 = [random_holding(rng, 14) for _ in range(200)]
        self.vectors14 = [np.array(c, dtype=np.int16) for c in self.racks14]
        self.holdings28 = [random_holding(rng, 28) for _ in range(100)]
        self.vectors28 = [np.array(c, dtype=np.int16) for c in self.holdings28]
        self.mj_racks = [mah_jongg_rack(rng, card) for _ in range(200)]


def fast_measures(cc: CompiledCard, data: Inputs, reps: Callable[[int], int]
                  ) -> dict[str, float]:
    """The four measures on one path of one compiled card."""
    return {
        "away": median_us(cc.hand_aways, data.vectors14, reps(20000)),
        "pairs": median_us(lambda c: cc.best_pairs(c, top=10), data.vectors28, reps(3000)),
        "discards": median_us(cc.discard_scores, data.vectors28, reps(3000)),
        "match": median_us(lambda r: cc.matches(r.counts, r.exposures), data.mj_racks,
                           reps(20000)),
    }


def oracle_measures(card: Card, data: Inputs, reps: Callable[[int], int]) -> dict[str, float]:
    return {
        "away": median_us(lambda c: oracle.card_hand_aways(card, c), data.racks14, reps(300)),
        "pairs": median_us(lambda c: oracle.best_pairs(card, c, top=10),
                           data.holdings28[:20], reps(20)),
        "discards": median_us(lambda c: oracle.best_discards(card, c), data.holdings28[:5],
                              reps(5)),
        "match": median_us(lambda r: oracle.matches(card, r.counts, r.exposures),
                           data.mj_racks, reps(1000)),
    }


def paths(card: Card) -> tuple[CompiledCard | None, CompiledCard]:
    cc = CompiledCard(card)
    return (cc.with_kernel(True) if kernel.AVAILABLE else None), cc.with_kernel(False)


def practice_table(card: Card, data: Inputs, reps: Callable[[int], int]) -> bool:
    """The practice card's measures on both paths and the oracle; whether every goal is
    met (by the kernel, or by the numpy code where numba is missing)."""
    fast_cc, plain_cc = paths(card)
    fast = fast_measures(fast_cc, data, reps) if fast_cc is not None else None
    plain = fast_measures(plain_cc, data, reps)
    slow = oracle_measures(card, data, reps)
    print(f"{'measure (median us)':40s} {'kernel':>8s} {'numpy':>8s} {'oracle':>10s} "
          f"{'numpy/kernel':>12s} {'goal':>6s}")
    ok = True
    for key, label in LABELS.items():
        best = fast[key] if fast is not None else plain[key]
        met = best <= GOALS[key]
        ok &= met
        kernel_text = f"{fast[key]:8.1f}" if fast is not None else f"{'-':>8s}"
        ratio = f"{plain[key] / fast[key]:11.1f}x" if fast is not None else f"{'-':>12s}"
        print(f"{label:40s} {kernel_text} {plain[key]:8.1f} {slow[key]:10.1f} {ratio} "
              f"{GOALS[key]:6.0f} {'ok' if met else 'SLOW'}")
    return ok


def growth_table(card: Card, data: Inputs, reps: Callable[[int], int]) -> None:
    """The same measures (but the oracle's) on the card and on two and four times its
    lines, on both paths."""
    cards = [card, grown_card(card, 2), grown_card(card, 4)]
    rows: dict[tuple[str, str], list[float]] = {}
    for c in cards:
        fast_cc, plain_cc = paths(c)
        for name, cc in (("kernel", fast_cc), ("numpy", plain_cc)):
            if cc is None:
                continue
            for key, value in fast_measures(cc, data, reps).items():
                rows.setdefault((key, name), []).append(value)
    heads = [f"x{k} ({len(c.hands)}, {c.way_count})" for k, c in zip((1, 2, 4), cards,
                                                                       strict=True)]
    print(f"{'growth with the card (median us)':40s} {'path':6s} "
          + " ".join(f"{h:>16s}" for h in heads) + f" {'x4/x1':>7s}")
    print(f"{'(lines, ways)':40s}")
    for (key, name), values in rows.items():
        print(f"{LABELS[key]:40s} {name:6s} " + " ".join(f"{v:16.1f}" for v in values)
              + f" {values[-1] / values[0]:6.1f}x")


def kernel_start(card: Card) -> str:
    """How long the kernel took to start here (the first call of each of its functions)."""
    if not kernel.AVAILABLE:
        return "numba is not installed: the numpy code alone is measured"
    start = time.perf_counter()
    CompiledCard(card).with_kernel(True).warm_up()
    return (f"kernel start (numba's import, its compiled code loaded or compiled): "
            f"{(time.perf_counter() - start) * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every repetition count (e.g. 0.1 for a quick look)")
    parser.add_argument("--no-growth", action="store_true",
                        help="the practice card only, not the bigger cards")
    args = parser.parse_args()
    if not PRACTICE.exists():
        print(f"bench_card: the practice card is missing ({PRACTICE}); nothing to measure.")
        return 1
    try:
        card: Card = load_card(PRACTICE)
    except TwinRackError as err:
        print(f"bench_card: the practice card does not load:\n{err}")
        return 1
    started = kernel_start(card)

    def reps(n: int) -> int:
        return max(3, int(n * args.scale))

    data = Inputs(args.seed, card)
    made = sum(bool(CompiledCard(card).matches(r.counts, r.exposures)) for r in data.mj_racks)
    numba_version = "numba " + __import__("numba").__version__ if kernel.AVAILABLE else \
        "no numba"
    print(f"TwinRack card benchmark: {card.name} {card.edition}".rstrip()
          + f", {len(card.hands)} lines, {card.way_count} ways")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {numba_version}, "
          f"{os.cpu_count()} cpus; seed {args.seed}; holdings drawn from a shuffled "
          f"152-tile wall ({made} of {len(data.mj_racks)} validation racks are a Mah Jongg)")
    print(started)
    print()
    ok = practice_table(card, data, reps)
    if not args.no_growth:
        print()
        growth_table(card, data, reps)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
