"""Rulings on situations a referee checked: a Mah Jongg made of exposures only, a Double
claim beside an exposed rack, Jokers of a rack in error, withdrawing a claim, the last
discard (rules sections 4 to 9)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.engine.helpers import R, legal_texts, lines, play, rig
from twinrack.card import practice_card
from twinrack.engine import (
    MahJongg,
    apply,
    score,
)
from twinrack.engine.events import MahJonggDeclared
from twinrack.tiles import FLOWER, JOKER, format_tiles, tile_index

CARD = practice_card()

# ------------------------------------------------------------------ all exposed


def all_exposed_game(strict: bool):  # type: ignore[no-untyped-def]
    """Seat 0 exposes F F F F, N N N, S S S and R R R R on rack 1 with four claimed
    discards of seat 1: Honors-5 "FFFF NNN SSS DDDDa" (30) with every tile exposed."""
    g = rig(R(strict=strict), ["F F F N N S S R R R", "F N S R"], picks="2B 3B 4B 5B 6B")
    play(g, "0: discard 2B", "1: pass", "1: discard F", "0: claim expose",
         "0: expose 1 F F F F", "0: discard 1C", "1: pass", "1: discard N", "0: claim expose",
         "0: expose 1 N N N", "0: discard 9C", "1: pass", "1: discard S", "0: claim expose",
         "0: expose 1 S S S", "0: discard 1D", "1: pass", "1: discard R", "0: claim expose",
         "0: expose 1 R R R R")
    return g


@pytest.mark.parametrize("strict", [False, True])
def test_a_mahjongg_of_exposures_only_is_declared_with_no_tile(strict: bool) -> None:
    g = all_exposed_game(strict)
    assert g.players[0].racks[0].exposed == 14 and any(g.players[0].racks[0].conc)
    assert [t for t in legal_texts(g, 0) if "mahjongg" in t] == ["0: mahjongg 1"]
    assert play(g, "0: mahjongg 1") == ["mahjongg 0 1 Honors-5 jokerless:"]
    p = g.players[0]
    assert p.n == 14 and sum(p.racks[1].conc) == 14 and p.racks[0].dead is None
    assert play(g, "0: discard 3D")[0] == "discard 0 3D"
    assert lines(g) == ["seat 0: +60  Mah Jongg on rack 1: Honors-5 (card value 30; "
                        "jokerless x2)"]


# ------------------------------------------------------------------ properties

#: every way of a line that may be exposed (not concealed, not declared) and is made of
#: groups of 3 or more only: such a rack can be exposed in full
FULL_WAYS = [(h, w) for h in CARD.hands if not (h.concealed or h.declared) for w in h.ways
             if all(g.size >= 3 for g in w.groups)]


@st.composite
def exposed_way(draw: st.DrawFn) -> tuple[str, list[list[int]]]:
    """A line made of groups of 3 or more and its groups as tiles, with Jokers drawn in
    (enough where the set has too few of a tile, never more than its 8 Jokers)."""
    hand, way = draw(st.sampled_from(FULL_WAYS))
    groups: list[list[int]] = []
    naturals: Counter[int] = Counter()
    for g in way.groups:
        least = max(0, g.size - (8 if g.tile == FLOWER else 4) + naturals[g.tile])
        j = draw(st.integers(least, min(g.size, least + 2)))
        naturals[g.tile] += g.size - j
        groups.append([g.tile] * (g.size - j) + [JOKER] * j)
    assume(sum(grp.count(JOKER) for grp in groups) <= 8)
    return hand.id, groups


@settings(max_examples=40, deadline=None)
@given(line=exposed_way(), rack=st.integers(1, 2), strict=st.booleans())
def test_any_rack_exposed_in_full_is_declared_and_scored(line: tuple[str, list[list[int]]],
                                                        rack: int, strict: bool) -> None:
    own, groups = line
    tiles = [t for grp in groups for t in grp]
    pick = next(t for t in ("1D", "9B", "N") if tile_index(t) not in tiles)
    g = rig(R(strict=strict, expose_any_time=True), [format_tiles(tiles)], picks=pick)
    for grp in groups:
        play(g, f"0: expose {rack} {format_tiles(grp)}")
    offered = [t for t in legal_texts(g, 0) if t.startswith(f"0: mahjongg {rack}")]
    assert offered == [f"0: mahjongg {rack}"]
    (ev,) = apply(g, MahJongg(0, rack - 1, ()))
    assert isinstance(ev, MahJonggDeclared) and ev.tiles == () and ev.rack == rack - 1
    assert ev.jokerless == (JOKER not in tiles) and not ev.closed and not ev.arranged
    hand = next(h for h in CARD.hands if h.id == ev.hand)
    points = hand.value * (2 if ev.jokerless else 1)
    assert score(g).totals == (points, 0)
    assert points >= next(h for h in CARD.hands if h.id == own).value


