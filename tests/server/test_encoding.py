"""The state message's pieces encoded once (server/table/encoding.py) say exactly what the
engine's view and the legal actions as objects say: over whole random games of every
variant, for every viewer at every version."""

from __future__ import annotations

import random

import orjson
import pytest

from twinrack.engine import apply, legal_actions, new_game, view
from twinrack.engine.rules import rules_from
from twinrack.server.table import wire
from twinrack.server.table.encoding import Encoder, legal_json, notation


def decoded(piece: object) -> object:
    return orjson.loads(orjson.dumps(piece))


@pytest.mark.parametrize(("variant", "players", "seed", "options"), [
    ("siamese", 2, 1, {}), ("siamese", 2, 2, {"expose_any_time": True}),
    ("royale", 3, 3, {}), ("royale", 4, 4, {}), ("imperial", 2, 5, {}),
    ("american", 4, 6, {}), ("american", 3, 7, {})])
def test_encoded_views_and_legal_actions_are_the_engines(variant: str, players: int,
                                                         seed: int, options: dict) -> None:
    rng = random.Random(seed)
    state = new_game(rules_from(variant, players, **options), seed=seed)
    encoder = Encoder()  # one table's: its pieces carry over from version to version
    viewers = [None, *range(players)]
    checked = 0
    while True:
        for viewer in viewers:
            v = view(state, viewer)
            assert decoded(encoder.view(v)) == v.to_dict()
            if viewer is not None:
                # claim advice on four racks is slow: checked on two-rack games
                advice = state.rules.racks <= 2
                assert (decoded(legal_json(state, viewer, advice=advice))
                        == wire.legal_objects(state, viewer, advice=advice))
            checked += 1
        if state.over:
            break
        seat = rng.choice(state.to_act())
        legal = legal_actions(state, seat)
        plays = [a for a in legal if a.verb != "move"] or legal
        apply(state, rng.choice(plays if rng.random() < 0.9 else legal))
        if rng.random() < 0.1:
            state = state.copy()  # as a table shows a copy while a write is out
    assert checked > 100


def test_notation_of_counts() -> None:
    counts = [0] * 36
    counts[1] = 2
    counts[35] = 1
    assert notation(tuple(counts)) == "2B 2B J"
    assert notation(tuple([0] * 36)) == ""
