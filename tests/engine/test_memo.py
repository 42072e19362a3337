"""The referee's memory (engine/memo.py) never changes an answer: what it says of a rack is
what the card says of it, whatever holdings it saw before; and a state holds no cache."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

import numpy as np
import pytest

from tests.card.holdings import Wall, random_rack
from tests.engine.helpers import R, rig
from twinrack.bots import RandomBot
from twinrack.card import practice_card
from twinrack.card.compiled import compiled, exposure_key
from twinrack.engine import (
    Action,
    GameState,
    RuleSet,
    apply,
    legal_actions,
    memo,
    new_game,
    parse_action,
    view,
)
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


def test_a_remembered_view_is_the_view_built_afresh() -> None:
    """Royale 4 seats, random play with 12 exchanges, 18 exposures and six racks dead:
    after every action each seat's view (public seats and racks remembered from earlier
    versions) equals the view of a copy, which remembers nothing."""
    game = new_game(RuleSet(variant="royale", players=4), seed=1)
    rng = random.Random(1)
    bot = RandomBot()
    made: dict[str, int] = {}
    while not game.over:
        fresh = game.copy()
        for seat in (None, 0, 1, 2, 3):
            assert view(game, seat) == view(fresh, seat)
        seat = game.to_act()[0]
        action = bot.choose(view(game, seat), legal_actions(game, seat), rng)
        made[action.verb] = made.get(action.verb, 0) + 1
        apply(game, action)
    assert (made["exchange"], made["expose"]) == (12, 18)
    assert sum(r.dead is not None for p in game.players for r in p.racks) == 6


def _apply_counting(game: GameState, action: Action) -> None:
    """Apply ``action`` and check that the tiles reported joined to each seat
    (memo.tiles_joined) are at least the tiles its free tiles gained."""
    before = [(tuple(p.free()), memo_of(game).joined.get(s, 0))
              for s, p in enumerate(game.players)]
    apply(game, action)
    for s, p in enumerate(game.players):
        free, joined = before[s]
        assert gained(free, tuple(p.free())) <= memo_of(game).joined.get(s, 0) - joined, (
            s, str(action))


def _declared(rules: RuleSet, hands: list[str], picks: str, script: list[str]) -> GameState:
    game = rig(rules, hands, picks=picks)
    for text in script:
        _apply_counting(game, parse_action(text))
    return game


ATOM13 = "F N E W S 1B 3B 5B 7B G 2C 4C 6C"  # Special-1 (declared) less its 8C
DECLARE = "0: declare Special-1 1B 3B 5B 7B 2C 4C 6C N E W S G F"


@pytest.mark.parametrize("start", [
    lambda: new_game(RuleSet(), seed=31),
    lambda: new_game(RuleSet(strict=True, expose_any_time=True), seed=2),
    lambda: new_game(RuleSet(variant="royale", players=4), seed=1),
    lambda: new_game(RuleSet(variant="royale", players=3), seed=2),
    lambda: new_game(RuleSet(variant="imperial", players=2), seed=5),
    lambda: new_game(RuleSet(variant="imperial", players=4, strict=True), seed=6),
    lambda: _declared(R(declared_hands=True), [ATOM13], "5D", [DECLARE, "1: pass",
                                                               "0: undeclare"]),
    lambda: _declared(R(declared_hands=True),
                      [ATOM13 + " F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C"], "5D 6D F",
                      [DECLARE, "1: pass",
                       "0: mahjongg 2 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F",
                       "0: discard 5D", "1: pass", "1: discard 6D", "0: pass"]),
])
def test_every_tile_that_joins_free_tiles_is_reported(start: Callable[[], GameState]) -> None:
    """The reach of a rack is bounded by the tiles reported joined since its last exact
    reach: over whole games (picks, claims, exchanges, declared hands let go voluntarily
    or forced, strict and exposures at any time), no seat's free tiles ever gain more
    tiles in one action than were reported."""
    game = start()
    rng = random.Random(7)
    bot = RandomBot()
    while not game.over:
        seat = game.to_act()[0]
        _apply_counting(game, bot.choose(view(game, seat), legal_actions(game, seat), rng))


@pytest.mark.parametrize(("variant", "players", "seed"), [
    ("siamese", 2, 12), ("royale", 4, 3), ("imperial", 2, 8)])
def test_a_rack_said_far_is_far(variant: str, players: int, seed: int) -> None:
    """Whenever the memo says, from the tiles joined since a rack's last exact reach, that
    every way is at least 1 or 2 tiles away, the card says so too (random play: the
    engine asks and answers as it goes, the test checks every rack after every action)."""
    game = new_game(RuleSet(variant=variant, players=players), seed=seed)
    cc = compiled(game.card).without_declared
    rng = random.Random(seed)
    bot = RandomBot()
    said = 0
    while not game.over:
        seat = game.to_act()[0]
        apply(game, bot.choose(view(game, seat), legal_actions(game, seat), rng))
        mine = memo_of(game)
        for s, p in enumerate(game.players):
            for r in p.open_racks():
                rack = p.racks[r]
                least = int(cc.way_aways(p.free(), rack.exposures).min())
                for floor in (1, 2):
                    if mine.surely_far(s, rack.key(), floor):
                        said += 1
                        assert least >= floor, (s, r, floor)
    assert said > 100
