"""Hints on rigged positions: the exact lines, tiles needed and unseen counts."""

from __future__ import annotations

import json
import time

from tests.engine.helpers import R, play, rig
from twinrack.bots.hints import hints
from twinrack.card import practice_card
from twinrack.engine import RuleSet, new_game, view

KONGS = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"  # 2468-3 (FFF 2222a 666a 8888b) but one 8C


def test_lines_needs_and_unseen_on_a_rigged_deal() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    h = hints(view(game, 0), practice_card())
    assert [r.rack for r in h.racks] == [1, 2]
    for rack in h.racks:
        first = rack.lines[0]
        assert (first.id, first.section, first.away, first.value, first.concealed) == \
            ("2468-3", "2468", 1, 25, False)
        # one 8C is missing; three are held, the fourth is somewhere unseen
        assert [(n.tile, n.count, n.unseen) for n in first.needs] == [("8C", 1, 1)]
        assert len(rack.lines) == 3
        assert all(x.away >= 1 for x in rack.lines)
    assert h.plans and "2468-3" in h.plans[0].ids
    assert h.discard is not None


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
    json.dumps(d)
    assert set(d) == {"racks", "discard", "plans"}
    line = d["racks"][0]["lines"][0]
    assert {"id", "section", "away", "needs", "value", "concealed"} <= set(line)
    assert line["needs"] == [{"tile": "8C", "count": 1, "unseen": 1}]
    assert set(d["discard"]) == {"tile", "reason"} and d["discard"]["reason"]
    assert {"ids", "away", "value"} <= set(d["plans"][0]) and len(d["plans"][0]["ids"]) == 2


def test_discard_only_on_ones_own_turn() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    assert hints(view(game, 0), practice_card()).discard is not None
    assert hints(view(game, 1), practice_card()).discard is None
    assert hints(view(game, None), practice_card()).racks == ()


def test_a_finished_rack_drops_out_and_plans_have_one_line() -> None:
    # rack 1 makes 2468-3 when the 8C comes; then only rack 2 is open
    game = rig(R(), hands=[KONGS], picks="8C", avoid="8C 2B 6B F")
    play(game, "0: mahjongg 1 F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C")
    h = hints(view(game, 0), practice_card())
    assert [r.rack for r in h.racks] == [2]
    assert all(len(p.ids) == 1 for p in h.plans)


def test_every_variant_and_fast() -> None:
    card = practice_card()
    for variant, players in (("siamese", 2), ("royale", 4), ("imperial", 2)):
        game = new_game(RuleSet.for_variant(variant, players, declared_hands=False), seed=3,
                        card=card)
        seat = game.to_act()[0]
        hints(view(game, seat), card)
        start = time.perf_counter()
        h = hints(view(game, seat), card)
        assert time.perf_counter() - start < 0.2  # about 10 ms on an idle core
        assert h.discard is not None
        assert len(h.racks) == (4 if variant == "imperial" else 2)
        assert h.plans and len(h.plans[0].ids) == len(h.racks)
