"""Arranging one's racks as the plan: the moves that put on each rack the tiles its line of
the hint's plan takes (rules section 5: tiles move between one's own racks at any time, and
nobody else sees it).

The plan's racks are given the tiles their lines take (:func:`twinrack.bots.shares.
split_tiles`, each rack's own tiles first); every other tile stays where it lies when it
can. When two racks have nothing exposed, either may take either line: the lines go where
fewer tiles have to move.
"""

from __future__ import annotations

from collections.abc import Sequence

from twinrack.bots.plans import Planner
from twinrack.bots.shares import Aim, SharedPlan, split_tiles
from twinrack.engine import Move
from twinrack.tiles import NUM_KINDS

#: the concealed tiles on each of the seat's racks (counts per tile kind)
Arranged = Sequence[Sequence[int]]


def targets(pl: Planner, free: Sequence[int], plan: SharedPlan, own: Arranged,
            movable: Sequence[int]) -> list[list[int]]:
    """Per rack of the seat, the tiles it should hold: each plan rack its line's tiles,
    the tiles no line takes left where they are (``movable``: the racks whose tiles may
    move, every one but the fixed rack of a declared hand)."""
    racks = len(own)
    given = split_tiles(pl, free, plan.aims, own)
    out = [[0] * NUM_KINDS for _ in range(racks)]
    for aim, tiles in zip(plan.aims, given, strict=True):
        out[aim.rack] = list(tiles)
    for t in range(NUM_KINDS):
        left = sum(own[r][t] for r in movable) - sum(out[r][t] for r in movable)
        for r in movable:  # the spare tiles stay where they lie
            keep = min(left, max(0, own[r][t] - out[r][t]))
            out[r][t] += keep
            left -= keep
    for r in range(racks):
        if r not in movable:
            out[r] = list(own[r])
    return out


def moves_to(seat: int, own: Arranged, target: Sequence[Sequence[int]]) -> list[Move]:
    """The moves that turn the arrangement ``own`` into ``target`` (the same tiles), in
    tile order."""
    out = []
    for t in range(NUM_KINDS):
        spare = [[r, own[r][t] - target[r][t]] for r in range(len(own))
                 if own[r][t] > target[r][t]]
        for dst in range(len(own)):
            want = target[dst][t] - own[dst][t]
            while want > 0 and spare:
                src = spare[0]
                out.append(Move(seat, t, src[0], dst))
                src[1] -= 1
                want -= 1
                if not src[1]:
                    spare.pop(0)
    return out


def swapped(plan: SharedPlan) -> SharedPlan | None:
    """The plan with the lines of its two racks exchanged, when neither has an exposure
    (then either rack may take either line); None otherwise."""
    if len(plan.aims) != 2 or any(a.exposures for a in plan.aims):
        return None
    a, b = plan.aims
    return SharedPlan((plan.hands[1], plan.hands[0]),
                      (Aim(a.rack, a.exposures, b.way), Aim(b.rack, b.exposures, a.way)),
                      plan.away)


def arrangement(pl: Planner, free: Sequence[int], plan: SharedPlan, own: Arranged,
                seat: int, fixed_rack: int | None) -> tuple[SharedPlan, list[Move]]:
    """The plan as the racks should show it (its lines where fewer tiles move) and the
    moves that arrange them so."""
    movable = [r for r in range(len(own)) if r != fixed_rack]
    best: tuple[SharedPlan, list[Move]] | None = None
    for p in (plan, swapped(plan)):
        if p is None:
            continue
        moves = moves_to(seat, own, targets(pl, free, p, own, movable))
        if best is None or len(moves) < len(best[1]):
            best = (p, moves)
    assert best is not None
    return best
