"""The one play loop: whose move it is, then a bot's choice or a person's action, applied.

A bot gets the seat's view, the legal actions and its own random generator, nothing else
(docs/bots.md); a seat without a bot is a person's, who answers first when both must act
(a claim window). The arena, ``twinrack simulate`` and the terminal client all play through
a :class:`Driver`; only what they do between moves (timing, delays, drawing) differs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from time import perf_counter
from typing import NamedTuple, Protocol

from twinrack.engine import Action, Event, GameState, View, apply, legal_actions, view

#: a game that has not ended after this many actions has gone wrong (every game ends)
MAX_ACTIONS = 100_000


class Bot(Protocol):
    """A computer player, built for one game and seat with the game's card."""

    name: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action: ...


class Decision(NamedTuple):
    """One bot's move: who played what, the events it caused and the bot's thinking time
    (measured around ``choose`` alone). A named tuple: one is made per move played."""

    seat: int
    action: Action
    events: list[Event]
    seconds: float


class Driver:
    """Plays the bots' seats of one game; the seats without a bot are people's."""

    def __init__(self, state: GameState, bots: Mapping[int, Bot],
                 rngs: Mapping[int, random.Random]) -> None:
        self.state = state
        self.bots = dict(bots)
        self.rngs = dict(rngs)
        self.applied = 0

    def next_seat(self) -> int | None:
        """The seat to act next (``None`` once the game is over): a person before the
        bots when both must act."""
        acting = self.state.to_act()
        for s in acting:
            if s not in self.bots:
                return s
        return acting[0] if acting else None

    def bot_to_act(self) -> int | None:
        """The bot seat to act next, or ``None`` (a person's move, or the game is over)."""
        seat = self.next_seat()
        return seat if seat in self.bots else None

    def bot_decides(self, seat: int | None = None) -> Decision:
        """Let the bot to act (``seat``, when already known) choose from its view and the
        legal actions, and apply it."""
        if seat is None:
            seat = self.bot_to_act()
        if seat is None:
            raise RuntimeError("no bot has to act now")
        state = self.state
        legal = legal_actions(state, seat)
        seen = view(state, seat)
        start = perf_counter()
        action = self.bots[seat].choose(seen, legal, self.rngs[seat])
        seconds = perf_counter() - start
        return Decision(seat, action, self.play(action), seconds)

    def play(self, action: Action) -> list[Event]:
        """Apply an action (a person's, or the bot's just chosen); its events."""
        self.applied += 1
        if self.applied > MAX_ACTIONS:  # pragma: no cover - every game ends (property-tested)
            raise RuntimeError("a game did not end")
        return apply(self.state, action)

    def bot_decisions(self) -> Iterator[Decision]:
        """The bots' decisions, each applied, until a person must act or the game is over."""
        while (seat := self.bot_to_act()) is not None:
            yield self.bot_decides(seat)


def play_out(state: GameState, bots: Sequence[Bot],
             rngs: Sequence[random.Random]) -> GameState:
    """Play a game between bots (one per seat) to its end."""
    for _decision in Driver(state, dict(enumerate(bots)), dict(enumerate(rngs))).bot_decisions():
        pass
    return state
