"""The pattern language of CARD_NOTATION.md: groups, decorations, suit letters, X/Y offsets,
D dragons, 0 as White, suits "any", deduplication and the natural-copies rule."""

from __future__ import annotations

import pytest

from twinrack.card.model import Group
from twinrack.card.pattern import PatternError, check_xy, expand, parse_pattern
from twinrack.tiles import INDEX, format_tiles


def shape(text: str) -> list[tuple[str, int, int]]:
    """(symbol kind, size, column) of every group of a pattern."""
    return [(g.symbol.kind, g.size, g.column) for g in parse_pattern(text).groups]


def ways(text: str, **options: object) -> list[str]:
    found, _dropped = expand(parse_pattern(text), **options)  # type: ignore[arg-type]
    return [format_tiles(w.tiles()) for w in found]


# ---------------------------------------------------------------------------- groups


def test_a_run_of_one_symbol_is_one_group() -> None:
    assert shape("2222a") == [("num", 4, 0)]
    assert shape("FF 22222a NNN") == [("tile", 2, 0), ("num", 5, 3), ("tile", 3, 10)]
    assert shape("1122a") == [("num", 2, 0), ("num", 2, 2)]


def test_different_symbols_are_singles() -> None:
    assert shape("NEWS") == [("tile", 1, 0), ("tile", 1, 1), ("tile", 1, 2), ("tile", 1, 3)]
    # 2026a: 2, White, 2, 6 -- four singles, the two 2s kept apart by the 0
    assert [(g.symbol.kind, g.symbol.value, g.size) for g in parse_pattern("2026a").groups] \
        == [("num", 2, 1), ("tile", INDEX["0"], 1), ("num", 2, 1), ("num", 6, 1)]


def test_groups_never_join_across_tokens() -> None:
    assert shape("11a 11a") == [("num", 2, 0), ("num", 2, 4)]
    # ways come in suit order (a, b) = BC, BD, CB, CD, DB, DC; tiles in index order
    assert ways("11a 11a 2222b 3333b 44b") == [
        "1B 1B 1B 1B 2C 2C 2C 2C 3C 3C 3C 3C 4C 4C",
        "1B 1B 1B 1B 2D 2D 2D 2D 3D 3D 3D 3D 4D 4D",
        "2B 2B 2B 2B 3B 3B 3B 3B 4B 4B 1C 1C 1C 1C",
        "1C 1C 1C 1C 2D 2D 2D 2D 3D 3D 3D 3D 4D 4D",
        "2B 2B 2B 2B 3B 3B 3B 3B 4B 4B 1D 1D 1D 1D",
        "2C 2C 2C 2C 3C 3C 3C 3C 4C 4C 1D 1D 1D 1D"]
    found, _ = expand(parse_pattern("11a 11a 2222b 3333b 44b"))
    assert [g.size for g in found[0].groups] == [2, 2, 4, 4, 2]


@pytest.mark.parametrize("decoration", ["+", "=", "-", "x", "*"])
def test_decorations_are_ignored(decoration: str) -> None:
    text = f"FFFF 1111a {decoration} 6666a {decoration} 7777a"
    assert shape(text) == [("tile", 4, 0), ("num", 4, 5), ("num", 4, 13), ("num", 4, 21)]
    assert ways(text) == ways("FFFF 1111a 6666a 7777a")


def test_honour_symbols() -> None:
    found, _ = expand(parse_pattern("NN EE WW SS RR GG 00"))
    assert [(g.tile, g.size) for g in found[0].groups] == [
        (INDEX[t], 2) for t in ("N", "E", "W", "S", "R", "G", "0")]
    assert ways("FFFFFFFF NNN SSS") == ["N N N S S S F F F F F F F F"]


# ---------------------------------------------------------------------------- suits


def test_suit_letters_are_distinct_suits() -> None:
    assert ways("FF 1111a 2222a 3333b") == [
        "1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C F F",
        "1B 1B 1B 1B 2B 2B 2B 2B 3D 3D 3D 3D F F",
        "3B 3B 3B 3B 1C 1C 1C 1C 2C 2C 2C 2C F F",
        "1C 1C 1C 1C 2C 2C 2C 2C 3D 3D 3D 3D F F",
        "3B 3B 3B 3B 1D 1D 1D 1D 2D 2D 2D 2D F F",
        "3C 3C 3C 3C 1D 1D 1D 1D 2D 2D 2D 2D F F"]


