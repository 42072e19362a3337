"""What a seat knows from its view: its own position, and the tiles it has not seen.

A tile is *seen* by a seat when it lies in the seat's own concealed tiles, on the table
(discards still lying there), in any exposure (Jokers as Jokers), in an exposed Mah Jongg or
among the tiles of a Mah Jongg in error. Every other tile of the variant's set is *unseen*:
it is in the wall or in another seat's concealed tiles, and the view cannot tell which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from twinrack.card.exposure import Exposure
from twinrack.engine import Action, RuleSet, ScoringRules
from twinrack.engine.actions import decisions
from twinrack.engine.view import View
from twinrack.tiles import JOKER, NUM_KINDS, tile_set


def set_counts(view: View) -> list[int]:
    """Copies of each tile kind in play in this variant."""
    return list(tile_set(view.variant, view.players).counts)


def public_seen(view: View) -> list[int]:
    """Tiles every seat can see: the table, exposures, Mah Jonggs and errors."""
    seen = [0] * NUM_KINDS
    for _seat, t in view.discards:
        seen[t] += 1
    for s in view.seats:
        for r in s.racks:
            for x in r.exposures:
                seen[x.tile] += x.size - x.jokers
                seen[JOKER] += x.jokers
            if r.mahjongg is not None:
                for t in r.mahjongg.tiles:
                    seen[t] += 1
            for t in r.error_tiles:
                seen[t] += 1
    return seen


def unseen(view: View) -> list[int]:
    """Per tile kind, the copies the viewer has not seen (wall and others' hands)."""
    total = set_counts(view)
    seen = public_seen(view)
    hand = own_counts(view)
    return [max(0, a - b - c) for a, b, c in zip(total, seen, hand, strict=True)]


def own_counts(view: View) -> list[int]:
    """The viewer's concealed tiles as counts (all racks together)."""
    out = [0] * NUM_KINDS
    if view.counts is None:
        return out
    for rack in view.counts:
        for t, n in enumerate(rack):
            out[t] += n
    return out


@cache
def _scoring_rules(variant: str, players: int, revision: str) -> ScoringRules:
    return RuleSet(variant=variant, players=players, revision=revision).scoring_rules()


def choices(view: View, legal: Sequence[Action]) -> list[Action]:
    """What the seat decides between now: its legal actions less the moves between its
    own racks that it may make outside an ordinary turn of its own (they answer nothing,
    and no bot makes them then)."""
    arranging = view.phase == "turn" and view.current == view.seat and view.must is None
    return decisions(legal, arranging)


def open_lines(view: View) -> bool:
    """Concealed lines may be played with exposures at this table (docs/rules.md section
    5: the revision's rule, or the table's option; the view says which)."""
    return view.open_lines


def scoring_rules(view: View) -> ScoringRules:
    """How the table scores a hand, from what the view says of the game: its revision
    (the closed bonus is 2024's) and its variant and players (more than one set: the
    Royale bonuses). A table that turned the Royale bonuses on or off by hand is not told
    apart: the view does not carry that option."""
    return _scoring_rules(view.variant, view.players, view.revision)


@dataclass(frozen=True)
class Position:
    """The viewer's own position, read off its view: the engine says which racks are still
    open, which concealed tiles may be played and which rack a declared hand fixes; a bot
    never works that out again."""

    seat: int
    free: tuple[int, ...]  # concealed tiles it may play (``View.free``)
    open_racks: tuple[int, ...]  # racks with neither a Mah Jongg nor death
    exposures: tuple[tuple[Exposure, ...], ...]  # per rack (every rack, open or not)
    declared: str | None
    fixed_rack: int | None  # the rack whose 13 tiles a declared hand fixes
    fixed: tuple[int, ...]  # those 13 tiles (counts), else zeros
    scoring: ScoringRules  # how the table scores a hand (section 10)


def position(view: View) -> Position:
    """The viewer's own position (a seat's view, not a spectator's)."""
    assert view.seat is not None and view.counts is not None and view.free is not None
    me = view.seats[view.seat]
    fixed = (view.counts[view.fixed_rack] if view.fixed_rack is not None
             else (0,) * NUM_KINDS)
    return Position(view.seat, view.free, view.open_racks,
                    tuple(r.exposures for r in me.racks), me.declared, view.fixed_rack,
                    tuple(fixed), scoring_rules(view))
