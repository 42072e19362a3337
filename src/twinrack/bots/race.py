"""The race: the seat's own next picks played forward, plans switched as tiles come, and
the chance that no opponent finishes first.

**Playing forward.** Hundreds of futures are dealt from the tiles the seat has not seen
(its next picks, as in :mod:`twinrack.bots.sampling`); for every option being compared
(a holding after a discard, a claim, an exposure) the same futures are played pick by pick
(common random numbers), every future at once in numpy. After each pick the holding's
tiles away from every candidate plan are updated for the one tile that came (a plan's
natural and group shortfalls are kept apart, the Jokers held cover the groups'), so a
pick costs a few operations on futures x plans, not on futures x plans x tile kinds. The
holding then aims at its nearest plan (ties: the plan the expert's chance ranked first)
and throws a tile that plan does not use, the one that the next nearest plans miss least:
it switches plans as the tiles decide, as a player does, instead of chasing one plan
chosen now. The pick at which some plan is complete is the future's finishing pick.

**The opponents.** How soon an opponent finishes is read from what the table shows of it,
through :data:`HAZARD`, measured on expert games (``tools/race_table.py``): per number of
open racks and turns played, the share of turns that made a first Mah Jongg or ended the
game. A chain over its open racks gives the chance that it has not finished after each of
its coming turns; a future that finishes at pick ``k`` wins if no opponent has finished in
the turns they play before it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from twinrack.bots import kernels
from twinrack.bots.odds import Plans
from twinrack.card import kernel
from twinrack.engine.view import View
from twinrack.tiles import JOKER, NUM_KINDS

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: tile counts and shortfalls in the race: never above 127 (a holding has at most 8 copies
#: of a kind, a plan wants at most 28 tiles), so one byte each
SMALL = np.int8
SmallArray = npt.NDArray[np.int8]

#: plans one :class:`Forward` plays against, at most (one bit each, in words of 64)
MAX_PLANS = 256

#: (open racks, turn // 4) -> (turns seen, turns making a first Mah Jongg, turns finishing),
#: from ``tools/race_table.py --games 50`` with seeds 11 and 12 added up (Siamese, 2024
#: rules, expert against expert)
HAZARD: dict[tuple[int, int], tuple[int, int, int]] = {
    (1, 2): (6, 0, 0), (1, 3): (18, 0, 0), (1, 4): (30, 0, 0), (1, 5): (47, 0, 0),
    (1, 6): (74, 0, 3), (1, 7): (91, 0, 1), (1, 8): (89, 0, 4), (1, 9): (59, 0, 7),
    (1, 10): (33, 0, 3), (1, 11): (15, 0, 0), (1, 12): (27, 0, 1), (2, 0): (800, 0, 0),
    (2, 1): (800, 0, 0), (2, 2): (794, 3, 0), (2, 3): (782, 3, 0), (2, 4): (770, 5, 1),
    (2, 5): (740, 9, 3), (2, 6): (668, 18, 9), (2, 7): (557, 19, 10), (2, 8): (427, 16, 16),
    (2, 9): (283, 14, 12), (2, 10): (171, 18, 18), (2, 11): (68, 15, 5), (2, 12): (7, 2, 0)}
#: beyond the table, the last row of the same open racks is used
BUCKET = 4


def deal_picks(unseen: Sequence[int], draws: int, samples: int,
               rng: np.random.Generator) -> IntArray:
    """``samples`` futures: the seat's next ``draws`` picks, samples x draws."""
    pool = np.repeat(np.arange(NUM_KINDS), np.asarray(unseen, dtype=np.int64))
    draws = max(0, min(draws, len(pool)))
    if not draws or not samples:
        return np.zeros((samples, 0), dtype=np.int64)
    out: IntArray = rng.permuted(np.tile(pool, (samples, 1)), axis=1)[:, :draws]
    return out


