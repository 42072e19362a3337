"""The referee's memory (engine/memo.py) never changes an answer: what it says of a rack is
what the card says of it, whatever holdings it saw before; and a state holds no cache."""

from __future__ import annotations

import pickle
import random

import numpy as np

from tests.card.holdings import Wall, random_rack
from twinrack.card import practice_card
from twinrack.card.compiled import compiled, exposure_key
from twinrack.engine import RuleSet, apply, legal_actions, memo, new_game, view
from twinrack.engine.memo import RackReach, gained, memo_of
from twinrack.tiles import NUM_KINDS, ONE_SET


def test_gained_counts_the_tiles_added() -> None:
    before = (2, 0, 1) + (0,) * (NUM_KINDS - 3)
    assert gained(before, before) == 0
    assert gained(before, (1, 0, 1) + (0,) * (NUM_KINDS - 3)) == 0  # one fewer
    assert gained(before, (2, 2, 0) + (0,) * (NUM_KINDS - 3)) == 2  # two 2nd kind, one out
    assert gained(before, (5, 0, 1) + (0,) * (NUM_KINDS - 3)) == 3


def test_rack_reach_agrees_with_the_card_whatever_came_before() -> None:
    """Holdings wander (a tile in, a tile out, now and then a new holding) under one game
    and seat; every answer equals the one worked out from scratch."""
    card = practice_card()
    cc = compiled(card).without_declared
    rng = random.Random(31)
    checked = skipped = 0
    for walk in range(60):
        rack = random_rack(rng, card, size=rng.randint(10, 14))
        key = exposure_key(rack.exposures)
        counts = list(rack.counts)
        for _step in range(12):
            if rng.random() < 0.3:
                memo._REACH.clear()  # the bound and the candidates must do
            aways = cc.way_aways(counts, rack.exposures)
            reach = RackReach(cc, f"game{walk % 3}", walk % 2, key, rack.exposures,
                              tuple(counts))
            for floor in (1, 2):
                if reach.at_least(floor):
                    assert aways.min() >= floor
                    skipped += 1
            assert reach.done().tolist() == np.flatnonzero(aways == 0).tolist()
            assert reach.near().tolist() == np.flatnonzero(aways <= 1).tolist()
            checked += 1
            held = [t for t in range(NUM_KINDS) if counts[t]]
            if held and rng.random() < 0.5:
                counts[rng.choice(held)] -= 1
            else:
                t = Wall().draw(rng, 1)[0]
                counts[t] = min(counts[t] + 1, ONE_SET[t])
    assert checked == 60 * 12 and skipped > 100


def test_a_state_holds_facts_only() -> None:
    game = new_game(RuleSet(), seed=4)
    for _ in range(30):
        seat = game.to_act()[0]
        view(game, seat)
        apply(game, legal_actions(game, seat)[-1])
    copy = game.copy()
    assert memo_of(copy) is not memo_of(game) and not memo_of(copy).legal
    assert not any("cache" in name or "memo" in name for name in vars(copy))
    assert legal_actions(copy, copy.to_act()[0]) == legal_actions(game, game.to_act()[0])
    # a pickled state carries no cache: the same bytes before and after it was asked
    fresh = pickle.dumps(copy)
    view(copy, 0)
    legal_actions(copy, copy.to_act()[0])
    assert pickle.dumps(copy) == fresh
