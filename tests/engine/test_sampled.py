"""A state built from a seat's view and the true hidden tiles is the same game: the same
view, the same legal actions for every seat to act, and, played on by the same bots, the
same score."""

from __future__ import annotations

import random

import pytest

from tests.bots.untimed import bot_copy
from twinrack.bots import BOTS
from twinrack.card import practice_card
from twinrack.engine import GameState, Pass, RuleSet, apply, legal_actions, new_game, score, view
from twinrack.engine.actions import decisions
from twinrack.engine.sampled import NotSampleable, sampled_state
from twinrack.engine.shuffle import derive_seed


def truth(game: GameState, seat: int) -> GameState:
    """The sampled state of ``seat`` given what is really hidden."""
    hidden = {s: list(p.pool) for s, p in enumerate(game.players) if s != seat}
    turns = {(m.seat, m.rack): m.turn for p in game.players for m in p.mahjonggs}
    return sampled_state(view(game, seat), game.card, hidden, game.wall[game.wall_pos:],
                         game.rules, turns)


@pytest.mark.parametrize(("variant", "players", "built", "played_on"),
                         [("siamese", 2, 121, 10), ("royale", 3, 405, 33),
                          ("imperial", 2, 164, 13)])
def test_sampled_truth_is_the_same_game(variant: str, players: int, built: int,
                                        played_on: int) -> None:
    card = practice_card()
    rules = RuleSet.for_variant(variant, players)
    game = new_game(rules, seed=derive_seed(3, "sampled", variant), card=card)
    bots = [BOTS["greedy"](card) for _ in range(players)]
    rngs = [random.Random(s) for s in range(players)]
    made = replayed = 0
    while not game.over:
        seat = game.to_act()[0]
        try:
            twin = truth(game, seat)
        except NotSampleable:
            twin = None
        if twin is not None:
            made += 1
            assert view(twin, seat) == view(game, seat)
            for s in game.to_act():  # another seat's arrangement is guessed: its moves differ
                arranging = s == seat
                assert (decisions(legal_actions(twin, s), arranging)
                        == decisions(legal_actions(game, s), arranging))
            if made % 12 == 0:
                a, b = game.copy(), twin
                for g, r in ((a, random.Random(made)), (b, random.Random(made))):
                    players_bots = bot_copy(bots)
                    while not g.over:
                        s = g.to_act()[0]
                        apply(g, players_bots[s].choose(view(g, s), legal_actions(g, s), r))
                assert score(b).totals == score(a).totals
                assert b.end_reason == a.end_reason
                replayed += 1
        apply(game, bots[seat].choose(view(game, seat), legal_actions(game, seat),
                                      rngs[seat]))
    assert (made, replayed) == (built, played_on)


def test_another_seats_turn_is_not_sampled() -> None:
    game = new_game(RuleSet(), seed=4)
    while game.phase == "declare":
        apply(game, Pass(game.to_act()[0]))
    other = 1 - game.to_act()[0]
    with pytest.raises(NotSampleable) as err:
        sampled_state(view(game, other), game.card, {}, game.wall[game.wall_pos:])
    assert err.value.code == "not_sampleable"
    assert err.value.message == "a sampled state is built for the viewer's own turn"
