"""The chance of finishing a plan, on small stated positions, against the hypergeometric
counts worked out by hand with ``math.comb``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.bots.stated import at_least, holding, kinds, one_plan
from twinrack.bots.greedy import open_racks
from twinrack.bots.odds import aways, candidates, chances, needs, plans_of, tails
from twinrack.bots.plans import planner
from twinrack.bots.seen import position
from twinrack.card import practice_card
from twinrack.engine import RuleSet, new_game, view
from twinrack.tiles import NUM_KINDS, parse_tiles


@pytest.mark.parametrize(("unseen", "draws", "useful", "m"), [
    (10, 3, 4, 2), (124, 20, 1, 1), (124, 20, 3, 2), (60, 60, 2, 2), (30, 0, 5, 1)])
def test_tails_are_the_hypergeometric_tail(unseen: int, draws: int, useful: int,
                                           m: int) -> None:
    assert tails(unseen, draws)[useful, m] == pytest.approx(at_least(m, useful, unseen, draws),
                                                            abs=1e-12)


def test_a_missing_natural_comes_with_the_chance_of_its_copies() -> None:
    """A pair lacks one 8C; one 8C is unseen among 10 tiles; 5 picks: 5 in 10."""
    got = chances(one_plan(nat={"8C": 2}), holding({"8C": 1}), kinds({"8C": 1, "1D": 9}), [5])
    assert got[0, 0, 0] == pytest.approx(0.5, abs=1e-12)


def test_a_group_takes_a_joker_or_a_copy() -> None:
    """A pung lacks one 6C; two 6C and one Joker are unseen among 10: at least one of the
    three in 2 picks."""
    got = chances(one_plan(big={"6C": 3}), holding({"6C": 2}),
                  kinds({"6C": 2, "J": 1, "1D": 7}), [2])
    assert got[0, 0, 0] == pytest.approx(at_least(1, 3, 10, 2), abs=1e-12)  # 24/45


def test_naturals_and_groups_multiply() -> None:
    """A pair lacking an 8C and a pung lacking a 6C: the two tails taken as independent."""
    unseen = kinds({"8C": 1, "6C": 1, "1D": 8})
    got = chances(one_plan(nat={"8C": 2}, big={"6C": 3}), holding({"8C": 1, "6C": 2}),
                  unseen, [4])
    assert got[0, 0, 0] == pytest.approx(at_least(1, 1, 10, 4) ** 2, abs=1e-12)


def test_a_plan_needing_a_gone_tile_is_impossible_and_a_finished_one_certain() -> None:
    gone = chances(one_plan(nat={"8C": 2}), holding({}), kinds({"8C": 1, "1D": 9}), [10])
    done = chances(one_plan(nat={"8C": 2}), holding({"8C": 2}), kinds({"1D": 10}), [0, 5])
    assert gone.tolist() == [[[0.0]]]
    assert done.tolist() == [[[1.0, 1.0]]]


def test_needs_are_the_shortfalls_and_the_jokers_held() -> None:
    short_nat, short_big, jokers = needs(one_plan(nat={"8C": 2}, big={"6C": 4}),
                                         holding({"8C": 1, "6C": 1, "J": 2}))
    assert short_nat[0, 0].tolist() == kinds({"8C": 1})
    assert short_big[0, 0].tolist() == kinds({"6C": 3})
    assert jokers.tolist() == [2]


def test_candidates_of_one_rack_start_with_the_nearest_way() -> None:
    pl = planner(practice_card())
    held = [0] * NUM_KINDS
    for t in parse_tiles("F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C N"):
        held[t] += 1
    plans = candidates(pl, held, ((0, ()),))
    nearest = pl.single(held, ()).racks[0].way
    assert nearest in plans.ways[:, 0].tolist()
    row = plans.ways[:, 0].tolist().index(nearest)
    # 2468-3 on this holding lacks one 8C for its kong of 8C
    short_nat, short_big, _jokers = needs(plans, np.asarray([held], dtype=np.int64))
    assert (short_nat[0, row].tolist(), short_big[0, row].tolist()) == (kinds({}),
                                                                        kinds({"8C": 1}))
    assert plans.value[row] == 25


def test_four_open_racks_are_planned_two_by_two_on_the_one_holding() -> None:
    """Imperial before any Mah Jongg: every plan covers the four racks, its demand is the
    sum of its four ways', and it is counted exactly on the one holding. Combining the
    first racks' nearest pairs of lines with the others' plans from what several of them
    leave finds a plan nearer than the greedy planner's (one first pair, then the others
    from what it leaves): 11 tiles away against 12."""
    game = new_game(RuleSet.for_variant("imperial", 2), seed=3)
    seat = position(view(game, 0))
    racks = open_racks(seat)
    pl = planner(practice_card())
    plans = candidates(pl, seat.free, racks)
    assert len(racks) == 4 and plans.racks == (0, 1, 2, 3)
    assert plans.ways.shape == (len(plans), 4) and len(plans) == 144
    demand = sum(pl.cc.rack(ex).tot[plans.ways[0, i], :NUM_KINDS] for i, (_r, ex)
                 in enumerate(racks))
    assert (plans.nat[0] + plans.big[0]).tolist() == demand.tolist()
    near = aways(plans, seat.free)
    assert near.tolist() == sorted(near.tolist())
    assert [pl.cc.hand_of(int(w)).id for w in plans.ways[0]] == [
        "Pairs-4", "Special-3", "2026-6", "13579-6"]
    greedy = pl.best(seat.free, racks)
    counted = plans_of(pl, np.asarray([[rp.way for rp in greedy.racks]]), racks)
    assert (int(near[0]), int(aways(counted, seat.free)[0])) == (11, 12)
