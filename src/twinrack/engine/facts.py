"""What decides the score of a game, from its state, and the score itself
(docs/rules.md, section 10; the arithmetic is engine/scoring.py's)."""

from __future__ import annotations

from twinrack.engine.scoring import (
    GameFacts,
    HandFacts,
    MahJonggFact,
    Score,
    Settlement,
    score_game,
    settle,
)
from twinrack.engine.state import EndReason, GameState


def game_facts(st: GameState) -> GameFacts:
    """What decides the score, from the state (section 10)."""
    win_turn = None
    if st.end_reason == EndReason.MAHJONGG and st.winner is not None:
        win_turn = max(m.turn for m in st.players[st.winner].mahjonggs)
    facts: list[MahJonggFact] = []
    for p in st.players:
        for m in p.mahjonggs:
            h = m.hand
            facts.append(MahJonggFact(
                seat=m.seat, rack=m.rack,
                hand=HandFacts.of(h),
                jokerless=m.jokerless, closed=m.closed, turn=m.turn,
                wins=m.seat == st.winner and m.turn == win_turn,
                discarder=m.claimed_from, self_picked=m.self_picked))
    dead = tuple(tuple(i for i, r in enumerate(p.racks) if r.dead is not None)
                 for p in st.players)
    return GameFacts(
        players=st.rules.players, mah_jonggs=tuple(facts),
        wall_game=st.end_reason == EndReason.WALL and not facts, dead=dead, racks=st.rules.racks,
        both_dead=st.winner if st.end_reason == EndReason.DEAD else None,
        lowest_card_value=st.card.lowest_value)


def score(state: GameState) -> Score:
    """The itemized score (section 10); of the game so far if it has not ended."""
    return score_game(game_facts(state), state.rules.scoring_rules())


def settlement(state: GameState) -> Settlement:
    return settle(score(state).totals, state.rules.pot)
