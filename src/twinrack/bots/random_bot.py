"""A random legal bot: the baseline every other bot is measured against.

A bot sees only ``view(state, seat)``, the legal actions and its own random generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from twinrack.card import Card
from twinrack.engine.actions import Action, Move
from twinrack.engine.view import View


class RandomBot:
    """Picks a kind of action at random, then one action of that kind.

    Moves between its own racks change nothing but the arrangement, so it leaves tiles
    where they are unless a move is all it may do.
    """

    name = "random"

    def __init__(self, card: Card | None = None) -> None:
        self.card = card  # unused: a random bot needs no card

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        kinds: dict[type, list[Action]] = {}
        for a in legal:
            if type(a) is not Move:
                kinds.setdefault(type(a), []).append(a)
        if not kinds:
            return rng.choice(list(legal))
        options = kinds[rng.choice(list(kinds))]
        return options[rng.randrange(len(options))]
