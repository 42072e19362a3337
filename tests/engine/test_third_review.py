"""The rulings of the third review (docs/rules.md, sections 5, 7 and 15): concealed lines
played open under 2024, moving tiles between one's racks out of turn, and a false Mah Jongg
caller beside a real one in Royale (strict)."""

from __future__ import annotations

import pytest

from tests.engine.helpers import R, all_legal_texts, legal_texts, lines, play, rig
from twinrack.engine import apply, events_for, parse_action, view
from twinrack.engine.scoring import HandFacts, MahJonggFact, end_facts, hand_points, score_game
from twinrack.errors import IllegalActionError
from twinrack.tiles import tile_index

# Honors-7 "NNN EEE WWW SSS DDa" (50, concealed): the only line of the practice card with a
# pung of West, so an exposed W W W fits nothing else
HONORS = "N N N E E E W W S S S 0"
NOT_HONORS = "N E W S 0 R G F"


def west_pung_game(revision: str):  # type: ignore[no-untyped-def]
    """Seat 0 claims seat 1's West and exposes W W W on rack 1."""
    g = rig(R(revision=revision), [HONORS, "W 0"], picks="2B 3B 4B 5B", avoid=NOT_HONORS)
    play(g, "0: discard 1C", "1: pass", "1: discard W", "0: claim expose")
    return g


def test_2024_a_concealed_line_takes_an_exposure_and_scores_without_the_closed_bonus() -> None:
    g = west_pung_game("2024")
    assert play(g, "0: expose 1 W W W") == ["expose 0 1 W W W"]
    assert g.players[0].racks[0].dead is None
    play(g, "0: discard 9C", "1: pass", "1: discard 0", "0: claim mahjongg")
    assert "0: mahjongg 1 N N N E E E S S S 0 0" in legal_texts(g, 0)
    assert play(g, "0: mahjongg 1 N N N E E E S S S 0 0") == [
        "mahjongg 0 1 Honors-7 jokerless: N N N E E E S S S 0 0"]
    made = g.players[0].racks[0].mahjongg
    assert made is not None and not made.closed
    play(g, "0: discard 1D")
    assert view(g, 0).seats[0].racks[0].mahjongg.closed is False  # type: ignore[union-attr]
    assert lines(g) == ["seat 0: +100  Mah Jongg on rack 1: Honors-7 (card value 50; "
                        "jokerless x2)"]


def test_2019_a_concealed_line_stays_concealed() -> None:
    g = west_pung_game("2019")
    assert play(g, "0: expose 1 W W W") == ["expose 0 1 W W W", "dead 0 1 exposure"]


def test_2024_closed_concealed_line_keeps_its_bonus() -> None:
    g = rig(R(), [HONORS + " W"], picks="2B 3B 0", avoid=NOT_HONORS)
    play(g, "0: discard 1C", "1: pass", "1: discard 3B", "0: pass")
    assert "0: mahjongg 1 N N N E E E W W W S S S 0 0" in legal_texts(g, 0)
    play(g, "0: mahjongg 1 N N N E E E W W W S S S 0 0")
    assert g.players[0].racks[0].mahjongg.closed  # type: ignore[union-attr]


# ------------------------------------------------------------------ moves out of turn


