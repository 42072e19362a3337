"""The card analysis the engine and the bots share agrees with the plain oracle
(tests/card/oracle.py): tiles away of a few ways, the fillings that complete a way, the
card's tables, and the card limited to the lines not declared at the deal.

Seeded holdings with exposures of every size (singles and pairs too, which the engine never
makes but the card analysis must still get right), on the practice card and on a small card
with declared lines among its other lines. Counts per test are in ``HOLDINGS``.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np

from tests.card import oracle
from tests.card.holdings import (
    Rack,
    Wall,
    exposure_of,
    mah_jongg_rack,
    mini_card_with_declared,
    random_rack,
    two_racks,
    vector,
)
from tests.card.paths import Both
from twinrack.card import Card, parse_card, practice_card
from twinrack.card.compiled import IMPOSSIBLE, compiled
from twinrack.card.exposure import Exposure
from twinrack.tiles import JOKER, NUM_KINDS, ONE_SET

HOLDINGS = {
    "ways_away": 800,
    "fillings": 500,
    "scope_one_rack": 400,
    "scope_tracker": 100 * 6,
    "scope_pairs": 120,
    "scope_discards": 30,
}


@cache
def cards() -> tuple[tuple[Card, Both], ...]:
    """The cards, each compiled and asked on both paths (tests/card/paths.py)."""
    out = []
    for card in (practice_card(), mini_card_with_declared()):
        out.append((card, Both.of(compiled(card))))
    return tuple(out)


def all_ways(card: Card) -> list[tuple[oracle.Way, bool]]:
    """(way, its line is concealed) of every way, card order."""
    return [(w, h.concealed) for h in card.hands for w in h.ways]


def small_exposure_rack(rng: random.Random, card: Card) -> Rack:
    """A rack with exposures of a way's groups of any size (singles and pairs included),
    and concealed tiles near the rest of the way."""
    wall = Wall()
    way = rng.choice(rng.choice(card.hands).ways)
    exposures: list[Exposure] = []
    rest: list[tuple[int, int]] = []
    for g in way.groups:
        x = exposure_of(rng, wall, g.tile, g.size) if rng.random() < 0.35 else None
        if x is None:
            rest.append((g.tile, g.size))
        else:
            exposures.append(x)
    tiles = [t for t, size in rest for _ in range(size) if rng.random() < 0.8 and wall.take(t)]
    concealed = max(0, rng.randint(10, 16) - sum(x.size for x in exposures))
    tiles = tiles[:concealed] + wall.draw(rng, max(0, concealed - len(tiles)))
    return Rack(exposures, vector(tiles))


def some_rack(rng: random.Random, card: Card) -> Rack:
    pick = rng.random()
    if pick < 0.4:
        return small_exposure_rack(rng, card)
    if pick < 0.7:
        return random_rack(rng, card)
    return mah_jongg_rack(rng, card)


def test_tables_are_the_cards() -> None:
    for card, cc in cards():
        flags = [(h.declared, h) for h in card.hands for _w in h.ways]
        assert cc.declared.tolist() == [d for d, _h in flags]
        assert cc.normal.tolist() == [not d for d, _h in flags]
        assert [cc.hand_of(w) for w in range(cc.n_ways)] == [h for _d, h in flags]
        starts = {h.id: sum(len(g.ways) for g in card.hands[:h.number]) for h in card.hands}
        assert {k: v.tolist() for k, v in cc.declared_ways.items()} == {
            h.id: list(range(starts[h.id], starts[h.id] + len(h.ways)))
            for h in card.hands if h.declared}
        assert cc.largest_group == max(g.size for h in card.hands for w in h.ways
                                       for g in w.groups)
        assert cc.demand[:, :NUM_KINDS].tolist() == [
            [any(g.tile == t for g in w.groups) for t in range(NUM_KINDS)]
            for w, _c in all_ways(card)]
    assert len(cards()[0][1].declared_ways) == 1  # the practice card's Special-1
    assert len(cards()[1][1].declared_ways) == 2


def test_ways_away_of_a_few_ways() -> None:
    rng = random.Random(2001)
    for k in range(HOLDINGS["ways_away"]):
        card, cc = cards()[k % 2]
        rack = some_rack(rng, card)
        ways = all_ways(card)
        idx = [rng.randrange(cc.n_ways) for _ in range(rng.randint(0, 25))]
        if cc.declared_ways and rng.random() < 0.3:
            idx += rng.choice(list(cc.declared_ways.values())).tolist()
        plain = [oracle.way_away(ways[i][0], rack.counts, rack.exposures, ways[i][1])
                 for i in idx]
        assert cc.ways_away(idx, rack.counts, rack.exposures).tolist() == plain, rack
        scoped = cc.without_declared.ways_away(np.array(idx, dtype=np.int64), rack.counts,
                                               rack.exposures)
        assert scoped.tolist() == [IMPOSSIBLE if cc.declared[i] else a
                                   for i, a in zip(idx, plain, strict=True)]


def test_fillings_complete_their_way() -> None:
    rng = random.Random(2002)
    filled = with_jokers = several = 0
    for k in range(HOLDINGS["fillings"]):
        card, cc = cards()[k % 2]
        rack = mah_jongg_rack(rng, card) if rng.random() < 0.6 else some_rack(rng, card)
        counts = list(rack.counts)
        # spare tiles, Jokers among them: more than one way to fill
        for t in Wall().draw(rng, rng.randint(0, 5)) + [JOKER] * rng.randint(0, 2):
            counts[t] += 1
        counts = [min(n, ONE_SET[t]) for t, n in enumerate(counts)]
        zero = np.flatnonzero(cc.way_aways(counts, rack.exposures) == 0).tolist()
        ways = zero[:6] + [rng.randrange(cc.n_ways) for _ in range(2)]
        held = [t for t in range(NUM_KINDS) if counts[t]]
        need = rng.choice(held) if held and rng.random() < 0.5 else None
        for w in ways:
            way, concealed = all_ways(card)[w]
            fast = cc.fillings(w, counts, rack.exposures, need)
            assert fast == oracle.fillings(way, counts, rack.exposures, concealed, need), (
                w, counts, rack.exposures, need)
            for fill in fast:
                assert oracle.is_mah_jongg(way, vector(list(fill)), rack.exposures, concealed)
            filled += bool(fast)
            with_jokers += any(JOKER in f for f in fast)
            several += len(fast) > 1
            scoped = cc.without_declared.fillings(w, counts, rack.exposures, need)
            assert scoped == ([] if cc.declared[w] else fast)
    # most holdings complete some way, some with Jokers, some in more than one way
    assert filled > HOLDINGS["fillings"] // 2
    assert with_jokers > HOLDINGS["fillings"] // 10 and several > HOLDINGS["fillings"] // 10


def test_declared_lines_fillings() -> None:
    """A declared line's ways complete only from their own tiles (no exposures)."""
    card, cc = cards()[1]
    rng = random.Random(2003)
    for hid, ways in cc.declared_ways.items():
        for w in ways.tolist():
            way = card.hand(hid).ways[w - int(ways[0])]
            counts = vector(way.tiles())
            for t in Wall().draw(rng, 3):
                counts[t] += 1
            assert cc.fillings(w, counts) == oracle.fillings(way, counts)
            assert tuple(sorted(way.tiles())) in cc.fillings(w, counts)


