"""What a claim would do, said before the player makes it (engine.advice), and the words
the table shows for it and for the end of a game (narration)."""

from __future__ import annotations

from tests.engine.helpers import R, play, rig
from twinrack.engine import Claim, Move, legal_actions, view
from twinrack.engine.advice import ClaimOutcome, claim_outcome, kills_rack
from twinrack.narration import claim_words, verdict_words
from twinrack.tiles import parse_tiles

WEST = parse_tiles("W")[0]


def _west_on_offer():  # type: ignore[no-untyped-def]
    """Seat 0 holds two West winds and no Joker; seat 1 discards the third. A pung of West
    fits only a concealed line of the practice card, so at a table that keeps concealed
    lines concealed every exposure of it kills a rack."""
    game = rig(R(open_concealed=False), hands=["W W", "W"], picks="N 1D", avoid="W J")
    play(game, "0: discard N", "1: pass", "1: discard W")
    return game


def test_a_claim_whose_every_exposure_kills_a_rack_is_said_so_before() -> None:
    game = _west_on_offer()
    claim = next(a for a in legal_actions(game, 0) if isinstance(a, Claim))
    out = claim_outcome(game, claim)
    assert out == ClaimOutcome("expose", True, alive=(), killed=(0, 1), withdraw=True)
    assert out.kills_every_rack and not out.in_error
    assert claim_words(out, WEST) == "Every exposure of West wind kills a rack"
    # working it out changed nothing: the window is still open on the West
    assert view(game, 0).window == (1, WEST)


def test_the_trap_has_a_way_out_withdraw_before_anything_is_exposed() -> None:
    game = _west_on_offer()
    play(game, "0: claim expose")
    legal = [a for a in legal_actions(game, 0) if not isinstance(a, Move)]
    assert [(a.body(), kills_rack(game, a)) for a in legal] == [
        ("expose 1 W W W", True), ("expose 2 W W W", True), ("withdraw", False)]
    assert play(game, "0: withdraw") == ["withdraw 0 W", "pick 0 1D"]
    v = view(game, 0)
    assert (v.phase, v.current, v.seats[0].racks[0].dead, v.seats[0].racks[1].dead) == (
        "turn", 0, None, None)


def test_claim_words_for_each_outcome() -> None:
    assert claim_words(ClaimOutcome("expose", True, alive=(0, 1)), WEST) == \
        "Expose West wind in a group on rack 1 or 2"
    assert claim_words(ClaimOutcome("expose", True, alive=(1,), killed=(0,)), WEST) == \
        "Expose West wind on rack 2; on rack 1 an exposure of it kills the rack"
    assert claim_words(ClaimOutcome("mahjongg", True, mahjongg=(0, 1, 2, 3)), WEST) == \
        "Mah Jongg with West wind on rack 1, 2, 3 or 4"
    assert claim_words(ClaimOutcome("mahjongg", True), WEST).startswith(
        "No Mah Jongg with West wind: the claim would be in error")
    assert claim_words(ClaimOutcome("expose", False), WEST) == \
        "A claim already made comes first: this one would not get the tile"


def test_the_verdict_speaks_to_each_viewer() -> None:
    names = ["Ann", "Bea"]
    assert verdict_words([120, -120], "mahjongg", 0, 0, names, 2) == \
        "You won by 240, +120 to -120: Mah Jongg on both racks"
    assert verdict_words([120, -120], "mahjongg", 0, 1, names, 2) == \
        "You lost by 240, -120 to +120: Ann went Mah Jongg on both racks"
    assert verdict_words([120, -120], "mahjongg", 0, None, names, 4) == \
        "Ann won by 240, +120 to -120: Ann went Mah Jongg on all four racks"
    assert verdict_words([0, 0], "wall", None, 0, names, 2) == \
        "A draw, +0 each: the wall ran out"


def test_a_loss_with_points_reads_as_a_loss() -> None:
    """Issue 26: losing 50 to 130 said "You scored +50"; it says lost, and by how much."""
    names = ["Ann", "Bea", "Cy", "Di"]
    assert verdict_words([130, 50, -90, -90], "mahjongg", 0, 1, names, 2) == \
        "You lost by 80, +50 to Ann's +130: Ann went Mah Jongg on both racks"
    assert verdict_words([50, 50, -50, -50], "wall", None, 0, names, 2) == \
        "A draw with Bea, +50 each: the wall ran out"
    assert verdict_words([50, 50, -50, -50], "wall", None, None, names, 2) == \
        "A draw at +50: the wall ran out"


def test_the_verdict_of_a_game_ended_by_dead_racks_names_whose_they_are() -> None:
    # the end's seat is the one whose racks all died; the totals say who won
    names = ["Ann", "Bea"]
    assert verdict_words([-10, 10], "dead", 0, 0, names, 2) == \
        "You lost by 20, -10 to +10: all of your racks are dead"
    assert verdict_words([-10, 10], "dead", 0, 1, names, 2) == \
        "You won by 20, +10 to -10: all of Ann's racks are dead"
