"""Hints on rigged positions: one coherent picture of the holding (the plan first, what each
rack of it still needs, then alternatives), a Mah Jongg said first, tiles named in words."""

from __future__ import annotations

import json
import math

import pytest

from tests.engine.helpers import R, play, rig
from twinrack.bots.coach import advise
from twinrack.bots.hints import DiscardHint, hints, view_rng
from twinrack.bots.master import MasterBot
from twinrack.card import practice_card
from twinrack.engine import Discard, Move, RuleSet, apply, legal_actions, new_game, view
from twinrack.engine.state import GameState
from twinrack.narration import tile_label
from twinrack.tiles import CANONICAL, INDEX

KONGS = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"  # 2468-3 (FFF 2222a 666a 8888b) but one 8C


def _hints(game: GameState, seat: int = 0):  # type: ignore[no-untyped-def]
    """The hints with the expert's sampled futures whatever the time they take (a finite
    budget would make them depend on the machine's load)."""
    return hints(view(game, seat), practice_card(), legal=legal_actions(game, seat),
                 budget_ms=math.inf)


def test_the_plan_splits_the_holding_between_the_racks() -> None:
    """The two racks share one holding: the plan's needs add up to its tiles away, and each
    rack lists the plan's line first (rack 1 gives two Flowers to rack 2's pairs)."""
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    h = _hints(game)
    assert h.summary == ("Best plan once you discard 1 Crak: 2468-3 on rack 1 (3 away) + "
                         "Pairs-3 on rack 2 (6 away): 9 away in all, 85 points.")
    first, second = (r.lines[0] for r in h.racks)
    assert [(n.tile, n.count, n.unseen) for n in first.needs] == [("8C", 1, 1), ("F", 2, 5)]
    assert (first.id, first.away, first.plan_away) == ("2468-3", 3, 9)
    assert (second.id, second.away, second.plan_away) == ("Pairs-3", 6, 9)
    assert sum(n.count for n in second.needs) == 6
    # alternatives for rack 2 keep rack 1 on 2468-3: the whole plan's tiles away is shown
    assert [(x.id, x.away, x.plan_away) for x in h.racks[1].lines[1:]] == [
        ("Pairs-7", 8, 9), ("Pairs-6", 7, 9)]
    assert [(p.ids, p.away, p.value) for p in h.plans] == [
        (("2468-3", "Pairs-3"), 9, 85), (("2468-3", "Pairs-7"), 9, 85),
        (("2468-3", "Pairs-6"), 9, 80)]
    assert h.discard == DiscardHint(
        "1C", "1 Crak is the tile your plan needs least: your plan goes from 8 to 9 away")


def test_a_mahjongg_kept_concealed_is_said_with_the_discard_and_reads_as_made() -> None:
    """The pick makes 2468-3; the coach (the expert's timing) keeps a first Mah Jongg
    concealed while the wall is long: the discard says so, the rack reads 0 away, and the
    Mah Jongg choices name their line and points."""
    game = rig(R(), hands=[KONGS], picks="8C", avoid="8C 2B 6B F")
    h = _hints(game)
    assert h.mahjongg is None
    assert h.discard is not None and h.discard.tile == "1C"
    assert h.discard.reason.endswith(
        "You could declare Mah Jongg now (2468-3, 60 points), but kept concealed it can "
        "still grow, into a Double Mah Jongg or a dearer line, while the wall is long")
    assert [(r.rack, r.lines[0].id, r.lines[0].away) for r in h.racks] == [
        (1, "2468-3", 0), (2, "Pairs-3", 8)]
    assert [(c.verb, c.note) for c in h.choices][:1] == [
        ("mahjongg", "2468-3, 60 points, jokerless, concealed; your other rack then 7 away")]


def test_a_discard_that_gives_a_cheap_mahjongg_the_coach_claims_for_a_kong() -> None:
    """The opponent discards the last 8C: seat 0 may claim it for Mah Jongg, but the coach
    exposes a kong with it instead (a claimed first Mah Jongg worth this little is not
    taken while the wall is long); the hint and its choices say the same."""
    game = rig(R(), hands=[KONGS, "8C"], picks="N 1D", avoid="8C 2B 6B F")
    play(game, "0: discard N", "1: pass", "1: discard 8C")
    h = _hints(game)
    assert h.discard is None  # not seat 0's turn to discard
    assert h.claim is not None and h.claim.helps
    assert h.claim.reason == ("Claim 8 Crak: expose four 8 Crak on rack 2 for 2468-3 (25 "
                              "points): your plan goes from 8 to 7 away.")
    assert [(c.text, c.best) for c in h.choices] == [
        ("claim expose", True), ("claim mahjongg", False), ("pass", False)]
    assert h.choices[1].note == "2468-3 on rack 1, 60 points"
    # the table shows the 8C now: none is unseen
    made = next(r for r in h.racks if r.lines[0].id == "2468-3")
    assert [(n.tile, n.unseen) for n in made.lines[0].needs] == [("8C", 0)]


def test_during_a_window_without_a_claim_the_hint_says_pass() -> None:
    game = rig(R(), hands=[KONGS, "9D"], picks="N 1D", avoid="8C 2B 6B F 9D")
    play(game, "0: discard N", "1: pass", "1: discard 9D")
    # pass, or arrange the racks (which answers nothing)
    assert {a.verb for a in legal_actions(game, 0)} == {"pass", "move"}
    h = _hints(game)
    assert h.claim is not None
    assert (h.claim.tile, h.claim.helps, h.claim.reason) == (
        "9D", False, "You cannot claim 9 Dot now: pass.")