def test_card_without_declared_lines_one_rack() -> None:
    rng = random.Random(2004)
    for k in range(HOLDINGS["scope_one_rack"]):
        card, cc = cards()[k % 2]
        plain = oracle.without_declared(card)
        kept = oracle.kept_ways(card)
        scoped = cc.without_declared
        rack = some_rack(rng, card)
        aways = scoped.way_aways(rack.counts, rack.exposures)
        assert aways[kept].tolist() == oracle.card_way_aways(plain, rack.counts, rack.exposures)
        assert set(aways[cc.declared].tolist()) <= {IMPOSSIBLE}
        assert [(h.hand.id, h.away) for h in scoped.nearest(rack.counts, rack.exposures)] == \
            oracle.nearest(plain, rack.counts, rack.exposures)
        assert scoped.rack_alive(rack.exposures) is oracle.rack_alive(plain, rack.exposures)
        assert scoped.fitting(rack.exposures)[kept].tolist() == [
            bool(oracle.placements(w, rack.exposures, h.concealed))
            for h in plain.hands for w in h.ways]
        if sum(rack.counts) + sum(x.size for x in rack.exposures) == 14:
            assert [(m.hand.id, m.way) for m in scoped.matches(rack.counts, rack.exposures)] \
                == [(m.hand_id, m.way) for m in oracle.matches(plain, rack.counts,
                                                               rack.exposures)]


