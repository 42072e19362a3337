"""The one replay generator (engine/record.py ``replay_steps``): every step of a record with
its action, events and the game after it, and the first action that cannot be replayed."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from twinrack.bots import RandomBot
from twinrack.card import practice_card
from twinrack.cli.game import play_game
from twinrack.engine import GameState, RuleSet, new_game, why_illegal
from twinrack.engine.actions import parse_action
from twinrack.engine.record import StepError, record_of, replay_steps
from twinrack.engine.shuffle import derive_seed


@cache
def record() -> dict[str, Any]:
    game = play_game(RuleSet(), practice_card(), derive_seed(3, "replay steps"),
                     [RandomBot(), RandomBot()], [random.Random(1), random.Random(2)])
    return record_of(game)


def dealt() -> GameState:
    rec = record()
    return new_game(RuleSet.from_dict(rec["rules"]), seed=bytes.fromhex(rec["seed"]),
                    card=practice_card())


def test_each_step_has_its_action_events_and_the_game_after_it() -> None:
    rec = record()
    state = dealt()
    events = [str(e) for e in state.events]
    for k, step in enumerate(replay_steps(state, rec["actions"]), start=1):
        assert (step.number, step.text, str(step.action)) == (k, rec["actions"][k - 1],
                                                              rec["actions"][k - 1])
        assert step.state is state and len(state.actions) == k
        assert list(step.events) == state.events[len(state.events) - len(step.events):]
        events += [str(e) for e in step.events]
    assert events == rec["events"] and state.over
    assert len(rec["actions"]) > 50


def first_bad(actions: list[object], canonical: bool = False) -> tuple[StepError, GameState]:
    state = dealt()
    with pytest.raises(StepError) as err:
        for _step in replay_steps(state, actions, canonical=canonical):
            pass
    return err.value, state


def test_an_unreadable_action_stops_the_replay_there() -> None:
    actions: list[object] = list(record()["actions"])
    actions[5] = "0: flip 5B"
    err, state = first_bad(actions)
    assert (err.code, err.number, len(state.actions)) == ("bad_action", 6, 5)
    assert err.message.startswith("action 6 '0: flip 5B': cannot read action")


def test_a_refused_action_stops_the_replay_with_the_refusal_code() -> None:
    actions: list[object] = list(record()["actions"])
    actions[6] = actions[5]  # the same seat acting twice
    state = dealt()
    for _step in replay_steps(state, actions[:6]):
        pass
    expected = why_illegal(state, parse_action(str(actions[6])))
    err, state = first_bad(actions)
    assert (err.code, err.number, len(state.actions)) == (expected.code, 7, 6)
    assert err.message == f"action 7 '{actions[6]}' is refused on replay: {expected.message}"


def test_text_not_in_canonical_form_and_not_text() -> None:
    actions: list[object] = list(record()["actions"])
    sloppy = str(actions[3]).replace(": ", ":  ")
    actions[3] = sloppy
    state = dealt()
    assert len([step for step in replay_steps(state, actions[:5])]) == 5  # it parses
    err, _state = first_bad(actions, canonical=True)
    assert (err.code, err.number) == ("bad_record", 4)
    canonical = record()["actions"][3]
    assert err.message == f"action 4 '{sloppy}' is not in canonical form ('{canonical}')"
    actions[3] = 17
    err, _state = first_bad(actions)
    assert (err.code, err.number, err.message) == ("bad_record", 4, "action 4 is not text")
