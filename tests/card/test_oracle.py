"""The oracle checked against even plainer searches on small cases, so that agreeing with it
means something: greedy filling against a maximum bipartite matching, summed two-rack demand
against every split of the holding, pruned pair search against scoring every pair."""

from __future__ import annotations

import random

from tests.card import oracle
from tests.card.holdings import mini_card, near_holding, random_holding, two_racks
from twinrack.card.exposure import Exposure
from twinrack.card.model import Group, Way
from twinrack.tiles import INDEX, JOKER, parse_tiles


def counts(text: str) -> list[int]:
    out = [0] * 36
    for t in parse_tiles(text):
        out[t] += 1
    return out


def way(*groups: tuple[str, int]) -> Way:
    return Way(tuple(sorted(Group(INDEX[t], n) for t, n in groups)))


def test_fill_examples() -> None:
    w = way(("F", 2), ("1B", 4), ("2B", 4), ("3C", 4))
    c, j = oracle.split_counts(counts("F F 1B 1B 1B 2B J J 3C"))
    # F F, three 1B, one 2B, one 3C placed; two Jokers into the kongs
    assert oracle.fill_groups(w.groups, c, j) == 9
    assert oracle.fill_matching(w.groups, c, j) == 9
    # Jokers never fill a pair of Flowers
    c, j = oracle.split_counts(counts("F J J J"))
    assert oracle.fill_groups(way(("F", 2), ("N", 3)).groups, c, j) == 4
    assert oracle.fill_groups(way(("F", 2), ("N", 1)).groups, c, j) == 1


def test_greedy_fill_is_a_maximum_matching() -> None:
    card = mini_card()
    rng = random.Random(7)
    ways = [w for h in card.hands for w in h.ways]
    for _ in range(400):
        w = rng.choice(ways)
        c = near_holding(rng, [w], rng.randint(0, 14), jokers=0.3) if rng.random() < 0.7 \
            else random_holding(rng, rng.randint(0, 14))
        nat, jokers = oracle.split_counts(c)
        assert oracle.fill_groups(w.groups, nat, jokers) == oracle.fill_matching(
            w.groups, nat, jokers)


def test_pair_fill_equals_the_best_split() -> None:
    card = mini_card()
    rng = random.Random(8)
    ways = [w for h in card.hands for w in h.ways]
    for _ in range(150):
        w1, w2 = rng.choice(ways), rng.choice(ways)
        c = near_holding(rng, [w1, w2], rng.randint(10, 18), jokers=0.2)
        nat, jokers = oracle.split_counts(c)
        summed = oracle.fill_groups(list(w1.groups) + list(w2.groups), nat, jokers)
        assert summed == oracle.pair_fill_by_splits(w1, w2, c)
        assert summed == oracle.fill_matching(list(w1.groups) + list(w2.groups), nat, jokers)
        assert oracle.pair_away(w1, w2, c) == 28 - summed


def test_mah_jongg_is_zero_away() -> None:
    card = mini_card()
    rng = random.Random(9)
    hits = 0
    for _ in range(300):
        h = rng.choice(card.hands)
        w = rng.choice(h.ways)
        c = near_holding(rng, [w], 14, keep=0.95, jokers=0.2)
        made = oracle.is_mah_jongg(w, c, [], h.concealed)
        assert made == (oracle.way_away(w, c) == 0)
        hits += made
    assert hits > 30


def test_placements_try_every_assignment() -> None:
    w = way(("1B", 3), ("1B", 3), ("2B", 4), ("N", 2), ("F", 2))
    pung = Exposure(INDEX["1B"], 3, 1)
    assert len(oracle.placements(w, [pung], False)) == 2
    assert len(oracle.placements(w, [pung, pung], False)) == 2
    assert oracle.placements(w, [pung, pung, pung], False) == []
    assert oracle.placements(w, [Exposure(INDEX["2B"], 3)], False) == []
    assert oracle.placements(w, [pung], True) == []
    assert oracle.placements(w, [Exposure(INDEX["N"], 2)], False)[0] == [
        Group(INDEX["1B"], 3), Group(INDEX["1B"], 3), Group(INDEX["2B"], 4),
        Group(INDEX["F"], 2)]


def test_pruned_pairs_equal_every_pair() -> None:
    card = mini_card()
    rng = random.Random(10)
    for k in range(40):
        racks = two_racks(rng, card, size=27 + k % 2)
        args = (card, racks.counts, racks.exposures1, racks.exposures2)
        assert oracle.best_pairs(*args, top=6) == oracle.best_pairs(*args, top=6,
                                                                     exhaustive=True)
    for _ in range(8):
        racks = two_racks(rng, card)
        args = (card, racks.counts, racks.exposures1, racks.exposures2)
        assert oracle.best_discards(*args) == oracle.best_discards(*args, exhaustive=True)


def test_joker_split_matters() -> None:
    # rack 1 wants a kong of 1B, rack 2 a kong of 2B: three Jokers serve both racks
    w1 = way(("1B", 4), ("F", 2), ("N", 4), ("S", 4))
    w2 = way(("2B", 4), ("F", 2), ("E", 4), ("W", 4))
    c = counts("1B 2B J J J F F F F N N N N S S S S E E E E W W W W")
    assert oracle.pair_fill_by_splits(w1, w2, c) == 25
    assert oracle.pair_away(w1, w2, c) == 3
    assert c[JOKER] == 3