def test_card_without_declared_lines_tracker() -> None:
    rng = random.Random(2005)
    for k in range(HOLDINGS["scope_tracker"] // 6):
        card, cc = cards()[k % 2]
        plain = oracle.without_declared(card)
        kept = oracle.kept_ways(card)
        rack = random_rack(rng, card, size=rng.randint(1, 13))
        counts = list(rack.counts)
        tracker = cc.without_declared.tracker(counts, rack.exposures)
        for _step in range(6):
            held = [t for t in range(NUM_KINDS) if counts[t]]
            if held and rng.random() < 0.4:
                tile = rng.choice(held)
                assert tracker.aways_without(tile)[cc.declared].tolist() == \
                    [IMPOSSIBLE] * int(cc.declared.sum())
                tracker.remove(tile)
                counts[tile] -= 1
            else:
                tile = rng.choice([t for t in range(NUM_KINDS) if counts[t] < ONE_SET[t]])
                tracker.add(tile)
                counts[tile] += 1
            aways = tracker.aways()
            assert aways[kept].tolist() == oracle.card_way_aways(plain, counts, rack.exposures)
            assert set(aways[cc.declared].tolist()) == {IMPOSSIBLE}


def scoped_plans(card: Card, pairs: list) -> list[tuple]:  # type: ignore[type-arg]
    """Pairs of the limited card with way indices of the card without its declared lines."""
    kept = oracle.kept_ways(card)
    index = {id(w): kept.index(i) for i, w in enumerate(compiled(card).ways) if i in kept}
    return [((p.hands[0].id, p.hands[1].id), p.away, p.value,
             (index[id(p.ways[0])], index[id(p.ways[1])])) for p in pairs]


def test_card_without_declared_lines_two_racks() -> None:
    card, cc = cards()[1]
    plain = oracle.without_declared(card)
    scoped = cc.without_declared
    rng = random.Random(2006)
    for k in range(HOLDINGS["scope_pairs"]):
        racks = two_racks(rng, card, size=27 + k % 2)
        top = rng.choice([1, 3, 8, 40])
        fast = scoped.best_pairs(racks.counts, racks.exposures1, racks.exposures2, top=top)
        want = oracle.best_pairs(plain, racks.counts, racks.exposures1, racks.exposures2,
                                 top=top, exhaustive=True)
        assert scoped_plans(card, fast) == [(p.ids, p.away, p.value, p.ways) for p in want]
        w1 = np.array([rng.randrange(cc.n_ways) for _ in range(10)])
        w2 = np.array([rng.randrange(cc.n_ways) for _ in range(10)])
        pa = scoped.pair_aways(racks.counts, w1, w2, racks.exposures1, racks.exposures2)
        ways = all_ways(card)
        assert pa.tolist() == [
            IMPOSSIBLE if cc.declared[i] or cc.declared[j] else oracle.pair_away(
                ways[i][0], ways[j][0], racks.counts, racks.exposures1, racks.exposures2,
                ways[i][1], ways[j][1]) for i, j in zip(w1.tolist(), w2.tolist(), strict=True)]
    for _ in range(HOLDINGS["scope_discards"]):
        racks = two_racks(rng, card, size=28)
        fast = scoped.discard_scores(racks.counts, racks.exposures1, racks.exposures2)
        want = oracle.best_discards(plain, racks.counts, racks.exposures1, racks.exposures2)
        assert [(d.tile, d.away, d.value) for d in fast] == [
            (d.tile, d.away, d.value) for d in want]


def test_one_compiled_card_per_card_text() -> None:
    card = practice_card()
    again = parse_card(card.source, "copy.toml")
    assert compiled(card) is compiled(again) is compiled(card)
    assert compiled(card).without_declared is compiled(card).without_declared
    other = mini_card_with_declared()
    assert compiled(other) is not compiled(card)
    assert compiled(other).card.sha256 == other.sha256
