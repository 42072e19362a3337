"""Plans on stated holdings: the line aimed for on each open rack and its tiles away,
checked against the plain oracle of tests/card/oracle.py for two racks."""

from __future__ import annotations

from dataclasses import replace

from tests.card import oracle
from twinrack.bots.plans import AwayValue, planner
from twinrack.card import Card, practice_card
from twinrack.card.exposure import Exposure
from twinrack.tiles import INDEX, NUM_KINDS, format_tiles, parse_tiles

#: 2468-3 (FFF 2222a 666a 8888b) but one 8C, and a North
NEAR = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C N"
#: a dealt holding of 27 tiles for two racks
DEALT = ("2B 2B 2B 2B 6B 6B 6B 1C 2C 3C 4C 5C 6C 8C N 8C 8C 9C 1D 4D 5D 6D 7D 8D 9D "
         "F F F")


def counts(text: str) -> list[int]:
    out = [0] * NUM_KINDS
    for t in parse_tiles(text):
        out[t] += 1
    return out


def undeclared(card: Card) -> Card:
    """The lines plans aim for: the card without its declared-at-deal lines."""
    hands = tuple(replace(h, number=i)
                  for i, h in enumerate(h for h in card.hands if not h.declared))
    return Card(card.name, card.edition, hands, card.sha256 + ":undeclared")


def test_one_rack_aims_for_the_nearest_line() -> None:
    plan = planner(practice_card()).single(counts(NEAR), ())
    assert [(r.rack, r.hand.id) for r in plan.racks] == [(0, "2468-3")]
    assert plan.away_value == AwayValue(1, 25)


def test_an_exposure_counts_toward_its_line() -> None:
    pungs_of_flowers = (Exposure(INDEX["F"], 3, 0),)
    plan = planner(practice_card()).single(counts("2B 2B 2B 2B 6B 6B 6B 8C 8C 8C N"),
                                           pungs_of_flowers, rack=1)
    assert [(r.rack, r.hand.id) for r in plan.racks] == [(1, "2468-3")]
    assert plan.away == 1


def test_the_tiles_a_way_uses_leave_the_rest() -> None:
    pl = planner(practice_card())
    held = counts(NEAR)
    way = pl.single(held, ()).racks[0].way
    used = pl.used(way, held, ())
    assert format_tiles([t for t in range(NUM_KINDS) for _ in range(used[t])]) == \
        "2B 2B 2B 2B 6B 6B 6B 8C 8C 8C F F F"


def test_two_racks_best_pair_is_the_oracles() -> None:
    held = counts(DEALT)
    plan = planner(practice_card()).best(held, ((0, ()), (1, ())))
    best = oracle.best_pairs(undeclared(practice_card()), held, top=1)[0]
    assert tuple(r.hand.id for r in plan.racks) == best.ids == ("2468-3", "13579-6")
    assert plan.away_value == AwayValue(best.away, best.value) == AwayValue(8, 75)


def test_discards_of_two_racks_are_the_oracles() -> None:
    held = counts(DEALT)
    found = planner(practice_card()).discards(held, ((0, ()), (1, ())))
    expected = oracle.best_discards(undeclared(practice_card()), held)
    assert found == {d.tile: AwayValue(d.away, d.value) for d in expected}
    assert found[INDEX["N"]] == AwayValue(8, 75)  # North costs nothing
    assert found[INDEX["8C"]] == AwayValue(9, 75)  # an 8C is a tile of the plan


def test_one_rack_discards_and_usefulness() -> None:
    pl = planner(practice_card())
    held = counts(NEAR)
    assert pl.discards(held, ((0, ()),)) == {
        INDEX["2B"]: AwayValue(2, 25), INDEX["6B"]: AwayValue(2, 25),
        INDEX["8C"]: AwayValue(2, 25), INDEX["F"]: AwayValue(2, 25),
        INDEX["N"]: AwayValue(1, 25)}
    use = pl.usefulness(held, ((0, ()),))
    assert {format_tiles([t]): use[t] for t in range(NUM_KINDS) if held[t]} == {
        "2B": 1, "6B": 1, "8C": 1, "F": 1, "N": 0}


def test_imperial_racks_are_planned_two_by_two() -> None:
    """Three or four racks: the first pair takes the tiles its lines use, the rest plan
    with what is left."""
    pl = planner(practice_card())
    held = counts(DEALT)
    three = pl.best(held, tuple((r, ()) for r in range(3)))
    four = pl.best(held, tuple((r, ()) for r in range(4)))
    assert [r.hand.id for r in three.racks] == ["2468-3", "13579-6", "Pairs-5"]
    assert three.away_value == AwayValue(16, 125)
    assert [r.hand.id for r in four.racks] == ["2468-3", "13579-6", "Pairs-5", "Pairs-6"]
    assert four.away_value == AwayValue(28, 180)


def test_no_open_rack_is_a_plan_of_nothing() -> None:
    plan = planner(practice_card()).best(counts(NEAR), ())
    assert (plan.racks, plan.away_value) == ((), AwayValue(0, 0))
