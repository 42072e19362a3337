"""Tiles: the notation of CARD_NOTATION.md, count vectors, and the tile sets of every variant
(rules sections 1-2)."""

from __future__ import annotations

import numpy as np
import pytest

from twinrack.errors import NotationError
from twinrack.tiles import (
    CANONICAL,
    FLOWER,
    INDEX,
    JOKER,
    LONG_NAMES,
    NUM_KINDS,
    ONE_SET,
    SUIT_DRAGON,
    Variant,
    counts_of,
    format_tiles,
    is_suited,
    number_of,
    parse_tiles,
    racks_for,
    sort_tiles,
    suit_of,
    suited,
    tile_index,
    tile_name,
    tile_set,
    tiles_of,
)


def test_index_layout() -> None:
    assert NUM_KINDS == 36
    assert [INDEX[t] for t in ("1B", "9B", "1C", "9C", "1D", "9D")] == [0, 8, 9, 17, 18, 26]
    assert [INDEX[t] for t in ("N", "E", "W", "S", "R", "G", "0", "F", "J")] == list(
        range(27, 36))
    assert FLOWER == 34 and JOKER == 35
    assert CANONICAL[INDEX["6C"]] == "6C"
    assert LONG_NAMES[INDEX["6C"]] == "6 Crak"
    assert LONG_NAMES[INDEX["0"]] == "White Dragon"
    assert SUIT_DRAGON == {"B": "G", "C": "R", "D": "0"}


@pytest.mark.parametrize("name", CANONICAL)
def test_every_canonical_tile_round_trips(name: str) -> None:
    i = tile_index(name)
    assert tile_name(i) == name
    assert tile_index(name.lower()) == i
    assert format_tiles(parse_tiles(name)) == name


@pytest.mark.parametrize(("alias", "canonical"), [
    ("1bam", "1B"), ("9BAMS", "9B"), ("5bamboo", "5B"), ("6crak", "6C"), ("6Crack", "6C"),
    ("2character", "2C"), ("3dot", "3D"), ("3DOTS", "3D"), ("7d", "7D"),
    ("north", "N"), ("East", "E"), ("WEST", "W"), ("south", "S"), ("n", "N"),
    ("RD", "R"), ("red", "R"), ("gd", "G"), ("Green", "G"),
    ("WD", "0"), ("white", "0"), ("soap", "0"), ("SOAP", "0"),
    ("flower", "F"), ("f", "F"), ("joker", "J"), ("j", "J"),
])
def test_aliases_and_case(alias: str, canonical: str) -> None:
    assert tile_name(tile_index(alias)) == canonical


def test_parse_a_rack_in_order_and_format_canonically() -> None:
    text = "F f 2b 2bam 2B j 4B 4B 4B 6crak 6C 6c 8C 8C"
    tiles = parse_tiles(text)
    assert format_tiles(tiles) == "F F 2B 2B 2B J 4B 4B 4B 6C 6C 6C 8C 8C"
    assert format_tiles(sort_tiles(tiles)) == "2B 2B 2B 4B 4B 4B 6C 6C 6C 8C 8C F F J"
    assert parse_tiles("  ") == []
    assert parse_tiles(" 1B\t 2B\n3B ") == [0, 1, 2]


def test_unknown_tile_names_the_token_and_its_column() -> None:
    with pytest.raises(NotationError) as err:
        parse_tiles("1B 2B QQ 3B")
    assert err.value.code == "unknown_tile"
    assert err.value.column == 7
    assert err.value.message == ("unknown tile 'QQ': expected 1B-9B, 1C-9C, 1D-9D, N E W S, "
                                 "R G 0, F or J (column 7)")
    with pytest.raises(NotationError) as err:
        parse_tiles("1B 1B 10B")
    assert err.value.column == 7
    with pytest.raises(NotationError) as err:
        tile_index("X")
    assert err.value.message.startswith("unknown tile 'X': expected")


def test_the_same_token_twice_gets_the_second_column() -> None:
    with pytest.raises(NotationError) as err:
        parse_tiles("1B 1B Q 1B Q")
    assert err.value.column == 7


def test_count_vectors() -> None:
    tiles = parse_tiles("2B 2B J 0 F F F")
    vec = counts_of(tiles)
    assert vec.dtype == np.int16 and vec.shape == (36,)
    assert vec[INDEX["2B"]] == 2 and vec[JOKER] == 1 and vec[FLOWER] == 3
    assert vec[INDEX["0"]] == 1 and int(vec.sum()) == 7
    assert tiles_of(vec) == sorted(tiles)
    assert tiles_of([0] * 36) == []


def test_suited_tiles() -> None:
    assert suited(6, "C") == INDEX["6C"]
    assert [is_suited(INDEX[t]) for t in ("1B", "9D", "N", "0", "F", "J")] == [
        True, True, False, False, False, False]
    assert suit_of(INDEX["7D"]) == "D" and suit_of(INDEX["R"]) is None
    assert number_of(INDEX["7D"]) == 7 and number_of(INDEX["F"]) is None


def test_one_set() -> None:
    assert sum(ONE_SET) == 152
    assert ONE_SET[FLOWER] == 8 and ONE_SET[JOKER] == 8 and ONE_SET[INDEX["5C"]] == 4


@pytest.mark.parametrize(("variant", "players", "sets", "total", "jokers", "flowers", "racks"), [
    ("siamese", 2, 1, 152, 8, 8, 2),
    ("royale", 4, 2, 304, 16, 16, 2),
    ("royale", 3, 2, 296, 12, 12, 2),
    ("imperial", 2, 2, 304, 16, 16, 4),
    ("imperial", 3, 3, 456, 24, 24, 4),
    ("imperial", 4, 3, 456, 24, 24, 4),
])
def test_tile_sets_of_every_variant(variant: str, players: int, sets: int, total: int,
                                    jokers: int, flowers: int, racks: int) -> None:
    ts = tile_set(variant, players)
    assert ts.sets == sets
    assert ts.total == total == len(ts.wall()) == int(ts.vector().sum())
    assert ts.counts[JOKER] == jokers and ts.counts[FLOWER] == flowers
    assert ts.counts[INDEX["1B"]] == 4 * sets and ts.counts[INDEX["0"]] == 4 * sets
    assert ts.wall() == sorted(ts.wall())
    assert racks_for(variant) == racks
    assert tile_set(Variant(variant), players) == ts


@pytest.mark.parametrize(("variant", "players"), [
    ("siamese", 3), ("royale", 2), ("royale", 5), ("imperial", 1), ("imperial", 5)])
def test_impossible_player_counts(variant: str, players: int) -> None:
    with pytest.raises(ValueError):
        tile_set(variant, players)


def test_unknown_variant() -> None:
    with pytest.raises(ValueError):
        tile_set("classic", 4)
