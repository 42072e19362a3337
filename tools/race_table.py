"""Measure how soon a player finishes, from what the table shows of it: the table behind
:data:`twinrack.bots.race.HAZARD` (the master's model of the opponents' race).

    .venv/bin/python tools/race_table.py [--games 300] [--seed 11] [--variant siamese]

Plays expert against expert (untimed) and, for every turn a seat begins (its n-th turn,
counted from 0), notes how many of its racks were still open and whether the turn made
its first Mah Jongg or ended the game with its last: per (open racks, turn) the share of
such turns. Prints the rows of the table as Python.
"""

from __future__ import annotations

import argparse
import math
import random

from twinrack.bots import ExpertBot
from twinrack.bots.driver import Driver
from twinrack.card import practice_card
from twinrack.engine import RuleSet, new_game
from twinrack.engine.shuffle import derive_seed

BUCKET = 4  # turns per row of the table


def play(games: int, seed: int, variant: str, players: int) -> dict[tuple[int, int],
                                                                    list[int]]:
    """Per (open racks at the turn's start, turn bucket): [turns, first MJs, finishes]."""
    card = practice_card()
    rules = RuleSet.for_variant(variant, players)
    counts: dict[tuple[int, int], list[int]] = {}
    for g in range(games):
        game = new_game(rules, seed=derive_seed(seed, "race", g), card=card)
        bots = {s: ExpertBot(card, budget_ms=math.inf) for s in range(players)}
        rngs = {s: random.Random(f"{seed}:{g}:{s}") for s in range(players)}
        driver = Driver(game, bots, rngs)
        turns = [0] * players
        last = (-1, -1)
        prev = [len(p.open_racks()) for p in game.players]
        began: dict[int, tuple[int, int]] = {}
        while (seat := driver.bot_to_act()) is not None:
            if game.phase == "turn" and (game.turn_no, game.current) != last:
                last = (game.turn_no, game.current)
                s = game.current
                began[s] = (prev[s], turns[s] // BUCKET)
                counts.setdefault(began[s], [0, 0, 0])[0] += 1
                turns[s] += 1
            driver.bot_decides(seat)
            for s, p in enumerate(game.players):
                now = len(p.open_racks())
                if now < prev[s] and s in began:
                    won = game.over and game.winner == s and game.end_reason == "mahjongg"
                    counts[began[s]][2 if won else 1] += 1
                prev[s] = now
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--variant", default="siamese")
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    counts = play(args.games, args.seed, args.variant, args.players)
    for key in sorted(counts):
        n, first, fin = counts[key]
        print(f"    {key}: ({n}, {first}, {fin}),")


if __name__ == "__main__":
    main()
