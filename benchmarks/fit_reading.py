"""Fit the opponent reading on recorded games and report its log loss on held-out games.

    .venv/bin/twinrack simulate --bots expert,expert --games 400 --seed 1001 \
        --record /tmp/recs/ee --untimed --quiet
    .venv/bin/python benchmarks/fit_reading.py /tmp/recs/ee [more folders] \
        [--out src/twinrack/bots/reading.json]

Every fifth game (by its place in the sorted list of files) is held out; the rest fit the
line frequencies and the weights. Records of any variant work, one card at a time (the
practice card unless --card); the server's records (``/t/ID/record``) are the same format.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from twinrack.bots.plans import planner
from twinrack.bots.reading import ReadingModel
from twinrack.bots.reading_fit import (
    collect,
    fit,
    line_log_prior,
    log_loss,
    prior_log_loss,
)
from twinrack.card import load_card


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--card", default=None)
    ap.add_argument("--every", type=int, default=2, help="every n-th discard per rack")
    ap.add_argument("--out", default=None, help="write the fitted model here")
    args = ap.parse_args()
    card = load_card(args.card)
    files = sorted(p for f in args.folders for p in Path(f).glob("*.json"))
    records = [json.loads(p.read_text()) for p in files]
    revision = {r["rules"].get("revision") for r in records}
    pl = planner(card, open_lines="2024" in revision)
    t0 = time.perf_counter()
    samples, labels = collect(records, card, pl, args.every)
    held = samples.game % 5 == 0
    train, test = samples.take(~held), samples.take(held)
    prior = line_log_prior(card, [line for g, line in labels if g % 5 != 0])
    base = ReadingModel((0.0, 0.0, 0.0, 1.0), card.sha256, prior)
    model = fit(train, pl, base)
    playable = sum(not h.declared for h in card.hands)
    uniform = tuple(-math.log(playable) if not h.declared else -50.0 for h in card.hands)
    print(f"{len(records)} games, {len(train)} samples to fit, {len(test)} held out "
          f"({time.perf_counter() - t0:.1f} s)")
    print("weights:", dict(zip(("thrown", "recent", "scarce", "prior"), model.weights,
                               strict=True)))
    print("held-out log loss (nats per sample, lower is better):")
    rows = [("every line alike (the card alone)", prior_log_loss(test, card, uniform)),
            ("line frequencies (the card's prior)", prior_log_loss(test, card, prior)),
            ("frequencies + exposures and tiles in sight", log_loss(test, pl, base)),
            ("the fitted reading", log_loss(test, pl, model))]
    for name, value in rows:
        print(f"  {name:45s} {value:7.4f}")
    if args.out:
        Path(args.out).write_text(json.dumps(model.to_dict(), indent=1) + "\n")
        print("wrote", args.out)


if __name__ == "__main__":
    main()
