"""The review of an American game rates the Charleston's decisions too: a deliberately
bad first pass (the three tiles whose loss leaves the plan worst off) is reported, and
the votes are among the decisions."""

from __future__ import annotations

import random

from tests.bots.untimed import UNTIMED_BOTS
from twinrack.bots.review import Judge, review
from twinrack.bots.seen import position
from twinrack.card import practice_card
from twinrack.engine import RuleSet, apply, legal_actions, new_game, view
from twinrack.engine.actions import CharlestonPass
from twinrack.engine.record import record_of
from twinrack.engine.shuffle import derive_seed


def test_a_bad_pass_in_the_charleston_is_a_mistake_of_the_review() -> None:
    card = practice_card()
    game = new_game(RuleSet.for_variant("american", 4), seed=derive_seed(31, "review"),
                    card=card)
    bots = [UNTIMED_BOTS["greedy"](card) for _ in range(4)]
    rngs = [random.Random(s) for s in range(4)]
    judge = Judge(card)
    bad = None
    while not game.over:
        seat = game.to_act()[0]
        seen, legal = view(game, seat), legal_actions(game, seat)
        action = bots[seat].choose(seen, legal, rngs[seat])
        if seat == 0 and bad is None and isinstance(action, CharlestonPass):
            me = position(seen)
            options = [a for a in legal if isinstance(a, CharlestonPass) and not a.blind]
            action = min(options, key=lambda a: (judge.after(seen, me, a).points,  # type: ignore[union-attr]
                                                 a.tiles))
            bad = (len(game.actions) + 1, action.body())
        apply(game, action)
    assert bad is not None
    r = review(record_of(game), 0, card, searched=2, simulations=2)
    kinds = {x.kind for x in r.ratings}
    assert {"charleston", "vote"} <= kinds
    first = next(x for x in r.ratings if x.number == bad[0])
    assert (first.kind, first.played) == ("charleston", bad[1])
    assert first.best != first.played and first.loss > 0 and first.margin_lost is None
    assert first.number in [m.number for m in r.mistakes]
