"""The bots' compiled loops (bots/kernels.py) give exactly what their numpy code gives: the
race played forward (every finishing pick and value) and the plans' chances (to the bit),
on seeded positions; and seeded games of the expert and the master are played move for
move the same on either path (the card's kernel included)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.bots.test_master import mid_game
from tests.bots.untimed import UNTIMED_BOTS
from tests.golden.make_golden import fingerprint
from twinrack.bots.arena import Setup, Task, play_task
from twinrack.bots.greedy import minus, open_racks
from twinrack.bots.odds import Plans, candidates, chances
from twinrack.bots.plans import planner
from twinrack.bots.race import Forward, deal_picks
from twinrack.bots.seen import position, unseen
from twinrack.card import kernel, practice_card
from twinrack.engine import RuleSet, view
from twinrack.tiles import JOKER, NUM_KINDS

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")


def positions() -> list[tuple[Plans, list[list[int]], list[int]]]:
    """(plans, some holdings, unseen counts) at several points of seeded games: the
    holdings are the seat's after each discard it could make."""
    out = []
    for decisions in (0, 20, 40, 60, 80):
        game = mid_game(decisions)
        seen = view(game, game.current)
        seat = position(seen)
        plans = candidates(planner(practice_card()), seat.free, open_racks(seat))
        holdings = [minus(seat.free, (t,)) for t in range(NUM_KINDS) if seat.free[t]]
        out.append((plans, holdings, unseen(seen)))
    return out


def test_the_race_is_the_same_on_both_paths() -> None:
    rng = np.random.default_rng(31)
    compared = finished = 0
    for plans, holdings, pool in positions():
        for size in (1, 7, 70, len(plans)):  # one word of plan bits, and more than one
            forward = Forward(plans.take(np.arange(min(size, len(plans)))))
            for draws in (0, 1, 12, 40):
                picks = deal_picks(pool, draws, 60, rng)
                chosen = np.asarray(holdings[:4])
                first = [bool(b) for b in rng.integers(0, 2, len(chosen))]
                # a claim's holding: one tile more, thrown before the first pick
                chosen[first, int(rng.integers(0, JOKER))] += 1
                forward.kernel = True
                fast = forward.run(chosen, picks, first)
                forward.kernel = False
                plain = forward.run(chosen, picks, first)
                assert fast[0].tolist() == plain[0].tolist()
                assert fast[1].tolist() == plain[1].tolist()
                compared += fast[0].size
                finished += int((fast[0] <= draws).sum())
    assert compared > 10_000 and finished > compared // 50  # some futures do finish


def test_a_race_with_no_plan_or_no_future_never_finishes() -> None:
    plans, holdings, pool = positions()[0]
    none = Forward(plans.take(np.arange(0)))
    some = Forward(plans)
    picks = deal_picks(pool, 10, 5, np.random.default_rng(1))
    for forward, futures in ((none, picks), (some, picks[:0])):
        for on in (True, False):
            forward.kernel = on
            when, worth = forward.run(np.asarray(holdings[:2]), futures, [False, True])
            assert when.shape == worth.shape == (2, len(futures))
            assert set(when.ravel().tolist()) <= {11} and not worth.any()


def test_the_chances_are_the_same_bits_on_both_paths() -> None:
    compared = 0
    for plans, holdings, pool in positions():
        h = np.asarray(holdings, dtype=np.int64)
        for horizons in ([0, 3, 7, 12], [1], [60, 200]):
            for claims in (0.0, 0.35):
                fast = chances(plans, h, pool, horizons, claims, compiled=True)
                plain = chances(plans, h, pool, horizons, claims, compiled=False)
                assert fast.dtype == plain.dtype and fast.shape == plain.shape
                assert fast.tobytes() == plain.tobytes()
                compared += fast.size
    assert compared > 20_000


@pytest.mark.parametrize(("variant", "players", "bots"), [
    ("siamese", 2, ["expert", "greedy"]),
    ("siamese", 2, ["master", "expert"]),
    ("royale", 3, ["expert", "greedy", "master"]),
    ("imperial", 2, ["expert", "master"]),
])
def test_seeded_games_are_played_the_same_on_both_paths(
        variant: str, players: int, bots: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    setup = Setup(RuleSet(variant=variant, players=players), practice_card(), bots,
                  seed=4407, duplicate=False, record=True, registry=UNTIMED_BOTS)
    games = {}
    for on in (True, False):
        monkeypatch.setattr(kernel, "ACTIVE", on)
        record = play_task(setup, Task(0, 0, 0)).record
        assert record is not None
        games[on] = (len(record["actions"]), fingerprint(record))
    assert games[True] == games[False]
    assert games[True][0] > 40  # a whole game, not a few moves


def test_holdings_with_many_jokers_race_the_same() -> None:
    plans, holdings, pool = positions()[2]
    forward = Forward(plans)
    rng = random.Random(4)
    chosen = np.asarray(holdings[:3])
    chosen[:, JOKER] += [rng.randint(1, 4) for _ in range(3)]
    picks = deal_picks(pool, 25, 80, np.random.default_rng(2))
    results = []
    for on in (True, False):
        forward.kernel = on
        results.append([x.tolist() for x in forward.run(chosen, picks, [False] * 3)])
    assert results[0] == results[1]
