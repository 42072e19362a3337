"""Mah Jongg matching scenarios (CARD_NOTATION.md "Matching"; rules sections 5-7): Jokers
only in groups of 3 or more, each exposure filling one whole group of its tile and size,
concealed lines refusing exposures, the jokerless and closed flags, dead racks."""

from __future__ import annotations

from functools import cache

import pytest

from tests.card import oracle
from tests.card.paths import Both
from twinrack.card import Card, parse_card
from twinrack.card.compiled import CompiledCard, Match
from twinrack.card.exposure import Exposure
from twinrack.errors import NotationError
from twinrack.tiles import INDEX, JOKER, counts_of, format_tiles, parse_tiles

CARD = """\
name = "Matching"

[[hand]]
section = "Kongs"
pattern = "FF 1111a 2222a 3333b"
value = 25

[[hand]]
section = "Kongs"
pattern = "FF XXXX0a XXXX1a NNNN"
value = 30
concealed = true

[[hand]]
section = "Pairs"
pattern = "NN EE WW SS 11a 22a 33a"
value = 50

[[hand]]
section = "Winds"
pattern = "NEWS 111a 222a 3333a"
value = 25

[[hand]]
section = "Quints"
pattern = "FF 11111a 22222a NN"
value = 40

[[hand]]
section = "Twin"
pattern = "FF 1111a 2222a 3333c"
value = 35
"""


@cache
def compiled() -> tuple[Card, Both]:
    """The card, compiled and asked on both paths (tests/card/paths.py)."""
    card = parse_card(CARD, "matching.toml")
    return card, Both.of(CompiledCard(card))


def match(rack: str, *exposed: str) -> list[Match]:
    """Matches of a rack written as its concealed tiles plus its exposures."""
    card, cc = compiled()
    exposures = [Exposure.parse(x) for x in exposed]
    counts = counts_of(parse_tiles(rack))
    found = cc.matches(counts, exposures)
    # the plain oracle says the same
    assert [(m.hand.id, m.way, m.jokerless, m.closed) for m in found] == [
        (m.hand_id, m.way, m.jokerless, m.closed)
        for m in oracle.matches(card, counts, exposures)]
    return found


def ids(found: list[Match]) -> list[str]:
    return [m.hand.id for m in found]


def test_a_plain_mah_jongg_names_the_line_and_the_way() -> None:
    found = match("F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C")
    assert ids(found) == ["Kongs-1", "Twin-1"]  # both lines have this way; card order
    m = found[0]
    assert format_tiles(m.way.tiles()) == "1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C F F"
    assert (m.jokerless, m.closed, m.hand.value) == (True, True, 25)


def test_rack_size_must_be_fourteen() -> None:
    assert match("F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C") == []
    assert match("F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C 3C") == []


def test_jokers_fill_groups_of_three_or_more() -> None:
    found = match("F F 1B J 1B 1B 2B 2B J 2B 3C J J 3C")
    assert ids(found) == ["Kongs-1", "Twin-1"]
    assert not found[0].jokerless
    # a whole group of Jokers is still a group of 3 or more: with X = 3 in Craks the
    # concealed kongs line is made too (kongs of 4C and N all Jokers)
    assert ids(match("F F J J J J J J J J 3C 3C 3C 3C")) == ["Kongs-1", "Kongs-2", "Twin-1"]


def test_jokers_never_in_singles_or_pairs() -> None:
    # a Joker for a Flower of the pair
    assert match("J F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C") == []
    # a Joker in a Singles and Pairs hand
    assert match("N J E E W W S S 1D 1D 2D 2D 3D 3D") == []
    assert ids(match("N N E E W W S S 1D 1D 2D 2D 3D 3D")) == ["Pairs-1"]
    # a Joker for a single wind of NEWS, and then in the kong instead
    assert match("N E W J 1B 1B 1B 2B 2B 2B 3B 3B 3B 3B") == []
    assert ids(match("N E W S 1B 1B 1B 2B 2B 2B 3B 3B 3B J")) == ["Winds-1"]


def test_exposure_fills_one_whole_group_of_its_size() -> None:
    found = match("F F 2B 2B 2B 2B 3C 3C 3C 3C", "1B 1B 1B 1B")
    assert ids(found) == ["Kongs-1", "Twin-1"]
    assert (found[0].jokerless, found[0].closed) == (True, False)
    # the same 14 tiles with a pung exposed: the line has kongs, not pungs
    assert match("F F 1B 2B 2B 2B 2B 3C 3C 3C 3C", "1B 1B 1B") == []
    # a quint of 1B exposed fills only a quint
    assert ids(match("F F 2B 2B 2B 2B 2B N N", "1B 1B 1B 1B 1B")) == ["Quints-1"]
    assert match("F F 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C", "1B") == []


