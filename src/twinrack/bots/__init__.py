"""Computer players. A bot is built for one game and seat (``Bot(card)``, the game's card)
and has a ``name`` and ``choose(view, legal, rng) -> Action``: it sees the seat's view, the
legal actions and its own random generator, and nothing else."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from twinrack.bots.expert import ExpertBot
from twinrack.bots.greedy import GreedyBot
from twinrack.bots.random_bot import RandomBot
from twinrack.engine.actions import Action
from twinrack.engine.view import View


class Bot(Protocol):
    name: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action: ...


#: every bot by name
BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}

__all__ = ["BOTS", "Bot", "ExpertBot", "GreedyBot", "RandomBot"]
