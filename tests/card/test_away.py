"""Tiles-away scenarios: one rack, with and without exposures; two racks sharing a holding
(best pairs, discard scores); the incremental tracker."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from tests.card.paths import Both
from twinrack.card import Card, parse_card
from twinrack.card.compiled import IMPOSSIBLE, CompiledCard, DiscardScore, PairPlan
from twinrack.card.exposure import Exposure
from twinrack.tiles import CANONICAL, INDEX, JOKER, counts_of, format_tiles, parse_tiles

#: the card of the shared contract check (checks/data/public_card.toml)
PUBLIC_TOML = """\
name = "Contract check card"
edition = "public"

[[hand]]
section = "Pairs"
pattern = "NN EE WW SS 11a 22a 33a"
value = 50

[[hand]]
section = "Kongs"
pattern = "FF 1111a 2222a 3333b"
value = 25

[[hand]]
section = "Kongs"
pattern = "FF XXXX0a XXXX1a NNNN"
value = 30
concealed = true
"""
#: the 27 tiles of the two-rack contract check
SHARED = "F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C N N E E W W S S 1D 1D 2D 2D 3D"


@cache
def public() -> tuple[Card, Both]:
    """The card, compiled and asked on both paths (tests/card/paths.py)."""
    card = parse_card(PUBLIC_TOML, "public_card.toml")
    return card, Both.of(CompiledCard(card))


def held(text: str) -> np.ndarray:
    return counts_of(parse_tiles(text))


def xs(*texts: str) -> list[Exposure]:
    return [Exposure.parse(t) for t in texts]


# ---------------------------------------------------------------------------- one rack


def test_hand_aways_and_needs() -> None:
    _card, cc = public()
    rack = held("F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C")
    # Pairs-1 in Bams has two 1B and two 2B; Kongs-2 with X = 1 in Bams lacks the Norths
    assert cc.hand_aways(rack).tolist() == [10, 1, 4]
    nearest = cc.nearest(rack)
    assert [(h.hand.id, h.away, format_tiles(h.needs)) for h in nearest] == [
        ("Kongs-1", 1, "3C"),
        ("Kongs-2", 4, "N N N N"),
        ("Pairs-1", 10, "3B 3B N N E E W W S S")]
    assert format_tiles(nearest[0].way.tiles()) == "1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C F F"
    assert [h.hand.id for h in cc.nearest(rack, top=2)] == ["Kongs-1", "Kongs-2"]


def test_ties_go_to_the_higher_value_then_card_order() -> None:
    _card, cc = public()
    rack = held("F F")
    assert [(h.hand.id, h.away) for h in cc.nearest(rack)] == [
        ("Kongs-2", 12), ("Kongs-1", 12), ("Pairs-1", 14)]


def test_jokers_count_only_toward_groups_of_three_or_more() -> None:
    _card, cc = public()
    assert cc.hand_aways(held("N N E E W W S S 1D 1D 2D 2D 3D J")).tolist()[0] == 1
    assert cc.hand_aways(held("N N E E W W S S 1D 1D 2D 2D 3D 3D")).tolist()[0] == 0
    # Jokers fill kongs, never the pair of Flowers
    assert cc.hand_aways(held("J J J J J J J J 3C 3C 3C 3C F")).tolist()[1] == 1
    assert cc.hand_aways(held("J J 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C")).tolist()[1] == 2
    # more Jokers than the big groups lack are no help
    assert cc.hand_aways(held("J J J J J J J J J F F")).tolist() == [14, 3, 3]


def test_needs_sends_jokers_to_the_biggest_shortfall() -> None:
    _card, cc = public()
    rack = held("F F 1B 2B 2B 3C J")
    way = next(i for i, w in enumerate(cc.ways)
               if format_tiles(w.tiles()) == "1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C F F")
    assert cc.way_aways(rack)[way] == 7
    # shortfalls 1B: 3, 2B: 2, 3C: 3; the Joker takes one 1B (first of the biggest)
    assert format_tiles(cc.needs(way, rack)) == "1B 1B 2B 2B 3C 3C 3C"


def test_exposures_take_their_group_out_of_the_demand() -> None:
    _card, cc = public()
    rack = held("F F 2B 2B 2B 3C")
    away = cc.hand_aways(rack, xs("1B 1B J 1B"))
    # Pairs-1 has no kong; Kongs-2 is concealed: both impossible for this rack
    assert away.tolist() == [IMPOSSIBLE, 4, IMPOSSIBLE]
    assert [(h.hand.id, h.away, format_tiles(h.needs))
            for h in cc.nearest(rack, xs("1B 1B J 1B"))] == [("Kongs-1", 4, "2B 3C 3C 3C")]
    assert cc.nearest(rack, xs("N N N N")) == []
    assert cc.way_aways(rack, xs("7D 7D 7D")).tolist() == [IMPOSSIBLE] * cc.n_ways


def test_holding_vectors_are_checked() -> None:
    _card, cc = public()
    with pytest.raises(ValueError, match="a holding is a vector of 36 counts"):
        cc.way_aways([1, 2, 3])
    bad = [0] * 36
    bad[3] = -1
    with pytest.raises(ValueError, match="negative"):
        cc.way_aways(bad)


# ---------------------------------------------------------------------------- two racks


def plans(pairs: list[PairPlan]) -> list[tuple[str, str, int, int]]:
    return [(p.hands[0].id, p.hands[1].id, p.away, p.value) for p in pairs]


def test_best_pairs_for_the_contract_holding() -> None:
    _card, cc = public()
    pairs = cc.best_pairs(held(SHARED), top=10)
    assert plans(pairs) == [
        ("Pairs-1", "Kongs-1", 1, 75),   # all but the second 3D
        ("Pairs-1", "Kongs-2", 5, 80),   # both want the 2 Norths held: 4 N and 3D short
        ("Kongs-1", "Kongs-2", 8, 55),
        ("Kongs-1", "Kongs-1", 9, 50),
        ("Pairs-1", "Pairs-1", 11, 100),
        ("Kongs-2", "Kongs-2", 12, 60)]
    first = pairs[0]
    assert format_tiles(first.ways[0].tiles()) == "1D 1D 2D 2D 3D 3D N N E E W W S S"
    assert format_tiles(first.ways[1].tiles()) == "1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C F F"
    assert plans(cc.best_pairs(held(SHARED), top=2)) == plans(pairs[:2])
    assert cc.best_pairs(held(SHARED), top=0) == []


def test_pair_aways_of_chosen_way_pairs() -> None:
    _card, cc = public()
    w1 = np.array([0, 0, 3])
    w2 = np.array([3, 0, 3])
    assert [format_tiles(cc.ways[i].tiles()) for i in (0, 3)] == [
        "1B 1B 2B 2B 3B 3B N N E E W W S S", "1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C F F"]
    # both want 1B and 2B: 6 of each asked, 4 held; and 3B 3B are missing
    assert cc.pair_aways(held(SHARED), w1, w2).tolist() == [6, 12, 14]
    kong = xs("1B 1B 1B 1B")
    concealed = held(SHARED.replace("1B 1B 1B 1B ", ""))
    assert cc.pair_aways(concealed, w1, w2, kong, ()).tolist() == [IMPOSSIBLE, IMPOSSIBLE, 14]
    assert cc.pair_aways(concealed, w1, w2, (), kong).tolist() == [6, IMPOSSIBLE, 14]


def test_each_rack_keeps_its_own_exposures() -> None:
    _card, cc = public()
    concealed = held("F F 2B 2B 2B 2B 3C 3C 3C 3C N N E E W W S S 1D 1D 2D 2D 3D")
    kong = xs("1B 1B 1B 1B")
    # rack 1 exposed a kong of 1B: only Kongs-1 is open to it, and the pairs are ordered
    assert plans(cc.best_pairs(concealed, kong, ())) == [
        ("Kongs-1", "Pairs-1", 1, 75), ("Kongs-1", "Kongs-2", 8, 55),
        ("Kongs-1", "Kongs-1", 9, 50)]
    assert plans(cc.best_pairs(concealed, (), kong)) == [
        ("Pairs-1", "Kongs-1", 1, 75), ("Kongs-2", "Kongs-1", 8, 55),
        ("Kongs-1", "Kongs-1", 9, 50)]
    # a dead rack makes no pair at all
    assert cc.best_pairs(concealed, xs("7D 7D 7D"), ()) == []


def test_discard_scores() -> None:
    _card, cc = public()
    scores = cc.discard_scores(held(SHARED + " 9D"))
    assert all(isinstance(s, DiscardScore) for s in scores)
    # throwing the stray 9D keeps the pair one tile away; anything else costs a tile
    assert [(CANONICAL[s.tile], s.away, s.value) for s in scores] == [
        ("1B", 2, 75), ("2B", 2, 75), ("3C", 2, 75), ("1D", 2, 75), ("2D", 2, 75),
        ("3D", 2, 75), ("9D", 1, 75), ("N", 2, 75), ("E", 2, 75), ("W", 2, 75),
        ("S", 2, 75), ("F", 2, 75)]
    # with a Joker instead of the 9D, a kong tile can go: the Joker takes its place
    scores = cc.discard_scores(held(SHARED + " J"))
    assert [(CANONICAL[s.tile], s.away) for s in scores] == [
        ("1B", 1), ("2B", 1), ("3C", 1), ("1D", 2), ("2D", 2), ("3D", 2), ("N", 2),
        ("E", 2), ("W", 2), ("S", 2), ("F", 2), ("J", 1)]
    assert [s.tile for s in cc.discard_scores(held("F F"), xs("7D 7D 7D"))] == [
        INDEX["F"]]
    assert cc.discard_scores(held("F F"), xs("7D 7D 7D"))[0].away == IMPOSSIBLE


def test_discard_score_values_prefer_the_richer_pair() -> None:
    _card, cc = public()
    # Pairs-1 twice (in Dots), worth 100, is one 3D away
    both = held("N N N N E E E E W W W W S S S S 1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 9B")
    assert plans(cc.best_pairs(both, top=3)) == [
        ("Pairs-1", "Pairs-1", 1, 100), ("Pairs-1", "Kongs-2", 8, 80),
        ("Pairs-1", "Kongs-1", 10, 75)]
    assert [(CANONICAL[s.tile], s.away, s.value) for s in cc.discard_scores(both)] == [
        ("9B", 1, 100), ("1D", 2, 100), ("2D", 2, 100), ("3D", 2, 100), ("N", 2, 100),
        ("E", 2, 100), ("W", 2, 100), ("S", 2, 100)]


# ---------------------------------------------------------------------------- tracker


def test_tracker_adds_and_removes_single_tiles() -> None:
    _card, cc = public()
    tracker = cc.tracker(held("F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C"))
    assert tracker.aways().tolist() == cc.way_aways(
        held("F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C")).tolist()
    assert min(tracker.aways()) == 2
    tracker.add(INDEX["3C"])
    assert min(tracker.aways()) == 1
    tracker.add(JOKER)
    assert min(tracker.aways()) == 0  # the Joker is the fourth 3C
    assert min(tracker.aways_without(INDEX["1B"])) == 1
    assert min(tracker.aways_without(JOKER)) == 1
    tracker.add(INDEX["9D"])
    assert min(tracker.aways_without(INDEX["9D"])) == 0
    tracker.remove(INDEX["9D"])
    tracker.remove(JOKER)
    assert min(tracker.aways()) == 1
    assert min(tracker.aways_without(INDEX["1B"])) == 2
    expect = held("F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C")
    assert tracker.counts().tolist() == expect.tolist()
    assert tracker.aways().tolist() == cc.way_aways(expect).tolist()


def test_tracker_refuses_tiles_it_does_not_hold() -> None:
    _card, cc = public()
    tracker = cc.tracker(held("F F 1B"), xs("2B 2B 2B 2B"))
    with pytest.raises(ValueError, match="no such tile"):
        tracker.remove(INDEX["3C"])
    with pytest.raises(ValueError, match="no such tile"):
        tracker.aways_without(INDEX["3C"])
    with pytest.raises(ValueError, match="no Joker"):
        tracker.remove(JOKER)
    with pytest.raises(ValueError, match="no Joker"):
        tracker.aways_without(JOKER)
    with pytest.raises(ValueError, match="no tile kind"):
        tracker.add(40)
    assert tracker.aways().tolist() == cc.way_aways(held("F F 1B"), xs("2B 2B 2B 2B")).tolist()


# ---------------------------------------------------------------------------- rack demand


def _plain_demand(cc: CompiledCard, key: tuple[tuple[int, int], ...]) -> dict[str, np.ndarray]:
    """The demand of a rack with these exposures worked out on the whole arrays (what
    ``CompiledCard.rack`` patches column by column)."""
    e_small = np.zeros(cc.nat.shape[1], dtype=np.int8)
    e_big = np.zeros(cc.nat.shape[1], dtype=np.int8)
    for tile, size in key:
        (e_big if size >= 3 else e_small)[tile] += size
    nat = np.maximum(cc.nat - e_small, 0).astype(np.int8)
    big = np.maximum(cc.big - e_big, 0).astype(np.int8)
    tot = (nat + big).astype(np.int8)
    return {"bank": np.concatenate([tot, nat], axis=1),
            "big_sum": big.sum(axis=1, dtype=np.int16),
            "entry_tot": tot[cc.entry_way, cc.entry_tile].astype(np.int16),
            "entry_nat": nat[cc.entry_way, cc.entry_tile].astype(np.int16)}


def test_rack_demand_equals_the_whole_array_formula() -> None:
    from twinrack.card import practice_card
    from twinrack.card.compiled import compiled

    whole = compiled(practice_card())
    groups = sorted(whole.group_keys)
    keys = [(), *[(g,) for g in groups], ((0, 3), (0, 4)), ((5, 5), (5, 3), (9, 3)),
            ((JOKER - 1, 4), (JOKER - 2, 3), (1, 14))]
    keys += [groups[i::17][:3] for i in range(17)]
    keys = [tuple(sorted(key)) for key in keys]
    for cc in (whole, whole.without_declared):
        for key in keys:
            rack = cc.rack([Exposure(t, n, 0) for t, n in key])
            plain = _plain_demand(cc, key)
            assert rack.key == key and rack.exposed == sum(n for _t, n in key)
            assert rack.touched == tuple(sorted({t for t, _n in key}))
            assert np.array_equal(rack.fit, cc._fit(key))
            for name, want in plain.items():
                got = getattr(rack, name)
                assert got.dtype == want.dtype and np.array_equal(got, want), (key, name)
                assert not got.flags.writeable


def test_holdings_given_as_tuples_read_like_arrays() -> None:
    """The referee passes holdings as tuples and lists, whose table rows are read without
    numpy: the same splits, U and V, and tiles away as for the holding as an array."""
    from tests.card.holdings import random_holding, random_rack
    from twinrack.card import practice_card
    from twinrack.card.compiled import compiled
    from twinrack.card.demand import split_holding

    card = practice_card()
    rng = random.Random(5)
    for cc in (compiled(card), compiled(card).without_declared):
        for i in range(150):
            if i % 3:
                rack = random_rack(rng, card)
                counts, exposures = list(rack.counts), list(rack.exposures)
            else:
                counts, exposures = random_holding(rng, rng.randint(0, 30)), []
            array = np.array(counts, dtype=np.int64)
            c, jokers = split_holding(array)
            for given in (tuple(counts), list(counts)):
                c2, jokers2 = split_holding(given)
                assert c2.dtype == c.dtype and np.array_equal(c2, c) and jokers2 == jokers
                demand = cc.rack(exposures)
                for got, want in zip(cc.uv(demand, c2, given), cc.uv(demand, c), strict=True):
                    assert got.dtype == want.dtype and np.array_equal(got, want)
                assert np.array_equal(cc.way_aways(given, exposures),
                                      cc.way_aways(array, exposures))
