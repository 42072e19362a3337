"""What the referee remembers between questions about a game: never a game fact.

Nothing here is part of a :class:`~twinrack.engine.state.GameState`, so a copy of a state
is a plain copy of its facts and a pickled state carries no cache. Two kinds of memory:

* **Per state object** (:func:`memo_of`): the legal actions of each seat, the Mah Jongg
  declarations of the seat on turn, and the public part of the view, each stamped with
  what it was worked out from. A copy of a state starts with an empty memo.
* **By content, shared by all games** (:class:`RackReach`): how far a rack is from the
  card's lines, keyed by the card, the rack's exposures (tiles and sizes) and the free
  tiles, so that copies of a game and replays of one share it. For each seat's rack the
  last reach worked out is kept too: a tile added fills at most one slot of a way, so
  tiles away never drop by more than the tiles gained since, which bounds the reach of the
  next holding without working it out.

The tiles gained since that last reach are counted as they come on the state object that
asks (:func:`tiles_joined`, which the referee calls wherever tiles join a seat's free
tiles), so that the bound costs no comparison of holdings; a state object that did not
see them come (a copy, a state made from a view) compares the holdings instead.
"""

from __future__ import annotations

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
    done: IntArray  # the ways the free tiles complete, ascending


_REACH: dict[tuple[str, ExposureKey, Holding], Reach] = {}
#: the ways a holding completes, found without its whole reach (see RackReach.done)
_DONE: dict[tuple[str, ExposureKey, Holding], IntArray] = {}
#: per (card, game, seat, exposures): the holding of the last reach worked out, and it
_LAST: dict[tuple[str, str, int, ExposureKey], tuple[Holding, Reach]] = {}
_EMPTY: IntArray = np.zeros(0, dtype=np.int64)


def _exact(cc: CompiledCard, key: ExposureKey, exposures: Any, free: Holding) -> Reach:
    aways = cc.way_aways(free, exposures)
    near = np.flatnonzero(aways <= 1)
    found = Reach(int(aways.min()) if len(aways) else IMPOSSIBLE, near,
                  near[aways[near] == 0])
    if len(_REACH) >= _REACH_CACHE:
        _REACH.clear()
    _REACH[(cc.card.sha256, key, free)] = found
    return found


def gained(before: Holding, now: Holding) -> int:
    """How many tiles ``now`` holds that ``before`` did not (a multiset difference). Both
    are holdings of every tile kind, so of one length: a plain zip, as passing ``strict``
    (even False) costs a tenth of it."""
    return sum([x - y for x, y in zip(now, before) if x > y])  # noqa: B905


class RackReach:
    """The reach of one seat's rack with the seat's free tiles now, worked out only as far
    as a question needs. ``cc`` is the card the rack plays (declared lines left out);
    ``memo`` is the memo of the state asked about, when there is one (its count of tiles
    joined bounds the tiles gained since its last reach of this rack)."""

    __slots__ = ("_done", "_gain", "_near", "cc", "counted", "exposures", "free", "joined",
                 "key", "last", "lineage", "memo", "seat")

    def __init__(self, cc: CompiledCard, game: str, seat: int, key: ExposureKey,
                 exposures: Any, free: Holding, memo: StateMemo | None = None) -> None:
        self.cc = cc
        self.key = key
        self.exposures = exposures
        self.free = free
        self.seat = seat
        self.lineage = (cc.card.sha256, game, seat, key)
        self.memo = memo
        self._near: IntArray | None = None
        self._done: IntArray | None = None
        #: the last exact reach: (its holding, it), and the tiles gained since at most
        self.last: tuple[Holding, Reach] | None = None
        self._gain: int | None = None
        self.joined = 0
        mine = None
        if memo is not None:
            self.joined = memo.joined.get(seat, 0)
            mine = memo.anchors.get((seat, key))
        #: ``_gain`` is a count of tiles joined (which may overcount the tiles gained)
        self.counted = mine is not None
        if mine is not None:
            joined, held, reach = mine
            self.last = (held, reach)
            self._gain = self.joined - joined
        else:
            self.last = _LAST.get(self.lineage)

    def gained(self) -> int:
        """At most how many tiles the free tiles gained since the last exact reach: the
        tiles reported joined since, on the state that saw them come, else the holdings'
        difference."""
        if self._gain is None:
            assert self.last is not None
            self._gain = gained(self.last[0], self.free)
        return self._gain

    def _tighter(self) -> bool:
        """Replace a count of tiles joined by the holdings' difference (a tile that came
        and went again counts in the first only); False when it already was that."""
        if not self.counted:
            return False
        assert self.last is not None
        self.counted = False
        self._gain = gained(self.last[0], self.free)
        return True

    def _known(self) -> Reach | None:
        """The exact reach, when it was worked out already."""
        if self.last is not None and self.last[0] == self.free:
            return self.last[1]
        return _REACH.get((self.cc.card.sha256, self.key, self.free))

    def exact(self) -> Reach:
        found = self._known()
        if found is None:
            found = _exact(self.cc, self.key, self.exposures, self.free)
        if self.last is None or self.last[1] is not found:
            if len(_LAST) >= _LAST_CACHE:
                _LAST.clear()
            _LAST[self.lineage] = self.last = (self.free, found)
            self._gain = 0
            self.counted = False
            if self.memo is not None:
                self.memo.anchors[(self.seat, self.key)] = (self.joined, self.free, found)
        return found

    def at_least(self, floor: int) -> bool:
        """True when every way is known, without work, to be at least ``floor`` away."""
        last = self.last
        if last is not None and (last[1].least - self.gained() >= floor or (
                self._tighter() and last[1].least - self.gained() >= floor)):
            return True
        found = self._known()
        return found is not None and found.least >= floor

    def near(self) -> IntArray:
        """The ways at most one tile away (remembered: asked again and again while the
        rack's holding stays, once per claim window)."""
        if self._near is None:
            self._near = _EMPTY if self.at_least(2) else self.exact().near
        return self._near

    def done(self) -> IntArray:
        """The ways the free tiles complete (a Mah Jongg), remembered like :meth:`near`."""
        if self._done is None:
            self._done = self._complete()
        return self._done

    def _complete(self) -> IntArray:
        """Right after one tile joined the tiles of the last reach, only the ways that
        were one tile away are tried."""
        if self.at_least(1):
            return _EMPTY
        found = self._known()
        if found is not None:
            return found.done
        if self.last is not None and self.gained() <= 1:
            cand = self.last[1].near
            if not len(cand):
                return _EMPTY
            key = (self.cc.card.sha256, self.key, self.free)
            out = _DONE.get(key)
            if out is None:
                out = cand[self.cc.ways_away(cand, self.free, self.exposures) == 0]
                if len(_DONE) >= _REACH_CACHE:
                    _DONE.clear()
                _DONE[key] = out
            return out
        return self.exact().done


