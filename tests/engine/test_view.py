"""What a seat's view says of its own position: open and fixed racks, playable tiles,
where the fresh tile went, the kinds of action it may take (rules sections 4, 5, 7)."""

from __future__ import annotations

from tests.engine.helpers import R, play, rig
from twinrack.engine import view
from twinrack.tiles import parse_tiles, tile_index


def test_the_picked_tile_is_placed_and_followed_when_moved() -> None:
    g = rig(R(), ["2B 2B", "3C"], picks="5D 6D")
    v = view(g, 0)
    assert v.acquired == tile_index("5D") and v.placed == 0
    assert v.verbs == ("discard", "move")
    play(g, "0: move 5D 1>2")
    assert view(g, 0).placed == 1
    assert view(g, 1).placed is None and view(g, 1).verbs == ()


def test_the_claim_window_offers_pass_and_claims() -> None:
    g = rig(R(), ["2B", "2B 2B"], picks="5D 6D")
    play(g, "0: discard 2B")
    assert view(g, 1).verbs == ("claim", "pass")
    assert view(g, 0).verbs == ()
    assert view(g, None).verbs == () and view(g, None).free is None


def test_free_tiles_and_open_racks() -> None:
    g = rig(R(), ["2B 2B", "3C"], picks="5D 6D")
    v = view(g, 0)
    assert v.free is not None and sum(v.free) == 28 and v.fixed_rack is None
    assert v.free[tile_index("2B")] == 2
    assert v.open_racks == (0, 1) and v.seats[1].open_racks == (0, 1)
    d = v.to_dict()
    assert d["placed"] == 0 and d["verbs"] == ["discard", "move"] and d["open_racks"] == [0, 1]
    assert sorted(parse_tiles(d["free"])) == sorted(t for r in v.hand or () for t in r)


def test_a_dead_rack_is_not_open() -> None:
    # no line of the practice card holds a pung of West: the exposure kills rack 2
    g = rig(R(), ["W", "W W 1D"], picks="5D 6D 7D")
    play(g, "0: discard W", "1: claim expose", "1: expose 2 W W W")
    v = view(g, 1)
    assert v.seats[1].racks[1].dead == "exposure"
    assert v.open_racks == (0,) and view(g, 0).seats[1].open_racks == (0,)
    assert v.verbs == ("discard",)