def test_to_dict_is_the_documented_json() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    d = _hints(game).to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {"summary", "charleston", "mahjongg", "claim", "racks", "discard",
                      "plans", "action", "exchange", "choices", "warnings", "arrange", "reach"}
    assert d["racks"][0]["lines"][0] == {
        "id": "2468-3", "section": "2468", "away": 3, "value": 25, "concealed": False,
        "needs": [{"tile": "8C", "count": 1, "unseen": 1}, {"tile": "F", "count": 2,
                                                            "unseen": 5}],
        "plan_away": 9}
    assert d["plans"][0] == {"ids": ["2468-3", "Pairs-3"], "away": 9, "value": 85}


def test_discard_only_on_ones_own_turn() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    assert _hints(game).discard is not None
    assert _hints(game, 1).discard is None
    assert hints(view(game, None), practice_card()).racks == ()


def test_a_finished_rack_drops_out_and_plans_have_one_line() -> None:
    # rack 1 makes 2468-3 when the 8C comes; then only rack 2 is open
    game = rig(R(), hands=[KONGS], picks="8C", avoid="8C 2B 6B F")
    play(game, "0: mahjongg 1 F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C")
    h = _hints(game)
    assert [r.rack for r in h.racks] == [2]
    # the discard is the coach's own (its sampled futures decide among near ties), and the
    # plans shown are one line each, for the tiles kept after it, nearest first
    best = advise(view(game, 0), practice_card(), legal_actions(game, 0)).best
    assert isinstance(best, Discard) and h.discard is not None
    assert h.discard.tile == CANONICAL[best.tile]
    assert all(len(p.ids) == 1 for p in h.plans) and len(h.plans) == 3
    assert [p.away for p in h.plans] == sorted(p.away for p in h.plans)
    assert h.summary.startswith(f"Best plan once you discard {tile_label(best.tile)}: ")


@pytest.mark.parametrize(("variant", "players", "discard", "plan"), [
    ("siamese", 2, "9B", (("Pairs-7", "2026-3"), 9)),
    ("royale", 4, "1D", (("Pairs-4", "2026-3"), 11)),
])
def test_every_variant(variant: str, players: int, discard: str,
                       plan: tuple[tuple[str, ...], int]) -> None:
    card = practice_card()
    game = new_game(RuleSet.for_variant(variant, players, declared_hands=False), seed=3,
                    card=card)
    h = hints(view(game, 0), card, legal=legal_actions(game, 0), budget_ms=math.inf)
    assert h.discard is not None and h.discard.tile == discard
    assert [r.rack for r in h.racks] == list(range(1, len(plan[0]) + 1))
    assert (h.plans[0].ids, h.plans[0].away) == plan
    assert sum(r.lines[0].away for r in h.racks) == plan[1]


def test_imperial_deal_with_a_mahjongg_says_so_on_every_rack() -> None:
    card = practice_card()
    game = new_game(RuleSet.for_variant("imperial", 2, declared_hands=False), seed=3,
                    card=card)
    h = hints(view(game, 0), card, legal=legal_actions(game, 0))
    assert h.mahjongg is not None and h.mahjongg.racks == (3,)
    assert h.summary.startswith("Mah Jongg now with Special-3 (50 points) on rack 3: declare "
                                "it. Best plan: ")
    assert h.discard is None
    # the plan after it: the three other racks (rack 3 reads as made)
    assert (h.plans[0].ids, h.plans[0].away) == (("2026-3", "Pairs-4", "13579-6"), 10)
    assert [(r.rack, r.lines[0].id, r.lines[0].away) for r in h.racks][2] == (
        3, "Special-3", 0)


@pytest.mark.parametrize(("variant", "players", "racks", "discard"), [
    ("siamese", 2, 2, "9B"), ("royale", 3, 2, "8B"), ("royale", 4, 2, "1D"),
    ("imperial", 2, 3, "7C"),
])
def test_the_suggested_discard_is_the_coachs_whole_decision(
        variant: str, players: int, racks: int, discard: str) -> None:
    """The coach (the master, which plays as the expert where it does not search) with the
    generator the decision fixes decides the same discard; the same view always gets the
    same hint, and moving a tile between one's racks does not change it. (Imperial: East
    declares the Mah Jongg it was dealt, then three racks are open.)"""
    card = practice_card()
    game = new_game(RuleSet.for_variant(variant, players, declared_hands=False), seed=3,
                    card=card)
    if variant == "imperial":
        apply(game, advise(view(game, 0), card, legal_actions(game, 0)).best)
    seen, legal = view(game, 0), legal_actions(game, 0)
    assert len(seen.open_racks) == racks
    h = hints(seen, card, legal=legal)
    assert h.discard is not None and h.discard.tile == discard
    assert MasterBot(card).choose(seen, legal, view_rng(seen)) == Discard(0, INDEX[discard])
    assert hints(seen, card, legal=legal) == h
    move = next(a for a in legal if isinstance(a, Move))
    apply(game, move)
    moved = hints(view(game, 0), card, legal=legal_actions(game, 0))
    assert moved.discard == h.discard and moved.choices == h.choices
