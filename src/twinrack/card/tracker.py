"""Tiles away from every way of a card, kept up to date as single tiles come and go."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from twinrack.card.demand import (
    HAND_SIZE,
    IMPOSSIBLE,
    CountsLike,
    IntArray,
    SmallArray,
    split_holding,
)
from twinrack.card.exposure import Exposure
from twinrack.tiles import JOKER, NUM_KINDS

if TYPE_CHECKING:
    from twinrack.card.compiled import CompiledCard


class AwayTracker:
    """Tiles away from every way of the card, kept up to date as single tiles come and go.

    Adding or removing one tile touches only the entries of that tile kind.
    """

    def __init__(self, compiled: CompiledCard, counts: CountsLike,
                 exposures: Sequence[Exposure] = ()) -> None:
        self.cc = compiled
        self.c, self.jokers = split_holding(counts)
        self.exposures = tuple(exposures)
        self.rack = compiled.rack(self.exposures)
        self.exposed = self.rack.exposed
        self.fit = self.rack.fit
        u, v = compiled.uv(self.rack, self.c)
        self.u = u.astype(np.int64)
        self.v = v.astype(np.int64)

    def counts(self) -> SmallArray:
        """The holding now, as a 36-long count vector (Jokers included)."""
        out = self.c[:NUM_KINDS].copy()
        out[JOKER] = self.jokers
        return out

    def _aways(self, u: IntArray, v: IntArray, jokers: int) -> IntArray:
        away = (HAND_SIZE - self.exposed) - np.minimum(u + jokers, v)
        if self.rack.restricted:
            away[self.rack.unfit] = IMPOSSIBLE
        return away

    def aways(self) -> IntArray:
        return self._aways(self.u, self.v, self.jokers)

    def _steps(self, tile: int, step: int) -> tuple[IntArray, IntArray, IntArray]:
        """The ways touched by one more (step +1) or one fewer (-1) ``tile``, and by how
        much their U and V change."""
        if not 0 <= tile < JOKER:
            raise ValueError(f"no tile kind {tile}")
        if step < 0 and self.c[tile] <= 0:
            raise ValueError("no such tile to remove")
        entries = self.cc.entries_of_tile[tile]
        # one more natural fits a slot when fewer than the demand were held before it
        below = int(self.c[tile]) if step > 0 else int(self.c[tile]) - 1
        du = (below < self.rack.entry_tot[entries]).astype(np.int64)
        dv = (below < self.rack.entry_nat[entries]).astype(np.int64)
        return self.cc.entry_way[entries], du * step, dv * step

    def add(self, tile: int) -> None:
        self._change(tile, +1)

    def remove(self, tile: int) -> None:
        self._change(tile, -1)

    def _change(self, tile: int, step: int) -> None:
        if tile == JOKER:
            if self.jokers + step < 0:
                raise ValueError("no Joker to remove")
            self.jokers += step
            return
        ways, du, dv = self._steps(tile, step)
        self.u[ways] += du
        self.v[ways] += dv
        self.c[tile] += step

    def aways_without(self, tile: int) -> IntArray:
        """Tiles away from every way if one ``tile`` left the holding (a discard),
        without changing the tracker."""
        if tile == JOKER:
            if self.jokers <= 0:
                raise ValueError("no Joker to remove")
            return self._aways(self.u, self.v, self.jokers - 1)
        ways, du, dv = self._steps(tile, -1)
        u = self.u.copy()
        v = self.v.copy()
        u[ways] += du
        v[ways] += dv
        return self._aways(u, v, self.jokers)
