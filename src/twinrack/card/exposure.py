"""An exposure: a group of identical tiles put on a rack, Jokers standing in for some."""

from __future__ import annotations

from dataclasses import dataclass

from twinrack.errors import NotationError
from twinrack.tiles import CANONICAL, JOKER, parse_tiles


@dataclass(frozen=True, order=True)
class Exposure:
    """``size`` tiles standing for ``tile``, of which ``jokers`` are Jokers."""

    tile: int
    size: int
    jokers: int = 0

    def __post_init__(self) -> None:
        if self.tile == JOKER:
            raise NotationError("bad_exposure", "an exposure needs at least one natural tile")
        if not 0 <= self.jokers < self.size:
            raise NotationError("bad_exposure", "an exposure needs at least one natural tile")
        if self.jokers and self.size < 3:
            raise NotationError("joker_in_pair",
                                "Jokers may stand only in groups of 3 or more, never in a "
                                "single or a pair")

    @property
    def naturals(self) -> int:
        return self.size - self.jokers

    def tiles(self) -> list[int]:
        return [self.tile] * self.naturals + [JOKER] * self.jokers

    @classmethod
    def from_tiles(cls, tiles: list[int]) -> Exposure:
        naturals = {t for t in tiles if t != JOKER}
        if not naturals:
            raise NotationError("bad_exposure", "an exposure needs at least one natural tile")
        if len(naturals) > 1:
            names = " ".join(CANONICAL[t] for t in sorted(naturals))
            raise NotationError("bad_exposure",
                                f"an exposure holds one kind of tile (Jokers aside), not {names}")
        jokers = sum(1 for t in tiles if t == JOKER)
        return cls(naturals.pop(), len(tiles), jokers)

    @classmethod
    def parse(cls, text: str) -> Exposure:
        """Parse ``"6C 6C J"``."""
        tiles = parse_tiles(text)
        if not tiles:
            raise NotationError("bad_exposure", "an exposure cannot be empty")
        return cls.from_tiles(tiles)

    def __str__(self) -> str:
        return " ".join(CANONICAL[t] for t in self.tiles())
