"""One game at the terminal: the player's seat and bots, through the engine's calls only.

Nothing here knows a rule. Every action the player takes is looked up in
``legal_actions``; a refused one is explained by ``why_illegal``; what the player sees is
``view(state, seat)`` and the events as that seat may see them. Previews (does this
exposure kill a rack? which line does this Mah Jongg make?) apply the action to a copy of
the game and read the events the engine gives back.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from twinrack.bots import BOTS, Bot, Driver
from twinrack.card import Card, practice_card
from twinrack.engine import (
    Action,
    Exchange,
    Expose,
    GameState,
    MahJongg,
    RuleSet,
    Score,
    View,
    apply,
    legal_actions,
    new_game,
    score,
    view,
    why_illegal,
)
from twinrack.engine.events import Event, MahJonggDeclared, RackDead, redacted
from twinrack.engine.record import record_of
from twinrack.engine.state import Phase
from twinrack.tui import render


def default_bot() -> str:
    """The strongest ordinary bot registered: ``greedy`` when there is one."""
    return "greedy" if "greedy" in BOTS else "random"


@dataclass(frozen=True)
class Choice:
    """One action offered in a list: its label says what it would do."""

    action: Action
    label: str  # with the line a Mah Jongg makes and the racks an exposure kills
    plain: str  # the action alone
    kills: tuple[int, ...]  # the player's racks it would make dead


@dataclass
class Preview:
    """What an action would do, read from the events of applying it to a copy."""

    kills: tuple[int, ...] = ()  # the player's racks it would make dead
    mahjongg: MahJonggDeclared | None = None


class TerminalTable:
    """A game at the terminal between the player (``seat``) and bots on every other seat
    (not the web table of :mod:`twinrack.server.table.live`)."""

    def __init__(self, rules: RuleSet, *, seed: int, card: Card | None = None,
                 bot: str | None = None, seat: int = 0,
                 bots: dict[int, Bot] | None = None, stack: Sequence[int] | None = None,
                 state: GameState | None = None) -> None:
        """A new game dealt from ``seed`` (``stack``: rig the first tiles, for scenarios),
        or ``state``, a game already under way (its rules and card win)."""
        if state is not None:
            rules, card = state.rules, state.card
        self.rules = rules
        self.card = card or practice_card()
        self.seed = seed
        self.seat = seat
        self.bot_name = bot or default_bot()
        self.state: GameState = state if state is not None else new_game(
            rules, seed=seed, card=self.card, stack=stack)
        given = bots or {}
        self.bots: dict[int, Bot] = {s: given.get(s) or BOTS[self.bot_name](self.card)
                                     for s in range(rules.players) if s != seat}
        self.driver = Driver(self.state, self.bots,
                             {s: random.Random(f"{seed}:{s}") for s in self.bots})

    # ------------------------------------------------------------------ what the player sees

    def view(self) -> View:
        return view(self.state, self.seat)

    def names(self) -> list[str]:
        """How the log and the table name each seat."""
        out = []
        for s in range(self.rules.players):
            if s == self.seat:
                out.append("You")
            elif self.rules.players == 2:
                out.append("Bot")
            else:
                out.append(f"Bot {s}")
        return out

    def opening_events(self) -> list[Event]:
        """The events so far (the deal), as the player may see them."""
        return redacted(self.state.events, self.seat)

    @property
    def over(self) -> bool:
        return self.state.over

    def score(self) -> Score:
        return score(self.state)

    # ------------------------------------------------------------------ whose move

    def legal(self) -> list[Action]:
        """The player's legal actions now."""
        return legal_actions(self.state, self.seat)

    def player_to_act(self) -> bool:
        return self.seat in self.state.to_act()

    def bot_to_act(self) -> int | None:
        """A bot seat that must act now; the player answers first when both must."""
        return self.driver.bot_to_act()

    def phase(self) -> str:
        return self.state.phase

    def in_window(self) -> bool:
        return self.state.phase == Phase.WINDOW

    def in_turn(self) -> bool:
        return self.state.phase == Phase.TURN

    def declaring(self) -> bool:
        return self.state.phase == Phase.DECLARE

    # ------------------------------------------------------------------ acting

    def bot_step(self) -> tuple[Action, list[Event]]:
        """Let the bot that must act choose and play; the events as the player sees them."""
        decision = self.driver.bot_decides()
        return decision.action, redacted(decision.events, self.seat)

    def play(self, action: Action) -> list[Event]:
        """Apply the player's action (it must be legal); the events as the player sees
        them."""
        return redacted(self.driver.play(action), self.seat)

    def find(self, wanted: Callable[[Action], bool]) -> list[Action]:
        """The player's legal actions matching ``wanted``."""
        return [a for a in self.legal() if wanted(a)]

    def is_legal(self, action: Action) -> bool:
        return action in self.legal()

    def why(self, action: Action) -> str:
        """Why the engine refuses ``action`` now, in its own words."""
        return why_illegal(self.state, action).message

    def preview(self, action: Action) -> Preview:
        """Apply a legal action to a copy of the game and report what it would do."""
        copy = self.state.copy()
        events = apply(copy, action)
        kills = tuple(e.rack for e in events if isinstance(e, RackDead) and e.seat == self.seat)
        mj = next((e for e in events if isinstance(e, MahJonggDeclared)
                   and e.seat == self.seat), None)
        return Preview(kills, mj)  # nothing else: the copy may have gone on to a pick

    def choices(self, actions: Sequence[Action], names: Sequence[str]) -> list[Choice]:
        """The actions as a list to choose from, each previewed on a copy of the game:
        Mah Jonggs on jokerless lines first, then by card value (presentation only)."""
        v = self.view()
        rows: list[tuple[tuple[int, int, int], Choice]] = []
        for n, a in enumerate(actions):
            p = self.preview(a) if isinstance(a, Expose | MahJongg | Exchange) else Preview()
            line = None
            order = (0, 0, n)
            if p.mahjongg is not None:
                value = self.hand_value(p.mahjongg.hand)
                line = render.line_words(p.mahjongg, value)
                order = (0 if p.mahjongg.jokerless else 1, -(value or 0), n)
            rows.append((order, Choice(a, render.action_label(a, names, v, p.kills, line),
                                       render.action_label(a, names, v), p.kills)))
        rows.sort(key=lambda row: row[0])
        return [choice for _order, choice in rows]

    def save_record(self, folder: Path) -> Path:
        """Write the game's record (JSON, ``twinrack replay --verify`` checks it) into
        ``folder`` as ``twinrack-<variant>-<seed>.json``, numbered when the name is taken;
        the file written. The seed is in the record only once the game is over."""
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"twinrack-{self.rules.variant}-{self.seed}"
        text = json.dumps(record_of(self.state), indent=1) + "\n"
        for n in range(1, 1000):
            path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
            try:
                with path.open("x", encoding="utf-8") as f:
                    f.write(text)
            except FileExistsError:
                continue
            return path
        raise FileExistsError(f"too many records named {stem} in {folder}")

    def hand_value(self, hand_id: str) -> int | None:
        for h in self.card.hands:
            if h.id == hand_id:
                return h.value
        return None
