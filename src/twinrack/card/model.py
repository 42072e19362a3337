"""What a card is once loaded: lines (hands) and the concrete ways to make each one."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from twinrack.tiles import CANONICAL, FLOWER, NUM_KINDS


@dataclass(frozen=True, order=True)
class Group:
    """One group of a concrete way: ``size`` copies of one tile (Jokers allowed when >= 3)."""

    tile: int
    size: int

    @property
    def takes_jokers(self) -> bool:
        return self.size >= 3

    def __str__(self) -> str:
        return " ".join([CANONICAL[self.tile]] * self.size)


@dataclass(frozen=True)
class Way:
    """One concrete way of making a line: its groups, in canonical (sorted) order."""

    groups: tuple[Group, ...]

    @property
    def size(self) -> int:
        return sum(g.size for g in self.groups)

    def natural_demand(self) -> list[int]:
        """Per tile kind, how many tiles of the singles and pairs must be natural."""
        vec = [0] * NUM_KINDS
        for g in self.groups:
            if not g.takes_jokers:
                vec[g.tile] += g.size
        return vec

    def joker_demand(self) -> list[int]:
        """Per tile kind, how many tiles sit in groups of 3 or more (Jokers may fill them)."""
        vec = [0] * NUM_KINDS
        for g in self.groups:
            if g.takes_jokers:
                vec[g.tile] += g.size
        return vec

    def group_counter(self) -> Counter[tuple[int, int]]:
        return Counter((g.tile, g.size) for g in self.groups)

    def tiles(self) -> list[int]:
        return [g.tile for g in self.groups for _ in range(g.size)]

    def __str__(self) -> str:
        return "  ".join(str(g) for g in self.groups)


@dataclass(frozen=True)
class Hand:
    """One line of the card."""

    id: str
    section: str
    pattern: str
    value: int
    ways: tuple[Way, ...]
    number: int  # position on the card, from 0
    concealed: bool = False
    star: bool = False
    declared: bool = False
    suits: str = "distinct"
    note: str = ""
    x: tuple[int, ...] | None = None
    y: tuple[int, ...] | None = None

    @property
    def singles_and_pairs(self) -> bool:
        """A hand with no group of 3 or more: never doubled for being jokerless."""
        return all(g.size < 3 for g in self.ways[0].groups)

    @property
    def quint(self) -> bool:
        """A hand with a group of 5 or more (Royale: not doubled when jokerless)."""
        return any(g.size >= 5 for g in self.ways[0].groups)

    @property
    def uses_flowers(self) -> bool:
        return any(g.tile == FLOWER for g in self.ways[0].groups)


@dataclass(frozen=True)
class Card:
    """A loaded card: its name, edition, lines in card order and the sha256 of its source."""

    name: str
    edition: str
    hands: tuple[Hand, ...]
    sha256: str
    source: str = field(default="", repr=False, compare=False)
    path: str = field(default="", compare=False)

    def hand(self, hand_id: str) -> Hand:
        for h in self.hands:
            if h.id == hand_id:
                return h
        raise KeyError(hand_id)

    @property
    def sections(self) -> list[str]:
        seen: list[str] = []
        for h in self.hands:
            if h.section not in seen:
                seen.append(h.section)
        return seen

    @property
    def lowest_value(self) -> int:
        return min(h.value for h in self.hands)

    @property
    def way_count(self) -> int:
        return sum(len(h.ways) for h in self.hands)