class Forward:
    """Holdings played forward over shared futures against one set of plans.

    ``plans`` are ranked best first (the rank breaks ties between plans as near).
    """

    def __init__(self, plans: Plans) -> None:
        self.nat = plans.nat.astype(SMALL)  # P x 36
        self.big = plans.big.astype(SMALL)
        self.dem = self.nat + self.big
        self.nat_t = np.ascontiguousarray(self.nat.T)  # 36 x P
        self.big_t = np.ascontiguousarray(self.big.T)
        self.value = plans.value.astype(np.int64)
        p = len(plans)
        self.rank = np.arange(p, dtype=np.int32)
        self.p = p
        if p > MAX_PLANS:
            raise ValueError(f"at most {MAX_PLANS} plans")
        #: per copy count v: the plans wanting at least v copies of each tile, as bits
        #: (plan i is bit i % 64 of word i // 64)
        self.words = max(1, (p + 63) // 64)
        self.pad = self.words * 64 - p
        self.bit = (np.arange(p) % 64).astype(np.uint64)
        self.word = np.arange(p) // 64
        most = int(self.dem.max()) if p else 0
        want = np.stack([self.dem >= v for v in range(most + 2)])  # V x P x 36
        self.wanting = np.stack([
            (want[:, self.word == w].astype(np.uint64)
             << self.bit[self.word == w][None, :, None]).sum(axis=1, dtype=np.uint64)
            for w in range(self.words)], axis=-1)  # V x 36 x words
        self.wanting_flat = np.ascontiguousarray(
            self.wanting.reshape(-1, self.words))  # (V * 36) x words
        self.kinds = np.arange(NUM_KINDS)
        self.kind_order = np.arange(NUM_KINDS, dtype=np.int64)
        self.kind_order16 = np.arange(NUM_KINDS, dtype=np.int16)
        #: played by the compiled kernel (bots/kernels.py), else by the numpy code below;
        #: None: the process's path (``kernel.ACTIVE``)
        self.kernel: bool | None = None
        self.tables = (np.ascontiguousarray(self.nat), np.ascontiguousarray(self.big),
                       self.nat_t, self.big_t, np.ascontiguousarray(self.dem.T))

    def shortfalls(self, h: SmallArray) -> tuple[SmallArray, SmallArray]:
        """Per row and plan: the naturals lacking, and the groups' tiles lacking (before
        Jokers)."""
        c = h.copy()
        c[:, JOKER] = 0
        nat = self.nat[None, :, :]
        short_nat = np.maximum(nat - c[:, None, :], 0)
        spare = np.maximum(c[:, None, :] - nat, 0)
        short_big = np.maximum(self.big[None, :, :] - spare, 0)
        return (short_nat.sum(axis=2, dtype=SMALL), short_big.sum(axis=2, dtype=SMALL))

    def run(self, holdings: IntArray, picks: IntArray,
            discard_first: Sequence[bool]) -> tuple[IntArray, IntArray]:
        """Each holding (H x 36) played over every future (S x D picks): the pick
        (1-based) at which a plan is complete, ``D + 1`` for never, and that plan's card
        value; both H x S. A holding marked ``discard_first`` throws before its first
        pick (it holds a tile more, as after a claim)."""
        if kernel.ACTIVE if self.kernel is None else self.kernel:
            return kernels.race(
                np.asarray(holdings, dtype=np.int64).reshape(len(holdings), NUM_KINDS),
                np.ascontiguousarray(picks, dtype=np.int64),
                np.asarray(discard_first, dtype=bool).reshape(len(holdings)), self.value,
                self.tables)
        n_h, n_s = len(holdings), len(picks)
        draws = picks.shape[1]
        never = draws + 1
        when = np.full((n_h, n_s), never, dtype=np.int64)
        worth = np.zeros((n_h, n_s), dtype=np.int64)
        if not self.p or not n_h or not n_s:
            return when, worth
        hh = np.asarray(holdings, dtype=SMALL)
        h = np.repeat(hh, n_s, axis=0)  # N x 36
        pk = np.tile(picks, (n_h, 1))
        idx = np.arange(len(h))  # row of each live future in ``when``
        ns, bs = (np.repeat(x, n_s, axis=0) for x in self.shortfalls(hh))
        first = np.repeat(np.asarray(discard_first, dtype=bool), n_s)
        if first.any():
            away = ns + np.maximum(bs - h[:, JOKER, None], 0)
            done = first & (away.min(axis=1) == 0)
            when.ravel()[idx[done]] = 0
            worth.ravel()[idx[done]] = self._worth(away[done])
            throw = first & ~done
            sub = np.flatnonzero(throw)
            if len(sub):
                self._throw(h, ns, bs, away, sub)
            keep = ~done
            h, ns, bs, pk, idx = h[keep], ns[keep], bs[keep], pk[keep], idx[keep]
        for k in range(draws):
            if not len(h):
                break
            rows = np.arange(len(h))
            t = pk[:, k]
            cur = h[rows, t][:, None]
            nt = self.nat_t[t]
            less_nat = cur < nt
            ns -= less_nat
            bs -= ~less_nat & (cur - nt < self.big_t[t])
            h[rows, t] += 1
            away = ns + np.maximum(bs - h[:, JOKER, None], 0)
            done = away.min(axis=1) == 0
            if done.any():
                when.ravel()[idx[done]] = k + 1
                worth.ravel()[idx[done]] = self._worth(away[done])
                keep = ~done
                h, ns, bs, pk, idx, away = (h[keep], ns[keep], bs[keep], pk[keep],
                                            idx[keep], away[keep])
            if k + 1 < draws and len(h):
                self._throw(h, ns, bs, away, np.arange(len(h)))
        return when, worth

    def _worth(self, away: SmallArray) -> IntArray:
        out: IntArray = np.where(away == 0, self.value[None, :], -1).max(axis=1)
        return out

    def _throw(self, h: SmallArray, ns: SmallArray, bs: SmallArray, away: SmallArray,
               rows: IntArray) -> None:
        """Rows ``rows`` throw one tile, in place: one their nearest plan does not use,
        the one that the plans at most one tile further miss least (a Joker last)."""
        every = len(rows) == len(h)  # every row (rows is then 0..n-1): no copies
        aw = away if every else away[rows]
        # the nearest plan, the first ranked among as near (argmin keeps the first)
        target = aw.argmin(axis=1)
        hr = h if every else h[rows]
        c = hr.copy()
        c[:, JOKER] = 0
        use_nat = np.minimum(c, self.nat[target])
        use_big = np.minimum(c - use_nat, self.big[target])
        excess = c - use_nat - use_big
        # the near plans that one copy fewer of a tile would leave short, counted as bits:
        # the plans as near or one tile further, and per copy count v the plans wanting
        # at least v copies of each tile
        near = aw <= aw.min(axis=1, keepdims=True) + 1
        if self.pad:
            near = np.concatenate([near, np.zeros((len(near), self.pad), dtype=bool)], axis=1)
        # plan i is bit i % 64 of word i // 64 (little-endian bytes)
        bits = np.packbits(near, axis=1, bitorder="little").view("<u8")  # rows x words
        level = np.minimum(hr, len(self.wanting) - 1).astype(np.intp)
        level *= NUM_KINDS
        level += self.kinds[None, :]
        wanting = self.wanting_flat.take(level, axis=0)  # rows x 36 x words
        wanting &= bits[:, None, :]
        miss = _popcount(wanting).astype(np.int16)
        miss = miss.sum(axis=2, dtype=np.int16) if self.words > 1 else miss[:, :, 0]
        # at most 256 plans: a score below 2 ** 15 (the tile kind breaks ties)
        score = miss * np.int16(64)
        score += self.kind_order16[None, :]
        score[excess <= 0] = _NOT_THROWN
        score[:, JOKER] = _JOKER_LAST  # a Joker only when nothing else
        t = score.argmin(axis=1)
        cur = (hr[np.arange(len(rows)), t] - 1)[:, None]
        nt = self.nat_t[t]
        less_nat = cur < nt
        more_big = cur - nt < self.big_t[t]
        more_big &= ~less_nat
        if every:
            ns += less_nat
            bs += more_big
        else:
            ns[rows] += less_nat
            bs[rows] += more_big
        h[rows, t] -= 1


_M1, _M2, _M4 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                 np.uint64(0x0F0F0F0F0F0F0F0F))
_H01 = np.uint64(0x0101010101010101)
_BITWISE_COUNT = getattr(np, "bitwise_count", None)
#: a throw's score: a tile no plan spares is never thrown, a Joker only when nothing else
_NOT_THROWN, _JOKER_LAST = np.int16(32767), np.int16(32766)


