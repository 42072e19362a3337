"""How likely a discard is to complete an opponent's rack, from what the table shows.

Seat 1 has exposed a pung of West on its rack 1 and a pung of Red on its rack 2: only
lines with such a pung can be on those racks (the dragons' lines, "RRR GGG 000 NEWS F"
and its kind), so their tiles are dangerous and a tile none of them uses is not."""

from __future__ import annotations

import numpy as np

from tests.engine.helpers import R, play, rig
from twinrack.bots.danger import waiting_tiles
from twinrack.bots.plans import planner
from twinrack.bots.seen import unseen
from twinrack.card import practice_card
from twinrack.engine import GameState, View, view
from twinrack.tiles import CANONICAL, INDEX


def two_pungs_exposed() -> GameState:
    game = rig(R(), hands=["W R", "W W R R"], picks="N 1D", avoid="W R")
    play(game, "0: discard W", "1: claim expose", "1: expose 1 W W W", "1: discard 9C",
         "0: pass", "0: discard R", "1: claim expose", "1: expose 2 R R R")
    return game


def danger(seen: View) -> np.ndarray:
    return waiting_tiles(planner(practice_card()), seen, 1, unseen(seen))


def test_the_tiles_of_the_lines_the_exposures_fit_are_dangerous() -> None:
    seen = view(two_pungs_exposed(), 0)
    d = danger(seen)
    order = [CANONICAL[t] for t in np.argsort(-d, kind="stable")]
    assert order[:2] == ["G", "0"]  # the other dragons' pungs complete a Red line
    assert d[INDEX["G"]] > d[INDEX["N"]] > 0
    # no line with a pung of West or of Red takes a 4 or an 8 (nor a Joker for itself)
    assert [CANONICAL[t] for t in range(len(d)) if d[t] == 0] == [
        "4B", "8B", "4C", "8C", "4D", "8D", "J"]


def test_a_tile_thrown_since_the_last_mahjongg_weighs_against_its_lines_more() -> None:
    """Seat 1 threw a 9C: the lines wanting a 9C are believed less, and less again when
    the throw came after its last Mah Jongg (discards from ``recent_from`` on)."""
    game = two_pungs_exposed()
    seen = view(game, 0)
    pl = planner(practice_card())
    recent = waiting_tiles(pl, seen, 1, unseen(seen), recent_from=0)
    older = waiting_tiles(pl, seen, 1, unseen(seen), recent_from=len(seen.discards))
    nine = INDEX["9C"]
    assert recent[nine] < older[nine]
