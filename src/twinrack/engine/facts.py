"""What decides the score of a game, from its state, and the score itself
(docs/rules.md, section 10; the arithmetic is engine/scoring.py's)."""

from __future__ import annotations

from twinrack.engine.american import american_score
from twinrack.engine.scoring import (
    GameFacts,
    HandFacts,
    MahJonggFact,
    Score,
    Settlement,
    end_facts,
    score_game,
    settle,
)
from twinrack.engine.state import EndReason, GameState


def game_facts(st: GameState) -> GameFacts:
    """What decides the score, from the state (section 10; the rules of the end of a game
    are :func:`twinrack.engine.scoring.end_facts`)."""
    declared = [MahJonggFact(seat=m.seat, rack=m.rack, hand=HandFacts.of(m.hand),
                             jokerless=m.jokerless, closed=m.closed, turn=m.turn,
                             discarder=m.claimed_from, self_picked=m.self_picked)
                for p in st.players for m in p.mahjonggs]
    dead = [[i for i, r in enumerate(p.racks) if r.dead is not None] for p in st.players]
    return end_facts(st.rules.players, st.rules.racks, declared, dead,
                     wall_spent=st.end_reason == EndReason.WALL,
                     lowest_card_value=st.card.lowest_value)


def score(state: GameState) -> Score:
    """The itemized score (section 10); of the game so far if it has not ended. The
    American game is scored its own way, the League's or the tournament sheet's."""
    if state.rules.american:
        return american_score(state)
    return score_game(game_facts(state), state.rules.scoring_rules())


def settlement(state: GameState) -> Settlement:
    return settle(score(state).totals, state.rules.pot)
