"""Fitting the opponent reading (:mod:`twinrack.bots.reading`) on recorded games, and
measuring it on games it was not fitted on.

A sample is one moment of a game: right after an opponent's discard, one of its racks that
went on to make a Mah Jongg, seen by the next seat (what that seat could see then). Its
label is the line that rack made. The line frequencies are counted on the fitting games
(add-one smoothing); the four weights maximise the likelihood of the labels by gradient
ascent. The held-out log loss (nats per sample) is reported beside three simpler
readings: every line alike, the frequencies alone, and the frequencies limited to the
ways the exposures and the tiles in sight allow.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from twinrack.bots.plans import Planner
from twinrack.bots.reading import (
    FEATURES,
    FLOOR,
    BoolArray,
    FloatArray,
    IntArray,
    ReadingModel,
    rack_features,
    way_log_prior,
)
from twinrack.bots.seen import unseen
from twinrack.card.model import Card
from twinrack.engine import Discard
from twinrack.engine.record import replay, replay_steps, start_of
from twinrack.engine.view import view

#: gradient ascent: steps and the step size of the weights
STEPS = 400
RATE = 0.05


@dataclass
class Samples:
    """Stacked samples: ways allowed (n x ways), their features (n x ways x 3), the true
    line's index (n) and the game each came from (n)."""

    ok: BoolArray
    feats: npt.NDArray[np.float32]
    line: IntArray
    game: IntArray

    def take(self, mask: npt.NDArray[Any]) -> Samples:
        return Samples(self.ok[mask], self.feats[mask], self.line[mask], self.game[mask])

    def __len__(self) -> int:
        return len(self.line)


def game_samples(rec: dict[str, Any], card: Card, pl: Planner,
                 every: int = 2) -> tuple[list[tuple[BoolArray, FloatArray, int]], list[int]]:
    """The samples of one record (every ``every``-th per rack), and the lines its Mah Jongg
    racks made (each rack once: the counts the frequencies are fitted on)."""
    index = {h.id: h.number for h in card.hands if not h.declared}
    end = view(replay(rec, card), None)
    labels = {(sv.seat, r): index[rack.mahjongg.hand]
              for sv in end.seats if sv.declared is None
              for r, rack in enumerate(sv.racks)
              if rack.mahjongg is not None and rack.mahjongg.hand in index}
    out: list[tuple[BoolArray, FloatArray, int]] = []
    seen_n: dict[tuple[int, int], int] = {}
    state = start_of(rec, card)
    for step in replay_steps(state, map(str, rec["actions"])):
        if not isinstance(step.action, Discard) or step.state.over:
            continue
        seat = step.action.seat
        viewer = (seat + 1) % step.state.rules.players
        v = view(step.state, viewer)
        for (s, r), line in labels.items():
            if s != seat or not v.seats[s].racks[r].open:
                continue
            seen_n[s, r] = seen_n.get((s, r), 0) + 1
            if seen_n[s, r] % every == 0:
                ok, feats = rack_features(pl, v, s, r, unseen(v))
                out.append((ok, feats[:, :3].astype(np.float32), line))
    return out, list(labels.values())


def collect(records: Iterable[dict[str, Any]], card: Card, pl: Planner,
            every: int = 2) -> tuple[Samples, list[tuple[int, int]]]:
    """Every record's samples stacked, and (game, line) of each labelled rack."""
    oks, feats, lines, games = [], [], [], []
    labels: list[tuple[int, int]] = []
    for g, rec in enumerate(records):
        got, made = game_samples(rec, card, pl, every)
        labels += [(g, line) for line in made]
        for ok, f, line in got:
            oks.append(ok)
            feats.append(f)
            lines.append(line)
            games.append(g)
    n_ways = pl.cc.n_ways
    return Samples(np.array(oks, dtype=bool).reshape(-1, n_ways),
                   np.array(feats, dtype=np.float32).reshape(-1, n_ways, 3),
                   np.array(lines, dtype=np.int64), np.array(games, dtype=np.int64)), labels


