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

from twinrack.engine.actions import Action
from twinrack.engine.memo import memo_of
from twinrack.engine.options import OPTIONS
from twinrack.engine.refusals import acting, gate, open_kinds, reason
from twinrack.engine.state import GameState
from twinrack.errors import IllegalActionError


def _list(st: GameState, seat: int) -> list[Action]:
    if not acting(st, seat):  # every gate refuses a seat that does not act now
        return []
    out: list[Action] = []
    for verb in open_kinds(st.phase, st.obligation):  # the kinds whose gate lets it through
        out.extend(OPTIONS[verb](st, seat))
    return out


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it has nothing to do)."""
    known = memo_of(state).legal
    hit = known.get(seat)
    if hit is not None and hit[0] == state.version:
        return list(hit[1])
    acts = _list(state, seat)
    known[seat] = (state.version, acts, None)
    return list(acts)


def legal_set(state: GameState, seat: int) -> frozenset[Action]:
    """:func:`legal_actions` as a set (remembered like the list)."""
    known = memo_of(state).legal
    hit = known.get(seat)
    if hit is None or hit[0] != state.version:
        legal_actions(state, seat)
        hit = known[seat]
    if hit[2] is None:
        hit = (hit[0], hit[1], frozenset(hit[1]))
        known[seat] = hit
    assert hit[2] is not None
    return hit[2]


def listed(state: GameState, action: Action) -> bool:
    """``action`` is legal now; cheapest for an action taken from :func:`legal_actions`."""
    hit = memo_of(state).legal.get(action.seat)
    if hit is not None and hit[0] == state.version and any(a is action for a in hit[1]):
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
