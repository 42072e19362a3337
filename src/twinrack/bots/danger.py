"""How likely a discard is to complete an opponent's rack, from what the table shows.

An opponent's open rack can only be making lines that fit its exposures; a line is only
possible while the tiles it still lacks are unseen by us (they may be in the wall or in
that opponent's hand); and a line that wants a tile the opponent threw away is less likely
to be the one it plays. Among the remaining lines, weighted that way, the chance that the
one tile it waits for is ``t`` is the share of ``t`` in the line's tiles.

Given a fitted reading of the opponent (:mod:`twinrack.bots.reading`), its chances of
each way weigh the lines instead of the fixed factors below.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from twinrack.bots.plans import Planner
from twinrack.bots.reading import (
    ReadingModel,
    possible,
    rack_features,
    way_chances,
    way_log_prior,
)
from twinrack.engine.view import View
from twinrack.tiles import NUM_KINDS

FloatArray = npt.NDArray[np.float64]

#: how much a line is believed less for each tile it wants that the opponent threw away
THROWN = 0.35
#: the same for a tile thrown since its last Mah Jongg
RECENT = 0.1
#: how much scarce tiles make a line less likely
SCARCE = 0.0


def waiting_tiles(pl: Planner, view: View, seat: int, unseen: Sequence[int],
                  recent_from: int = 0, reading: ReadingModel | None = None) -> FloatArray:
    """Per tile kind: the chance that it is the tile one of ``seat``'s open racks waits for,
    given that the rack is one tile away (rack chances summed, at most 1). Discards from
    position ``recent_from`` on (thrown since its last Mah Jongg) weigh more; with a
    ``reading``, the reading's chances weigh the lines."""
    out = np.zeros(NUM_KINDS)
    sv = view.seats[seat]
    unseen_n = np.asarray(unseen, dtype=np.int64)[:NUM_KINDS]
    thrown = np.zeros(NUM_KINDS, dtype=np.int64)
    recent = np.zeros(NUM_KINDS, dtype=np.int64)
    for i, (s, t) in enumerate(view.discards):
        if s == seat:
            if i >= recent_from:
                recent[t] += 1
            else:
                thrown[t] += 1
    prior = way_log_prior(pl, reading) if reading is not None else None
    for ri, r in enumerate(sv.racks):
        if not r.open:
            continue
        d = pl.cc.rack(r.exposures)
        fit = np.flatnonzero(d.fit)
        if not len(fit):
            continue
        nat = d.nat[fit, :NUM_KINDS].astype(np.int64)
        tot = d.tot[fit, :NUM_KINDS].astype(np.int64)
        ok = possible(nat, tot, unseen_n)
        if not ok.any():
            continue
        if reading is not None and prior is not None:
            rok, feats = rack_features(pl, view, seat, ri, unseen)
            weight = way_chances(reading, rok, feats, prior)[fit]
        else:
            weight = _fixed_weights(ok, tot, thrown, recent, unseen_n)
        if weight.sum() <= 0:
            continue
        share = tot / np.maximum(tot.sum(axis=1, keepdims=True), 1)
        out += (weight[:, None] * share).sum(axis=0) / weight.sum()
    result: FloatArray = np.minimum(out, 1.0)
    return result


def _fixed_weights(ok: npt.NDArray[np.bool_], tot: npt.NDArray[np.int64],
                   thrown: npt.NDArray[np.int64], recent: npt.NDArray[np.int64],
                   unseen_n: npt.NDArray[np.int64]) -> FloatArray:
    """The lines' weights by the fixed factors THROWN, RECENT and SCARCE."""
    weight: FloatArray = np.where(ok, 1.0, 0.0)
    weight *= THROWN ** ((tot > 0) & (thrown > 0)).sum(axis=1)
    weight *= RECENT ** ((tot > 0) & (recent > 0)).sum(axis=1)
    # lines whose tiles are mostly in sight elsewhere are less likely to be held
    avail = np.where(tot > 0, np.minimum(unseen_n / np.maximum(tot, 1), 1.0), 1.0)
    weight *= avail.prod(axis=1) ** SCARCE
    return weight
