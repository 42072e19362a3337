"""The Charleston of the American game as data: its stages, where tiles go in each, the
choices collected so far, and how a blind pass resolves (docs/rules.md, section 3).

Every stage is simultaneous and hidden: each seat in :attr:`Charleston.pending` chooses,
and only once every one of them has chosen does anything happen (see
:mod:`twinrack.engine.charleston`, which moves the tiles and says what happened).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

#: the kinds of stage, and the verb a seat answers each with
PASS, VOTE, OFFER, COURTESY = "charleston", "vote", "offer", "courtesy"
#: the words for the seat a pass goes to, by players and shift
DIRECTIONS = {(4, 1): "right", (4, 2): "across", (4, 3): "left", (3, 1): "right",
              (3, 2): "left"}


class Stage(NamedTuple):
    """One stage: ``kind`` (the verb that answers it), ``name`` (as events write it), the
    ``shift`` of a pass (seat s passes to seat s + shift) and whether tiles received in it
    may be passed on unseen (``blind``)."""

    kind: str
    name: str
    shift: int = 0
    blind: bool = False

    def direction(self, players: int) -> str | None:
        """``right``, ``across`` or ``left`` for a pass; None for a vote or an offer."""
        return DIRECTIONS.get((players, self.shift)) if self.shift else None


def _passes(players: int, names: Sequence[str], which: str) -> list[Stage]:
    """The passes of one Charleston, named by direction; the last one may go blind."""
    shifts = {d: s for (n, s), d in DIRECTIONS.items() if n == players}
    return [Stage(PASS, f"{which}-{d}", shifts[d], i == len(names) - 1)
            for i, d in enumerate(names)]


def plan(players: int) -> tuple[Stage, ...]:
    """The stages in order. Four players: right, across, left; the vote; left, across,
    right; the courtesy offer across and its pass. Three players have no one across:
    right, left; the vote; left, right; no courtesy pass."""
    if players == 4:
        return (*_passes(4, ("right", "across", "left"), "first"), Stage(VOTE, "vote"),
                *_passes(4, ("left", "across", "right"), "second"), Stage(OFFER, "offer"),
                Stage(COURTESY, "courtesy", 2))
    return (*_passes(3, ("right", "left"), "first"), Stage(VOTE, "vote"),
            *_passes(3, ("left", "right"), "second"))


class Charleston:
    """The Charleston under way: the stage, who still chooses, the choices made (secret
    until resolved), the courtesy offers and counts, and the votes once all are in."""

    __slots__ = ("choices", "counts", "index", "offers", "pending", "plan", "players",
                 "votes")

    def __init__(self, players: int) -> None:
        self.players = players
        self.plan = plan(players)
        self.index = 0
        self.pending = list(range(players))
        #: per seat, its choice in this stage (an action), until the stage resolves
        self.choices: dict[int, Any] = {}
        #: the courtesy offers made so far, and the counts agreed (per seat) once all are in
        self.offers: dict[int, int] = {}
        self.counts: tuple[int, ...] = ()
        #: every seat's vote ("again" or "stop"), once all have voted
        self.votes: tuple[str, ...] = ()

    @property
    def stage(self) -> Stage:
        return self.plan[self.index]

    def skip_second(self) -> None:
        """The second Charleston was stopped: on to what follows its passes."""
        while self.index + 1 < len(self.plan) and self.plan[self.index + 1].kind == PASS:
            self.index += 1

    def copy(self) -> Charleston:
        c = Charleston.__new__(Charleston)
        c.players = self.players
        c.plan = self.plan
        c.index = self.index
        c.pending = list(self.pending)
        c.choices = dict(self.choices)
        c.offers = dict(self.offers)
        c.counts = self.counts
        c.votes = self.votes
        return c


def partner(seat: int) -> int:
    """The seat across (four players): the courtesy pass goes between partners."""
    return (seat + 2) % 4


def kept_tiles(own: Sequence[Sequence[int]], blind: Sequence[int],
               source: Callable[[int], int]) -> list[list[int]] | None:
    """Where a pass leaves the tiles: for each seat, the tiles it keeps of those that
    reach it. ``own[s]`` are the tiles seat s passes of its own (3 - ``blind[s]``, sorted),
    ``source(s)`` the seat passing to s. Each seat's bundle is its own tiles, then the first
    ``blind[s]`` of the bundle reaching it; a seat keeps the rest of that bundle. The tile in
    place k of a seat's bundle is found by walking back against the pass. None when every
    seat passes all three blind: then nothing moves."""
    n = len(own)
    if all(b == 3 for b in blind):
        return None

    def origin(seat: int, k: int) -> int:
        while k >= len(own[seat]):  # a seat with own tiles is reached within n steps
            k -= len(own[seat])
            seat = source(seat)
        return own[seat][k]

    return [[origin(source(s), k) for k in range(blind[s], 3)] for s in range(n)]
