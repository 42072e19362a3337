"""Tiles of the American Mah Jongg set, their text notation and count vectors.

A tile kind is a small integer (its *index*) so that a holding is a vector of counts:

====== ============ ==========================
index  canonical    kind
====== ============ ==========================
0-8    ``1B``-``9B`` Bams 1-9
9-17   ``1C``-``9C`` Craks 1-9
18-26  ``1D``-``9D`` Dots 1-9
27-30  ``N E W S``  winds
31-33  ``R G 0``    Red, Green, White dragons
34     ``F``        flower
35     ``J``        joker
====== ============ ==========================

Text notation (docs/card-language.md): one token per tile, separated by white
space, case-insensitive on input, canonical form on output.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from twinrack.errors import NotationError

SUITS = ("B", "C", "D")
SUIT_NAMES = {"B": "Bams", "C": "Craks", "D": "Dots"}
WINDS = ("N", "E", "W", "S")
DRAGONS = ("R", "G", "0")
#: the dragon that belongs to each suit: Bams-Green, Craks-Red, Dots-White
SUIT_DRAGON = {"B": "G", "C": "R", "D": "0"}

NUM_KINDS = 36
FLOWER = 34
JOKER = 35

CANONICAL: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + WINDS + DRAGONS + ("F", "J")
)
INDEX: dict[str, int] = {name: i for i, name in enumerate(CANONICAL)}

LONG_NAMES: tuple[str, ...] = (
    *(f"{n} {SUIT_NAMES[s][:-1]}" for s in SUITS for n in range(1, 10)),
    "North", "East", "West", "South", "Red Dragon", "Green Dragon", "White Dragon",
    "Flower", "Joker",
)


def _aliases() -> dict[str, int]:
    table: dict[str, int] = {}
    suit_words = {"B": ("b", "bam", "bams", "bamboo"), "C": ("c", "crak", "craks", "crack",
                                                        "character"), "D": ("d", "dot", "dots")}
    for s, words in suit_words.items():
        for n in range(1, 10):
            for w in words:
                table[f"{n}{w}"] = INDEX[f"{n}{s}"]
    for w, name in (("north", "N"), ("east", "E"), ("west", "W"), ("south", "S")):
        table[w] = INDEX[name]
        table[name.lower()] = INDEX[name]
    for words, name in (
        (("r", "rd", "red"), "R"),
        (("g", "gd", "green"), "G"),
        (("0", "wd", "white", "soap"), "0"),
        (("f", "flower"), "F"),
        (("j", "joker"), "J"),
    ):
        for w in words:
            table[w] = INDEX[name]
    return table


_ALIASES = _aliases()


def tile_index(token: str) -> int:
    """The index of one tile written in notation (``"6C"``, ``"6crak"``, ``"soap"``)."""
    try:
        return _ALIASES[token.strip().lower()]
    except KeyError:
        raise NotationError(
            "unknown_tile",
            f"unknown tile '{token}': expected 1B-9B, 1C-9C, 1D-9D, N E W S, R G 0, F or J",
        ) from None


def tile_name(index: int) -> str:
    """The canonical notation of a tile index."""
    return CANONICAL[index]


def is_suited(index: int) -> bool:
    return 0 <= index < 27


def suit_of(index: int) -> str | None:
    return SUITS[index // 9] if is_suited(index) else None


def number_of(index: int) -> int | None:
    return index % 9 + 1 if is_suited(index) else None


def suited(number: int, suit: str) -> int:
    """The index of a numbered tile: ``suited(6, "C") == INDEX["6C"]``."""
    return SUITS.index(suit) * 9 + number - 1


def parse_tiles(text: str) -> list[int]:
    """Parse a space-separated tile string into tile indices, in order.

    The error names the offending token and its 1-based column in ``text``.
    """
    tiles: list[int] = []
    pos = 0
    for token in text.split():
        col = text.index(token, pos)
        pos = col + len(token)
        try:
            tiles.append(tile_index(token))
        except NotationError as err:
            raise NotationError(err.code, f"{err.message} (column {col + 1})",
                                column=col + 1) from None
    return tiles


def format_tiles(tiles: Iterable[int]) -> str:
    """Canonical notation of a sequence of tiles: ``"2B 2B J"``."""
    return " ".join(CANONICAL[t] for t in tiles)


Counts = npt.NDArray[np.int16]


def counts_of(tiles: Iterable[int]) -> Counts:
    """Count vector (length 36) of a sequence of tile indices."""
    vec = np.zeros(NUM_KINDS, dtype=np.int16)
    for t in tiles:
        vec[t] += 1
    return vec


def tiles_of(counts: Sequence[int] | Counts) -> list[int]:
    """Sorted tile indices of a count vector (the inverse of :func:`counts_of`)."""
    out: list[int] = []
    for t, n in enumerate(counts):
        out.extend([t] * int(n))
    return out


def sort_tiles(tiles: Iterable[int]) -> list[int]:
    return sorted(tiles)


# ---------------------------------------------------------------- tile sets of the variants

#: copies of each kind in one American set: 4 of each ordinary tile, 8 Flowers, 8 Jokers
ONE_SET: tuple[int, ...] = tuple(8 if i in (FLOWER, JOKER) else 4 for i in range(NUM_KINDS))


class Variant(StrEnum):
    """The three ways to play Siamese Mah Jongg, and the standard American game they come
    from (rules section 2)."""

    SIAMESE = "siamese"
    ROYALE = "royale"
    IMPERIAL = "imperial"
    AMERICAN = "american"


@dataclass(frozen=True)
class TileSet:
    """How many of each tile kind is in play."""

    sets: int
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.counts)

    def vector(self) -> Counts:
        return np.array(self.counts, dtype=np.int16)

    def wall(self) -> list[int]:
        """Every tile in play, in index order (to be shuffled)."""
        return tiles_of(self.counts)


def tile_set(variant: Variant | str, players: int) -> TileSet:
    """The tiles in play for a variant and number of players (rules section 2)."""
    v = Variant(variant)
    if v is Variant.SIAMESE:
        if players != 2:
            raise ValueError("Siamese is played by 2 players")
        sets = 1
    elif v is Variant.ROYALE:
        if players not in (3, 4):
            raise ValueError("Royale is played by 3 or 4 players")
        sets = 2
    elif v is Variant.AMERICAN:
        if players not in (3, 4):
            raise ValueError("American Mah Jongg is played by 3 or 4 players")
        sets = 1
    else:
        if players not in (2, 3, 4):
            raise ValueError("Imperial is played by 2, 3 or 4 players")
        sets = 2 if players == 2 else 3
    counts = [c * sets for c in ONE_SET]
    if v is Variant.ROYALE and players == 3:
        counts[JOKER] -= 4
        counts[FLOWER] -= 4
    return TileSet(sets=sets, counts=tuple(counts))


#: racks per player of each variant (by its name: a look-up is asked once per view)
_RACKS: dict[str, int] = {v.value: {Variant.IMPERIAL: 4, Variant.AMERICAN: 1}.get(v, 2)
                          for v in Variant}


def racks_for(variant: Variant | str) -> int:
    """Racks (hands) per player: 4 in Imperial, 1 in the American game, 2 otherwise."""
    found = _RACKS.get(variant)
    return found if found is not None else _RACKS[Variant(variant)]  # ValueError if none
