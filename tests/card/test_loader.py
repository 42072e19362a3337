"""Loading card files: every key and default, and every error message at its exact
FILE:LINE:COL with the source line and a caret (CARD_NOTATION.md, "Errors")."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from twinrack.card import load_card, parse_card, practice_card
from twinrack.errors import CardError, TwinRackError
from twinrack.tiles import INDEX

HAND = '[[hand]]\nsection = "Kongs"\npattern = "FF 1111a 2222a 3333b"\nvalue = 25\n'


def rendered(source: str) -> str:
    with pytest.raises(CardError) as err:
        parse_card(source, "t.toml")
    assert err.value.code == "bad_card"
    assert str(err.value) == err.value.render()
    return err.value.render()


def one_hand(**lines: str) -> str:
    """A card with one hand; keyword values are written as given (TOML text)."""
    keys = {"section": '"Kongs"', "pattern": '"FF 1111a 2222a 3333b"', "value": "25"}
    keys.update(lines)
    body = "".join(f"{k} = {v}\n" for k, v in keys.items() if v != "")
    return f'name = "T"\n\n[[hand]]\n{body}'


# ---------------------------------------------------------------------------- good cards


def test_every_key_and_the_defaults() -> None:
    card = parse_card('''\
name = "Test Card"
edition = "2026"

[[hand]]
section = "Kongs"
pattern = "FF 1111a 2222a 3333b"
value = 25

[[hand]]
section = "Kongs"
pattern = "FF XXXX0a XXXX1a NNNN"
value = 30
id = "kong-run"
concealed = true
star = true
declared = true
suits = "any"
x = [1, 4]
note = "Like kongs"

[[hand]]
section = "Pairs"
pattern = "NN EE WW SS 11a 22a 33a"
value = 50

[[hand]]
section = "Kongs"
pattern = "FFFFF 22222a 3333b"
value = 40
''', "t.toml")
    assert (card.name, card.edition, card.path) == ("Test Card", "2026", "t.toml")
    assert [h.id for h in card.hands] == ["Kongs-1", "kong-run", "Pairs-1", "Kongs-3"]
    assert [h.number for h in card.hands] == [0, 1, 2, 3]
    plain, full, pairs, quint = card.hands
    assert (plain.concealed, plain.star, plain.declared, plain.suits) == (
        False, False, False, "distinct")
    assert (plain.note, plain.x, plain.y, plain.value, plain.section) == (
        "", None, None, 25, "Kongs")
    assert (full.concealed, full.star, full.declared, full.suits) == (True, True, True, "any")
    assert (full.note, full.x, full.y, full.value) == ("Like kongs", (1, 4), None, 30)
    assert full.pattern == "FF XXXX0a XXXX1a NNNN"
    assert [len(h.ways) for h in card.hands] == [6, 6, 3, 6]  # suits any: X in 1, 4 x 3
    assert pairs.singles_and_pairs and not plain.singles_and_pairs
    assert quint.quint and not plain.quint
    assert plain.uses_flowers and not pairs.uses_flowers
    assert card.sections == ["Kongs", "Pairs"]
    assert card.lowest_value == 25
    assert card.way_count == 21
    assert card.hand("kong-run") is full
    with pytest.raises(KeyError):
        card.hand("Kongs-2")


def test_source_hash_and_integer_edition() -> None:
    source = 'name = "T"\nedition = 2026\n' + HAND
    card = parse_card(source)
    assert card.edition == "2026"
    assert card.sha256 == hashlib.sha256(source.encode()).hexdigest()
    assert card.path == "<card>"


def test_inline_hands_and_literal_strings() -> None:
    card = parse_card("name = 'T'\nhand = [{section = 'A', pattern = 'NN EE WW SS 11a 22a 33a',"
                      " value = 50}]\n")
    assert [h.id for h in card.hands] == ["A-1"]
    assert len(card.hands[0].ways) == 3


def test_practice_card_loads() -> None:
    card = practice_card()
    assert card.name and card.hands
    assert len({h.id for h in card.hands}) == len(card.hands)
    for h in card.hands:
        assert h.ways and all(w.size == 14 for w in h.ways)
        assert h.value > 0
    assert load_card(None).sha256 == card.sha256


def test_load_card_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "Mine"\n' + HAND, encoding="utf-8")
    card = load_card(path)
    assert card.name == "Mine" and card.path == str(path)
    assert [h.id for h in load_card(str(path)).hands] == ["Kongs-1"]


# ---------------------------------------------------------------------------- unreadable


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "none.toml"
    with pytest.raises(TwinRackError) as err:
        load_card(path)
    assert err.value.code == "card_unreadable"
    assert err.value.message == f"cannot read card {path}: No such file or directory"


def test_a_directory_is_not_a_card(tmp_path: Path) -> None:
    with pytest.raises(TwinRackError) as err:
        load_card(tmp_path)
    assert err.value.message == f"cannot read card {tmp_path}: Is a directory"


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes('name = "Café"\n'.encode("latin-1"))
    with pytest.raises(TwinRackError) as err:
        load_card(path)
    assert err.value.message == f"cannot read card {path}: it is not UTF-8 text"


def test_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(one_hand(value="0"), encoding="utf-8")
    with pytest.raises(CardError) as err:
        load_card(path)
    assert err.value.render() == f"{path}:6:9: value must be a positive whole number\n" \
                                 "value = 0\n        ^"
    problem = err.value.problems[0]
    assert (problem.file, problem.line, problem.column) == (str(path), 6, 9)


# ---------------------------------------------------------------------------- malformed TOML


def test_unterminated_string() -> None:
    assert rendered('name = "T\n' + HAND) == (
        "t.toml:1:10: not valid TOML: illegal character '\\n'\n"
        'name = "T\n'
        "         ^")


def test_toml_error_at_the_end_of_the_document() -> None:
    assert rendered('name = "T"\n' + HAND + "star = \n\n") == (
        "t.toml:6:8: not valid TOML: invalid value\n"
        "star = \n"
        "       ^")


def test_toml_duplicate_key() -> None:
    assert rendered('name = "T"\nname = "U"\n' + HAND) == (
        "t.toml:2:11: not valid TOML: cannot overwrite a value\n"
        'name = "U"\n'
        "          ^")


# ---------------------------------------------------------------------------- the card's keys


def test_unknown_top_level_key() -> None:
    assert rendered('name = "T"\ncolour = "red"\n' + HAND) == (
        "t.toml:2:10: unknown key 'colour' (expected name, edition and [[hand]] tables)\n"
        'colour = "red"\n'
        "         ^")


def test_unknown_top_level_table() -> None:
    assert rendered('name = "T"\n[extra]\nsize = 2\n' + HAND) == (
        "t.toml:2:1: unknown key 'extra' (expected name, edition and [[hand]] tables)\n"
        "[extra]\n"
        "^")


def test_missing_name_and_bad_name() -> None:
    assert rendered(HAND) == (
        't.toml:1:1: a card needs a name: name = "My Card"\n[[hand]]\n^')
    assert rendered('name = "  "\n' + HAND) == (
        't.toml:1:8: a card needs a name: name = "My Card"\nname = "  "\n       ^')


def test_bad_edition() -> None:
    assert rendered('name = "T"\nedition = [2026]\n' + HAND) == (
        't.toml:2:11: edition must be text, like "2026"\nedition = [2026]\n          ^')


def test_no_hands() -> None:
    assert rendered('name = "T"\n') == (
        't.toml:1:11: a card needs at least one [[hand]] table\nname = "T"\n          ^')
    assert rendered('name = "T"\nhand = []\n') == (
        "t.toml:2:8: a card needs at least one [[hand]] table\nhand = []\n       ^")


def test_hand_that_is_not_a_table() -> None:
    assert rendered('name = "T"\nhand = [1]\n') == (
        "t.toml:2:8: each hand must be a [[hand]] table\nhand = [1]\n       ^")


# ---------------------------------------------------------------------------- a hand's keys


def test_unknown_hand_key() -> None:
    assert rendered(one_hand(colour='"red"')) == (
        "t.toml:7:10: unknown key 'colour' (a hand has section, pattern, value, id, concealed,"
        " star, declared, suits, x, y, note)\n"
        'colour = "red"\n'
        "         ^")


def test_unknown_dotted_hand_key() -> None:
    assert rendered(one_hand(**{"style.colour": '"red"'})) == (
        "t.toml:7:16: unknown key 'style' (a hand has section, pattern, value, id, concealed,"
        " star, declared, suits, x, y, note)\n"
        'style.colour = "red"\n'
        "               ^")


@pytest.mark.parametrize(("key", "message"), [
    ("section", 'a hand needs a section: section = "2468"'),
    ("value", "a hand needs a value: value = 25"),
    ("pattern", 'a hand needs a pattern: pattern = "FF 2222a 4444a 6666a"'),
])
def test_missing_hand_keys_point_at_the_header(key: str, message: str) -> None:
    assert rendered(one_hand(**{key: ""})) == f"t.toml:3:1: {message}\n[[hand]]\n^"


@pytest.mark.parametrize("value", ["0", "-5", "2.5", '"25"', "true"])
def test_bad_values(value: str) -> None:
    assert rendered(one_hand(value=value)) == (
        f"t.toml:6:9: value must be a positive whole number\nvalue = {value}\n        ^")


def test_bad_section_and_pattern_types() -> None:
    assert rendered(one_hand(section="3")) == (
        't.toml:4:11: a hand needs a section: section = "2468"\nsection = 3\n          ^')
    assert rendered(one_hand(pattern="[1, 2]")) == (
        "t.toml:5:11: pattern must be text in quotes\npattern = [1, 2]\n          ^")


@pytest.mark.parametrize("key", ["concealed", "star", "declared"])
def test_flags_must_be_booleans(key: str) -> None:
    pad = " " * (len(key) + 3)
    assert rendered(one_hand(**{key: '"yes"'})) == (
        f't.toml:7:{len(key) + 4}: {key} must be true or false\n{key} = "yes"\n{pad}^')


def test_bad_suits_and_note() -> None:
    assert rendered(one_hand(suits='"same"')) == (
        't.toml:7:9: suits must be "distinct" or "any"\nsuits = "same"\n        ^')
    assert rendered(one_hand(note="7")) == "t.toml:7:8: note must be text\nnote = 7\n       ^"


@pytest.mark.parametrize("value", ["[]", "[0]", "[10]", "5", "[true]", '["1"]'])
def test_bad_x_and_y_lists(value: str) -> None:
    for key in ("x", "y"):
        assert rendered(one_hand(**{key: value})) == (
            f"t.toml:7:5: {key} must be a list of numbers from 1 to 9, like [1, 2, 3]\n"
            f"{key} = {value}\n    ^")


def test_x_value_out_of_range_for_the_offsets() -> None:
    assert rendered(one_hand(pattern='"FF XXXX0a XXXX1a NNNN"', x="[1, 9]")) == (
        "t.toml:7:5: x value 9 puts X+1 outside 1..9\nx = [1, 9]\n    ^")
    assert rendered(one_hand(pattern='"FF XXXX0a YYYY2a NNNN"', y="[8]")) == (
        "t.toml:7:5: y value 8 puts Y+2 outside 1..9\ny = [8]\n    ^")


def test_ids() -> None:
    assert rendered(one_hand(id='""')) == 't.toml:7:6: id must be non-empty text\nid = ""\n     ^'
    # an explicit id that repeats another one
    source = 'name = "T"\n' + HAND + 'id = "x"\n' + HAND + 'id = "x"\n'
    assert rendered(source) == (
        "t.toml:11:6: id 'x' is already used by hand 1\nid = \"x\"\n     ^")
    # a default id that repeats an explicit one
    source = 'name = "T"\n' + HAND + 'id = "Kongs-2"\n' + HAND
    assert rendered(source) == "t.toml:7:1: id 'Kongs-2' is already used by hand 1\n[[hand]]\n^"


# ---------------------------------------------------------------------------- patterns


@pytest.mark.parametrize(("pattern", "column", "message"), [
    ("FF 2222 4444a 6666a", 15, "2 needs a suit letter a, b or c"),
    ("FF DDDD 4444a 6666a", 15, "D needs a suit letter a, b or c"),
    ("FF XXXX0 4444a 6666a", 15, "X needs a suit letter a, b or c"),
    ("FF XXXXa 4444a 6666a", 15, "X needs an offset digit 0 to 8 after it (XXXX0 for X itself)"),
    ("FF XXXX9a 4444a 6666a", 19, "offset 9 is too big: use 0 to 8"),
    ("FF 2222a 4444a 66Q6a", 29, "unknown symbol 'Q'"),
    ("ff 2222a 4444a 6666a", 12, "unknown symbol 'f' (symbols are capital letters: F)"),
    ("FF 2222a+4444a 6666a", 19,
     "unknown symbol 'a' (a suit letter goes only at the end of a token)"),
    ("FF 2222a a 4444a 6666a", 21, "suit letter 'a' has no tiles before it"),
    ("FF 2222a 4444a 666a", 12, "pattern has 13 tiles, a hand needs 14"),
    ("", 12, "pattern has 0 tiles, a hand needs 14"),
    ("11a 11a 11a 1111b 2222c", 12,
     "no way to make this hand: its singles and pairs need more natural copies of a tile "
     "than one set holds (Jokers cannot stand in them)"),
])
def test_pattern_problems_point_into_the_pattern(pattern: str, column: int,
                                                 message: str) -> None:
    line = f'pattern = "{pattern}"'
    assert rendered(one_hand(pattern=f'"{pattern}"')) == (
        f"t.toml:5:{column}: {message}\n{line}\n{' ' * (column - 1)}^")


def test_pattern_columns_in_other_string_forms() -> None:
    # a literal string, extra spaces, a multi-line string and an escape
    for text, column in [("pattern = 'FF 2222 4444a 6666a'", 15),
                         ("  pattern  =  'FF 2222 4444a 6666a'", 19),
                         ('pattern = """FF 2222 4444a 6666a"""', 17),
                         ('pattern = "\\u0046F 2222 4444a 6666a"', 20)]:
        source = f'name = "T"\n[[hand]]\nsection = "A"\nvalue = 25\n{text}\n'
        assert rendered(source) == (
            f"t.toml:5:{column}: 2 needs a suit letter a, b or c\n{text}\n"
            f"{' ' * (column - 1)}^")
    source = 'name = "T"\n[[hand]]\nsection = "A"\nvalue = 25\npattern = """\nFF 2222 4a"""\n'
    assert rendered(source) == (
        "t.toml:6:4: 2 needs a suit letter a, b or c\nFF 2222 4a\"\"\"\n   ^")


def test_pattern_problem_in_an_inline_hand() -> None:
    source = 'name = "T"\nhand = [{section = "A", pattern = "FF 2222 4444a 6666a", value = 5}]\n'
    assert rendered(source) == (
        "t.toml:2:39: 2 needs a suit letter a, b or c\n"
        'hand = [{section = "A", pattern = "FF 2222 4444a 6666a", value = 5}]\n'
        f"{' ' * 38}^")


def test_every_problem_is_reported_in_file_order() -> None:
    source = ('name = "T"\n'
              '[[hand]]\nsection = "A"\npattern = "FF 2222 4444Q"\nvalue = 0\n'
              '[[hand]]\nsection = "A"\npattern = "FF 2222a 4444a 6666a"\nvalue = 25\n'
              'colour = 1\n')
    with pytest.raises(CardError) as err:
        parse_card(source, "t.toml")
    assert [(p.line, p.column, p.message) for p in err.value.problems] == [
        (4, 15, "2 needs a suit letter a, b or c"),  # only the first in a pattern
        (5, 9, "value must be a positive whole number"),
        (10, 10, "unknown key 'colour' (a hand has section, pattern, value, id, concealed, "
                 "star, declared, suits, x, y, note)")]
    assert err.value.message == "2 needs a suit letter a, b or c"
    assert err.value.render().count("\n") == 8


def test_pattern_symbols_reach_the_ways() -> None:
    card = parse_card('name = "T"\n[[hand]]\nsection = "Y"\npattern = "2026a DDDDa 2026b EE"\n'
                      "value = 35\n")
    first = card.hands[0].ways[0]
    assert [(g.tile, g.size) for g in first.groups] == [
        (INDEX["2B"], 1), (INDEX["2B"], 1), (INDEX["6B"], 1), (INDEX["2C"], 1),
        (INDEX["2C"], 1), (INDEX["6C"], 1), (INDEX["E"], 2), (INDEX["G"], 4),
        (INDEX["0"], 1), (INDEX["0"], 1)]
