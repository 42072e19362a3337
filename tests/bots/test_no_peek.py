"""Bots never peek: two states that differ only in tiles the seat cannot see (the other
players' concealed tiles and the wall) get the same decision."""

from __future__ import annotations

import random

import pytest

from tests.bots.untimed import UNTIMED_BOTS, bot_copy
from twinrack.card import practice_card
from twinrack.engine import GameState, RuleSet, apply, legal_actions, new_game, view
from twinrack.engine.shuffle import derive_seed
from twinrack.tiles import NUM_KINDS


def hidden_swapped(game: GameState, seat: int, rng: random.Random, swaps: int = 6) -> GameState:
    """A copy of ``game`` where other seats' concealed tiles and the unseen wall trade
    places (a few tiles each), so that ``seat`` sees exactly the same table."""
    other = game.copy()
    other.wall = list(game.wall)
    rest = range(other.wall_pos, len(other.wall))
    if not len(rest):
        return other
    for s, p in enumerate(other.players):
        if s == seat:
            continue
        racks = [i for i in range(len(p.racks)) if not (p.declared is not None and i == 0)]
        for _ in range(swaps):
            r = rng.choice(racks)
            conc = p.racks[r].arranged
            held = [t for t in range(NUM_KINDS) if conc[t]
                    and not (s == other.current and t == other.acquired)]
            if not held:
                continue
            x = rng.choice(held)
            j = rng.choice(rest)
            y = other.wall[j]
            if y == x:
                continue
            conc[x] -= 1
            conc[y] += 1
            p.pool[x] -= 1
            p.pool[y] += 1
            other.wall[j] = x
    other.version = game.version
    return other


def differs(a: GameState, b: GameState) -> bool:
    return a.wall[a.wall_pos:] != b.wall[b.wall_pos:] or any(
        p.pool != q.pool for p, q in zip(a.players, b.players, strict=True))


CHECKED = {
    ("random", "siamese"): (74, 73), ("random", "royale"): (134, 134),
    ("random", "imperial"): (130, 108), ("greedy", "siamese"): (57, 56),
    ("greedy", "royale"): (134, 134), ("greedy", "imperial"): (60, 50),
    ("expert", "siamese"): (42, 42), ("expert", "royale"): (123, 123),
    ("expert", "imperial"): (52, 43), ("master", "siamese"): (47, 47),
    ("master", "royale"): (98, 98), ("master", "imperial"): (55, 50),
    ("random", "american"): (134, 134), ("greedy", "american"): (95, 95),
    ("expert", "american"): (96, 96), ("master", "american"): (96, 96)}


@pytest.mark.parametrize(("variant", "players"), [("siamese", 2), ("royale", 3),
                                                  ("imperial", 2), ("american", 4)])
@pytest.mark.parametrize("level", ["random", "greedy", "expert", "master"])
def test_same_view_same_decision(level: str, variant: str, players: int) -> None:
    card = practice_card()
    rules = RuleSet.for_variant(variant, players)
    game = new_game(rules, seed=derive_seed(5, "peek", variant), card=card)
    bots = [UNTIMED_BOTS[level](card) for _ in range(players)]
    rngs = [random.Random(s) for s in range(players)]
    swap_rng = random.Random(99)
    checked = changed = 0
    steps = 0
    while not game.over and steps < 400:
        seat = game.to_act()[0]
        legal = legal_actions(game, seat)
        if steps % 3 == 0:
            twin = hidden_swapped(game, seat, swap_rng)
            assert view(twin, seat) == view(game, seat)
            assert legal_actions(twin, seat) == legal
            changed += differs(game, twin)
            # the same bot (memory included) and the same random state
            bot_twin = bot_copy(bots[seat])
            rng_twin = random.Random()
            rng_twin.setstate(rngs[seat].getstate())
            decided_twin = bot_twin.choose(view(twin, seat), legal_actions(twin, seat),
                                           rng_twin)
            decided = bots[seat].choose(view(game, seat), legal, rngs[seat])
            assert decided == decided_twin, f"step {steps}: {decided} vs {decided_twin}"
            checked += 1
        else:
            decided = bots[seat].choose(view(game, seat), legal, rngs[seat])
        apply(game, decided)
        steps += 1
    # decisions compared, and of those the ones where the hidden tiles really differed
    assert (checked, changed) == CHECKED[level, variant]