def line_log_prior(card: Card, lines: Iterable[int]) -> tuple[float, ...]:
    """Log frequency of each line among ``lines`` (add-one over the playable lines;
    declared lines: never, they are not read)."""
    playable = np.array([not h.declared for h in card.hands], dtype=np.float64)
    counts = np.bincount(np.fromiter(lines, dtype=np.int64), minlength=len(card.hands))
    freq = (counts + 1.0) * playable
    with np.errstate(divide="ignore"):
        out = np.log(freq / freq.sum())
    return tuple(float(x) if np.isfinite(x) else -50.0 for x in out)


def _scores(s: Samples, theta: FloatArray, prior: npt.NDArray[Any]) -> FloatArray:
    z = s.feats @ theta[:3].astype(np.float32) + np.float32(theta[3]) * prior[None, :]
    z = np.where(s.ok, z, -np.inf)
    top = np.where(s.ok.any(axis=1), z.max(axis=1, initial=-np.inf), 0.0)
    p = np.exp(z - top[:, None])
    total = p.sum(axis=1, keepdims=True)
    out: FloatArray = p / np.where(total > 0, total, 1.0)  # rows with no way allowed: 0
    return out


def fit(s: Samples, pl: Planner, model: ReadingModel, steps: int = STEPS) -> ReadingModel:
    """The weights that make the samples' true lines likeliest, from ``model``'s (its
    frequencies kept). Samples whose line the reading rules out (left to FLOOR) and those
    with no way allowed do not move the weights."""
    prior = way_log_prior(pl, model).astype(np.float32)
    keep = s.ok.any(axis=1) & (s.ok & (pl.cc.way_hand[None, :] == s.line[:, None])).any(axis=1)
    s = s.take(keep)
    full = np.concatenate([s.feats, np.broadcast_to(prior, s.ok.shape)[:, :, None]], axis=2)
    mine = s.ok & (pl.cc.way_hand[None, :] == s.line[:, None])
    theta = np.asarray(model.weights, dtype=np.float64)
    m, v = np.zeros(len(FEATURES)), np.zeros(len(FEATURES))
    for t in range(1, steps + 1):  # Adam on the mean log likelihood
        p = _scores(s, theta, prior)
        q = np.where(mine, p, 0.0)
        q /= q.sum(axis=1, keepdims=True)
        g = (np.einsum("nw,nwf->f", q - p, full) / len(s)).astype(np.float64)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        theta += RATE * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    w = tuple(round(float(x), 4) for x in theta)
    return ReadingModel((w[0], w[1], w[2], w[3]), model.card, model.line_log_prior)


def log_loss(s: Samples, pl: Planner, model: ReadingModel) -> float:
    """Mean -log of the chance the reading gives each sample's true line (nats)."""
    prior = way_log_prior(pl, model).astype(np.float32)
    n_lines = len(pl.card.hands)
    playable = np.array([not h.declared for h in pl.card.hands], dtype=np.float64)
    floor = playable / playable.sum()
    onehot = np.zeros((pl.cc.n_ways, n_lines))
    onehot[np.arange(pl.cc.n_ways), pl.cc.way_hand] = 1.0
    theta = np.asarray(model.weights, dtype=np.float64)
    total = 0.0
    for lo in range(0, len(s), 512):
        part = s.take(np.arange(len(s))[lo:lo + 512])
        any_ok: BoolArray = np.asarray(part.ok.any(axis=1), dtype=bool)
        p = _scores(part, theta, prior) @ onehot
        chance = np.where(any_ok[:, None], (1 - FLOOR) * p + FLOOR * floor, floor)
        total -= float(np.log(chance[np.arange(len(part)), part.line]).sum())
    return total / max(len(s), 1)


def prior_log_loss(s: Samples, card: Card, line_prior: tuple[float, ...]) -> float:
    """The same for a reading that is the frequencies alone (or every line alike, when
    ``line_prior`` is all equal): what the table shows is ignored."""
    lp = np.asarray(line_prior, dtype=np.float64)
    return float(-lp[s.line].mean()) if len(s) else 0.0
