"""What a seat knows from its view: its position (read off the view's fields) and the
tiles it has not seen."""

from __future__ import annotations

from tests.engine.helpers import R, play, rig
from twinrack.bots.seen import own_counts, position, public_seen, unseen
from twinrack.card.exposure import Exposure
from twinrack.engine import Declare, RuleSet, apply, legal_actions, new_game, view
from twinrack.tiles import INDEX, JOKER, NUM_KINDS, format_tiles

KONGS = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"  # 2468-3 but one 8C


def tiles(counts: list[int] | tuple[int, ...]) -> str:
    return format_tiles([t for t in range(NUM_KINDS) for _ in range(counts[t])])


def test_unseen_is_the_set_less_the_own_hand_at_the_start() -> None:
    game = rig(R(), hands=[KONGS], picks="N", avoid="8C 2B 6B F")
    seen = view(game, 0)
    assert (sum(own_counts(seen)), sum(public_seen(seen)), sum(unseen(seen))) == (28, 0, 124)
    assert unseen(seen)[INDEX["8C"]] == 1  # three held, the fourth somewhere unseen


def test_an_opponents_discard_is_seen() -> None:
    game = rig(R(), hands=[KONGS, "8C"], picks="N 1D", avoid="8C 2B 6B F")
    play(game, "0: discard N", "1: pass", "1: discard 8C")
    seen = view(game, 0)
    assert tiles(public_seen(seen)) == "8C N"
    assert (unseen(seen)[INDEX["8C"]], unseen(seen)[INDEX["N"]]) == (0, 3)


def test_an_exposure_shows_its_jokers_as_jokers() -> None:
    game = rig(R(), hands=["6C 6C J W", "6C"], picks="N")
    play(game, "0: discard N", "1: pass", "1: discard 6C", "0: claim expose",
         "0: expose 1 6C 6C J")
    seen = view(game, 1)
    assert tiles(public_seen(seen)) == "6C 6C N J"
    assert sum(unseen(seen)) == 152 - 4 - 27
    assert position(view(game, 0)).exposures == ((Exposure(INDEX["6C"], 3, 1),), ())


def test_a_finished_rack_leaves_the_open_racks() -> None:
    game = rig(R(), hands=[KONGS], picks="8C", avoid="8C 2B 6B F")
    play(game, "0: mahjongg 1 F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C")
    me = position(view(game, 0))
    assert (me.open_racks, me.fixed_rack, me.declared, sum(me.free)) == ((1,), None, None, 14)


def test_a_declared_hand_fixes_its_rack_and_frees_the_rest() -> None:
    game = new_game(RuleSet(), seed=203)  # seat 0 is offered Special-1
    declare = next(a for a in legal_actions(game, 0) if isinstance(a, Declare))
    apply(game, declare)
    me = position(view(game, 0))
    assert (me.declared, me.fixed_rack, me.open_racks) == ("Special-1", 0, (0, 1))
    assert tiles(me.fixed) == "1B 3B 7B 2D 4D 6D 8D N E W S G F"
    assert tiles(me.free) == "2B 6B 6B 9B 2C 3C 3C 7C 9C 6D N F J J"
    assert me.free[JOKER] == 2
