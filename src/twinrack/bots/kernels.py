"""The bots' hottest loops compiled (card/kernel.py's :func:`~twinrack.card.kernel.jit`):
the race played forward (bots/race.py, :meth:`Forward.run`) and the plans' chances
(bots/odds.py, :func:`chances`). Each computes exactly what its numpy version does, in the
same order for the floating-point products, so a bot decides the same with either; the
numpy code stays as the fallback, and tests/bots/test_kernels.py checks the two agree.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from twinrack.card.kernel import jit
from twinrack.tiles import JOKER, NUM_KINDS

IntArray = npt.NDArray[np.int64]
TinyArray = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: a throw's score (bots/race.py): a tile no plan spares is never thrown, a Joker only
#: when nothing else
NOT_THROWN, JOKER_LAST = 32767, 32766


# ---------------------------------------------------------------------------- the race


@jit
def _shortfalls(holding: IntArray, nat_t: TinyArray, big_t: TinyArray, ns: IntArray,
                bs: IntArray) -> None:
    """Per plan: the naturals lacking, and the groups' tiles lacking before Jokers."""
    ns[:] = 0
    bs[:] = 0
    for t in range(NUM_KINDS):
        if t == JOKER:
            continue
        c = holding[t]
        for p in range(ns.shape[0]):
            n = nat_t[t, p]
            ns[p] += max(n - c, 0)
            bs[p] += max(big_t[t, p] - max(c - n, 0), 0)


@jit
def _future(c: IntArray, ns: IntArray, bs: IntArray, picks: IntArray, first: bool,
            value: IntArray, plans: tuple[TinyArray, TinyArray, TinyArray, TinyArray,
                                          TinyArray], away: IntArray) -> tuple[int, int]:
    """One holding (``c``, its shortfalls ``ns`` and ``bs``, all changed in place) played
    over one future: the finishing pick and the best value complete then (``D + 1`` and
    0 for never). Each step: a pick (none before the first when a throw is owed first),
    every plan's tiles away, then a throw (none after the last pick). A throw keeps the
    nearest plan whole (the first of as near) and throws the tile that the plans at most
    one tile further miss least (fewest of them want every copy held), a Joker last.
    (One loop, no calls: a call passing arrays costs more than a step here.)"""
    nat, big, nat_t, big_t, dem_t = plans
    draws = picks.shape[0]
    n_p = value.shape[0]
    for k in range(-1 if first else 0, draws):
        if k >= 0:  # the pick (the loops over plans have no branch: they vectorise)
            t = picks[k]
            cur = c[t]
            for p in range(n_p):
                n = nat_t[t, p]
                ns[p] -= cur < n
                bs[p] -= (cur >= n) & (cur - n < big_t[t, p])
            c[t] += 1
        jokers = c[JOKER]
        best = 1 << 30
        for p in range(n_p):
            away[p] = ns[p] + max(bs[p] - jokers, 0)
            best = min(best, away[p])
        target = 0
        while away[target] != best:
            target += 1
        if best == 0:
            worth = -1
            for p in range(n_p):
                if away[p] == 0:
                    worth = max(worth, value[p])
            return k + 1, worth
        if k + 1 == draws:
            break
        pick = JOKER
        score = JOKER_LAST
        for t in range(JOKER):
            held = c[t]
            if held <= 0:
                continue
            use_nat = min(held, nat[target, t])
            if held - use_nat - min(held - use_nat, big[target, t]) <= 0:
                continue
            miss = 0
            for p in range(n_p):
                miss += (away[p] <= best + 1) & (dem_t[t, p] >= held)
            if miss * 64 + t < score:
                score = miss * 64 + t
                pick = t
        cur = c[pick] - 1
        for p in range(n_p):
            n = nat_t[pick, p]
            ns[p] += cur < n
            bs[p] += (cur >= n) & (cur - n < big_t[pick, p])
        c[pick] -= 1
    return draws + 1, 0


