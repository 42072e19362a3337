"""What the ways of a card still ask of one rack once its exposures are placed.

Shared by the compiled card (card/compiled.py), its pair search (card/pairs.py) and its
tracker (card/tracker.py): the array types, the holding as counts, and :class:`RackDemand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import numpy.typing as npt

from twinrack.card.exposure import Exposure
from twinrack.tiles import JOKER, NUM_KINDS

IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int16]
TinyArray = npt.NDArray[np.int8]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]
CountsLike = Sequence[int] | npt.NDArray[np.integer]

HAND_SIZE = 14
#: tiles away reported for a way the rack can no longer make (an exposure does not fit it)
IMPOSSIBLE = 99
#: columns of a demand row: the tile kinds plus a zero pad
COLS = NUM_KINDS + 1

ExposureKey = tuple[tuple[int, int], ...]


def exposure_key(exposures: Iterable[Exposure]) -> ExposureKey:
    """What matters of a rack's exposures for matching: their tiles and sizes."""
    return tuple(sorted((x.tile, x.size) for x in exposures))


def split_holding(counts: CountsLike) -> tuple[SmallArray, int]:
    """Split a 36-long count vector into natural counts (Jokers zeroed, plus a pad) and J."""
    if isinstance(counts, (tuple, list)):  # the referee's holdings: read without numpy's
        # type discovery, which costs more than the rest of this put together
        if len(counts) != NUM_KINDS:
            raise ValueError(f"a holding is a vector of {NUM_KINDS} counts, "
                             f"not {(len(counts),)}")
        if min(counts) < 0:
            raise ValueError("a holding cannot hold a negative number of tiles")
        c = np.fromiter(chain(counts, (0,)), np.int16, COLS)
        c[JOKER] = 0
        return c, int(counts[JOKER])
    arr = np.asarray(counts)
    if arr.shape != (NUM_KINDS,):
        raise ValueError(f"a holding is a vector of {NUM_KINDS} counts, not {arr.shape}")
    c = np.zeros(COLS, dtype=np.int16)
    c[:NUM_KINDS] = arr
    if (c < 0).any():
        raise ValueError("a holding cannot hold a negative number of tiles")
    jokers = int(c[JOKER])
    c[JOKER] = 0
    return c, jokers


def holding_vector(counts: CountsLike) -> IntArray:
    """A 36-long count vector as the compiled kernel reads it (int64, contiguous), its
    length checked here and its signs by the kernel (card/kernel.py)."""
    if isinstance(counts, np.ndarray):
        if counts.shape != (NUM_KINDS,):
            raise ValueError(f"a holding is a vector of {NUM_KINDS} counts, not {counts.shape}")
        vector: IntArray = np.ascontiguousarray(counts, dtype=np.int64)  # no copy if so
        # (numba compiles again for a read-only array: a copy costs less)
        return vector if vector.flags.writeable else vector.copy()
    if len(counts) != NUM_KINDS:
        raise ValueError(f"a holding is a vector of {NUM_KINDS} counts, not {(len(counts),)}")
    return np.fromiter(counts, np.int64, NUM_KINDS)


@dataclass(frozen=True)
class RackDemand:
    """What each way still asks of one rack once that rack's exposures are placed.

    ``fit`` says which ways the rack can still make: those that hold the exposures (and,
    on a card limited to some ways, only those). Rows of the other ways hold meaningless
    numbers; ``restricted`` is true when there are such rows.
    """

    key: ExposureKey
    fit: BoolArray
    restricted: bool
    unfit: IntArray  # the ways that do not fit, ascending
    exposed: int
    bank: TinyArray  # ways x 74: per kind, tot (nat + big) still to fill, then nat
    big_sum: SmallArray  # per way: tiles of big groups still to fill
    touched: tuple[int, ...]  # kinds whose demand the exposures changed
    entry_tot: SmallArray  # tot and nat again, sparse: per (way, kind) entry of the card
    entry_nat: SmallArray
    touched_kinds: IntArray  # ``touched`` as an array (for the compiled kernel)

    @property
    def tot(self) -> TinyArray:
        return self.bank[:, :COLS]

    @property
    def nat(self) -> TinyArray:
        return self.bank[:, COLS:]

    @property
    def alive(self) -> bool:
        return bool(self.fit.any())
