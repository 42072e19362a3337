"""Instructions per random-play game, counted by valgrind's callgrind: Siamese 2p, Royale 4p
and Imperial 2p, each as an N-game run minus a 0-game run of the same process.

    .venv/bin/python benchmarks/bench_engine_ir.py [--games 5,2,2] [--src DIR] [--fast] [--json]

Every game is played through the bot protocol, as ``bench_engine.py`` plays it (``play_game``
with ``RandomBot``: each decision builds the seat's view, lists the legal actions and
applies the choice), on the same seeds. Both runs import everything, load the card and play
one warm-up game first, so the difference is the cost of the N games alone. Instruction
counts do not depend on the machine's load, and with ``PYTHONHASHSEED=0`` (set here) they
repeat exactly from run to run: the figure to quote when comparing two versions.

``--fast`` counts in one run per variant only what the games execute (callgrind collects
inside ``sys.call_tracing``, which runs them and nothing else): half the time, for trying
changes; it leaves out what the games cost outside their own calls (e.g. freeing what
they left at exit), so quote the default.

``--src DIR`` measures another checkout (its ``DIR/src`` is put first on the path), e.g. the
tree before a refactor, side by side with this one:

    git worktree add --detach /work/wt/old 6a418c8
    .venv/bin/python benchmarks/bench_engine_ir.py --src /work/wt/old
    .venv/bin/python benchmarks/bench_engine_ir.py --src .

Needs ``valgrind`` on the path; a run of the default games takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: the variants measured, with the games played in each by default
VARIANTS: tuple[tuple[str, int, int], ...] = (("siamese", 2, 5), ("royale", 4, 2),
                                               ("imperial", 2, 2))
_TOTAL = re.compile(rb"^(?:summary|totals):\s*(\d+)", re.MULTILINE)


# ---------------------------------------------------------------------------- inside valgrind


def play(src: str, variant: str, players: int, games: int) -> dict[str, Any]:
    """Import the engine of ``src``, play one warm-up game and then ``games`` games; what
    was played (the counts are read from outside)."""
    sys.path.insert(0, str(Path(src, "src").resolve()))
    import random

    import twinrack
    from twinrack.bots import RandomBot
    from twinrack.card import practice_card
    from twinrack.cli.game import play_game
    from twinrack.engine import RuleSet
    from twinrack.engine.shuffle import derive_seed

    card = practice_card()
    rules = RuleSet(variant=variant, players=players)
    bots = [RandomBot() for _ in range(players)]
    play_game(rules, card, derive_seed(0, "warm"), bots, [random.Random(0)] * players)

    def run() -> int:
        actions = 0
        for g in range(games):
            state = play_game(rules, card, derive_seed(1, variant, players, g), bots,
                              [random.Random(g * 7 + s) for s in range(players)])
            actions += len(state.actions)
        return actions

    actions = sys.call_tracing(run, ())  # the one call --fast collects inside
    return {"module": twinrack.__file__, "games": games, "actions": actions}


# ---------------------------------------------------------------------------- outside


def count(src: str, variant: str, players: int, games: int,
          fast: bool = False) -> tuple[int, dict[str, Any]]:
    """Instructions of one run under callgrind (with ``fast``, of its games alone), and
    what the run played."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               *(["--collect-atstart=no", "--toggle-collect=sys_call_tracing"] if fast else []),
               sys.executable, __file__, "--play", variant, str(players), str(games),
               "--src", src]
        run = subprocess.run(cmd, env=env, capture_output=True, check=False)
        if run.returncode != 0:
            raise SystemExit(f"valgrind run failed ({run.returncode}):\n"
                             f"{run.stderr.decode(errors='replace')[-2000:]}")
        found = _TOTAL.search(out.read_bytes())
        if found is None:
            raise SystemExit(f"no instruction total in {out}")
        played = json.loads(run.stdout.decode().strip().splitlines()[-1])
        return int(found.group(1)), played


def measure(src: str, variant: str, players: int, games: int,
            fast: bool = False) -> dict[str, Any]:
    base = 0 if fast else count(src, variant, players, 0)[0]
    total, played = count(src, variant, players, games, fast)
    ir = total - base
    return {"variant": f"{variant} {players}p", "games": games, "actions": played["actions"],
            "module": played["module"], "ir": ir, "ir_per_game": ir // games,
            "ir_per_action": ir // max(1, played["actions"]), "ir_base": base}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(Path(__file__).resolve().parent.parent),
                    help="the checkout to measure (default: this one)")
    ap.add_argument("--games", default=",".join(str(v[2]) for v in VARIANTS),
                    help="games per variant: siamese,royale,imperial (0 skips one)")
    ap.add_argument("--fast", action="store_true",
                    help="one run per variant, counting inside the games only")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--play", nargs=3, metavar=("VARIANT", "PLAYERS", "GAMES"),
                    help=argparse.SUPPRESS)  # the run inside valgrind
    args = ap.parse_args()
    if args.play:
        variant, players, games = args.play
        print(json.dumps(play(args.src, variant, int(players), int(games))))
        return
    counts = [int(n) for n in args.games.split(",")]
    if len(counts) != len(VARIANTS):
        ap.error(f"--games takes {len(VARIANTS)} numbers")
    rows = [measure(args.src, v, p, n, args.fast)
            for (v, p, _), n in zip(VARIANTS, counts, strict=True) if n > 0]
    if args.json:
        print(json.dumps({"src": args.src, "rows": rows}))
        return
    print(f"engine: {rows[0]['module'] if rows else args.src}")
    what = "Ir (games only)" if args.fast else "Ir (N - 0 games)"
    print(f"{'random play':<14} {'games':>5} {'actions':>8} {what:>17} "
          f"{'Ir/game':>12} {'Ir/action':>10}")
    for r in rows:
        print(f"{r['variant']:<14} {r['games']:>5} {r['actions']:>8} {r['ir']:>17,} "
              f"{r['ir_per_game']:>12,} {r['ir_per_action']:>10,}")


if __name__ == "__main__":
    main()
