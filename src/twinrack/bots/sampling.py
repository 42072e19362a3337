"""Sampled futures: the seat's next picks drawn from the tiles it has not seen.

The unseen tiles (the wall and the other hands, which the seat cannot tell apart) are
shuffled ``samples`` times, consistently with everything the view shows; the first
``draws`` tiles of each shuffle are the seat's next picks. For every plan and holding the
pick at which the plan would be finished is then exact for that future: the singles and
pairs need their own natural tiles, and the groups' shortfall, less the Jokers held, is
filled in pick order by Jokers or by copies of the group's tile (never more copies than a
group lacks). Using the same futures for every option being compared keeps the comparison
fair (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from twinrack.bots.odds import Plans, needs
from twinrack.bots.seen import unseen
from twinrack.engine.view import View
from twinrack.tiles import JOKER, NUM_KINDS

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

MAX_COPIES = 16


class Futures:
    """``samples`` futures of ``draws`` picks each, from the unseen counts."""

    def __init__(self, unseen: Sequence[int], draws: int, samples: int,
                 rng: np.random.Generator) -> None:
        pool = np.repeat(np.arange(NUM_KINDS), np.asarray(unseen, dtype=np.int64))
        self.draws = draws = max(0, min(draws, len(pool)))
        self.samples = samples
        self.never = draws + 1  # "not within the horizon"
        order = rng.permuted(np.tile(pool, (samples, 1)), axis=1)[:, :draws]
        # arrival[s, t, m]: the pick (1-based) bringing the m-th copy of t, or ``never``
        arrival = np.full((samples, NUM_KINDS, MAX_COPIES + 2), self.never, dtype=np.int64)
        arrival[:, :, 0] = 0
        if draws:
            by_kind = np.argsort(order, axis=1, kind="stable")  # picks grouped by kind
            kinds = np.take_along_axis(order, by_kind, axis=1)
            first = np.ones(kinds.shape, dtype=bool)
            first[:, 1:] = kinds[:, 1:] != kinds[:, :-1]
            start = np.maximum.accumulate(np.where(first, np.arange(draws)[None, :], 0), axis=1)
            copy = np.minimum(np.arange(draws)[None, :] - start + 1, MAX_COPIES + 1)
            rows = np.repeat(np.arange(samples), draws)
            arrival[rows, kinds.ravel(), copy.ravel()] = by_kind.ravel() + 1
        arrival = arrival[:, :, :MAX_COPIES + 1]
        self.arrival = arrival

    def finish(self, plans: Plans, holdings: IntArray) -> IntArray:
        """The pick at which each plan is finished from each holding in each future
        (``never`` when not within the draws): holdings x plans x samples."""
        short_nat, short_big, jokers = needs(plans, holdings)
        h, p = short_nat.shape[0], short_nat.shape[1]
        s = self.samples
        arrival = self.arrival
        out = np.zeros((h, p, s), dtype=np.int64)
        if not p:
            return out
        short_nat = np.minimum(short_nat, MAX_COPIES)
        cols = np.flatnonzero(short_nat.any(axis=(0, 1)))
        if len(cols):
            # arrival[:, cols, :] is s x c x m; gather the short_nat-th arrival of each kind
            a = arrival[:, cols, :]  # s x c x (M+1)
            idx = short_nat[:, :, cols]  # h x p x c
            times = a[np.arange(s)[None, None, :, None], np.arange(len(cols))[None, None, None, :],
                      idx[:, :, None, :]]  # h x p x s x c
            out = np.maximum(out, times.max(axis=3))
        short = np.maximum(short_big.sum(axis=2) - jokers[:, None], 0)  # h x p
        need_big = short > 0
        if need_big.any():
            big_cols = np.flatnonzero((short_big > 0).any(axis=(0, 1)))
            most = int(min(short_big[:, :, big_cols].max(), MAX_COPIES))
            j = np.arange(1, most + 1)
            # the copies beyond the naturals' share fill the group, up to its shortfall
            pos = np.minimum(short_nat[:, :, big_cols, None] + j[None, None, None, :], MAX_COPIES)
            valid = j[None, None, None, :] <= short_big[:, :, big_cols, None]  # h x p x b x j
            a = arrival[:, big_cols, :]  # s x b x (M+1)
            # the pick at which each slot of the groups' shortfall can be filled
            fills = a[np.arange(s)[None, None, :, None, None],
                      np.arange(len(big_cols))[None, None, None, :, None],
                      pos[:, :, None, :, :]]  # h x p x s x b x j
            fills = np.where(valid[:, :, None, :, :], fills, self.never)
            fills = fills.reshape(h, p, s, -1)
            joker_arrival = arrival[:, JOKER, 1:]  # s x M
            jokers_in = np.broadcast_to(joker_arrival[None, None, :, :],
                                        (h, p, s, joker_arrival.shape[1]))
            fills = np.concatenate([fills, jokers_in], axis=3)
            fills.sort(axis=3)
            k = np.clip(short - 1, 0, fills.shape[3] - 1)
            big_time = np.take_along_axis(
                fills, np.broadcast_to(k[:, :, None, None], (h, p, s, 1)), axis=3)[..., 0]
            big_time = np.where(need_big[:, :, None], big_time, 0)
            out = np.maximum(out, big_time)
        return np.minimum(out, self.never)

    def chances(self, times: IntArray, horizons: Sequence[int]) -> FloatArray:
        """The share of futures finished within each horizon: (... x horizons)."""
        hz = np.asarray(horizons, dtype=np.int64)
        out: FloatArray = (times[..., None] <= hz).mean(axis=-2)
        return out


def deal_hidden(view: View, rng: np.random.Generator
                ) -> tuple[dict[int, list[int]], list[int]] | None:
    """One guess at what the seat cannot see: the unseen tiles shuffled, dealt to the
    other seats (as many as each conceals, as counts) and the rest laid as the wall in
    picking order. ``None`` when the counts do not add up (a view this cannot explain)."""
    counts = unseen(view)
    pool = np.repeat(np.arange(NUM_KINDS), np.asarray(counts, dtype=np.int64))
    others = [s for s in view.seats if s.seat != view.seat]
    if len(pool) != sum(s.concealed for s in others) + view.wall_left:
        return None
    order = rng.permutation(pool).tolist()
    hands: dict[int, list[int]] = {}
    at = 0
    for s in others:
        held = [0] * NUM_KINDS
        for t in order[at:at + s.concealed]:
            held[t] += 1
        hands[s.seat] = held
        at += s.concealed
    return hands, order[at:]
