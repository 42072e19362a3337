"""Reading an opponent: for each of its racks, a probability over the card's lines, from
what the table shows of that seat.

A rack can only be making a way of the card that holds its exposures, and whose natural
tiles are not all in sight elsewhere. Among those, a way is believed in proportion to

    exp(w_thrown * thrown + w_recent * recent + w_scarce * scarce + w_prior * prior)

where ``thrown`` counts the tile kinds the way still wants that the seat has thrown away,
``recent`` the same for its last :data:`RECENT` discards, ``scarce`` is the log of the share
of each wanted kind still unseen (summed over the kinds), and ``prior`` the log of how often
the way's line is made, spread over its ways. The weights and the line frequencies are
fitted on recorded games (:mod:`twinrack.bots.reading_fit`, parameters committed in
``reading.json``); a small share :data:`FLOOR` stays with every line, since a reading can
be wrong. Pure: the seat's view in, numbers out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from twinrack.bots.plans import Planner
from twinrack.engine.view import View
from twinrack.tiles import JOKER, NUM_KINDS

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

FEATURES = ("thrown", "recent", "scarce", "prior")
#: the discards that count as recent
RECENT = 6
#: the share of belief every line keeps, however unlikely the reading makes it
FLOOR = 0.02


@dataclass(frozen=True)
class ReadingModel:
    """The fitted weights, and the log frequency of each line (card order) on the card
    they were fitted for (``card``: its sha256); on another card every line is equal."""

    weights: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    card: str = ""
    line_log_prior: tuple[float, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {"weights": list(self.weights), "card": self.card,
                "line_log_prior": [round(x, 6) for x in self.line_log_prior]}

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> ReadingModel:
        w = [float(x) for x in d["weights"]]  # type: ignore[attr-defined]
        if len(w) != len(FEATURES):
            raise ValueError(f"a reading has {len(FEATURES)} weights, not {len(w)}")
        prior = tuple(float(x) for x in d.get("line_log_prior", ()))  # type: ignore[attr-defined]
        return cls((w[0], w[1], w[2], w[3]), str(d.get("card", "")), prior)


@lru_cache(maxsize=1)
def fitted() -> ReadingModel:
    """The committed model (``reading.json`` beside this module)."""
    text = resources.files("twinrack.bots").joinpath("reading.json").read_text("utf-8")
    return ReadingModel.from_dict(json.loads(text))


def way_log_prior(pl: Planner, model: ReadingModel) -> FloatArray:
    """Per way: log of its line's frequency spread evenly over the line's ways."""
    cc = pl.cc
    n_lines = len(pl.card.hands)
    if model.card == pl.card.sha256 and len(model.line_log_prior) == n_lines:
        line = np.asarray(model.line_log_prior, dtype=np.float64)
    else:
        line = np.zeros(n_lines)
    per_line = np.bincount(cc.way_hand, minlength=n_lines).astype(np.float64)
    out: FloatArray = line[cc.way_hand] - np.log(per_line[cc.way_hand])
    return out


def thrown_counts(view: View, seat: int) -> tuple[IntArray, IntArray]:
    """Per tile kind: how many ``seat`` has thrown in all, and among its last RECENT."""
    mine = [t for s, t in view.discards if s == seat]
    thrown = np.bincount(np.asarray(mine, dtype=np.int64), minlength=NUM_KINDS)[:NUM_KINDS]
    recent = np.bincount(np.asarray(mine[-RECENT:], dtype=np.int64),
                         minlength=NUM_KINDS)[:NUM_KINDS]
    return thrown.astype(np.int64), recent.astype(np.int64)


def possible(nat: IntArray, tot: IntArray, unseen_n: IntArray) -> BoolArray:
    """Per way (rows of what each still wants: naturals, and all tiles): every natural is
    still unseen, and the unseen Jokers cover what its groups lack beyond that."""
    big = tot - nat
    lack = np.maximum(big - np.maximum(unseen_n - nat, 0), 0).sum(axis=1)
    ok: BoolArray = (nat <= unseen_n).all(axis=1) & (lack <= unseen_n[JOKER])
    return ok


def rack_features(pl: Planner, view: View, seat: int, rack: int,
                  unseen: Sequence[int]) -> tuple[BoolArray, FloatArray]:
    """The ways ``seat``'s ``rack`` may be making (by exposures and tiles in sight) and the
    features of every way (rows of impossible ways are meaningless), for the viewer whose
    ``unseen`` counts these are. The prior column is left at 0 (see :func:`rack_reading`)."""
    d = pl.cc.rack(view.seats[seat].racks[rack].exposures)
    unseen_n = np.asarray(unseen, dtype=np.int64)[:NUM_KINDS]
    nat = d.nat[:, :NUM_KINDS].astype(np.int64)
    tot = d.tot[:, :NUM_KINDS].astype(np.int64)
    ok = d.fit & possible(nat, tot, unseen_n)
    thrown, recent = thrown_counts(view, seat)
    wants = tot > 0
    feats = np.zeros((len(ok), len(FEATURES)))
    feats[:, 0] = (wants & (thrown > 0)).sum(axis=1)
    feats[:, 1] = (wants & (recent > 0)).sum(axis=1)
    share = np.where(wants, np.minimum((unseen_n + 0.5) / np.maximum(tot, 1), 1.0), 1.0)
    feats[:, 2] = np.log(share).sum(axis=1)
    return ok, feats


def way_chances(model: ReadingModel, ok: BoolArray, feats: FloatArray,
                log_prior: FloatArray) -> FloatArray:
    """The model's chance of each way (0 outside ``ok``; all 0 when nothing is ok)."""
    out = np.zeros(len(ok))
    if not ok.any():
        return out
    w = np.asarray(model.weights, dtype=np.float64)
    s = feats[ok, :3] @ w[:3] + w[3] * log_prior[ok]
    s -= s.max()
    e = np.exp(s)
    out[ok] = e / e.sum()
    return out


def line_chances(pl: Planner, model: ReadingModel, ways: FloatArray) -> FloatArray:
    """Per line of the card: the ways' chances summed, with FLOOR shared by every line
    that is not declared at the deal (those are played from the deal, in the open)."""
    n_lines = len(pl.card.hands)
    lines = np.bincount(pl.cc.way_hand, weights=ways, minlength=n_lines)
    playable = np.array([not h.declared for h in pl.card.hands], dtype=np.float64)
    floor: FloatArray = playable / playable.sum()
    total = lines.sum()
    if total <= 0:
        return floor
    out: FloatArray = (1.0 - FLOOR) * lines / total + FLOOR * floor
    return out


def rack_reading(pl: Planner, model: ReadingModel, view: View, seat: int, rack: int,
                 unseen: Sequence[int]) -> FloatArray:
    """The chance of each line (card order) being the one ``seat`` plays on ``rack``."""
    ok, feats = rack_features(pl, view, seat, rack, unseen)
    return line_chances(pl, model, way_chances(model, ok, feats, way_log_prior(pl, model)))


def entropy(p: FloatArray) -> float:
    """In nats: how spread a reading is (log of the card's lines at most)."""
    q = p[p > 0]
    return float(-(q * np.log(q)).sum()) if len(q) else math.inf
