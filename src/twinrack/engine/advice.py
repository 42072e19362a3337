"""Warnings a user interface shows before sending an action (the rules decide them): an
exposure that kills its rack, and what a claim on a discard would lead to.

Both are worked out from the seat's own position with the engine's own legal actions, on a
copy of the game: nothing here looks at another seat's concealed tiles or at the wall.
"""

from __future__ import annotations

from typing import NamedTuple

from twinrack.card.exposure import Exposure
from twinrack.engine.actions import Action, Claim, Expose, MahJongg, Pass
from twinrack.engine.completion import rack_alive
from twinrack.engine.game import apply, legal_actions
from twinrack.engine.legality import carry_legal
from twinrack.engine.state import GameState
from twinrack.engine.view import view


def kills_rack(state: GameState, action: Action) -> bool:
    """True when ``action`` is an exposure after which its rack matches no card line, so
    the rack dies at once (rules section 8): interfaces ask the player first."""
    if not isinstance(action, Expose):
        return False
    rack = state.players[action.seat].racks[action.rack]
    if rack.dead is not None:
        return False
    return not rack_alive(state, [*rack.exposures, Exposure.from_tiles(list(action.tiles))])


class ClaimOutcome(NamedTuple):
    """What a claim on the discard leads to, should it be granted (rules section 4)."""

    kind: str  # "expose", "mahjongg" or "double"
    granted: bool  # False: a claim already made comes first (Mah Jongg over exposure)
    #: an exposure claim: the racks where some exposure with the tile keeps the rack
    #: alive, and those where every exposure kills it (racks counted from 0)
    alive: tuple[int, ...] = ()
    killed: tuple[int, ...] = ()
    #: a Mah Jongg claim: the racks it completes; none means the claim is in error
    mahjongg: tuple[int, ...] = ()
    withdraw: bool = False  # the claim may be taken back before anything is exposed

    @property
    def kills_every_rack(self) -> bool:
        """Every exposure the claim allows kills its rack."""
        return self.granted and self.kind == "expose" and not self.alive and bool(self.killed)

    @property
    def in_error(self) -> bool:
        """A Mah Jongg claim that completes no rack (strict rules: section 7)."""
        return self.granted and self.kind != "expose" and not self.mahjongg


def claim_outcome(state: GameState, action: Claim) -> ClaimOutcome:
    """What ``action`` (a claim the seat may make now) would lead to if every other seat
    still to answer passed: the claim granted, then the exposures or the Mah Jongg the
    rules would offer the seat. Worked out on a copy of the game, so the answer depends on
    nothing the seat cannot see (the other seats' passes are the ones assumed)."""
    seat = action.seat
    sim = state.copy()
    carry_legal(state, sim, seat)  # the claim is checked against the listed actions
    apply(sim, action)
    while sim.window is not None and sim.window.pending:
        apply(sim, Pass(min(sim.window.pending)))
    v = view(sim, seat)
    if v.claim is None or v.claim[0] != seat:
        return ClaimOutcome(action.kind, False)
    legal = legal_actions(sim, seat)
    withdraw = any(a.verb == "withdraw" for a in legal)
    if action.kind != "expose":
        mine = v.seats[seat].racks
        racks = tuple(sorted({a.rack for a in legal if isinstance(a, MahJongg) and (
            a.tiles or sum(x.size for x in mine[a.rack].exposures) == 14)}))
        return ClaimOutcome(action.kind, True, mahjongg=() if v.must == "error" else racks,
                            withdraw=withdraw)
    alive: set[int] = set()
    offered: set[int] = set()
    for a in legal:
        if isinstance(a, Expose):
            offered.add(a.rack)
            if not kills_rack(sim, a):
                alive.add(a.rack)
    return ClaimOutcome("expose", True, alive=tuple(sorted(alive)),
                        killed=tuple(sorted(offered - alive)), withdraw=withdraw)