def _popcount(x: npt.NDArray[np.uint64]) -> IntArray:
    """Bits set in each word."""
    if _BITWISE_COUNT is not None:  # numpy 2
        counted: IntArray = _BITWISE_COUNT(x)
        return counted
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    out: IntArray = ((x * _H01) >> np.uint64(56)).astype(np.int64)
    return out


# ---------------------------------------------------------------------------- opponents


def hazards(open_racks: int, turn: int) -> tuple[float, float]:
    """For a player with ``open_racks`` open racks in its ``turn``-th turn: the chance
    that the turn makes a first Mah Jongg, and that it finishes the game."""
    rows = [k for k in HAZARD if k[0] == open_racks]
    if not rows:
        return 0.0, 0.0
    key = (open_racks, min(turn // BUCKET, max(b for _r, b in rows)))
    n, first, fin = HAZARD.get(key, (0, 0, 0))
    if n < 20:
        # too few turns seen: the nearest earlier row with enough
        for b in range(key[1], -1, -1):
            n, first, fin = HAZARD.get((open_racks, b), (0, 0, 0))
            if n >= 20:
                break
    if not n:
        return 0.0, 0.0
    return first / n, fin / n


def survival(open_racks: int, turn: int, turns: int) -> FloatArray:
    """``S[k]``: the chance that a player with ``open_racks`` open racks, about to play
    its ``turn``-th turn, has not finished after ``k`` more turns (k = 0..turns)."""
    out = np.ones(turns + 1)
    # p[m]: the chance of m open racks
    p = np.zeros(open_racks + 1)
    p[open_racks] = 1.0
    for k in range(turns):
        nxt = np.zeros_like(p)
        for m in range(1, open_racks + 1):
            if not p[m]:
                continue
            first, fin = hazards(m, turn + k)
            if m == 1:
                first = 0.0
            nxt[0] += p[m] * fin
            nxt[m - 1] += p[m] * first
            nxt[m] += p[m] * (1 - fin - first)
        nxt[0] += p[0]
        p = nxt
        out[k + 1] = 1.0 - p[0]
    return out


def opponents_survive(view: View, turns: int, before_own: bool) -> FloatArray:
    """``G[k]``: the chance that no opponent has finished before the seat's ``k``-th
    coming pick (k = 0..turns; ``G[0]`` is 1). ``before_own``: each opponent plays a turn
    before each of the seat's picks (after the seat's discard); otherwise the seat picks
    first (in a claim window), so the opponents play one turn fewer."""
    out = np.ones(turns + 1)
    me = view.seat
    for sv in view.seats:
        if sv.seat == me or sv.stopped or not sv.open_racks:
            continue
        s = survival(len(sv.open_racks), _turns_played(view, sv.seat), turns)
        out *= s if before_own else np.concatenate([[1.0], s[:-1]])
    return out


def _turns_played(view: View, seat: int) -> int:
    """About how many turns ``seat`` has played: the turns so far shared out in order."""
    n = view.players
    return max(0, (view.turn - (seat - view.current) % n + n - 1) // n)