def moves_of(g, seat: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [t for t in all_legal_texts(g, seat) if ": move " in t]


def test_a_seat_moves_tiles_between_its_racks_while_another_seat_plays() -> None:
    g = rig(R(), ["5B", "7D"], picks="2B 3B")
    assert g.phase == "turn" and g.current == 0
    assert "1: move 1B 1>2" in moves_of(g, 1)
    seen0, public = view(g, 0), g.public_version
    assert play(g, "1: move 1B 1>2") == ["move 1 1B 1>2"]
    assert view(g, 0) == seen0 and g.public_version == public  # nothing seat 0 sees
    assert g.seen_version(1) == g.version > g.seen_version(0)
    assert view(g, 1).counts[1][tile_index("1B")] == 1  # type: ignore[index]
    assert not any("move" in str(e) for e in events_for(g, 0))
    assert not any("move" in str(e) for e in events_for(g, None))
    assert "move 1 1B 1>2" in [str(e) for e in events_for(g, 1)]


def test_moves_during_a_claim_window_by_the_seat_to_answer_and_by_the_discarder() -> None:
    g = rig(R(), ["5B", "7D"], picks="2B 3B")
    play(g, "0: discard 5B")
    assert g.phase == "window" and g.to_act() == [1]
    assert "1: pass" in legal_texts(g, 1) and "1: move 1B 1>2" in moves_of(g, 1)
    discarder = moves_of(g, 0)  # the discarder, who answers nothing, arranges too
    assert discarder
    play(g, "1: move 1B 1>2", discarder[0])
    assert g.phase == "window" and g.to_act() == [1]  # a move answers nothing
    play(g, "1: pass")
    assert g.phase == "turn" and g.current == 1


def test_no_move_under_a_declared_hand_nor_before_play_begins() -> None:
    g = rig(R(declared_hands=True), ["5B"], picks="2B 3B")
    assert g.phase == "declare"
    with pytest.raises(IllegalActionError) as err:
        apply(g, parse_action("1: move 1B 1>2"))
    assert err.value.code in ("declare_phase", "not_your_turn")


# ------------------------------------------------------------------ false Mah Jongg callers

A13 = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"  # 2468-3 less one 8C (25)


def test_royale_strict_a_false_caller_gives_way_to_a_real_mahjongg() -> None:
    # seat 1 (nearer) claims the 8C for a Mah Jongg it does not have; seat 3 has one
    g = rig(R("royale", 4, strict=True), ["8C", "", "", A13], picks="1D 2D")
    play(g, "0: discard 8C")
    ev = play(g, "1: claim mahjongg", "2: pass", "3: claim mahjongg")
    assert ev == ["claim 1 mahjongg", "pass 2", "claim 3 mahjongg", "error 1 claim",
                  "grant 3 mahjongg 8C from 0"]
    assert g.current == 3 and g.obligation == "mahjongg" and view(g, 2).waiting == ()
    assert play(g, f"3: mahjongg 1 {A13} 8C") == [
        "mahjongg 3 1 2468-3 jokerless closed: 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F"]
    assert g.players[1].pool[tile_index("8C")] == 0  # the false caller never held it


def test_royale_strict_a_false_caller_exposes_only_when_no_real_mahjongg_wants_it() -> None:
    # seat 1 calls falsely, seat 3 claims for an exposure: seat 1 gets the tile in error
    g = rig(R("royale", 4, strict=True), ["8C", "8C 8C", "", "8C 8C"], picks="1D 2D")
    play(g, "0: discard 8C")
    ev = play(g, "1: claim mahjongg", "2: pass", "3: claim expose")
    assert ev[-2:] == ["grant 1 mahjongg 8C from 0", "error 1 claim"]
    assert legal_texts(g, 1) == ["1: expose 1 8C 8C 8C", "1: expose 2 8C 8C 8C",
                                 "1: withdraw"]


# ------------------------------------------------------------------ as the program did


def test_imperial_the_throwers_penalty_goes_with_the_winning_mahjongg_only() -> None:
    rules = R("imperial", 2)
    line = HandFacts("Kongs-1", 25)
    made = [MahJonggFact(0, 0, line, False, False, turn=3, discarder=1),  # claimed: free
            MahJonggFact(0, 1, line, False, False, turn=5),
            MahJonggFact(0, 2, line, False, False, turn=8),
            MahJonggFact(0, 3, line, False, False, turn=11, discarder=1)]  # the winner
    facts = end_facts(2, rules.racks, made, [(), ()], wall_spent=False)
    out = [str(x) for x in score_game(facts, rules.scoring_rules()).lines]
    assert [x for x in out if x.startswith("seat 1")] == [
        "seat 1: -25  threw the tile claimed for an opponent's winning Mah Jongg"]


@pytest.mark.parametrize(("variant", "plus25"), [("imperial", True), ("royale", True),
                                                 ("siamese", False)])
def test_the_star_bonus_applies_whenever_two_sets_or_more_are_in_play(
        variant: str, plus25: bool) -> None:
    rules = R(variant)
    star = HandFacts("Special-2", 50, star=True)
    assert (rules.sets > 1) is plus25
    assert hand_points(star, True, False, rules.scoring_rules()) == (75 if plus25 else 100)