def test_suits_any_lets_letters_coincide() -> None:
    distinct = ways("FF 1111a 2222a 3333b")
    anyway = ways("FF 1111a 2222a 3333b", suits="any")
    assert len(anyway) == 9
    assert set(distinct) < set(anyway)
    assert "1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B F F" in anyway


def test_d_is_the_dragon_of_its_suit() -> None:
    assert ways("DDDDa 1111a 2222b 33b") == [
        "1B 1B 1B 1B 2C 2C 2C 2C 3C 3C G G G G",
        "1B 1B 1B 1B 2D 2D 2D 2D 3D 3D G G G G",
        "2B 2B 2B 2B 3B 3B 1C 1C 1C 1C R R R R",
        "1C 1C 1C 1C 2D 2D 2D 2D 3D 3D R R R R",
        "2B 2B 2B 2B 3B 3B 1D 1D 1D 1D 0 0 0 0",
        "2C 2C 2C 2C 3C 3C 1D 1D 1D 1D 0 0 0 0"]
    # one D per suit letter: Green, Red and White
    assert ways("FF DDDa DDDb DDDc") == ["R R R G G G 0 0 0 F F"]


def test_zero_is_white_in_year_tokens() -> None:
    assert ways("FF 2026a 2222b 2222c") == [
        "2B 2B 6B 2C 2C 2C 2C 2D 2D 2D 2D 0 F F",
        "2B 2B 2B 2B 2C 2C 6C 2D 2D 2D 2D 0 F F",
        "2B 2B 2B 2B 2C 2C 2C 2C 2D 2D 6D 0 F F"]
    # a 0 inside a suited token is White whatever the suit, as is the token 00
    assert ways("2026a 2026b EE WW GG 00")[0] == "2B 2B 6B 2C 2C 6C E E W W G G 0 0 0 0"


# ---------------------------------------------------------------------------- X and Y


def test_x_with_offsets_and_its_default_range() -> None:
    run = ways("XX0a XXX1a XXXX2a XXX3a XX4a")
    assert len(run) == 15  # X = 1..5 in 3 suits
    assert run[0] == "1B 1B 2B 2B 2B 3B 3B 3B 3B 4B 4B 4B 5B 5B"
    assert run[-1] == "5D 5D 6D 6D 6D 7D 7D 7D 7D 8D 8D 8D 9D 9D"
    assert parse_pattern("XX0a XXX1a XXXX2a").offsets("X") == [0, 1, 2]


def test_x_key_limits_the_values() -> None:
    assert ways("FF XXXX0a XXXX0b XXXX0c", x=(2, 8)) == [
        "2B 2B 2B 2B 2C 2C 2C 2C 2D 2D 2D 2D F F",
        "8B 8B 8B 8B 8C 8C 8C 8C 8D 8D 8D 8D F F"]


def test_y_differs_from_x() -> None:
    found = ways("XXXX0a YYYY0a XXX0b YYY0b", x=(2, 4), y=(2, 4))
    # X and Y from {2, 4}, never equal: X=2, Y=4 and X=4, Y=2 make the same tiles, so
    # only the suit letters tell the 6 ways apart
    assert found == ["2B 2B 2B 2B 4B 4B 4B 4B 2C 2C 2C 4C 4C 4C",
                     "2B 2B 2B 2B 4B 4B 4B 4B 2D 2D 2D 4D 4D 4D",
                     "2B 2B 2B 4B 4B 4B 2C 2C 2C 2C 4C 4C 4C 4C",
                     "2C 2C 2C 2C 4C 4C 4C 4C 2D 2D 2D 4D 4D 4D",
                     "2B 2B 2B 4B 4B 4B 2D 2D 2D 2D 4D 4D 4D 4D",
                     "2C 2C 2C 4C 4C 4C 2D 2D 2D 2D 4D 4D 4D 4D"]
    assert ways("XXXX0a YYYY0a XXX0b YYY0b", x=(2,), y=(2,)) == []


