"""Sampled futures: the picks come from the unseen tiles only, in their counts, and the
pick at which a plan finishes is exact in every future."""

from __future__ import annotations

import numpy as np
import pytest

from tests.bots.stated import at_least, holding, kinds, one_plan
from twinrack.bots.odds import Plans, chances
from twinrack.bots.sampling import Futures
from twinrack.tiles import NUM_KINDS


def drawn(futures: Futures) -> np.ndarray:
    """Per future, how many copies of each kind its picks bring (samples x kinds)."""
    return (futures.arrival[:, :, 1:] <= futures.draws).sum(axis=2)


def test_every_future_deals_only_unseen_tiles_in_their_counts() -> None:
    unseen = kinds({"8C": 1, "1D": 3, "J": 2, "F": 4})
    some = Futures(unseen, 6, 200, np.random.default_rng(1))
    got = drawn(some)
    seen_kinds = [t for t in range(NUM_KINDS) if not unseen[t]]
    assert (got[:, seen_kinds] == 0).all()  # never a tile the view has seen
    assert (got <= np.asarray(unseen)).all()  # never more copies than are unseen
    assert got.sum(axis=1).tolist() == [6] * 200  # six picks in every future
    every = Futures(unseen, 10, 50, np.random.default_rng(2))
    assert (drawn(every) == np.asarray(unseen)).all()  # all ten picked: exactly the unseen


def test_more_picks_than_unseen_tiles_are_cut_to_the_unseen() -> None:
    assert Futures(kinds({"1D": 3}), 8, 4, np.random.default_rng(0)).draws == 3


def test_a_plan_finishes_at_the_pick_that_brings_its_last_tile() -> None:
    """Only 8C are unseen: a pair lacking both 8C is finished at the second pick."""
    futures = Futures(kinds({"8C": 2}), 2, 20, np.random.default_rng(3))
    times = futures.finish(one_plan(nat={"8C": 2}), holding({}))
    assert times.tolist() == [[[2] * 20]]
    assert futures.chances(times, [1, 2]).tolist() == [[[0.0, 1.0]]]


def test_a_plan_lacking_a_gone_tile_never_finishes() -> None:
    futures = Futures(kinds({"8C": 1, "1D": 3}), 4, 10, np.random.default_rng(4))
    times = futures.finish(one_plan(nat={"8C": 2}), holding({}))
    assert times.tolist() == [[[futures.never] * 10]]


def test_a_joker_fills_a_group_at_the_pick_that_brings_it() -> None:
    """A pung lacks one 6C, no 6C is unseen: it finishes when the Joker comes."""
    futures = Futures(kinds({"J": 1, "1D": 3}), 4, 30, np.random.default_rng(5))
    times = futures.finish(one_plan(big={"6C": 3}), holding({"6C": 2}))
    joker_at = futures.arrival[:, NUM_KINDS - 1, 1]
    assert times[0, 0].tolist() == joker_at.tolist()


@pytest.mark.parametrize(("plan", "held", "unseen", "picks", "exact"), [
    (one_plan(nat={"8C": 2}), {"8C": 1}, {"8C": 1, "1D": 9}, 3, at_least(1, 1, 10, 3)),
    (one_plan(big={"6C": 3}), {"6C": 2}, {"6C": 2, "J": 1, "1D": 7}, 2,
     at_least(1, 3, 10, 2)),
])
def test_the_share_of_futures_is_near_the_exact_chance(plan: Plans, held: dict[str, int],
                                                       unseen: dict[str, int], picks: int,
                                                       exact: float) -> None:
    """4,000 seeded futures land within 0.02 of the chance worked out by hand, as does
    the odds module's closed form."""
    futures = Futures(kinds(unseen), picks, 4000, np.random.default_rng(6))
    share = float(futures.chances(futures.finish(plan, holding(held)), [picks])[0, 0, 0])
    assert abs(share - exact) < 0.02
    closed_form = chances(plan, holding(held), kinds(unseen), [picks])
    assert closed_form[0, 0, 0] == pytest.approx(exact, abs=1e-12)
