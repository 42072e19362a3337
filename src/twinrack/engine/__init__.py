"""The rules engine: a pure core (no I/O, no clock, no global randomness).

    >>> from twinrack.engine import RuleSet, new_game, legal_actions, apply
    >>> game = new_game(RuleSet(), seed=1)
    >>> seat = game.to_act()[0]
    >>> events = apply(game, legal_actions(game, seat)[0])

See docs/rules.md for the rules as implemented and each Decision's RuleSet option.
"""

from twinrack.engine.actions import (
    Action,
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Pass,
    Undeclare,
    Withdraw,
    parse_action,
)
from twinrack.engine.events import Event, parse_event
from twinrack.engine.game import (
    apply,
    build_wall,
    deal_plan,
    game_facts,
    is_legal,
    legal_actions,
    new_game,
    rigged_stack,
    score,
    settlement,
    why_illegal,
)
from twinrack.engine.rules import RulesError, RuleSet
from twinrack.engine.scoring import GameFacts, Score, ScoreLine, ScoringRules, score_game, settle
from twinrack.engine.state import GameState
from twinrack.engine.view import View, events_for, view

__all__ = [
    "Action",
    "Claim",
    "Declare",
    "Discard",
    "Event",
    "Exchange",
    "Expose",
    "GameFacts",
    "GameState",
    "MahJongg",
    "Move",
    "Pass",
    "RuleSet",
    "RulesError",
    "Score",
    "ScoreLine",
    "ScoringRules",
    "Undeclare",
    "View",
    "Withdraw",
    "apply",
    "build_wall",
    "deal_plan",
    "events_for",
    "game_facts",
    "is_legal",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_event",
    "rigged_stack",
    "score",
    "score_game",
    "settle",
    "settlement",
    "view",
    "why_illegal",
]
