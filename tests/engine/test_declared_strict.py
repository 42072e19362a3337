"""Declared (Atomic-style) hands and Mah Jongg in error under strict mode (section 7)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.engine.helpers import R, legal_texts, lines, play, rig
from twinrack.engine import apply, parse_action
from twinrack.errors import IllegalActionError
from twinrack.tiles import CANONICAL, parse_tiles

# Special-1 "F NEWS 1357Da 2468b" (75, declared) in Bams/Craks, less its 8C
ATOM13 = "F N E W S 1B 3B 5B 7B G 2C 4C 6C"
ATOM = "1B 3B 5B 7B 2C 4C 6C 8C N E W S G F"
A14 = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C"  # 2468-3 (25), complete


def arrange(game, seat: int, tiles: str) -> None:  # type: ignore[no-untyped-def]
    """Move tiles so that rack 1 holds exactly ``tiles``."""
    want = Counter(parse_tiles(tiles))
    racks = game.players[seat].racks
    for t in range(36):
        while racks[0].arranged[t] > want[t]:
            play(game, f"{seat}: move {CANONICAL[t]} 1>2")
        while racks[0].arranged[t] < want[t]:
            play(game, f"{seat}: move {CANONICAL[t]} 2>1")


def refused(game, text: str) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalActionError) as err:
        apply(game, parse_action(text))
    return err.value.code


def test_declared_hand_is_declared_right_after_the_deal_and_fixes_13_tiles() -> None:
    g = rig(R(declared_hands=True), [ATOM13], picks="8C")
    assert g.phase == "declare" and g.to_act() == [0, 1]
    declare = "0: declare Special-1 1B 3B 5B 7B 2C 4C 6C N E W S G F"
    assert declare in legal_texts(g, 0)
    assert legal_texts(g, 1) == ["1: pass"]
    assert play(g, declare) == ["declare 0 Special-1: 1B 3B 5B 7B 2C 4C 6C N E W S G F"]
    assert play(g, "1: pass") == ["pass 1", "pick 0 8C"]
    assert sum(g.players[0].racks[0].arranged) == 13
    # no tile moves between racks while on the declared hand
    assert not any(t.startswith("0: move") for t in legal_texts(g, 0))
    assert refused(g, "0: move 9D 2>1") == "declared_hand_fixed"
    # the fixed tiles cannot be discarded
    assert "0: discard 1B" not in legal_texts(g, 0)
    ev = play(g, f"0: mahjongg 1 {ATOM}")
    assert ev == [f"mahjongg 0 1 Special-1 jokerless closed: {ATOM}"]
    assert lines(g) == ["seat 0: +75  Mah Jongg on rack 1: Special-1 (card value 75; jokerless "
                        "Singles and Pairs: not doubled)",
                        "seat 0: +10  closed hand on rack 1: Special-1"]


def test_declared_hand_cannot_be_made_undeclared() -> None:
    g = rig(R(), [ATOM13], picks="8C")
    assert not any("mahjongg" in t for t in legal_texts(g, 0))


def test_declared_hand_claimed_tile_and_other_rack() -> None:
    g = rig(R(declared_hands=True), [ATOM13, "8C"], picks="5D 6D")
    play(g, "0: declare Special-1 1B 3B 5B 7B 2C 4C 6C N E W S G F", "1: pass",
         "0: discard 5D", "1: pass", "1: discard 8C")
    assert "0: claim mahjongg" in legal_texts(g, 0)
    play(g, "0: claim mahjongg")
    assert legal_texts(g, 0) == [f"0: mahjongg 1 {ATOM}"]


def test_forced_off_declared_hand_on_a_flower_with_another_mahjongg_exposed() -> None:
    g = rig(R(declared_hands=True), [ATOM13 + " " + A14], picks="5D 6D F")
    play(g, "0: declare Special-1 1B 3B 5B 7B 2C 4C 6C N E W S G F", "1: pass")
    play(g, "0: mahjongg 2 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F", "0: discard 5D",
         "1: pass")
    ev = play(g, "1: discard 6D", "0: pass")
    assert ev[-2:] == ["pick 0 F", "undeclare 0 forced"]
    assert g.players[0].declared is None
    # off the declared hand, tiles move again
    assert any(t.startswith("0: move") for t in legal_texts(g, 0)) or \
        len(g.players[0].open_racks()) == 1


def test_going_off_a_declared_hand_voluntarily() -> None:
    g = rig(R(declared_hands=True), [ATOM13], picks="5D")
    play(g, "0: declare Special-1 1B 3B 5B 7B 2C 4C 6C N E W S G F", "1: pass")
    assert play(g, "0: undeclare") == ["undeclare 0 voluntary"]
    assert refused(g, "0: undeclare") == "not_declared"


# ------------------------------------------------------------------ strict mode


def test_strict_mahjongg_claim_in_error_allows_only_the_group_of_the_discard() -> None:
    g = rig(R(strict=True), ["8C", "8C 8C"], picks="5D")
    play(g, "0: discard 8C")
    assert "1: claim mahjongg" in legal_texts(g, 1)  # anyone may call at a strict table
    ev = play(g, "1: claim mahjongg")
    assert ev == ["claim 1 mahjongg", "grant 1 mahjongg 8C from 0", "error 1 claim"]
    options = legal_texts(g, 1)
    assert "1: expose 1 8C 8C 8C" in options
    assert not any(t.startswith("1: discard") for t in options)
    assert refused(g, "1: discard 8C") == "must_expose"
    play(g, "1: expose 1 8C 8C 8C")
    assert any(t.startswith("1: discard") for t in legal_texts(g, 1))


def test_casual_play_refuses_a_mahjongg_claim_without_mahjongg() -> None:
    g = rig(R(), ["8C", "8C 8C"], picks="5D")
    play(g, "0: discard 8C")
    assert "1: claim mahjongg" not in legal_texts(g, 1)


def test_strict_declaration_as_arranged_in_error_kills_the_rack() -> None:
    g = rig(R(strict=True), [], picks="5D")
    p = g.players[0]
    # 15 tiles on rack 1 after the pick: move one away to declare rack 1 as arranged
    src = next(t for t in range(36) if p.racks[0].arranged[t])
    play(g, f"0: move {CANONICAL[src]} 1>2")
    assert "0: mahjongg 1" in legal_texts(g, 0)
    ev = play(g, "0: mahjongg 1")
    assert ev[0].startswith("error 0 1: ") and ev[1] == "dead 0 1 error"
    assert g.players[0].racks[0].dead == "error"
    assert g.players[0].concealed == 14


def test_strict_declaration_as_arranged_that_is_valid() -> None:
    g = rig(R(strict=True), [A14], picks="5D")
    arrange(g, 0, A14)
    ev = play(g, "0: mahjongg 1")
    assert ev == ["mahjongg 0 1 2468-3 jokerless closed arranged: "
                  "2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F"]


def test_strict_second_declaration_in_error_honours_the_first() -> None:
    g = rig(R(strict=True), [A14], picks="5D")
    play(g, "0: mahjongg 1 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C 8C F F F")
    assert "0: mahjongg 2" in legal_texts(g, 0)  # 14 tiles left on rack 2
    ev = play(g, "0: mahjongg 2")
    assert ev[1] == "dead 0 2 error" and ev[2] == "stop 0"
    assert g.players[0].concealed == 0 and not g.over
    assert lines(g)[0].startswith("seat 0: +50  Mah Jongg on rack 1: 2468-3")
