"""What the referee remembers between questions about a game: never a game fact.

Nothing here is part of a :class:`~twinrack.engine.state.GameState`, so a copy of a state
is a plain copy of its facts and a pickled state carries no cache. Two kinds of memory:

* **Per state object** (:func:`memo_of`): the legal actions of each seat, the Mah Jongg
  declarations of the seat on turn, and the public part of the view, each stamped with
  what it was worked out from. A copy of a state starts with an empty memo.
* **By content, shared by all games** (:func:`reach`): how far a rack is from the card's
  lines, keyed by the card, the rack's exposures (tiles and sizes) and the free tiles, so
  that copies of a game and replays of one share it. For each seat's rack the last reach
  worked out is kept too: a tile added fills at most one slot of a way, so tiles away
  never drop by more than the tiles gained since, which bounds the reach of the next
  holding without any work.
"""

from __future__ import annotations

import operator
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from twinrack.card.compiled import IMPOSSIBLE, CompiledCard, ExposureKey, IntArray

if TYPE_CHECKING:
    from twinrack.engine.actions import Action
    from twinrack.engine.state import GameState

#: exact reaches kept (they are small: a few ways each)
_REACH_CACHE = 20_000
_LAST_CACHE = 4_096

Holding = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reach:
    """How far one rack is, with some free tiles, from the lines it may still make."""

    least: int  # the fewest tiles away of any way (IMPOSSIBLE when none fits)
    near: IntArray  # the ways at most one tile away, ascending
    near_away: IntArray  # their tiles away (0 or 1)

    @property
    def done(self) -> IntArray:
        """The ways the free tiles complete."""
        out: IntArray = self.near[self.near_away == 0]
        return out


_REACH: dict[tuple[str, ExposureKey, Holding], Reach] = {}
#: per (card, game, seat, exposures): the holding of the last reach worked out, and it
_LAST: dict[tuple[str, str, int, ExposureKey], tuple[Holding, Reach]] = {}
_EMPTY: IntArray = np.zeros(0, dtype=np.int64)


def _exact(cc: CompiledCard, key: ExposureKey, exposures: Any, free: Holding) -> Reach:
    aways = cc.way_aways(free, exposures)
    near = np.flatnonzero(aways <= 1)
    found = Reach(int(aways.min()) if len(aways) else IMPOSSIBLE, near, aways[near])
    if len(_REACH) >= _REACH_CACHE:
        _REACH.clear()
    _REACH[(cc.card.sha256, key, free)] = found
    return found


def gained(before: Holding, now: Holding) -> int:
    """How many tiles ``now`` holds that ``before`` did not (a multiset difference)."""
    apart: int = sum(map(abs, map(operator.sub, now, before)))
    return (sum(now) - sum(before) + apart) // 2


class RackReach:
    """The reach of one seat's rack with the seat's free tiles now, worked out only as far
    as a question needs. ``cc`` is the card the rack plays (declared lines left out)."""

    __slots__ = ("cc", "exposures", "free", "key", "last", "lineage")

    def __init__(self, cc: CompiledCard, game: str, seat: int, key: ExposureKey,
                 exposures: Any, free: Holding) -> None:
        self.cc = cc
        self.key = key
        self.exposures = exposures
        self.free = free
        self.lineage = (cc.card.sha256, game, seat, key)
        self.last = _LAST.get(self.lineage)

    def exact(self) -> Reach:
        found = _REACH.get((self.cc.card.sha256, self.key, self.free))
        if found is None:
            found = _exact(self.cc, self.key, self.exposures, self.free)
        if len(_LAST) >= _LAST_CACHE:
            _LAST.clear()
        _LAST[self.lineage] = self.last = (self.free, found)
        return found

    def at_least(self, floor: int) -> bool:
        """True when every way is known, without work, to be at least ``floor`` away."""
        found = _REACH.get((self.cc.card.sha256, self.key, self.free))
        if found is not None:
            return found.least >= floor
        if self.last is None:
            return False
        before, reach = self.last
        return reach.least - gained(before, self.free) >= floor

    def near(self) -> IntArray:
        """The ways at most one tile away."""
        if self.at_least(2):
            return _EMPTY
        return self.exact().near

    def done(self) -> IntArray:
        """The ways the free tiles complete (a Mah Jongg). Right after one tile joined
        the tiles of the last reach, only the ways that were one tile away are tried."""
        found = _REACH.get((self.cc.card.sha256, self.key, self.free))
        if found is not None:
            return found.done
        if self.at_least(1):
            return _EMPTY
        if self.last is not None and gained(self.last[0], self.free) <= 1:
            cand = self.last[1].near
            if not len(cand):
                return _EMPTY
            out: IntArray = cand[self.cc.ways_away(cand, self.free, self.exposures) == 0]
            return out
        return self.exact().done


# ---------------------------------------------------------------------- per state


@dataclass
class StateMemo:
    """The memory of one state object (never copied with it)."""

    #: per seat: (version, legal actions, the same as a set once asked for)
    legal: dict[int, tuple[int, list[Action], frozenset[Action] | None]] = field(
        default_factory=dict)
    #: (what they were worked out from, Mah Jongg declarations of the seat on turn)
    mahjongg: tuple[object, Any] | None = None
    #: (version, the public seats of the view)
    public: tuple[int, Any] | None = None
    #: per (seat, rack): the last public view of that rack
    racks: dict[tuple[int, int], Any] = field(default_factory=dict)


_STATES: weakref.WeakKeyDictionary[GameState, StateMemo] = weakref.WeakKeyDictionary()


def memo_of(state: GameState) -> StateMemo:
    """The memo of this state object (a new one for a copy)."""
    found = _STATES.get(state)
    if found is None:
        found = _STATES[state] = StateMemo()
    return found
