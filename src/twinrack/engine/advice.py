"""Warnings a user interface shows before sending an action (the rules decide them)."""

from __future__ import annotations

from twinrack.card.exposure import Exposure
from twinrack.engine.actions import Action, Expose
from twinrack.engine.completion import rack_alive
from twinrack.engine.state import GameState


def kills_rack(state: GameState, action: Action) -> bool:
    """True when ``action`` is an exposure after which its rack matches no card line, so
    the rack dies at once (rules section 8): interfaces ask the player first."""
    if not isinstance(action, Expose):
        return False
    rack = state.players[action.seat].racks[action.rack]
    if rack.dead is not None:
        return False
    return not rack_alive(state, [*rack.exposures, Exposure.from_tiles(list(action.tiles))])
