"""The referee's public face: ``new_game``, ``legal_actions``, ``apply``, ``score`` and the
rest, gathered from the modules that each hold one concern (docs/rules.md for the rules):

* :mod:`~twinrack.engine.deal`: the walls and the deal;
* :mod:`~twinrack.engine.completion`: is a rack complete, and what completes it;
* :mod:`~twinrack.engine.refusals`, :mod:`~twinrack.engine.options` and
  :mod:`~twinrack.engine.legality`: what a seat may do now, and why anything else is
  refused (one path for both);
* :mod:`~twinrack.engine.transitions` and :mod:`~twinrack.engine.turns`: how an action
  changes the game, and how turns follow one another;
* :mod:`~twinrack.engine.facts`: what decides the score;
* :mod:`~twinrack.engine.memo`: what the referee remembers (never part of the state).
"""

from __future__ import annotations

from twinrack.engine.completion import rack_completions
from twinrack.engine.deal import build_wall, deal_plan, new_game, rigged_stack
from twinrack.engine.facts import game_facts, score, settlement
from twinrack.engine.legality import is_legal, legal_actions, why_illegal
from twinrack.engine.transitions import apply

__all__ = [
    "apply",
    "build_wall",
    "deal_plan",
    "game_facts",
    "is_legal",
    "legal_actions",
    "new_game",
    "rack_completions",
    "rigged_stack",
    "score",
    "settlement",
    "why_illegal",
]