def test_jokers_in_an_exposure() -> None:
    found = match("F F 1B 1B 1B 1B 3C 3C 3C 3C", "2B J J 2B")
    assert ids(found) == ["Kongs-1", "Twin-1"]
    assert (found[0].jokerless, found[0].closed) == (False, False)


def test_pair_and_single_exposures_fill_pairs_and_singles() -> None:
    # claimed for Mah Jongg, a pair or a single is exposed as one group of its size
    assert ids(match("E E W W S S 1D 1D 2D 2D 3D 3D", "N N")) == ["Pairs-1"]
    assert ids(match("E W S 1B 1B 1B 2B 2B 2B 3B 3B 3B 3B", "N")) == ["Winds-1"]
    assert match("N E E W W S S 1D 1D 2D 2D 3D 3D", "N") == []  # no single N in Pairs


def test_concealed_line_refuses_exposures() -> None:
    found = match("F F 4C 4C 4C 4C 5C 5C 5C 5C N N N N")
    assert ids(found) == ["Kongs-2"]
    assert (found[0].hand.concealed, found[0].closed) == (True, True)
    assert match("F F 4C 4C 4C 4C 5C 5C 5C 5C", "N N N N") == []
    assert match("F F 5C 5C 5C 5C N N N N", "4C 4C 4C 4C") == []


def test_exposures_that_fit_no_line_kill_the_rack() -> None:
    _card, cc = compiled()
    assert cc.rack_alive([])
    assert cc.rack_alive([Exposure.parse("1B 1B 1B")])  # Winds: 111a
    assert cc.rack_alive([Exposure.parse("N N N N")]) is False  # only a concealed line
    assert cc.rack_alive([Exposure.parse("3C 3C 3C")]) is False  # no pung of 3 anywhere
    assert cc.rack_alive([Exposure.parse("1B 1B 1B 1B"), Exposure.parse("3C 3C J 3C")])
    assert not cc.rack_alive([Exposure.parse("1B 1B 1B 1B"), Exposure.parse("3B 3B J 3B")])
    assert not cc.rack_alive([Exposure.parse("1B 1B 1B 1B")] * 2)


def test_fitting_per_line() -> None:
    card, cc = compiled()

    def lines(*exposed: str) -> list[str]:
        mask = cc.fitting([Exposure.parse(x) for x in exposed])
        return [h.id for h in card.hands
                if mask[cc.hand_start[h.number]:cc.hand_start[h.number] + len(h.ways)].any()]

    assert lines() == [h.id for h in card.hands]
    assert lines("2C 2C 2C 2C") == ["Kongs-1", "Twin-1"]
    assert lines("2C 2C 2C") == ["Winds-1"]
    assert lines("2C 2C 2C 2C 2C") == ["Quints-1"]
    assert lines("N N") == ["Pairs-1", "Quints-1"]
    assert lines("N N N N") == []
    assert cc.fitting([Exposure.parse("2C 2C 2C")]).sum() == 1  # Winds-1 in Craks only
    assert cc.fitting([Exposure.parse("2C 2C 2C 2C")]).sum() == 4  # a = C: 2 ways in 2 lines


def test_exposure_notation_errors() -> None:
    with pytest.raises(NotationError) as err:
        Exposure.parse("N J")
    assert (err.value.code, err.value.message) == (
        "joker_in_pair", "Jokers may stand only in groups of 3 or more, never in a single or "
                         "a pair")
    with pytest.raises(NotationError) as err:
        Exposure.parse("J J J")
    assert (err.value.code, err.value.message) == (
        "bad_exposure", "an exposure needs at least one natural tile")
    with pytest.raises(NotationError) as err:
        Exposure.parse("6C 6C 7C")
    assert err.value.message == "an exposure holds one kind of tile (Jokers aside), not 6C 7C"
    with pytest.raises(NotationError) as err:
        Exposure.parse("")
    assert err.value.message == "an exposure cannot be empty"
    x = Exposure.parse("6c J 6crak")
    assert (x.tile, x.size, x.jokers, x.naturals) == (INDEX["6C"], 3, 1, 2)
    assert x.tiles() == [INDEX["6C"], INDEX["6C"], JOKER]
    assert str(x) == "6C 6C J"
