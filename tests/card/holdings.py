"""Seeded random holdings, racks and exposures for the card tests and the benchmark.

Every holding is drawn from a real tile set (152 tiles), so no tile is held more often
than the set has it. "Near" holdings start from the tiles of one or two concrete ways and
then lose, swap and add tiles, so that small tiles-away values and Mah Jonggs come up often.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass

from twinrack.card import Card, parse_card
from twinrack.card.exposure import Exposure
from twinrack.card.model import Way
from twinrack.tiles import JOKER, NUM_KINDS, ONE_SET

#: a small card of every kind of line (48 ways): pairs of it can be scored exhaustively
MINI_CARD_TOML = """\
name = "Mini test card"
edition = "test"

[[hand]]
section = "Kongs"
pattern = "FF 1111a 2222a 3333b"
value = 25

[[hand]]
section = "Kongs"
pattern = "FF XXXX0a XXXX1a NNNN"
value = 30
x = [1, 4, 7]
concealed = true

[[hand]]
section = "Pairs"
pattern = "NN EE WW SS 11a 22a 33a"
value = 50

[[hand]]
section = "Year"
pattern = "2026a DDDDa 2026b EE"
value = 35

[[hand]]
section = "Quints"
pattern = "FF 2222a 44444b 666c"
value = 40

[[hand]]
section = "Any"
pattern = "FFF 2222a 3333b 555a"
value = 25
suits = "any"

[[hand]]
section = "Honors"
pattern = "NNN EEE WWW SSS DDa"
value = 30
concealed = true

[[hand]]
section = "Runs"
pattern = "XXX0a XXX1a XXX2a XXX3a WW"
value = 25
x = [1, 5]
"""


#: the mini card with two lines declared right after the deal among its other lines (one
#: of singles, one with groups that take Jokers), for the card limited to the other lines
DECLARED_LINES_TOML = """
[[hand]]
section = "Declared"
pattern = "NEWS 1357a 2468b FF"
value = 75
declared = true

[[hand]]
section = "Declared"
pattern = "FFF 1111a 2222a 333a"
value = 60
declared = true
"""


def mini_card() -> Card:
    return parse_card(MINI_CARD_TOML, "mini.toml")


def mini_card_with_declared() -> Card:
    """The mini card with :data:`DECLARED_LINES_TOML` after its second line."""
    at = MINI_CARD_TOML.index('[[hand]]\nsection = "Pairs"')
    text = MINI_CARD_TOML[:at] + DECLARED_LINES_TOML.lstrip() + "\n" + MINI_CARD_TOML[at:]
    return parse_card(text, "mini-declared.toml")


def grown_card(card: Card, times: int) -> Card:
    """``card`` with its lines ``times`` over: each copy in sections of its own (``r2``,
    ``r3``, ...), the lines numbered on. Built directly, not loaded: a card of more than
    3,000 ways (the practice card four times) is beyond what the loader accepts, and is
    used only to see how the analysis grows with a card."""
    hands = []
    for k in range(1, times + 1):
        tag = "" if k == 1 else f" r{k}"
        for h in card.hands:
            hands.append(dataclasses.replace(h, id=h.id + tag, section=h.section + tag,
                                             number=len(hands)))
    return dataclasses.replace(card, name=f"{card.name} x{times}", hands=tuple(hands),
                               sha256=f"x{times}:{card.sha256}")


def vector(tiles: list[int]) -> list[int]:
    out = [0] * NUM_KINDS
    for t in tiles:
        out[t] += 1
    return out


class Wall:
    """The tiles still available to deal from (one set unless told otherwise)."""

    def __init__(self, counts: tuple[int, ...] = ONE_SET) -> None:
        self.left = Counter({t: n for t, n in enumerate(counts) if n})

    def take(self, tile: int) -> bool:
        if self.left[tile] > 0:
            self.left[tile] -= 1
            return True
        return False

    def draw(self, rng: random.Random, n: int) -> list[int]:
        pool = sorted(self.left.elements())
        picked = rng.sample(pool, min(n, len(pool)))
        for t in picked:
            self.left[t] -= 1
        return picked


def random_holding(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles drawn from a shuffled 152-tile wall, as a 36-long count vector."""
    return vector(Wall().draw(rng, size))


def _tiles_toward(rng: random.Random, wall: Wall, groups: list[tuple[int, int]],
                  keep: float, jokers: float) -> list[int]:
    """Tiles for some groups: most of them natural, some Jokers in big groups, some
    missing."""
    out: list[int] = []
    for tile, size in groups:
        for _ in range(size):
            r = rng.random()
            if r < jokers and size >= 3 and wall.take(JOKER):
                out.append(JOKER)
            elif r < jokers + keep and wall.take(tile):
                out.append(tile)
    return out


def near_holding(rng: random.Random, ways: list[Way], size: int, *, keep: float = 0.8,
                 jokers: float = 0.1, wall: Wall | None = None) -> list[int]:
    """A holding of ``size`` tiles made mostly of the tiles of ``ways``."""
    wall = wall or Wall()
    tiles = _tiles_toward(rng, wall, [(g.tile, g.size) for w in ways for g in w.groups],
                          keep, jokers)
    rng.shuffle(tiles)
    tiles = tiles[:size]
    tiles += wall.draw(rng, size - len(tiles))
    return vector(tiles)


def exposure_of(rng: random.Random, wall: Wall, tile: int, size: int) -> Exposure | None:
    """An exposure of ``size`` tiles standing for ``tile``, with a few Jokers if there are
    any left; None if the wall cannot supply it."""
    naturals = min(size, wall.left[tile])
    if naturals == 0:
        return None
    want_jokers = rng.randint(0, size - 1) if size >= 3 and rng.random() < 0.4 else 0
    jokers = max(size - naturals, want_jokers)
    if jokers and (size < 3 or wall.left[JOKER] < jokers):
        if naturals < size:
            return None
        jokers = 0
    for _ in range(size - jokers):
        wall.take(tile)
    for _ in range(jokers):
        wall.take(JOKER)
    return Exposure(tile, size, jokers)


