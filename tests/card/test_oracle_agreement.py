"""The fast, compiled card analysis agrees with the plain oracle (tests/card/oracle.py).

Seeded random holdings (over 10,000 in all, counted in ``HOLDINGS``), plus hypothesis
property tests. Each test compares complete outcomes: every way's tiles away, every match
with its way, every ranked pair with its ways, every discard score. The compiled card is
asked on both of its paths, the compiled kernel and the numpy code (tests/card/paths.py):
both must give the answer checked.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.card import oracle
from tests.card.holdings import (
    Wall,
    mah_jongg_rack,
    mini_card,
    near_holding,
    random_holding,
    random_rack,
    two_racks,
)
from tests.card.paths import Both
from twinrack.card import Card, practice_card
from twinrack.card.compiled import IMPOSSIBLE, CompiledCard
from twinrack.tiles import JOKER, NUM_KINDS, ONE_SET, tile_set

#: holdings checked per test, so the total is easy to audit (at least 10,000)
HOLDINGS = {
    "aways_wall": 2500,
    "aways_near": 1500,
    "aways_exposed": 1500,
    "matches": 1500,
    "tracker_steps": 300 * 8,
    "nearest_needs": 300,
    "pairs_mini": 400,
    "pair_aways_mini": 300,
    "pairs_practice": 24,
    "discards_mini": 60,
    "discards_practice": 6,
    "two_sets_aways": 300,
    "two_sets_pairs": 80,
}


def test_at_least_ten_thousand_holdings() -> None:
    assert sum(HOLDINGS.values()) >= 10_000
    assert oracle.NO_WAY == IMPOSSIBLE  # both report an impossible way the same


@cache
def practice() -> tuple[Card, Both]:
    card = practice_card()
    return card, Both.of(CompiledCard(card))


@cache
def mini() -> tuple[Card, Both]:
    card = mini_card()
    return card, Both.of(CompiledCard(card))


# ---------------------------------------------------------------------------- one rack


def test_way_aways_random_wall_holdings() -> None:
    card, cc = practice()
    rng = random.Random(1001)
    for _ in range(HOLDINGS["aways_wall"]):
        counts = random_holding(rng, rng.randint(0, 14))
        fast = cc.way_aways(counts)
        assert fast.tolist() == oracle.card_way_aways(card, counts), counts
        assert cc.hand_aways(counts).tolist() == [
            min(fast[cc.hand_start[h.number]:cc.hand_start[h.number] + len(h.ways)])
            for h in card.hands]


def test_way_aways_near_holdings() -> None:
    card, cc = practice()
    rng = random.Random(1002)
    seen_small = 0
    for _ in range(HOLDINGS["aways_near"]):
        way = rng.choice(rng.choice(card.hands).ways)
        counts = near_holding(rng, [way], rng.randint(8, 14), jokers=0.2)
        fast = cc.way_aways(counts).tolist()
        assert fast == oracle.card_way_aways(card, counts), counts
        seen_small += min(fast) <= 2
    assert seen_small > HOLDINGS["aways_near"] // 4  # the near holdings are near


def test_way_aways_with_exposures() -> None:
    card, cc = practice()
    rng = random.Random(1003)
    dead = 0
    for _ in range(HOLDINGS["aways_exposed"]):
        rack = random_rack(rng, card)
        fast = cc.way_aways(rack.counts, rack.exposures).tolist()
        assert fast == oracle.card_way_aways(card, rack.counts, rack.exposures), rack
        alive = oracle.rack_alive(card, rack.exposures)
        assert cc.rack_alive(rack.exposures) is alive
        assert cc.fitting(rack.exposures).tolist() == [
            bool(oracle.placements(w, rack.exposures, h.concealed))
            for h in card.hands for w in h.ways]
        dead += not alive
    assert 0 < dead < HOLDINGS["aways_exposed"] // 2


def test_matches_agree() -> None:
    card, cc = practice()
    rng = random.Random(1004)
    made = 0
    for _ in range(HOLDINGS["matches"]):
        rack = mah_jongg_rack(rng, card)
        fast = cc.matches(rack.counts, rack.exposures)
        plain = oracle.matches(card, rack.counts, rack.exposures)
        assert [(m.hand.id, m.way, m.jokerless, m.closed) for m in fast] == [
            (m.hand_id, m.way, m.jokerless, m.closed) for m in plain], rack
        made += bool(plain)
    assert made > HOLDINGS["matches"] // 2


def test_tracker_follows_single_tiles() -> None:
    card, cc = practice()
    rng = random.Random(1005)
    for _ in range(HOLDINGS["tracker_steps"] // 8):
        rack = random_rack(rng, card, size=rng.randint(1, 13))
        counts = list(rack.counts)
        tracker = cc.tracker(counts, rack.exposures)
        for _step in range(8):
            held = [t for t in range(NUM_KINDS) if counts[t]]
            if held and (sum(counts) >= 13 or rng.random() < 0.4):
                tile = rng.choice(held)
                without = tracker.aways_without(tile).tolist()
                tracker.remove(tile)
                counts[tile] -= 1
                assert without == tracker.aways().tolist()
            else:
                tile = rng.choice([t for t in range(NUM_KINDS) if counts[t] < ONE_SET[t]])
                tracker.add(tile)
                counts[tile] += 1
            assert tracker.counts().tolist() == counts
            assert tracker.aways().tolist() == oracle.card_way_aways(card, counts,
                                                                      rack.exposures)


def test_nearest_and_needs() -> None:
    card, cc = practice()
    rng = random.Random(1006)
    for _ in range(HOLDINGS["nearest_needs"]):
        rack = random_rack(rng, card, junk=0.0)
        nearest = cc.nearest(rack.counts, rack.exposures)
        assert [(h.hand.id, h.away) for h in nearest] == oracle.nearest(
            card, rack.counts, rack.exposures)
        for h in nearest[:3]:
            # the way shown is one of the line's best, and its needs complete it
            assert oracle.way_away(h.way, rack.counts, rack.exposures,
                                   h.hand.concealed) == h.away
            assert len(h.needs) == h.away
            assert JOKER not in h.needs
            completed = list(rack.counts)
            for t in h.needs:
                completed[t] += 1
            assert oracle.way_away(h.way, completed, rack.exposures, h.hand.concealed) == 0


# ---------------------------------------------------------------------------- two racks


def plans(cc: Both, pairs: list) -> list[tuple]:
    index = {id(w): i for i, w in enumerate(cc.ways)}
    return [((p.hands[0].id, p.hands[1].id), p.away, p.value,
             (index[id(p.ways[0])], index[id(p.ways[1])])) for p in pairs]


def oracle_plans(pairs: list[oracle.OraclePair]) -> list[tuple]:
    return [(p.ids, p.away, p.value, p.ways) for p in pairs]


def test_best_pairs_mini_card_exhaustive() -> None:
    card, cc = mini()
    rng = random.Random(1007)
    symmetric = 0
    for k in range(HOLDINGS["pairs_mini"]):
        racks = two_racks(rng, card, size=27 + k % 2)
        top = rng.choice([1, 3, 8, 40])
        fast = cc.best_pairs(racks.counts, racks.exposures1, racks.exposures2, top=top)
        plain = oracle.best_pairs(card, racks.counts, racks.exposures1, racks.exposures2,
                                  top=top, exhaustive=True)
        assert plans(cc, fast) == oracle_plans(plain), racks
        symmetric += oracle.same_demand(racks.exposures1, racks.exposures2)
    assert symmetric > HOLDINGS["pairs_mini"] // 2


def test_pair_aways_mini_card() -> None:
    card, cc = mini()
    rng = random.Random(1008)
    n = cc.n_ways
    for _ in range(HOLDINGS["pair_aways_mini"]):
        racks = two_racks(rng, card)
        w1 = np.array([rng.randrange(n) for _ in range(20)])
        w2 = np.array([rng.randrange(n) for _ in range(20)])
        fast = cc.pair_aways(racks.counts, w1, w2, racks.exposures1, racks.exposures2)
        ways = [(h, w) for h in card.hands for w in h.ways]
        plain = [oracle.pair_away(ways[i][1], ways[j][1], racks.counts, racks.exposures1,
                                  racks.exposures2, ways[i][0].concealed, ways[j][0].concealed)
                 for i, j in zip(w1.tolist(), w2.tolist(), strict=True)]
        assert fast.tolist() == plain


def test_best_pairs_practice_card() -> None:
    card, cc = practice()
    rng = random.Random(1009)
    for k in range(HOLDINGS["pairs_practice"]):
        if k % 3 == 0:
            counts, x1, x2 = random_holding(rng, 28), [], []
        else:
            racks = two_racks(rng, card, size=27 + k % 2)
            counts, x1, x2 = racks.counts, racks.exposures1, racks.exposures2
        fast = cc.best_pairs(counts, x1, x2, top=10)
        plain = oracle.best_pairs(card, counts, x1, x2, top=10)
        assert plans(cc, fast) == oracle_plans(plain), (counts, x1, x2)


def discard_rows(scores: list) -> list[tuple[int, int, int]]:
    return [(d.tile, d.away, d.value) for d in scores]


def test_discard_scores_mini_card() -> None:
    card, cc = mini()
    rng = random.Random(1010)
    for k in range(HOLDINGS["discards_mini"]):
        racks = two_racks(rng, card, size=28)
        fast = cc.discard_scores(racks.counts, racks.exposures1, racks.exposures2)
        plain = oracle.best_discards(card, racks.counts, racks.exposures1, racks.exposures2,
                                     exhaustive=k < 6)
        assert discard_rows(fast) == discard_rows(plain), racks
        best = cc.best_pairs(racks.counts, racks.exposures1, racks.exposures2, top=1)
        if best:  # a discard leaves the best pair as it was, or one tile further
            assert {d.away - best[0].away for d in fast} <= {0, 1}


def test_discard_scores_practice_card() -> None:
    card, cc = practice()
    rng = random.Random(1011)
    for k in range(HOLDINGS["discards_practice"]):
        counts = random_holding(rng, 28) if k % 2 else two_racks(rng, card).counts
        fast = cc.discard_scores(counts)
        assert discard_rows(fast) == discard_rows(oracle.best_discards(card, counts))


def test_two_set_holdings() -> None:
    """Royale and Imperial play with 2 or 3 sets: 8 or more copies of a tile can be held."""
    two_sets = tile_set("royale", 4).counts
    card, cc = practice()
    rng = random.Random(1012)
    for _ in range(HOLDINGS["two_sets_aways"]):
        way = rng.choice(rng.choice(card.hands).ways)
        counts = near_holding(rng, [way, way], rng.randint(10, 20), jokers=0.2,
                              wall=Wall(two_sets))
        assert cc.way_aways(counts).tolist() == oracle.card_way_aways(card, counts)
    many = 0
    card, cc = mini()
    for _ in range(HOLDINGS["two_sets_pairs"]):
        ways = [rng.choice(rng.choice(card.hands).ways) for _ in range(2)]
        counts = near_holding(rng, ways + ways, 28, jokers=0.15, wall=Wall(two_sets))
        many += max(counts[:JOKER]) > 4
        fast = cc.best_pairs(counts, top=5)
        assert plans(cc, fast) == oracle_plans(oracle.best_pairs(card, counts, top=5,
                                                                 exhaustive=True))
        assert discard_rows(cc.discard_scores(counts)) == discard_rows(
            oracle.best_discards(card, counts))
    assert many > HOLDINGS["two_sets_pairs"] // 2  # more than one set's copies held


# ---------------------------------------------------------------------------- hypothesis

WALL = sorted(Wall().left.elements())


def holding_strategy(most: int, least: int = 0) -> st.SearchStrategy[list[int]]:
    """Holdings of ``least`` to ``most`` tiles picked from one 152-tile set."""
    return st.lists(st.sampled_from(range(len(WALL))), min_size=least, max_size=most,
                    unique=True).map(
        lambda picks: [sum(1 for p in picks if WALL[p] == t) for t in range(NUM_KINDS)])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(holding_strategy(14))
def test_property_way_aways(counts: list[int]) -> None:
    card, cc = practice()
    assert cc.way_aways(counts).tolist() == oracle.card_way_aways(card, counts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2]))
def test_property_matches(seed: int, extra_jokers: int) -> None:
    card, cc = practice()
    rack = mah_jongg_rack(random.Random(seed), card)
    counts = list(rack.counts)
    # swap up to two naturals for Jokers: matches must still agree
    for _ in range(extra_jokers):
        held = [t for t in range(JOKER) if counts[t]]
        if held:
            counts[random.Random(seed).choice(held)] -= 1
            counts[JOKER] += 1
    fast = cc.matches(counts, rack.exposures)
    plain = oracle.matches(card, counts, rack.exposures)
    assert [(m.hand.id, m.way) for m in fast] == [(m.hand_id, m.way) for m in plain]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(holding_strategy(28, 20), st.integers(1, 6))
def test_property_best_pairs_mini(counts: list[int], top: int) -> None:
    card, cc = mini()
    fast = cc.best_pairs(counts, top=top)
    assert plans(cc, fast) == oracle_plans(
        oracle.best_pairs(card, counts, top=top, exhaustive=True))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(holding_strategy(13), st.data())
def test_property_tracker(counts: list[int], data: st.DataObject) -> None:
    card, cc = practice()
    tracker = cc.tracker(counts)
    moves = data.draw(st.lists(st.tuples(st.booleans(), st.integers(0, JOKER)), max_size=6))
    for add, tile in moves:
        if add:
            tracker.add(tile)
            counts[tile] += 1
        elif counts[tile]:
            tracker.remove(tile)
            counts[tile] -= 1
        else:
            with pytest.raises(ValueError):
                tracker.remove(tile)
    assert tracker.aways().tolist() == cc.way_aways(counts).tolist()
    assert tracker.aways().tolist() == oracle.card_way_aways(card, counts)