@jit
def race(holdings: IntArray, picks: IntArray, first: BoolArray, value: IntArray,
         plans: tuple[TinyArray, TinyArray, TinyArray, TinyArray, TinyArray]
         ) -> tuple[IntArray, IntArray]:
    """:meth:`Forward.run`: per holding and future, the pick (1-based) at which a plan is
    complete (``D + 1`` for never, 0 when complete before the first pick after a throw
    owed first) and that plan's best value (0 when none)."""
    nat_t, big_t = plans[2], plans[3]
    n_h, n_s = holdings.shape[0], picks.shape[0]
    draws = picks.shape[1]
    n_p = value.shape[0]
    when = np.full((n_h, n_s), draws + 1, dtype=np.int64)
    worth = np.zeros((n_h, n_s), dtype=np.int64)
    if n_p == 0:
        return when, worth
    ns0 = np.empty(n_p, dtype=np.int64)
    bs0 = np.empty(n_p, dtype=np.int64)
    ns = np.empty(n_p, dtype=np.int64)
    bs = np.empty(n_p, dtype=np.int64)
    away = np.empty(n_p, dtype=np.int64)
    c = np.empty(NUM_KINDS, dtype=np.int64)
    for h in range(n_h):
        _shortfalls(holdings[h], nat_t, big_t, ns0, bs0)
        for s in range(n_s):
            c[:] = holdings[h]
            ns[:] = ns0
            bs[:] = bs0
            when[h, s], worth[h, s] = _future(c, ns, bs, picks[s], first[h], value, plans,
                                              away)
    return when, worth


# ---------------------------------------------------------------------------- the odds


@jit
def _plan_kinds(nat: IntArray, big: IntArray) -> tuple[IntArray, IntArray]:
    """The kinds each plan uses (sparse rows: start per plan, then the kinds)."""
    n_p = nat.shape[0]
    start = np.zeros(n_p + 1, dtype=np.int64)
    for p in range(n_p):
        for t in range(NUM_KINDS):
            start[p + 1] += nat[p, t] + big[p, t] > 0
        start[p + 1] += start[p]
    kinds = np.empty(start[n_p], dtype=np.int64)
    for p in range(n_p):
        m = start[p]
        for t in range(NUM_KINDS):
            if nat[p, t] + big[p, t] > 0:
                kinds[m] = t
                m += 1
    return start, kinds


@jit
def chances(nat: IntArray, big: IntArray, holdings: IntArray, unseen: IntArray,
            tails_nat: FloatArray, tails_big: FloatArray, max_need: int,
            out_slack: int) -> FloatArray:
    """bots/odds.py's :func:`chances` (holdings x plans x horizons): per horizon, one
    hypergeometric tail per natural kind a plan lacks, multiplied in kind order as numpy
    multiplies them (kinds it does not lack count 1, exactly), times the tail of the
    groups' shortfall (less the Jokers) among its outs. ``tails_nat[i]`` and
    ``tails_big[i]`` are the tables of horizon ``i``."""
    n_h, n_p, n_z = holdings.shape[0], nat.shape[0], tails_nat.shape[0]
    out = np.zeros((n_h, n_p, n_z))
    total = 0
    for t in range(NUM_KINDS):
        total += unseen[t]
    start, kinds = _plan_kinds(nat, big)
    lacking = np.empty(NUM_KINDS, dtype=np.int64)
    for h in range(n_h):
        jokers = holdings[h, JOKER]
        for p in range(n_p):
            short_groups = 0
            outs = unseen[JOKER]
            impossible = False
            m = 0
            for e in range(start[p], start[p + 1]):
                t = kinds[e]
                c = holdings[h, t] if t != JOKER else 0
                short_nat = max(nat[p, t] - c, 0)
                short_big = max(big[p, t] - max(c - nat[p, t], 0), 0)
                short_groups += short_big
                if short_big > 0:
                    copies = max(unseen[t] - short_nat, 0)
                    outs += min(copies, short_big + out_slack) if out_slack >= 0 else copies
                if short_nat > unseen[t]:
                    impossible = True
                if short_nat > 0:
                    lacking[m] = t
                    m += 1
            short = max(short_groups - jokers, 0)
            outs = min(outs, total)
            if impossible or short > outs:
                continue
            for i in range(n_z):
                p_nat = 1.0
                for j in range(m):
                    t = lacking[j]
                    c = holdings[h, t]
                    p_nat *= tails_nat[i, unseen[t], min(nat[p, t] - c, max_need)]
                out[h, p, i] = p_nat * tails_big[i, outs, min(short, max_need)]
    return out


def warm_up() -> None:
    """Run the race and the chances once on a tiny position, so that they are compiled,
    or loaded from numba's cache, now (see card/kernel.py)."""
    from twinrack.card import kernel

    if not kernel.ACTIVE:
        return
    plan = np.zeros((1, NUM_KINDS), dtype=np.int8)
    plan[0, 0] = 2
    holding = np.zeros((1, NUM_KINDS), dtype=np.int64)
    holding[0, 1] = 1
    race(holding, np.zeros((2, 3), dtype=np.int64), np.array([True]),
         np.ones(1, dtype=np.int64), (plan, plan, plan.T.copy(), plan.T.copy(), plan.T.copy()))
    tails = np.ones((1, 4, 16))
    chances(plan.astype(np.int64), plan.astype(np.int64), holding,
            np.ones(NUM_KINDS, dtype=np.int64), tails, tails, 15, 1)
