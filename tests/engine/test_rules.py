"""Rule sets are checked in one place (engine/rules.py): every bad combination of variant,
players, revision and options gets its one code, its option and one clear message
(docs/rules.md section 13). The command line and the server show the same message
(tests/desk/test_rule_checks.py)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from twinrack.engine.rules import RulesError, RuleSet, rules_from

#: (arguments of rules_from, code, option, message)
BAD: list[tuple[dict[str, Any], str, str, str]] = [
    ({"variant": "mahjong"}, "unknown_variant", "variant",
     "unknown variant 'mahjong' (expected siamese, royale, imperial, american)"),
    ({"variant": 7}, "unknown_variant", "variant",
     "rule option variant has a value of the wrong kind: 7"),
    ({"variant": "siamese", "players": 3}, "bad_player_count", "players",
     "Siamese is played by 2 players"),
    ({"variant": "royale", "players": 2}, "bad_player_count", "players",
     "Royale is played by 3 or 4 players"),
    ({"variant": "imperial", "players": 5}, "bad_player_count", "players",
     "Imperial is played by 2, 3 or 4 players"),
    ({"players": "2"}, "bad_player_count", "players",
     "rule option players has a value of the wrong kind: '2'"),
    ({"players": True}, "bad_player_count", "players",
     "rule option players has a value of the wrong kind: True"),
    ({"revision": "2020"}, "unknown_revision", "revision",
     "unknown revision '2020' (expected 2024 or 2019)"),
    ({"revision": 2024}, "unknown_revision", "revision",
     "rule option revision has a value of the wrong kind: 2024"),
    ({"wall_dead": "some"}, "bad_option", "wall_dead", "wall_dead must be 'any' or 'all'"),
    ({"last_discard": "none"}, "bad_option", "last_discard",
     "last_discard must be 'mahjongg' or 'any'"),
    ({"pot": -1}, "bad_option", "pot", "pot must not be negative"),
    ({"pot": 1.5}, "bad_option", "pot", "rule option pot has a value of the wrong kind: 1.5"),
    ({"strict": "yes"}, "bad_option", "strict",
     "rule option strict has a value of the wrong kind: 'yes'"),
    ({"double_first": 1}, "bad_option", "double_first",
     "rule option double_first has a value of the wrong kind: 1"),
    ({"colour": "red"}, "unknown_option", "colour", "unknown rule option(s): colour"),
    ({"zeal": 1, "colour": "red"}, "unknown_option", "colour",
     "unknown rule option(s): colour, zeal"),
]


def refusal(**arguments: Any) -> RulesError:
    with pytest.raises(RulesError) as err:
        rules_from(**arguments)
    return err.value


@pytest.mark.parametrize(("arguments", "code", "option", "message"), BAD)
def test_every_bad_combination_has_its_code(arguments: dict[str, Any], code: str, option: str,
                                            message: str) -> None:
    err = refusal(**arguments)
    assert (err.code, err.option, err.message) == (code, option, message)


@pytest.mark.parametrize(("arguments", "code", "option", "message"), BAD)
def test_a_record_with_bad_rules_gets_the_same_code(arguments: dict[str, Any], code: str,
                                                   option: str, message: str) -> None:
    with pytest.raises(RulesError) as err:
        RuleSet.from_dict({**RuleSet().to_dict(), **arguments})
    assert (err.value.code, err.value.option, err.value.message) == (code, option, message)


def test_a_record_whose_rules_are_not_a_table() -> None:
    with pytest.raises(RulesError) as err:
        RuleSet.from_dict([])  # type: ignore[arg-type]
    assert (err.value.code, err.value.message) == ("bad_rules",
                                                   "rules must be a table of options")


def test_a_record_reports_the_first_wrong_kind_in_its_own_order() -> None:
    with pytest.raises(RulesError) as err:
        RuleSet.from_dict({"pot": "x", "variant": "mahjong"})
    assert (err.value.code, err.value.option) == ("bad_option", "pot")


def test_the_variant_is_checked_before_the_players_and_the_revision() -> None:
    err = refusal(variant="mahjong", players=9, revision="1999")
    assert err.code == "unknown_variant"
    assert refusal(variant="royale", players=2, revision="1999").code == "bad_player_count"


def test_good_rules_and_their_defaults() -> None:
    assert rules_from() == RuleSet()
    assert rules_from("royale") == RuleSet(variant="royale", players=4)
    assert rules_from("imperial") == RuleSet(variant="imperial", players=2)
    assert rules_from("imperial", 3, "2019", strict=True, pot=5) == RuleSet(
        variant="imperial", players=3, revision="2019", strict=True, pot=5)
    assert RuleSet.for_variant("royale", 3, revision="2019") == rules_from("royale", 3, "2019")
    assert RuleSet.from_dict(rules_from("royale", 3).to_dict()) == rules_from("royale", 3)


def test_the_error_crosses_process_boundaries_whole() -> None:
    err = pickle.loads(pickle.dumps(refusal(revision="2020")))
    assert (type(err), err.code, err.option, err.message) == (
        RulesError, "unknown_revision", "revision",
        "unknown revision '2020' (expected 2024 or 2019)")


def test_seats_are_named_by_their_winds_and_two_seats_sit_across() -> None:
    from twinrack.engine.rules import seat_wind

    assert [seat_wind(s, 2) for s in range(2)] == ["East", "West"]
    assert [seat_wind(s, 3) for s in range(3)] == ["East", "South", "West"]
    assert [seat_wind(s, 4) for s in range(4)] == ["East", "South", "West", "North"]
    with pytest.raises(ValueError, match="seat 3 is not one of a 3-seat table's"):
        seat_wind(3, 3)
