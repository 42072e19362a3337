"""The chance that a plan is finished in time, from the tiles a seat has not seen.

A plan (one way per open rack) lacks some natural tiles for its singles and pairs and some
tiles for its groups of 3 or more, which a Joker may fill. The seat's next picks are a
uniform sample of its unseen tiles (the wall and the other hands, which it cannot tell
apart), so the chance of drawing at least ``m`` of ``a`` useful tiles in ``d`` picks out of
``u`` unseen is a hypergeometric tail. A plan is finished when every natural need is met
(one tail per tile kind) and the groups' shortfall, less the Jokers held, is met by copies
of those tiles or by Jokers (one more tail); the two are taken as independent. Scoring the
chance at a few horizons up to the end of the wall and averaging rewards plans that finish
early, not only by the end.

Everything is vectorised over many plans and many holdings (one per candidate discard).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from twinrack.bots import kernels
from twinrack.bots.plans import Exposures, Planner
from twinrack.card import kernel
from twinrack.card.compiled import IMPOSSIBLE
from twinrack.tiles import JOKER, NUM_KINDS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_LOG_FACTORIAL = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, 4096, dtype=np.float64)))])
MAX_NEED = 15
#: copies of a tile counted for a group beyond what it lacks (-1: all)
OUT_SLACK = 1


def _log_choose(n: IntArray, k: IntArray) -> FloatArray:
    ok = (k >= 0) & (k <= n)
    out = np.full(np.broadcast(n, k).shape, -np.inf)
    nn = np.broadcast_to(n, out.shape)[ok]
    kk = np.broadcast_to(k, out.shape)[ok]
    out[ok] = _LOG_FACTORIAL[nn] - _LOG_FACTORIAL[kk] - _LOG_FACTORIAL[nn - kk]
    return out


_TAILS: dict[tuple[int, int], FloatArray] = {}


def tails(unseen: int, draws: int) -> FloatArray:
    """``T[a, m]``: the chance of at least ``m`` of ``a`` useful tiles among ``draws``
    picked from ``unseen`` (``a`` up to ``unseen``, ``m`` up to ``MAX_NEED``)."""
    draws = max(0, min(draws, unseen))
    key = (unseen, draws)
    t = _TAILS.get(key)
    if t is not None:
        return t
    a = np.arange(unseen + 1)[:, None]
    k = np.arange(MAX_NEED + 1)[None, :]
    logp = (_log_choose(a, k) + _log_choose(unseen - a, draws - k)
            - _log_choose(np.array(unseen), np.array(draws)))
    pmf = np.exp(logp)
    # tail[a, m] = sum_{k >= m} pmf[a, k]; at most MAX_NEED matter, the rest is 1 - head
    head = np.cumsum(pmf, axis=1)
    t = np.empty_like(pmf)
    t[:, 0] = 1.0
    t[:, 1:] = np.clip(1.0 - head[:, :-1], 0.0, 1.0)
    if len(_TAILS) > 4096:
        _TAILS.clear()
    _TAILS[key] = t
    return t


@dataclass
class Plans:
    """Candidate plans for some open racks: per plan, the summed demand of its ways."""

    racks: tuple[int, ...]
    ways: IntArray  # plans x racks: way index per rack
    nat: IntArray  # plans x 36: tiles for singles and pairs (exposures taken off)
    big: IntArray  # plans x 36: tiles for groups of 3 or more
    value: IntArray  # plans: card value of the lines
    concealed: npt.NDArray[np.bool_]  # plans: some line is concealed-only
    exposed: tuple[bool, ...] = ()  # per rack: has an exposure already

    def __len__(self) -> int:
        return len(self.value)

    def take(self, idx: IntArray) -> Plans:
        return Plans(self.racks, self.ways[idx], self.nat[idx], self.big[idx],
                     self.value[idx], self.concealed[idx], self.exposed)

    def rack(self, i: int, pl: Planner, racks: Sequence[tuple[int, Exposures]]) -> Plans:
        """The one-rack plans of rack ``i`` (each plan's way on that rack alone)."""
        d = pl.cc.rack(racks[i][1])
        ways = self.ways[:, i:i + 1]
        nat = d.nat[ways[:, 0], :NUM_KINDS].astype(np.int64)
        tot = d.tot[ways[:, 0], :NUM_KINDS].astype(np.int64)
        return Plans((self.racks[i],), ways, nat, tot - nat,
                     pl.way_value[ways[:, 0]].astype(np.int64),
                     pl.cc.way_concealed[ways[:, 0]], (self.exposed[i],))


#: with three or four open racks: the nearest plans of the first two racks that are combined
#: with the others', how many of them leave the tiles the others' plans are drawn from, and
#: how many of the combined plans (the nearest) are kept
PAIR_PLANS = 12
ROOTS = 3
COMBINED = 144


def candidates(pl: Planner, free: Sequence[int], racks: Sequence[tuple[int, Exposures]],
               per_rack: int = 40, slack: int = 2, cap: int = 300) -> Plans:
    """The plans worth scoring for the open racks: for one or two, the nearest ways of
    each rack, paired, keeping pairs within ``slack`` tiles of the best (at most ``cap``);
    for three or four (Imperial), the racks two by two (:func:`by_pairs`)."""
    if len(racks) > 2:
        return by_pairs(pl, free, racks, per_rack, slack, cap)
    cc = pl.cc
    c = np.asarray(free, dtype=np.int64)
    demands = [cc.rack(ex) for _r, ex in racks]
    if len(racks) == 1:
        a = pl.rack_aways(free, racks[0][1])
        best = int(a.min())
        keep = np.flatnonzero(a <= best + slack + 1) if best < IMPOSSIBLE else a[:0]
        if len(keep) > cap:
            keep = keep[np.argsort(a[keep], kind="stable")[:cap]]
        ways = keep[:, None]
    else:
        a1 = pl.rack_aways(free, racks[0][1])
        a2 = pl.rack_aways(free, racks[1][1])
        o1 = np.argsort(a1, kind="stable")[:per_rack]
        o2 = np.argsort(a2, kind="stable")[:per_rack]
        o1 = o1[a1[o1] < IMPOSSIBLE]
        o2 = o2[a2[o2] < IMPOSSIBLE]
        w1 = np.repeat(o1, len(o2))
        w2 = np.tile(o2, len(o1))
        pa = cc.pair_aways(c, w1, w2, racks[0][1], racks[1][1])
        if len(pa) and int(pa.min()) < IMPOSSIBLE:
            best = int(pa.min())
            keep = np.flatnonzero(pa <= best + slack)
            if len(keep) > cap:
                keep = keep[np.argsort(pa[keep], kind="stable")[:cap]]
        else:
            keep = pa[:0]
        ways = np.stack([w1[keep], w2[keep]], axis=1)
    nat = np.zeros((len(ways), NUM_KINDS), dtype=np.int64)
    tot = np.zeros((len(ways), NUM_KINDS), dtype=np.int64)
    for i, d in enumerate(demands):
        nat += d.nat[ways[:, i], :NUM_KINDS]
        tot += d.tot[ways[:, i], :NUM_KINDS]
    value = pl.way_value[ways].sum(axis=1) if len(ways) else np.zeros(0, dtype=np.int64)
    concealed = np.asarray(cc.way_concealed[ways].any(axis=1) if len(ways)
                           else np.zeros(0, dtype=bool), dtype=bool)
    return Plans(tuple(r for r, _ex in racks), ways.astype(np.int64), nat, tot - nat,
                 value.astype(np.int64), concealed, tuple(bool(ex) for _r, ex in racks))


def aways(plans: Plans, holding: Sequence[int]) -> IntArray:
    """Each plan's tiles away from one holding (Jokers fill the groups' shortfall)."""
    short_nat, short_big, jokers = needs(plans, np.asarray([holding], dtype=np.int64))
    out: IntArray = short_nat[0].sum(axis=1) + np.maximum(
        short_big[0].sum(axis=1) - jokers[0], 0)
    return out


def by_pairs(pl: Planner, free: Sequence[int], racks: Sequence[tuple[int, Exposures]],
             per_rack: int, slack: int, cap: int) -> Plans:
    """Plans for three or four open racks: the ``PAIR_PLANS`` nearest plans of the first
    two racks (exact, each a different pair of lines), each combined with the nearest
    plans of the other racks from the tiles that one of the ``ROOTS`` nearest first plans
    leaves (its singles and pairs served first, as the pair search counts). Different
    first plans leave different tiles, so the others' plans are pooled from several of
    them; every combination is then counted exactly on the one shared holding (a plan's
    demand is summed over its racks) and the ``COMBINED`` nearest are kept."""
    first = nearest_plans(pl, free, racks[:2], PAIR_PLANS)
    pool: list[Plans] = []
    for i in range(min(ROOTS, len(first))):
        rest = left_by(first, i, free)
        second = nearest_plans(pl, rest, racks[2:], PAIR_PLANS)
        if len(second):
            pool.append(second)
    if not pool:
        return plans_of(pl, np.zeros((0, len(racks)), dtype=np.int64), racks)
    second = merged(pool)
    i1 = np.repeat(np.arange(len(first)), len(second))
    i2 = np.tile(np.arange(len(second)), len(first))
    plans = Plans(first.racks + second.racks,
                  np.concatenate([first.ways[i1], second.ways[i2]], axis=1),
                  first.nat[i1] + second.nat[i2], first.big[i1] + second.big[i2],
                  first.value[i1] + second.value[i2],
                  first.concealed[i1] | second.concealed[i2], first.exposed + second.exposed)
    return plans.take(np.argsort(aways(plans, free), kind="stable")[:COMBINED])


def nearest_plans(pl: Planner, free: Sequence[int], racks: Sequence[tuple[int, Exposures]],
                  top: int) -> Plans:
    """The ``top`` nearest plans of one or two racks, exact: for two, the pair search's
    best pairs of lines (nearest, then the higher value); for one, its nearest ways."""
    if len(racks) == 1:
        a = pl.rack_aways(free, racks[0][1])
        order = np.argsort(a, kind="stable")[:top]
        ways = order[a[order] < IMPOSSIBLE][:, None]
    else:
        found = pl.cc.best_pairs(np.asarray(free, dtype=np.int64), racks[0][1], racks[1][1],
                                 top=top)
        ways = np.asarray([[pl._way_index(p.ways[0], p.hands[0]),
                            pl._way_index(p.ways[1], p.hands[1])] for p in found],
                          dtype=np.int64).reshape(-1, 2)
    return plans_of(pl, ways, racks)


def plans_of(pl: Planner, ways: IntArray, racks: Sequence[tuple[int, Exposures]]) -> Plans:
    """The plans of these ways (plans x racks), with their summed demand."""
    cc = pl.cc
    nat = np.zeros((len(ways), NUM_KINDS), dtype=np.int64)
    tot = np.zeros((len(ways), NUM_KINDS), dtype=np.int64)
    for i, (_r, ex) in enumerate(racks):
        d = cc.rack(ex)
        nat += d.nat[ways[:, i], :NUM_KINDS]
        tot += d.tot[ways[:, i], :NUM_KINDS]
    value = pl.way_value[ways].sum(axis=1) if len(ways) else np.zeros(0, dtype=np.int64)
    concealed = np.asarray(cc.way_concealed[ways].any(axis=1) if len(ways)
                           else np.zeros(0, dtype=bool), dtype=bool)
    return Plans(tuple(r for r, _ex in racks), ways.astype(np.int64), nat, tot - nat,
                 value.astype(np.int64), concealed, tuple(bool(ex) for _r, ex in racks))


def left_by(plans: Plans, i: int, free: Sequence[int]) -> list[int]:
    """The tiles of ``free`` that plan ``i`` does not use: its singles and pairs take
    their naturals, its groups the other copies, then Jokers for the groups' shortfall."""
    c = np.asarray(free, dtype=np.int64).copy()
    jokers = int(c[JOKER])
    c[JOKER] = 0
    nat, big = plans.nat[i], plans.big[i]
    take_nat = np.minimum(c, nat)
    take_big = np.minimum(c - take_nat, big)
    rest = c - take_nat - take_big
    rest[JOKER] = jokers - min(jokers, int((big - take_big).sum()))
    return [int(x) for x in rest]


def merged(parts: Sequence[Plans]) -> Plans:
    """Several sets of plans for the same racks as one, each plan (its ways) once."""
    ways = np.concatenate([p.ways for p in parts])
    _u, first = np.unique(ways, axis=0, return_index=True)
    idx = np.sort(first)
    p0 = parts[0]
    return Plans(p0.racks, ways[idx], np.concatenate([p.nat for p in parts])[idx],
                 np.concatenate([p.big for p in parts])[idx],
                 np.concatenate([p.value for p in parts])[idx],
                 np.concatenate([p.concealed for p in parts])[idx], p0.exposed)


def needs(plans: Plans, holdings: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """For holdings (h x 36) and plans: natural shortfall (h x p x 36), groups' shortfall
    (h x p x 36) and Jokers held (h)."""
    c = holdings[:, None, :].copy()
    jokers = holdings[:, JOKER].copy()
    c[:, :, JOKER] = 0
    nat = plans.nat[None, :, :]
    big = plans.big[None, :, :]
    short_nat = np.maximum(nat - c, 0)
    spare = np.maximum(c - nat, 0)
    short_big = np.maximum(big - spare, 0)
    return short_nat, short_big, jokers


def chances(plans: Plans, holdings: IntArray, unseen: Sequence[int],
            horizons: Sequence[int], claims: float = 0.0,
            compiled: bool | None = None) -> FloatArray:
    """The chance that each plan is finished from each holding within each horizon (a
    number of picks): an array holdings x plans x horizons. ``claims``: how many more
    tiles per pick the groups may get from claimed discards. ``compiled``: worked out by
    the compiled kernel (bots/kernels.py; the default when it runs) or by the numpy code
    here, to the same bits."""
    h, p = holdings.shape[0], len(plans)
    out = np.zeros((h, p, len(horizons)))
    if not p or not h:
        return out
    unseen_n = np.asarray(unseen, dtype=np.int64)
    total = int(unseen_n.sum())
    if kernel.ACTIVE if compiled is None else compiled:
        nat_tails = np.stack([tails(total, int(d)) for d in horizons])
        big_tails = (np.stack([tails(total, round(d * (1 + claims))) for d in horizons])
                     if claims else nat_tails)
        return kernels.chances(np.ascontiguousarray(plans.nat, dtype=np.int64),
                               np.ascontiguousarray(plans.big, dtype=np.int64),
                               np.ascontiguousarray(holdings, dtype=np.int64), unseen_n,
                               nat_tails, big_tails, MAX_NEED, OUT_SLACK)
    short_nat, short_big, jokers = needs(plans, holdings)
    short = np.maximum(short_big.sum(axis=2) - jokers[:, None], 0)  # h x p
    wanted = short_big > 0
    # copies beyond what a group lacks (plus ``OUT_SLACK``) are not counted: they cannot
    # all be used, and counting them would make a holding look better for lacking more
    copies = np.maximum(unseen_n[None, None, :] - short_nat, 0)
    if OUT_SLACK >= 0:
        copies = np.minimum(copies, short_big + OUT_SLACK)
    outs = unseen_n[JOKER] + (copies * wanted).sum(axis=2)
    outs = np.minimum(outs, total)
    short_nat_capped = np.minimum(short_nat, MAX_NEED)
    short_big_capped = np.minimum(short, MAX_NEED)
    impossible = (short_nat > unseen_n[None, None, :]).any(axis=2) | (short > outs)
    # only kinds that some plan lacks matter for the natural product
    cols = np.flatnonzero(short_nat.any(axis=(0, 1)))
    for i, d in enumerate(horizons):
        t = tails(total, int(d))
        if len(cols):
            per = t[unseen_n[cols][None, None, :], short_nat_capped[:, :, cols]]
            p_nat = per.prod(axis=2)
        else:
            p_nat = np.ones((h, p))
        p_big = (tails(total, round(d * (1 + claims)))[outs, short_big_capped] if claims
                 else t[outs, short_big_capped])
        out[:, :, i] = p_nat * p_big
    out[impossible] = 0.0
    return out
