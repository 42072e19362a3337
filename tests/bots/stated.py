"""Small stated positions for the odds and sampling tests: tile counts by name, one plan
with its demand, and the hypergeometric tail counted by hand."""

from __future__ import annotations

from math import comb

import numpy as np

from twinrack.bots.odds import IntArray, Plans
from twinrack.tiles import INDEX, NUM_KINDS


def kinds(spec: dict[str, int]) -> list[int]:
    out = [0] * NUM_KINDS
    for tile, n in spec.items():
        out[INDEX[tile]] = n
    return out


def one_plan(nat: dict[str, int] | None = None, big: dict[str, int] | None = None) -> Plans:
    """One plan for one rack whose singles and pairs want ``nat`` and groups ``big``."""
    return Plans((0,), np.zeros((1, 1), dtype=np.int64),
                 np.asarray([kinds(nat or {})], dtype=np.int64),
                 np.asarray([kinds(big or {})], dtype=np.int64),
                 np.asarray([25], dtype=np.int64), np.asarray([False]))


def holding(spec: dict[str, int]) -> IntArray:
    return np.asarray([kinds(spec)], dtype=np.int64)


def at_least(m: int, useful: int, unseen: int, draws: int) -> float:
    """The chance of at least ``m`` useful tiles in ``draws`` picks, counted by hand."""
    ways = sum(comb(useful, k) * comb(unseen - useful, draws - k)
               for k in range(m, min(useful, draws) + 1))
    return ways / comb(unseen, draws)
