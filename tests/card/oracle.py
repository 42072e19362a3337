"""The plain, obviously-correct card analysis that the fast code in twinrack.card.compiled is
checked against. It shares nothing with compiled.py: it walks the groups of every concrete
way (``card.hands[i].ways``) with ordinary Python loops.

Definitions (docs/card-language.md, "Matching"):

* A way is a list of groups ``(tile, size)``. Jokers may stand only in groups of 3 or more.
* An exposure of ``size`` tiles standing for ``tile`` fills one whole group of that tile and
  that size; a concealed line takes no exposure. Exposures are placed by trying every
  assignment of exposures to groups.
* Tiles away from a way: ``14 - exposed - filled``, where ``filled`` is the most slots of
  the remaining groups that the held tiles can fill (a natural tile fills a slot of its own
  kind, a Joker a slot of a group of 3 or more).
* Two racks sharing one holding: a pair of ways, one per rack, is filled from the one
  holding, so its tiles away is ``28 - exposed1 - exposed2 - filled`` over both racks'
  remaining groups together.

Three levels of plainness are here: :func:`fill_groups` (greedy: naturals to singles and
pairs first, then to big groups, then Jokers to what big groups still lack),
:func:`fill_matching` (a maximum bipartite matching of held tiles to slots, for small
cases), and the exhaustive searches (:func:`is_mah_jongg`, :func:`pair_fill_by_splits`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from twinrack.card.exposure import Exposure
from twinrack.card.model import Card, Group, Way
from twinrack.tiles import JOKER, NUM_KINDS

HAND = 14
NO_WAY = 99  # tiles away reported where the exposures fit no way of a line (as compiled.py)

Counts = Sequence[int]


# ---------------------------------------------------------------------------- exposures


def placements(way: Way, exposures: Sequence[Exposure], concealed: bool) -> list[list[Group]]:
    """Every way of placing the exposures on groups of ``way`` (each exposure on its own
    group of the same tile and size); for each placement, the groups left to fill."""
    if not exposures:
        return [list(way.groups)]
    if concealed:
        return []
    out: list[list[Group]] = []

    def place(k: int, free: list[Group]) -> None:
        if k == len(exposures):
            out.append(free)
            return
        x = exposures[k]
        for i, g in enumerate(free):
            if g.tile == x.tile and g.size == x.size:
                place(k + 1, free[:i] + free[i + 1:])

    place(0, list(way.groups))
    return out


# ---------------------------------------------------------------------------- filling


def fill_groups(groups: Sequence[Group], counts: Counts, jokers: int) -> int:
    """Most slots of ``groups`` that natural ``counts`` and ``jokers`` can fill.

    Naturals go first to singles and pairs (nothing else can fill them), then to the groups
    of 3 or more; Jokers then fill what those groups still lack.
    """
    left: dict[int, int] = {}  # naturals not yet placed, per kind touched
    filled = 0
    for g in groups:
        if g.size < 3:
            have = left.get(g.tile, counts[g.tile])
            take = min(have, g.size)
            left[g.tile] = have - take
            filled += take
    lacking = 0
    for g in groups:
        if g.size >= 3:
            have = left.get(g.tile, counts[g.tile])
            take = min(have, g.size)
            left[g.tile] = have - take
            filled += take
            lacking += g.size - take
    return filled + min(jokers, lacking)


def fill_matching(groups: Sequence[Group], counts: Counts, jokers: int) -> int:
    """The same number as :func:`fill_groups`, by a maximum bipartite matching of each held
    tile to one slot (Kuhn's augmenting paths). Slow: for small cases only."""
    slots: list[tuple[int, bool]] = []  # (tile, takes a Joker)
    for g in groups:
        slots.extend([(g.tile, g.size >= 3)] * g.size)
    held: list[int] = []
    for t in range(NUM_KINDS):
        if t != JOKER:
            held.extend([t] * int(counts[t]))
    held.extend([JOKER] * jokers)
    owner: list[int | None] = [None] * len(slots)

    def fits(tile: int, slot: int) -> bool:
        kind, big = slots[slot]
        return tile == kind or (tile == JOKER and big)

    def augment(i: int, seen: set[int]) -> bool:
        for s in range(len(slots)):
            if s in seen or not fits(held[i], s):
                continue
            seen.add(s)
            current = owner[s]
            if current is None or augment(current, seen):
                owner[s] = i
                return True
        return False

    return sum(1 for i in range(len(held)) if augment(i, set()))


def split_counts(counts: Counts) -> tuple[list[int], int]:
    """A 36-long holding as (natural counts with the Joker slot zeroed, Jokers)."""
    c = [int(n) for n in counts]
    jokers = c[JOKER]
    c[JOKER] = 0
    return c, jokers


# ---------------------------------------------------------------------------- one rack


def way_away(way: Way, counts: Counts, exposures: Sequence[Exposure] = (),
             concealed: bool = False, fill=fill_groups) -> int:
    """Tiles away from one way (``NO_WAY`` when the exposures cannot be placed on it)."""
    c, jokers = split_counts(counts)
    return _way_away(way, c, jokers, exposures, concealed, fill)


def _way_away(way: Way, c: list[int], jokers: int, exposures: Sequence[Exposure],
              concealed: bool, fill=fill_groups) -> int:
    exposed = sum(x.size for x in exposures)
    best = NO_WAY
    for rest in placements(way, exposures, concealed):
        best = min(best, HAND - exposed - fill(rest, c, jokers))
    return best


def card_way_aways(card: Card, counts: Counts, exposures: Sequence[Exposure] = ()) -> list[int]:
    """Tiles away from every way of the card, in card order."""
    c, jokers = split_counts(counts)
    return [_way_away(w, c, jokers, exposures, h.concealed) for h in card.hands for w in h.ways]


def card_hand_aways(card: Card, counts: Counts, exposures: Sequence[Exposure] = ()) -> list[int]:
    """Tiles away from every line (its best way), in card order."""
    c, jokers = split_counts(counts)
    return [min(_way_away(w, c, jokers, exposures, h.concealed) for w in h.ways)
            for h in card.hands]


def rack_alive(card: Card, exposures: Sequence[Exposure]) -> bool:
    return any(placements(w, exposures, h.concealed) for h in card.hands for w in h.ways)


def nearest(card: Card, counts: Counts,
            exposures: Sequence[Exposure] = ()) -> list[tuple[str, int]]:
    """(line id, away) of every line still possible, nearest first, then higher value,
    then card order."""
    aways = card_hand_aways(card, counts, exposures)
    rows = [(a, -h.value, i, h.id) for i, (h, a) in enumerate(zip(card.hands, aways,
                                                                   strict=True)) if a < NO_WAY]
    return [(hid, a) for a, _v, _i, hid in sorted(rows)]


# ---------------------------------------------------------------------------- Mah Jongg


def _fills_exactly(groups: Sequence[Group], left: list[int], jokers: int) -> bool:
    """Exhaustive: can these tiles be laid out as exactly these groups, every tile used,
    Jokers only in groups of 3 or more?"""
    if not groups:
        return jokers == 0 and not any(left)
    g, rest = groups[0], groups[1:]
    most = g.size if g.size >= 3 else 0
    for j in range(min(most, jokers) + 1):
        naturals = g.size - j
        if left[g.tile] >= naturals:
            left[g.tile] -= naturals
            ok = _fills_exactly(rest, left, jokers - j)
            left[g.tile] += naturals
            if ok:
                return True
    return False


def is_mah_jongg(way: Way, concealed_counts: Counts, exposures: Sequence[Exposure],
                 concealed_line: bool) -> bool:
    c, jokers = split_counts(concealed_counts)
    if sum(c) + jokers + sum(x.size for x in exposures) != HAND:
        return False
    return any(_fills_exactly(rest, list(c), jokers)
               for rest in placements(way, exposures, concealed_line))


def fillings(way: Way, counts: Counts, exposures: Sequence[Exposure] = (),
             concealed_line: bool = False, need: int | None = None) -> list[tuple[int, ...]]:
    """Every distinct set of tiles from ``counts`` that completes ``way`` with these
    exposures: for each placement of the exposures, each group left takes some Jokers (none
    in a single or a pair) and naturals for the rest; a set is kept when ``counts`` holds it
    (and it holds ``need``). Sorted sets, in sorted order."""
    found: set[tuple[int, ...]] = set()
    for rest in placements(way, exposures, concealed_line):
        choices = [range(g.size + 1) if g.size >= 3 else range(1) for g in rest]
        for jokers in itertools.product(*choices):
            tiles = [JOKER] * sum(jokers)
            for g, j in zip(rest, jokers, strict=True):
                tiles += [g.tile] * (g.size - j)
            if all(tiles.count(t) <= counts[t] for t in set(tiles)) and (
                    need is None or need in tiles):
                found.add(tuple(sorted(tiles)))
    return sorted(found)


def without_declared(card: Card) -> Card:
    """The card with its lines declared right after the deal left out (ids kept, lines
    renumbered): what a rack may aim for in play."""
    hands = tuple(replace(h, number=i)
                  for i, h in enumerate(h for h in card.hands if not h.declared))
    return Card(card.name, card.edition, hands, card.sha256 + ":without-declared")


def kept_ways(card: Card) -> list[int]:
    """The way indices (card order) of the lines not declared at the deal."""
    return [i for i, (h, _w) in enumerate((h, w) for h in card.hands for w in h.ways)
            if not h.declared]


@dataclass(frozen=True)
class OracleMatch:
    hand_id: str
    way: Way
    jokerless: bool
    closed: bool


def matches(card: Card, concealed_counts: Counts,
            exposures: Sequence[Exposure] = ()) -> list[OracleMatch]:
    """Every line the rack makes, in card order, with the first way (in card order) that
    makes it."""
    c, jokers = split_counts(concealed_counts)
    if sum(c) + jokers + sum(x.size for x in exposures) != HAND:
        return []
    jokerless = jokers == 0 and all(x.jokers == 0 for x in exposures)
    out: list[OracleMatch] = []
    for h in card.hands:
        for w in h.ways:
            if any(_fills_exactly(rest, list(c), jokers)
                   for rest in placements(w, exposures, h.concealed)):
                out.append(OracleMatch(h.id, w, jokerless, not exposures))
                break
    return out


# ---------------------------------------------------------------------------- two racks


def pair_away(w1: Way, w2: Way, counts: Counts, exposures1: Sequence[Exposure] = (),
              exposures2: Sequence[Exposure] = (), concealed1: bool = False,
              concealed2: bool = False, fill=fill_groups) -> int:
    """Tiles away of a pair of ways, one per rack, filled from one shared holding: the
    plain filling of both racks' remaining groups together."""
    c, jokers = split_counts(counts)
    exposed = sum(x.size for x in exposures1) + sum(x.size for x in exposures2)
    best = NO_WAY
    for rest1 in placements(w1, exposures1, concealed1):
        for rest2 in placements(w2, exposures2, concealed2):
            best = min(best, 2 * HAND - exposed - fill(rest1 + rest2, c, jokers))
    return best


def pair_fill_by_splits(w1: Way, w2: Way, counts: Counts) -> int:
    """Most tiles a pair of ways (no exposures) can hold, by trying every split of the
    holding between the two racks. A tile kind that only one way uses goes wholly to that
    rack (holding more never fills less); kinds both use, and the Jokers, are split every
    possible way."""
    c, jokers = split_counts(counts)
    used1 = {g.tile for g in w1.groups}
    used2 = {g.tile for g in w2.groups}
    shared = sorted(t for t in used1 & used2 if c[t])
    base1 = [c[t] if t in used1 and t not in used2 else 0 for t in range(NUM_KINDS)]
    base2 = [c[t] if t in used2 and t not in used1 else 0 for t in range(NUM_KINDS)]
    best = 0
    for split in itertools.product(*[range(c[t] + 1) for t in shared]):
        c1, c2 = list(base1), list(base2)
        for t, k in zip(shared, split, strict=True):
            c1[t] = k
            c2[t] = c[t] - k
        for j1 in range(jokers + 1):
            best = max(best, fill_groups(w1.groups, c1, j1)
                       + fill_groups(w2.groups, c2, jokers - j1))
    return best


def same_demand(exposures1: Sequence[Exposure], exposures2: Sequence[Exposure]) -> bool:
    """Racks whose exposures have the same tiles and sizes are interchangeable: their line
    pairs are unordered."""
    return (sorted((x.tile, x.size) for x in exposures1)
            == sorted((x.tile, x.size) for x in exposures2))


@dataclass(frozen=True)
class OraclePair:
    ids: tuple[str, str]
    hands: tuple[int, int]
    away: int
    value: int
    ways: tuple[int, int]  # global way indices (card order), the first pair reaching away


def _global_ways(card: Card) -> list[tuple[int, Way]]:
    return [(h.number, w) for h in card.hands for w in h.ways]


def all_pair_aways(card: Card, counts: Counts, exposures1: Sequence[Exposure] = (),
                   exposures2: Sequence[Exposure] = ()) -> dict[tuple[int, int], int]:
    """Tiles away of every pair of ways (global way indices), every pair tried. Pairs a
    rack cannot make (exposures that do not fit) are left out."""
    ways = _global_ways(card)
    out: dict[tuple[int, int], int] = {}
    for i, (h1, w1) in enumerate(ways):
        for j, (h2, w2) in enumerate(ways):
            a = pair_away(w1, w2, counts, exposures1, exposures2,
                          card.hands[h1].concealed, card.hands[h2].concealed)
            if a < NO_WAY:
                out[(i, j)] = a
    return out


class PrunedPairs:
    """Tiles away of way pairs, scored only where they can be at most a ceiling.

    Sharing a holding never helps a rack: a pair's tiles away is at least the sum of what
    each rack needs with the whole holding to itself, so pairs whose sum is above the
    ceiling are skipped without being scored.
    """

    def __init__(self, card: Card, counts: Counts, exposures1: Sequence[Exposure] = (),
                 exposures2: Sequence[Exposure] = ()) -> None:
        self.card = card
        self.counts = counts
        self.exposures1 = exposures1
        self.exposures2 = exposures2
        self.ways = _global_ways(card)
        self.a1 = [way_away(w, counts, exposures1, card.hands[h].concealed)
                   for h, w in self.ways]
        self.a2 = [way_away(w, counts, exposures2, card.hands[h].concealed)
                   for h, w in self.ways]
        self.order1 = sorted(range(len(self.ways)), key=lambda i: self.a1[i])
        self.order2 = sorted(range(len(self.ways)), key=lambda j: self.a2[j])
        self.memo: dict[tuple[int, int], int] = {}

    @property
    def floor(self) -> int:
        """The least the sum of the two racks' own tiles away can be."""
        return self.a1[self.order1[0]] + self.a2[self.order2[0]]

    def upto(self, ceiling: int) -> dict[tuple[int, int], int]:
        """Every way pair whose tiles away is at most ``ceiling``."""
        out: dict[tuple[int, int], int] = {}
        for i in self.order1:
            if self.a1[i] >= NO_WAY or self.a1[i] + self.a2[self.order2[0]] > ceiling:
                break
            for j in self.order2:
                if self.a2[j] >= NO_WAY or self.a1[i] + self.a2[j] > ceiling:
                    break
                a = self.memo.get((i, j))
                if a is None:
                    (h1, w1), (h2, w2) = self.ways[i], self.ways[j]
                    a = pair_away(w1, w2, self.counts, self.exposures1, self.exposures2,
                                  self.card.hands[h1].concealed, self.card.hands[h2].concealed)
                    self.memo[(i, j)] = a
                if a <= ceiling:
                    out[(i, j)] = a
        return out


def rank_pairs(card: Card, pair_aways: dict[tuple[int, int], int],
               symmetric: bool) -> list[OraclePair]:
    """Line pairs from way-pair aways: each line pair's best way pair (the first in card
    order on a tie), ranked nearest first, then higher total value, then card order."""
    ways = _global_ways(card)
    best: dict[tuple[int, int], tuple[int, int, int]] = {}
    for (i, j), a in pair_aways.items():
        if symmetric and i > j:
            continue  # the mirror pair (j, i) has the same tiles away
        key = (ways[i][0], ways[j][0])
        old = best.get(key)
        if old is None or (a, i, j) < old:
            best[key] = (a, i, j)
    rows = []
    for (h1, h2), (a, i, j) in best.items():
        value = card.hands[h1].value + card.hands[h2].value
        rows.append((a, -value, h1, h2, i, j))
    rows.sort()
    return [OraclePair((card.hands[h1].id, card.hands[h2].id), (h1, h2), a, -v, (i, j))
            for a, v, h1, h2, i, j in rows]


def best_pairs(card: Card, counts: Counts, exposures1: Sequence[Exposure] = (),
               exposures2: Sequence[Exposure] = (), top: int = 10, *,
               exhaustive: bool = False) -> list[OraclePair]:
    """The ``top`` best line pairs. ``exhaustive`` scores every way pair; otherwise the
    ceiling is raised until ``top`` line pairs lie at or under it (then every line pair
    at or under the ceiling has its true best, and every other one is above it)."""
    symmetric = same_demand(exposures1, exposures2)
    if exhaustive:
        return rank_pairs(card, all_pair_aways(card, counts, exposures1, exposures2),
                          symmetric)[:top]
    pruned = PrunedPairs(card, counts, exposures1, exposures2)
    if pruned.floor >= NO_WAY:
        return []
    ceiling = pruned.floor
    while True:
        ranked = rank_pairs(card, pruned.upto(ceiling), symmetric)
        if len(ranked) >= top or ceiling >= 2 * HAND:
            return ranked[:top]
        ceiling += 1


# ---------------------------------------------------------------------------- discards


@dataclass(frozen=True)
class OracleDiscard:
    tile: int
    away: int
    value: int


def best_discards(card: Card, counts: Counts, exposures1: Sequence[Exposure] = (),
                  exposures2: Sequence[Exposure] = (), *,
                  exhaustive: bool = False) -> list[OracleDiscard]:
    """For every kind of concealed tile held: discard one, then the best pair tiles away
    and the best total value of a line pair at that tiles away."""
    out: list[OracleDiscard] = []
    for t in range(NUM_KINDS):
        if not counts[t]:
            continue
        after = [int(n) for n in counts]
        after[t] -= 1
        if exhaustive:
            aways = all_pair_aways(card, after, exposures1, exposures2)
        else:
            pruned = PrunedPairs(card, after, exposures1, exposures2)
            aways = {}
            ceiling = pruned.floor
            while not aways and ceiling <= 2 * HAND:
                aways = pruned.upto(ceiling)
                ceiling += 1
        if not aways:
            out.append(OracleDiscard(t, NO_WAY, 0))
            continue
        ways = _global_ways(card)
        low = min(aways.values())
        value = max(card.hands[ways[i][0]].value + card.hands[ways[j][0]].value
                    for (i, j), a in aways.items() if a == low)
        out.append(OracleDiscard(t, low, value))
    return out
