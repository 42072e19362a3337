"""Computer players. Each bot has a ``name`` and ``choose(view, legal, rng) -> Action``."""

from __future__ import annotations

from typing import Protocol

from twinrack.bots.random_bot import RandomBot
from twinrack.engine.actions import Action
from twinrack.engine.view import View


class Bot(Protocol):
    name: str

    def choose(self, view: View, legal: list[Action], rng: object) -> Action: ...


#: every bot by name (the bots issue adds more)
BOTS: dict[str, type] = {"random": RandomBot}

__all__ = ["BOTS", "Bot", "RandomBot"]