# ---------------------------------------------------------------------- per state


class Legal:
    """A seat's legal actions at one version, the verbs among them (sorted), and the
    actions as a set once asked for."""

    __slots__ = ("actions", "as_set", "verbs", "version")

    def __init__(self, version: int, actions: list[Action], verbs: tuple[str, ...]) -> None:
        self.version = version
        self.actions = actions
        self.verbs = verbs
        self.as_set: frozenset[Action] | None = None


@dataclass
class StateMemo:
    """The memory of one state object (never copied with it)."""

    #: per seat: its legal actions at the version they were worked out for
    legal: dict[int, Legal] = field(default_factory=dict)
    #: (what they were worked out from, Mah Jongg declarations of the seat on turn)
    mahjongg: tuple[object, Any] | None = None
    #: (version, the public seats of the view)
    public: tuple[int, Any] | None = None
    #: per (seat, rack): the free tiles and exposures of the last reach asked for, and it
    reach: dict[tuple[int, int], tuple[Holding, tuple[Any, ...], RackReach]] = field(
        default_factory=dict)
    #: per seat: its last public view
    seats: dict[int, Any] = field(default_factory=dict)
    #: per seat: how many tiles joined its free tiles on this state object
    joined: dict[int, int] = field(default_factory=dict)
    #: per (seat, exposures of a rack): the last exact reach worked out on this state
    #: object, with the seat's tiles joined by then and its holding
    anchors: dict[tuple[int, ExposureKey], tuple[int, Holding, Reach]] = field(
        default_factory=dict)

    def surely_far(self, seat: int, key: ExposureKey, floor: int) -> bool:
        """Every way of a rack of ``seat`` with exposures ``key`` is at least ``floor``
        tiles away, by the last exact reach worked out on this state and the tiles joined
        since (what most questions about a rack come to, answered without its holding;
        :meth:`RackReach.at_least` asks the same first)."""
        mine = self.anchors.get((seat, key))
        return (mine is not None
                and mine[2].least - (self.joined.get(seat, 0) - mine[0]) >= floor)


#: by id of the state object, with a weak reference to it (checked on every look-up, so a
#: reused id never finds another state's memo; the entry goes when the state does)
_STATES: dict[int, tuple[weakref.ref[GameState], StateMemo]] = {}


#: the state asked about last, and its memo (most questions in a row are about one game)
_last: tuple[weakref.ref[GameState], StateMemo] | None = None


def memo_of(state: GameState) -> StateMemo:
    """The memo of this state object (a new one for a copy)."""
    global _last
    last = _last
    if last is not None and last[0]() is state:
        return last[1]
    found = _STATES.get(id(state))
    if found is None or found[0]() is not state:
        key = id(state)
        found = (weakref.ref(state, lambda _ref: _forget(key, _ref)), StateMemo())
        _STATES[key] = found
    _last = found
    return found[1]


def tiles_joined(state: GameState, seat: int, count: int = 1) -> None:
    """``count`` tiles joined ``seat``'s free tiles: a tile picked or granted, a Joker
    exchanged back, the tiles a declared hand let go (the referee reports every one; tiles
    leaving need no report). What the reach of the seat's racks is bounded by."""
    joined = memo_of(state).joined
    joined[seat] = joined.get(seat, 0) + count


def _forget(key: int, ref: weakref.ref[GameState]) -> None:
    found = _STATES.get(key)
    if found is not None and found[0] is ref:
        del _STATES[key]