@dataclass
class Rack:
    """One rack's exposures and the concealed tiles that go with them (36-long counts)."""

    exposures: list[Exposure]
    counts: list[int]

    @property
    def size(self) -> int:
        return sum(self.counts) + sum(x.size for x in self.exposures)


def exposures_toward(rng: random.Random, wall: Wall, way: Way,
                     most: int = 2) -> tuple[list[Exposure], list[tuple[int, int]]]:
    """Expose some of a way's groups of 3 or more; also the groups left to fill."""
    groups = [(g.tile, g.size) for g in way.groups]
    big = [i for i, (_t, s) in enumerate(groups) if s >= 3]
    rng.shuffle(big)
    exposures: list[Exposure] = []
    used: set[int] = set()
    for i in big[:rng.randint(0, min(most, len(big)))]:
        x = exposure_of(rng, wall, *groups[i])
        if x is not None:
            exposures.append(x)
            used.add(i)
    return exposures, [g for i, g in enumerate(groups) if i not in used]


def junk_exposure(rng: random.Random, wall: Wall) -> Exposure | None:
    """An exposure of a random tile and size (often fitting no line), or a pair."""
    tile = rng.randrange(JOKER)
    size = rng.choice([2, 3, 3, 4, 4, 5, 6])
    return exposure_of(rng, wall, tile, size)


def random_rack(rng: random.Random, card: Card, *, size: int | None = None,
                junk: float = 0.15) -> Rack:
    """A rack with exposures taken from a way of the card (or junk ones) and concealed
    tiles near that way; ``size`` tiles in all (default: 14 less a few)."""
    wall = Wall()
    hand = rng.choice(card.hands)
    way = rng.choice(hand.ways)
    exposures, rest = exposures_toward(rng, wall, way)
    if rng.random() < junk:
        x = junk_exposure(rng, wall)
        if x is not None:
            exposures.append(x)
    exposed = sum(x.size for x in exposures)
    if exposed > 14:
        exposures, exposed = exposures[:1], exposures[0].size
    total = size if size is not None else rng.randint(max(exposed, 1), 14)
    concealed = max(total - exposed, 0)
    tiles = _tiles_toward(rng, wall, rest, 0.8, 0.1)
    rng.shuffle(tiles)
    tiles = tiles[:concealed]
    tiles += wall.draw(rng, concealed - len(tiles))
    return Rack(exposures, vector(tiles))


def mah_jongg_rack(rng: random.Random, card: Card) -> Rack:
    """A 14-tile rack that is often a Mah Jongg: one way's tiles, some exposed, some Jokers
    in big groups, and now and then one tile swapped for another."""
    wall = Wall()
    hand = rng.choice(card.hands)
    way = rng.choice(hand.ways)
    if hand.concealed and rng.random() < 0.7:
        exposures, rest = [], [(g.tile, g.size) for g in way.groups]
    else:
        exposures, rest = exposures_toward(rng, wall, way)
    tiles: list[int] = []
    for tile, size in rest:
        for _ in range(size):
            if size >= 3 and rng.random() < 0.2 and wall.take(JOKER):
                tiles.append(JOKER)
            elif wall.take(tile):
                tiles.append(tile)
            elif size >= 3 and wall.take(JOKER):
                tiles.append(JOKER)
    if rng.random() < 0.25 and tiles:
        tiles.pop(rng.randrange(len(tiles)))
    missing = 14 - len(tiles) - sum(x.size for x in exposures)
    tiles += wall.draw(rng, missing)
    return Rack(exposures, vector(tiles))


@dataclass
class TwoRacks:
    """A two-rack holding: the shared concealed tiles and each rack's exposures."""

    counts: list[int]
    exposures1: list[Exposure]
    exposures2: list[Exposure]

    @property
    def size(self) -> int:
        return (sum(self.counts) + sum(x.size for x in self.exposures1)
                + sum(x.size for x in self.exposures2))


def two_racks(rng: random.Random, card: Card, *, size: int = 28, expose: float = 0.4,
              near: float = 0.7) -> TwoRacks:
    """A two-rack holding of ``size`` tiles in all (27 or 28): near a pair of ways, or just
    drawn from the wall; each rack sometimes with exposures from its own way."""
    wall = Wall()
    h1, h2 = rng.choice(card.hands), rng.choice(card.hands)
    w1, w2 = rng.choice(h1.ways), rng.choice(h2.ways)
    x1: list[Exposure] = []
    x2: list[Exposure] = []
    rest = [(g.tile, g.size) for g in w1.groups] + [(g.tile, g.size) for g in w2.groups]
    if rng.random() < expose:
        x1, rest1 = exposures_toward(rng, wall, w1, most=1)
        x2, rest2 = exposures_toward(rng, wall, w2, most=1)
        if rng.random() < 0.2:  # both racks the same exposures: the symmetric case
            x2 = list(x1)
            for x in x2:
                for t in x.tiles():
                    wall.take(t)
        rest = rest1 + rest2
    concealed = size - sum(x.size for x in x1) - sum(x.size for x in x2)
    tiles = _tiles_toward(rng, wall, rest, 0.75, 0.1) if rng.random() < near else []
    rng.shuffle(tiles)
    tiles = tiles[:concealed]
    tiles += wall.draw(rng, concealed - len(tiles))
    return TwoRacks(vector(tiles), x1, x2)
