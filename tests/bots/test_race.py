"""The race: holdings played forward over shared futures (the shortfalls kept pick by pick
are the ones counted afresh; a throw keeps the nearest plan whole), and the opponents'
chance of not having finished, from the table of expert games."""

from __future__ import annotations

import numpy as np

from tests.bots.test_master import mid_game
from twinrack.bots.greedy import minus, open_racks
from twinrack.bots.odds import candidates
from twinrack.bots.plans import planner
from twinrack.bots.race import (
    HAZARD,
    Forward,
    deal_picks,
    hazards,
    opponents_survive,
    survival,
)
from twinrack.bots.seen import position, unseen
from twinrack.card import practice_card
from twinrack.engine import view
from twinrack.tiles import JOKER


def forward_at_mid_game() -> tuple[Forward, list[int], list[int]]:
    game = mid_game()
    seen = view(game, game.current)
    seat = position(seen)
    plans = candidates(planner(practice_card()), seat.free, open_racks(seat))
    holding = minus(seat.free, (max(range(len(seat.free)), key=lambda t: seat.free[t]),))
    return Forward(plans.take(np.arange(min(48, len(plans))))), holding, unseen(seen)


def test_the_shortfalls_kept_pick_by_pick_are_the_ones_counted_afresh() -> None:
    f, holding, pool = forward_at_mid_game()
    picks = deal_picks(pool, 20, 50, np.random.default_rng(1))
    h = np.repeat(np.asarray([holding], dtype=np.int16), 50, axis=0)
    ns, bs = (np.repeat(x, 50, axis=0) for x in f.shortfalls(h[:1]))
    rows = np.arange(50)
    for k in range(20):
        t = picks[:, k]
        cur = h[rows, t][:, None]
        less = cur < f.nat_t[t]
        ns -= less
        bs -= ~less & (cur - f.nat_t[t] < f.big_t[t])
        h[rows, t] += 1
        away = ns + np.maximum(bs - h[:, JOKER, None], 0)
        nearest = away.min(axis=1)
        f._throw(h, ns, bs, away, rows)
        fresh_ns, fresh_bs = f.shortfalls(h)
        assert np.array_equal(fresh_ns, ns) and np.array_equal(fresh_bs, bs)
        assert (h.sum(axis=1) == sum(holding)).all()
        # the throw never set the nearest plan back
        after = ns + np.maximum(bs - h[:, JOKER, None], 0)
        assert (after.min(axis=1) == nearest).all()


def test_a_holding_finishes_at_the_pick_that_completes_a_plan() -> None:
    f, holding, pool = forward_at_mid_game()
    futures = deal_picks(pool, 30, 64, np.random.default_rng(3))
    when, worth = f.run(np.asarray([holding, holding]), futures, [False, False])
    again, _ = f.run(np.asarray([holding]), futures, [False])
    assert np.array_equal(when[0], when[1]) and np.array_equal(when[0], again[0])
    assert (when >= 1).all() and (when <= 31).all()
    assert ((worth > 0) == (when <= 30)).all()
    assert int((when[0] <= 30).sum()) == 2


def test_the_futures_are_the_unseen_tiles_shuffled() -> None:
    pool = [0] * 36
    pool[3], pool[JOKER] = 2, 3
    futures = deal_picks(pool, 9, 4, np.random.default_rng(0))
    assert futures.shape == (4, 5)  # no more picks than unseen tiles
    for row in futures.tolist():
        assert sorted(row) == [3, 3, JOKER, JOKER, JOKER]


def test_the_opponents_survival_follows_the_table() -> None:
    n, first, fin = HAZARD[2, 8]
    assert hazards(2, 33) == (first / n, fin / n)
    assert hazards(2, 500) == hazards(2, 4 * max(b for r, b in HAZARD if r == 2))
    s = survival(1, 24, 3)
    h = [hazards(1, 24 + k)[1] for k in range(3)]
    expected = [1.0, 1 - h[0], (1 - h[0]) * (1 - h[1]), (1 - h[0]) * (1 - h[1]) * (1 - h[2])]
    assert np.allclose(s, expected)
    assert (np.diff(survival(2, 0, 40)) <= 0).all()
    game = mid_game()
    seen = view(game, game.current)
    after_discard = opponents_survive(seen, 10, before_own=True)
    in_window = opponents_survive(seen, 10, before_own=False)
    assert after_discard[0] == in_window[0] == in_window[1] == 1.0
    assert np.allclose(in_window[2:], after_discard[1:-1])
