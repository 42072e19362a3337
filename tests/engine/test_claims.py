"""The claim window and its priorities (rules section 4), exposures and the refusals."""

from __future__ import annotations

import pytest

from tests.engine.helpers import R, legal_texts, play, rig
from twinrack.engine import apply, parse_action
from twinrack.errors import IllegalActionError

# 2468-3 "FFF 2222a 666a 8888b" (25) without one 8C: one tile from Mah Jongg
A13 = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"
# 2468-1 "2222a 44a 66b 8888b NN" (25) in Bams/Craks without one 8C
B13 = "2B 2B 2B 2B 4B 4B 6C 6C 8C 8C 8C N N"
# Honors-3 "EEEE WWWW RR GG 00" (35), complete
H14 = "E E E E W W W W R R G G 0 0"


def refused(game, text: str) -> str:  # type: ignore[no-untyped-def]
    before = [str(e) for e in game.events]
    version = game.version
    with pytest.raises(IllegalActionError) as err:
        apply(game, parse_action(text))
    assert [str(e) for e in game.events] == before and game.version == version
    return err.value.code


def test_two_players_one_seat_to_ask_then_pick() -> None:
    g = rig(R(), ["9D"], picks="1D 2D")
    assert play(g, "0: discard 9D") == ["discard 0 9D"]
    assert g.to_act() == [1]
    assert legal_texts(g, 1) == ["1: pass"]  # nothing to claim with
    assert play(g, "1: pass") == ["pass 1", "pick 1 2D"]


def test_joker_discard_is_never_claimable() -> None:
    g = rig(R(), ["J"], picks="1D 2D")
    assert play(g, "0: discard J") == ["discard 0 J", "pick 1 2D"]
    assert refused(g, "0: claim expose") == "claim_window_closed"


def test_no_exposure_claim_without_two_more_of_the_tile() -> None:
    g = rig(R(), ["9D", "6C 6C"], picks="1D 2D")
    play(g, "0: discard 9D")
    assert legal_texts(g, 1) == ["1: pass"]  # one 9D and no Joker: nothing to claim
    play(g, "1: pass", "1: discard 6C")
    assert "0: claim expose" not in legal_texts(g, 0)


def test_exposure_claim_and_forced_exposure() -> None:
    g = rig(R(), ["6C", "6C J 1D"], picks="4D 5D")
    play(g, "0: discard 6C")
    assert legal_texts(g, 1) == ["1: pass", "1: claim expose"]
    assert play(g, "1: claim expose") == ["claim 1 expose", "grant 1 expose 6C from 0"]
    # the claimed tile must go into an exposure first
    assert refused(g, "1: discard 1D") == "must_expose"
    assert refused(g, "1: expose 1 1D 1D J") in ("must_expose_claimed", "tile_not_held")
    options = legal_texts(g, 1)
    assert "1: expose 2 6C 6C J" in options and "1: expose 1 6C 6C J" in options
    assert play(g, "1: expose 2 6C 6C J") == ["expose 1 2 6C 6C J"]
    assert g.players[1].racks[1].exposures[0].jokers == 1
    assert play(g, "1: discard 1D")[0] == "discard 1 1D"


def test_exposure_needs_a_claim_unless_option() -> None:
    g = rig(R(), ["6C 6C 6C"], picks="4D")
    assert refused(g, "0: expose 1 6C 6C 6C") == "exposure_needs_claim"
    g = rig(R(expose_any_time=True), ["6C 6C 6C"], picks="4D")
    assert play(g, "0: expose 1 6C 6C 6C") == ["expose 0 1 6C 6C 6C"]


def test_joker_never_in_a_pair_or_single() -> None:
    g = rig(R(expose_any_time=True), ["6C 6C J"], picks="4D")
    assert refused(g, "0: expose 1 6C J") == "joker_in_pair"
    assert refused(g, "0: expose 1 6C 6C") == "group_too_small"


def test_claim_window_refusals_have_stable_codes() -> None:
    g = rig(R(), ["9D"], picks="1D 2D")
    assert refused(g, "1: discard 1D") == "not_your_turn"
    assert refused(g, "0: pass") == "claim_window_closed"
    play(g, "0: discard 9D")
    assert refused(g, "0: claim mahjongg") == "own_discard"
    assert refused(g, "1: discard 1D") == "claim_window_open"
    assert refused(g, "1: claim expose") == "cannot_expose"
    assert refused(g, "1: claim mahjongg") == "no_mahjongg"
    play(g, "1: pass")
    assert refused(g, "1: pass") == "claim_window_closed"


