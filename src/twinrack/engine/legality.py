"""What a seat may do now, and why anything else is refused: one path for both.

For every kind of action (its verb) the gate of :mod:`twinrack.engine.refusals` says first
whether the seat may take that kind now at all; when it may, the kind's lister in
:mod:`twinrack.engine.options` gives the legal actions of that kind. So:

* :func:`legal_actions` is the listers' actions of every kind whose gate lets the seat
  through, in the phase's order of kinds;
* :func:`why_illegal` of an action is its kind's gate refusal, or, when the gate lets it
  through, the reason it is not among its kind's listed actions;
* :func:`twinrack.engine.apply` applies a listed action and raises :func:`why_illegal`
  for any other.

A refusal is therefore given exactly for the actions not listed, and never for a listed
one (docs/rules.md, section 14).
"""

from __future__ import annotations

from itertools import repeat
from operator import is_

from twinrack.engine.actions import Action
from twinrack.engine.memo import Legal, StateMemo, memo_of
from twinrack.engine.options import OPTIONS, ordinary_turn, shared
from twinrack.engine.refusals import (
    acting,
    charleston_kinds,
    gate,
    open_kinds,
    reason,
    side_kinds,
)
from twinrack.engine.state import CHARLESTON, TURN, GameState
from twinrack.errors import IllegalActionError


def _list(st: GameState, seat: int) -> tuple[list[Action], tuple[str, ...]]:
    """The legal actions, and the kinds among them (sorted)."""
    if st.phase == TURN:
        if seat != st.current:  # only the side kinds: every other gate refuses the seat
            return _of_kinds(st, seat, side_kinds(st, seat))
        if st.obligation is None:
            out, verbs = ordinary_turn(st, seat)  # every kind's lister, in one pass
            verbs.sort()
            return out, tuple(verbs)
    elif st.phase == CHARLESTON:
        return _of_kinds(st, seat, charleston_kinds(st, seat))
    elif not acting(st, seat):
        return _of_kinds(st, seat, side_kinds(st, seat))
    return _of_kinds(st, seat, open_kinds(st.phase, st.obligation))


def _of_kinds(st: GameState, seat: int, kinds: tuple[str, ...]
              ) -> tuple[list[Action], tuple[str, ...]]:
    """The listers' actions of these kinds (their gates let the seat through)."""
    out: list[Action] = []
    verbs = []
    for verb in kinds:
        found = OPTIONS[verb](st, seat)
        if found:
            out.extend(found)
            verbs.append(verb)
    verbs.sort()
    return out, tuple(verbs)


def _known(state: GameState, seat: int, memo: StateMemo | None = None) -> Legal:
    """The seat's legal actions at this version (worked out once per version); ``memo``
    is the state's, when the caller has it already."""
    known = (memo or memo_of(state)).legal
    hit = known.get(seat)
    if hit is None or hit.version != state.version:
        acts, verbs = _list(state, seat)
        hit = known[seat] = Legal(state.version, acts, verbs)
    return hit


def carry_legal(state: GameState, copy: GameState, seat: int) -> None:
    """``copy`` was just made of ``state`` (the same facts, the same version): the legal
    actions of ``seat`` worked out for ``state`` are the copy's too, and are not worked
    out again for it (a copy's memo starts empty)."""
    hit = memo_of(state).legal.get(seat)
    if hit is not None and hit.version == state.version == copy.version:
        memo_of(copy).legal[seat] = hit


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it has nothing to do)."""
    return list(_known(state, seat).actions)


def legal_verbs(state: GameState, seat: int, memo: StateMemo | None = None) -> tuple[str, ...]:
    """The kinds of action (verbs) among :func:`legal_actions`, sorted (``memo``: the
    state's, when the caller has it)."""
    return _known(state, seat, memo).verbs


def legal_set(state: GameState, seat: int) -> frozenset[Action]:
    """:func:`legal_actions` as a set (remembered like the list)."""
    hit = _known(state, seat)
    if hit.as_set is None:
        hit.as_set = frozenset(hit.actions)
    return hit.as_set


def listed(state: GameState, action: Action) -> bool:
    """``action`` is legal now; cheapest for an action taken from :func:`legal_actions`, or
    equal to one the engine makes once and shares (see :func:`options.shared`: a discard,
    a move, a pass or a claim parsed from its text)."""
    hit = memo_of(state).legal.get(action.seat)
    if hit is not None and hit.version == state.version:
        if any(map(is_, repeat(action), hit.actions)):
            return True
        own = shared(action)
        if own is not action and any(map(is_, repeat(own), hit.actions)):
            return True
    return action in legal_set(state, action.seat)


def is_legal(state: GameState, action: Action) -> bool:
    return action in legal_set(state, action.seat)


def why_illegal(state: GameState, action: Action) -> IllegalActionError:
    """The reason an action is refused, as a typed error with a stable code. Asking it of
    a legal action is a mistake (ValueError)."""
    refusal = gate(state, action.seat, action.verb)
    if refusal is None:
        if action in legal_set(state, action.seat):
            raise ValueError(f"'{action}' is legal now")
        refusal = reason(state, action)
    return refusal.error()
