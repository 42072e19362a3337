"""Hints on rigged positions: the exact lines, tiles needed and unseen counts."""

from __future__ import annotations

import json

import pytest

from tests.engine.helpers import R, play, rig
from twinrack.bots.hints import DiscardHint, hints
from twinrack.card import practice_card
from twinrack.engine import RuleSet, new_game, view

KONGS = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"  # 2468-3 (FFF 2222a 666a 8888b) but one 8C


def test_lines_needs_and_unseen_on_a_rigged_deal() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    h = hints(view(game, 0), practice_card())
    assert [r.rack for r in h.racks] == [1, 2]
    for rack in h.racks:
        # the racks share one holding: each is counted from all of it
        assert [(x.id, x.away) for x in rack.lines] == [("2468-3", 1), ("2468-6", 5),
                                                        ("Addition-6", 5)]
        first = rack.lines[0]
        assert (first.section, first.value, first.concealed) == ("2468", 25, False)
        # one 8C is missing; three are held, the fourth is somewhere unseen
        assert [(n.tile, n.count, n.unseen) for n in first.needs] == [("8C", 1, 1)]
    assert [(p.ids, p.away, p.value) for p in h.plans] == [
        (("2468-3", "13579-6"), 8, 75), (("2468-3", "Pairs-3"), 9, 85),
        (("2468-3", "Pairs-7"), 9, 85)]
    assert h.discard == DiscardHint(
        "1D", "1D is in none of your nearest lines; 2468-3 + Pairs-3 stays 9 away")


def test_unseen_counts_drop_with_what_the_table_shows() -> None:
    """The opponent discards an 8C: the last copy is seen, so no 8C is unseen."""
    game = rig(R(), hands=[KONGS, "8C"], picks="N 1D", avoid="8C 2B 6B F")
    play(game, "0: discard N", "1: pass", "1: discard 8C")
    # seat 0 may claim the 8C now: its hints show it as seen on the table
    h = hints(view(game, 0), practice_card())
    first = h.racks[0].lines[0]
    assert first.id == "2468-3"
    assert [(n.tile, n.unseen) for n in first.needs] == [("8C", 0)]
    assert h.discard is None  # not seat 0's turn to discard


def test_to_dict_is_the_documented_json() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    d = hints(view(game, 0), practice_card()).to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {"racks", "discard", "plans"}
    assert d["racks"][0]["lines"][0] == {
        "id": "2468-3", "section": "2468", "away": 1, "value": 25, "concealed": False,
        "needs": [{"tile": "8C", "count": 1, "unseen": 1}]}
    assert d["discard"] == {
        "tile": "1D", "reason": "1D is in none of your nearest lines; 2468-3 + Pairs-3 "
                                "stays 9 away"}
    assert d["plans"][0] == {"ids": ["2468-3", "13579-6"], "away": 8, "value": 75}


def test_discard_only_on_ones_own_turn() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    assert hints(view(game, 0), practice_card()).discard == DiscardHint(
        "1D", "1D is in none of your nearest lines; 2468-3 + Pairs-3 stays 9 away")
    assert hints(view(game, 1), practice_card()).discard is None
    assert hints(view(game, None), practice_card()).racks == ()


def test_a_finished_rack_drops_out_and_plans_have_one_line() -> None:
    # rack 1 makes 2468-3 when the 8C comes; then only rack 2 is open
    game = rig(R(), hands=[KONGS], picks="8C", avoid="8C 2B 6B F")
    play(game, "0: mahjongg 1 F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C")
    h = hints(view(game, 0), practice_card())
    assert [r.rack for r in h.racks] == [2]
    assert [(p.ids, p.away, p.value) for p in h.plans] == [
        (("13579-6",), 7, 50), (("Pairs-3",), 8, 60), (("Pairs-7",), 8, 60)]


@pytest.mark.parametrize(("variant", "players", "discard", "plan"), [
    ("siamese", 2, "8C", (("2026-4", "13579-6"), 8)),
    ("royale", 4, "1D", (("2026-3", "Pairs-4"), 11)),
    ("imperial", 2, "3C", (("Like-5", "Pairs-7", "Runs-5", "Pairs-5"), 10)),
])
def test_every_variant(variant: str, players: int, discard: str,
                                plan: tuple[tuple[str, ...], int]) -> None:
    card = practice_card()
    game = new_game(RuleSet.for_variant(variant, players, declared_hands=False), seed=3,
                    card=card)
    h = hints(view(game, 0), card)
    assert h.discard is not None and h.discard.tile == discard
    assert [r.rack for r in h.racks] == list(range(1, len(plan[0]) + 1))
    assert (h.plans[0].ids, h.plans[0].away) == plan