# ------------------------------------------------------------------ Royale priorities


def royale(hands: list[str], revision: str = "2024"):  # type: ignore[no-untyped-def]
    return rig(R("royale", 4, revision=revision), hands, picks="8C 1D 2D 3D 4D")


def test_mahjongg_beats_an_exposure_even_from_farther() -> None:
    g = royale(["8C", "8C 8C", "", A13])
    play(g, "0: discard 8C")
    assert "1: claim expose" in legal_texts(g, 1)
    assert "3: claim mahjongg" in legal_texts(g, 3)
    ev = play(g, "1: claim expose", "2: pass", "3: claim mahjongg")
    assert ev[-1] == "grant 3 mahjongg 8C from 0"
    assert g.current == 3 and g.obligation == "mahjongg"
    # only a Mah Jongg with the claimed tile may follow, or withdrawing the claim
    *declarations, last = legal_texts(g, 3)
    assert all(t.startswith("3: mahjongg") for t in declarations) and last == "3: withdraw"


def test_among_mahjongg_claims_the_closest_seat() -> None:
    g = royale(["8C", "", A13, B13])
    play(g, "0: discard 8C")
    ev = play(g, "3: claim mahjongg", "1: pass", "2: claim mahjongg")
    assert ev[-1] == "grant 2 mahjongg 8C from 0"


def test_double_mahjongg_comes_first_in_2024() -> None:
    g = royale(["8C", A13, B13 + " " + H14, ""])
    play(g, "0: discard 8C")
    assert "2: claim double" in legal_texts(g, 2)
    assert "1: claim double" not in legal_texts(g, 1)
    ev = play(g, "1: claim mahjongg", "2: claim double", "3: pass")
    assert ev[-1] == "grant 2 double 8C from 0"
    assert g.obligation == "double"


def test_double_has_no_priority_in_2019() -> None:
    g = rig(R("royale", 4, revision="2019"), ["8C", A13, B13 + " " + H14, ""])
    play(g, "0: discard 8C")
    ev = play(g, "1: claim mahjongg", "2: claim double", "3: pass")
    assert ev[-1] == "grant 1 mahjongg 8C from 0"


def test_among_exposure_claims_the_closest_and_a_pass_never_jumps() -> None:
    g = royale(["8C", "", "8C 8C", "8C 8C"])
    play(g, "0: discard 8C")
    ev = play(g, "3: claim expose", "2: claim expose", "1: pass")
    assert ev[-1] == "grant 2 expose 8C from 0"
    g = royale(["8C", "", "", "8C 8C"])
    play(g, "0: discard 8C")
    ev = play(g, "1: pass", "3: claim expose", "2: pass")
    assert ev[-1] == "grant 3 expose 8C from 0"
    # the seats between the discarder and the claimant lose their turn
    play(g, "3: expose 1 8C 8C 8C")
    assert g.current == 3


def test_nobody_claims_next_seat_picks() -> None:
    g = royale(["8C"])
    play(g, "0: discard 8C")
    ev = play(g, "1: pass", "2: pass", "3: pass")
    assert ev[-1] == "pick 1 1D"


def test_last_discard_may_be_claimed_for_an_exposure_by_default() -> None:
    g = rig(R(), ["8C", "8C 8C 5D"], picks="1D")
    g.wall_pos = len(g.wall)  # the wall is spent after East's pick
    play(g, "0: discard 8C")
    assert legal_texts(g, 1) == ["1: pass", "1: claim expose"]
    assert play(g, "1: claim expose", "1: expose 2 8C 8C 8C", "1: discard 5D") == [
        "claim 1 expose", "grant 1 expose 8C from 0", "expose 1 2 8C 8C 8C", "discard 1 5D"]
    assert play(g, "0: pass") == ["pass 0", "end wall"]


def test_last_discard_is_claimable_only_for_mahjongg_as_an_option() -> None:
    g = rig(R(last_discard="mahjongg"), ["8C", A13.replace("8C 8C 8C", "8C 8C")], picks="1D")
    g.wall_pos = len(g.wall)  # the wall is spent after East's pick
    play(g, "0: discard 8C")
    assert g.window is not None and g.window.mahjongg_only
    assert "1: claim expose" not in legal_texts(g, 1)
    assert play(g, "1: pass") == ["pass 1", "end wall"]
