"""A table's state messages encoded with less work: what does not change from one message
to the next is encoded once and reused.

Every state message carries the engine's view for its seat and that seat's legal actions
(docs/protocol.md). Most of either is the same as in the message before: the public seats
(the engine's view reuses a seat's objects while nothing public of it changed), the
discards, a seat's concealed tiles, the objects of discards and moves. Building them as
dictionaries for every message and encoding them took about half of a state message's
time; here each is encoded to JSON once and put into the message as an
``orjson.Fragment``, which orjson copies as it is.

What goes out is unchanged: :meth:`Encoder.view` encodes exactly as
``View.to_dict()`` (tests/server/test_encoding.py compares them over whole games of every
variant), and :func:`legal_json` exactly as :func:`twinrack.server.table.wire.legal_objects`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Any

import orjson

from twinrack.engine import (
    Action,
    Claim,
    Discard,
    Event,
    Expose,
    GameState,
    Move,
    Pass,
    legal_actions,
)
from twinrack.engine.advice import kills_rack
from twinrack.engine.view import RackView, SeatView, View, rack_dict, seat_dict
from twinrack.server.table import wire
from twinrack.tiles import CANONICAL, format_tiles

Fragment = orjson.Fragment

#: how many entries a value-keyed cache keeps before it starts again
CACHE_SIZE = 4096

#: a count vector (a rack's or a seat's concealed tiles) -> its notation
_NOTATION: dict[tuple[int, ...], str] = {}
#: (seat, tile) of a discard on the table -> its JSON
_DISCARDED: dict[tuple[int, int], bytes] = {}
#: by id of an action the engine makes once and shares (discards, moves, passes: their
#: objects say nothing but the action itself), its object's JSON; the actions themselves
#: are kept in _KEPT, so that no other object can take one of their ids while listed here
_SHARED: dict[int, bytes] = {}
_KEPT: dict[int, Action] = {}
_PLAIN = (Discard, Move, Pass)


#: per tile kind, its notation repeated 0, 1, 2... times (more than any tile set holds)
_RUNS = [[" ".join([name] * n) for n in range(40)] for name in CANONICAL]


def notation(counts: tuple[int, ...]) -> str:
    """The tiles of a count vector in notation, as ``View.to_dict`` writes a hand."""
    found = _NOTATION.get(counts)
    if found is None:
        if len(_NOTATION) >= CACHE_SIZE:
            _NOTATION.clear()
        found = _NOTATION[counts] = " ".join(compress(map(list.__getitem__, _RUNS, counts),
                                                      counts))
    return found


def _discarded(pair: tuple[int, int]) -> bytes:
    found = _DISCARDED.get(pair)
    if found is None:
        found = _DISCARDED[pair] = orjson.dumps([pair[0], CANONICAL[pair[1]]])
    return found


def _array(parts: Sequence[bytes]) -> bytes:
    return b"[" + b",".join(parts) + b"]"


class Encoder:
    """One table's encoded pieces. The public seats and the discards are the same for
    every viewer of a version, and mostly the same from one version to the next."""

    def __init__(self) -> None:
        #: the last public seats encoded (the view's tuple) and their JSON
        self._seats: tuple[tuple[SeatView, ...], Fragment] | None = None
        #: per seat: its last public view and its JSON; its last racks and their JSON
        self._seat: dict[int, tuple[SeatView, bytes]] = {}
        self._racks: dict[int, tuple[tuple[RackView, ...], bytes]] = {}
        #: what every viewer saw alike in the last view encoded, and its JSON (an object
        #: left open, for the viewer's own fields to follow)
        self._common: tuple[tuple[Any, ...], bytes] | None = None
        #: per seat: its last racks and which of them are open
        self._open: dict[int, tuple[tuple[RackView, ...], tuple[int, ...]]] = {}
        #: the index of the game's first discard among its events, once there is one
        self._first_discard: int | None = None
        #: the last discards encoded, each one's JSON, and the list's
        self._discards: tuple[tuple[tuple[int, int], ...], list[bytes], Fragment] = (
            (), [], Fragment(b"[]"))

    def view(self, v: View) -> Fragment:
        """``v.to_dict()`` encoded. What every viewer of a version sees alike (all but the
        viewer's own tiles and choices) is encoded once for all of them."""
        common = (v.variant, v.players, v.racks, v.revision, v.open_lines, v.phase, v.current,
                  v.to_act, v.turn, v.wall_left, v.die, v.commitment, v.seed, v.discards, v.window,
                  v.answered, v.claim, v.waiting, v.must, v.seats, v.end_reason, v.winner,
                  v.version, v.revealed)
        last = self._common
        if last is not None and last[0] == common:
            shared = last[1]
        else:
            w = v.window
            claim = v.claim
            shared = orjson.dumps({
                "variant": v.variant, "players": v.players, "racks": v.racks,
                "revision": v.revision, "open_lines": v.open_lines, "phase": v.phase,
                "current": v.current,
                "to_act": v.to_act, "turn": v.turn, "wall_left": v.wall_left, "die": v.die,
                "commitment": v.commitment, "seed": v.seed,
                "discards": self.discards(v.discards),
                "window": None if w is None else {"discarder": w[0],
                                                  "tile": CANONICAL[w[1]]},
                "answered": v.answered,
                "claim": None if claim is None else
                {"seat": claim[0], "kind": claim[1], "tile": CANONICAL[claim[2]],
                 "discarder": claim[3]},
                "waiting": v.waiting,
                "must": v.must,
                "seats": self.seats(v.seats),
                "end_reason": v.end_reason, "winner": v.winner, "version": v.version,
                "revealed": [[format_tiles(r) for r in hand] for hand in v.revealed],
            })[:-1]
            self._common = (common, shared)
        counts = v.counts
        seat = v.seat
        own = orjson.dumps({
            "seat": seat,
            "hand": None if counts is None else [notation(c) for c in counts],
            "acquired": None if v.acquired is None else CANONICAL[v.acquired],
            "placed": v.placed,
            "free": None if v.free is None else notation(v.free),
            "fixed_rack": v.fixed_rack,
            "open_racks": () if seat is None else self._open_racks(v.seats[seat]),
            "verbs": v.verbs,
            "charleston": None if v.charleston is None else v.charleston.to_dict(),
        })
        return Fragment(shared + b"," + own[1:])

    def first_discard(self, events: Sequence[Event]) -> int | None:
        """The index of the game's first discard among its events (None: none yet): the
        log narrates the passes before it as passes on declaring a hand."""
        if self._first_discard is None:
            self._first_discard = wire.first_discard(events)
        return self._first_discard

    def _open_racks(self, s: SeatView) -> tuple[int, ...]:
        """``s.open_racks``, worked out again only when the seat's racks changed."""
        known = self._open.get(s.seat)
        if known is None or known[0] is not s.racks:
            known = self._open[s.seat] = (s.racks, s.open_racks)
        return known[1]

    def discards(self, discards: tuple[tuple[int, int], ...]) -> Fragment:
        """The discards' JSON: the last one again while they are the same, else the last
        ones' with the new discards added (or the claimed one taken off)."""
        last, parts, made = self._discards
        if last == discards:
            return made
        n = len(last)
        if len(discards) > n and discards[:n] == last:
            parts = parts + [_discarded(d) for d in discards[n:]]
        elif len(discards) < n and last[:len(discards)] == discards:
            parts = parts[:len(discards)]
        else:
            parts = [_discarded(d) for d in discards]
        made = Fragment(_array(parts))
        self._discards = (discards, parts, made)
        return made

    def seats(self, seats: tuple[SeatView, ...]) -> Fragment:
        last = self._seats
        if last is not None and last[0] is seats:
            return last[1]
        parts = []
        for s in seats:
            known = self._seat.get(s.seat)
            if known is None or known[0] is not s:
                known = self._seat[s.seat] = (s, orjson.dumps(
                    seat_dict(s, Fragment(self._racks_of(s)))))
            parts.append(known[1])
        made = Fragment(_array(parts))
        self._seats = (seats, made)
        return made

    def _racks_of(self, s: SeatView) -> bytes:
        known = self._racks.get(s.seat)
        if known is None or known[0] is not s.racks:
            known = self._racks[s.seat] = (s.racks, orjson.dumps(
                [rack_dict(r) for r in s.racks]))
        return known[1]


def _object_json(state: GameState, a: Action, advice: bool) -> bytes:
    """The JSON of one legal action's object, as :func:`wire.legal_objects` makes it."""
    if isinstance(a, _PLAIN):
        made = orjson.dumps(wire.action_object(a))
        if len(_SHARED) >= CACHE_SIZE:
            _SHARED.clear()
            _KEPT.clear()
        _KEPT[id(a)] = a
        _SHARED[id(a)] = made
        return made
    obj = wire.action_object(a, a.verb == Expose.verb and kills_rack(state, a))
    if advice and isinstance(a, Claim) and state.window is not None:
        obj["advice"] = wire.claim_advice(state, a)
    return orjson.dumps(obj)


def legal_json(state: GameState, seat: int, advice: bool = True) -> Fragment:
    """:func:`twinrack.server.table.wire.legal_objects` encoded: the objects of discards, moves
    and passes (most of the list) are encoded once for all versions and tables, and found
    by the action's identity (the engine makes each of them once)."""
    actions = legal_actions(state, seat)
    parts: list[bytes | None] = list(map(_SHARED.get, map(id, actions)))
    if None in parts:
        for i, part in enumerate(parts):
            if part is None:
                parts[i] = _object_json(state, actions[i], advice)
    return Fragment(_array(parts))  # type: ignore[arg-type]


def objects_json(objects: list[dict[str, Any]]) -> Fragment:
    """Legal actions already made as objects (in the worker pool), encoded."""
    return Fragment(orjson.dumps(objects))
