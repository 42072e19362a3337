"""Discards that may give an opponent a hand, from what the table shows.

An opponent's rack with two exposures or more is well on its way: the lines of the card its
exposures fit (each exposure filling one group) are the only ones it can be making, and of
those only the ones whose other tiles are still unseen by the player (in the wall or in the
opponent's hand) are possible. A tile that such a line still wants may be what the rack
waits for: discarding it may complete (three exposures or more) or nearly complete that
hand. Nothing here knows an opponent's concealed tiles: only its exposures, the discards
and the player's own tiles (:func:`twinrack.bots.seen.unseen`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from twinrack.bots.plans import Planner
from twinrack.bots.seen import scoring_rules, unseen
from twinrack.engine.view import View
from twinrack.narration import tile_label
from twinrack.tiles import CANONICAL, JOKER, NUM_KINDS

#: a rack is watched from this many exposures on
WATCHED = 2
#: at most this many of the lines it fits are named
NAMED = 3


@dataclass(frozen=True)
class FeedWarning:
    """Discarding ``tile`` may help ``seat`` finish its ``rack`` (counted from 0)."""

    tile: int
    seat: int
    rack: int
    exposures: int  # how many groups the rack shows
    lines: tuple[str, ...]  # the lines its exposures fit that still want the tile
    wins: bool  # that Mah Jongg would be the opponent's last: it wins the game
    penalty: int  # what the thrower of a winning Mah Jongg's tile pays

    @property
    def text(self) -> str:
        """The warning in words; ``{who}`` stands for the opponent (the page names it)."""
        name = tile_label(self.tile)
        how = "may complete" if self.exposures >= 3 else "may nearly complete"
        lines = ", ".join(self.lines)
        out = (f"Careful: {name} {how} the hand of {{who}} on rack {self.rack + 1}: its "
               f"{self.exposures} exposures fit only lines that still want it ({lines})")
        if self.wins:
            out += (f"; that Mah Jongg would win the game, and its thrower pays "
                    f"{self.penalty}")
        return out + "."

    def to_dict(self) -> dict[str, Any]:
        return {"tile": CANONICAL[self.tile], "seat": self.seat, "rack": self.rack,
                "lines": list(self.lines), "wins": self.wins, "text": self.text}


def feeding(view: View, pl: Planner, tiles: Iterable[int]) -> list[FeedWarning]:
    """The warnings for discarding each of ``tiles`` (kinds the seat holds), most
    pressing first: a winning hand before another, more exposures first."""
    kinds = sorted({t for t in tiles if t != JOKER})  # a discarded Joker cannot be claimed
    if not kinds or view.seat is None:
        return []
    left = np.asarray(unseen(view), dtype=np.int64)[:NUM_KINDS]
    penalty = scoring_rules(view).feed_penalty
    out: list[FeedWarning] = []
    for sv in view.seats:
        if sv.seat == view.seat or sv.stopped:
            continue
        last = len(sv.open_racks) == 1
        for r, rack in enumerate(sv.racks):
            if not rack.open or len(rack.exposures) < WATCHED:
                continue
            wanted = _wanting(pl, rack.exposures, left, kinds)
            for t, lines in wanted.items():
                out.append(FeedWarning(t, sv.seat, r, len(rack.exposures), lines, last,
                                       penalty))
    out.sort(key=lambda w: (not w.wins, -w.exposures, w.seat, w.rack, w.tile))
    return out


def _wanting(pl: Planner, exposures: Sequence[Any], left: np.ndarray,
             kinds: Sequence[int]) -> dict[int, tuple[str, ...]]:
    """Per tile of ``kinds``: the possible lines of a rack with these exposures that want
    it (every natural they still need unseen, Jokers for the rest of their groups)."""
    d = pl.cc.rack(exposures)
    fit = np.flatnonzero(d.fit)
    if not len(fit):
        return {}
    nat = d.nat[fit, :NUM_KINDS].astype(np.int64)
    tot = d.tot[fit, :NUM_KINDS].astype(np.int64)
    big = tot - nat
    ok = (nat <= left).all(axis=1)
    lack = np.maximum(big - np.maximum(left - nat, 0), 0).sum(axis=1)
    ok &= lack <= left[JOKER]
    out: dict[int, tuple[str, ...]] = {}
    for t in kinds:
        ways = fit[ok & (tot[:, t] > 0)]
        if not len(ways):
            continue
        names: list[str] = []
        for w in ways.tolist():
            name = pl.cc.hand_of(int(w)).id
            if name not in names:
                names.append(name)
        out[t] = tuple(names[:NAMED]) + (("...",) if len(names) > NAMED else ())
    return out
