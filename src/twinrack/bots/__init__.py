"""Computer players. ``BOTS[name](card)`` is the one way to make a bot: built for one game
and seat with the game's card, it has a ``name`` and ``choose(view, legal, rng) -> Action``
(it sees the seat's view, the legal actions and its own random generator, nothing else).
``DESCRIPTIONS[name]`` is each level's one-line description (for the lobby).
:mod:`twinrack.bots.driver` is the one loop that asks the bots to play."""

from __future__ import annotations

from collections.abc import Callable

from twinrack.bots.driver import Bot, Decision, Driver, play_out
from twinrack.bots.expert import ExpertBot
from twinrack.bots.greedy import GreedyBot
from twinrack.bots.levels import DESCRIPTIONS, BeginnerBot, IntermediateBot
from twinrack.bots.master import MasterBot
from twinrack.bots.random_bot import RandomBot
from twinrack.card import Card

#: every bot by name: what makes one for a game played with a card
BOTS: dict[str, Callable[[Card], Bot]] = {
    "random": RandomBot, "beginner": BeginnerBot, "intermediate": IntermediateBot,
    "greedy": GreedyBot, "expert": ExpertBot, "master": MasterBot}

__all__ = ["BOTS", "DESCRIPTIONS", "BeginnerBot", "Bot", "Decision", "Driver", "ExpertBot",
           "GreedyBot", "IntermediateBot", "MasterBot", "RandomBot", "play_out"]