def test_check_xy() -> None:
    pattern = parse_pattern("XX0a XXX1a XXXX2a XXX3a XX4a")
    assert check_xy(pattern, "X", (1, 5)) is None
    assert check_xy(pattern, "X", (1, 6)) == "x value 6 puts X+4 outside 1..9"
    assert check_xy(parse_pattern("YYY2a"), "Y", (8,)) == "y value 8 puts Y+2 outside 1..9"


# ---------------------------------------------------------------------------- ways


def test_ways_are_deduplicated() -> None:
    # 2 letters in 3 suits make 6 assignments; swapping the letters gives the same tiles
    assert ways("2026a 2026b NNN SSS") == [
        "2B 2B 6B 2C 2C 6C N N N S S S 0 0",
        "2B 2B 6B 2D 2D 6D N N N S S S 0 0",
        "2C 2C 6C 2D 2D 6D N N N S S S 0 0"]


def test_natural_copies_rule_drops_ways() -> None:
    found, dropped = expand(parse_pattern("11a 11b 11c 2a 2b 2c 33333a"), suits="any")
    # a = b = c would need six natural 1s of one suit: those 3 ways are dropped
    assert (len(found), dropped) == (15, 3)
    assert all(sum(g.size for g in w.groups if g.tile == INDEX["1B"] and g.size < 3) <= 4
               for w in found)
    # groups of 3 or more may ask for more than a set holds: Jokers fill them
    found, dropped = expand(parse_pattern("NN 1111a 1111a 1111a"))
    assert (len(found), dropped) == (3, 0)
    # eight Flowers are fine in singles and pairs (a set holds 8)
    found, dropped = expand(parse_pattern("FF FF FF FF 2222a 22a"))
    assert (len(found), dropped) == (3, 0)
    found, dropped = expand(parse_pattern("FF FF FF FF FF 22a 22a"))
    assert (len(found), dropped) == (0, 3)


def test_way_demand_vectors() -> None:
    found, _ = expand(parse_pattern("FF 2222a NEWS 11a 00"))
    w = found[0]
    assert w.size == 14
    nat = w.natural_demand()
    big = w.joker_demand()
    assert nat[INDEX["F"]] == 2 and nat[INDEX["N"]] == 1 and nat[INDEX["1B"]] == 2
    assert nat[INDEX["0"]] == 2
    assert big[INDEX["2B"]] == 4 and sum(big) == 4 and sum(nat) == 10
    assert Group(INDEX["2B"], 4).takes_jokers and not Group(INDEX["1B"], 2).takes_jokers
    assert str(Group(INDEX["2B"], 3)) == "2B 2B 2B"


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize(("text", "column", "message"), [
    ("FF 2222 4444a 6666a", 3, "2 needs a suit letter a, b or c"),
    ("FF DDD 4444a 6666a", 3, "D needs a suit letter a, b or c"),
    ("FF XXX0 4444a 6666a", 3, "X needs a suit letter a, b or c"),
    ("FF YYY0 4444a 6666a", 3, "Y needs a suit letter a, b or c"),
    ("FF XXXa 4444a 6666a", 3, "X needs an offset digit 0 to 8 after it (XXX0 for X itself)"),
    ("FF 1111a YYYYa", 9, "Y needs an offset digit 0 to 8 after it (YYYY0 for Y itself)"),
    ("FF XXX9a 4444a", 6, "offset 9 is too big: use 0 to 8"),
    ("FF 22Q2a", 5, "unknown symbol 'Q'"),
    ("nn 2222a", 0, "unknown symbol 'n' (symbols are capital letters: N)"),
    ("FF ddda", 3, "unknown symbol 'd' (symbols are capital letters: D)"),
    ("FF 1111a+6666a", 7, "unknown symbol 'a' (a suit letter goes only at the end of a token)"),
    ("FF 1111a b 2222c", 9, "suit letter 'b' has no tiles before it"),
    ("FF RRRA", 6, "unknown symbol 'A'"),
    ("FF 1111A", 3, "1 needs a suit letter a, b or c"),
])
def test_pattern_errors(text: str, column: int, message: str) -> None:
    with pytest.raises(PatternError) as err:
        parse_pattern(text)
    assert (err.value.column, err.value.message) == (column, message)
