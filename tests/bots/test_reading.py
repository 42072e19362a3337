"""Reading an opponent's lines from its play (bots/reading.py), checked against a slow
reading worked out way by way from the card's groups, and on stated positions."""

from __future__ import annotations

import json
import math
import random

import numpy as np

from tests.bots.test_danger import two_pungs_exposed
from tests.engine.helpers import R, play, rig
from twinrack.bots import GreedyBot, play_out
from twinrack.bots.danger import waiting_tiles
from twinrack.bots.plans import planner
from twinrack.bots.reading import (
    FLOOR,
    RECENT,
    ReadingModel,
    fitted,
    line_chances,
    rack_features,
    rack_reading,
    way_chances,
    way_log_prior,
)
from twinrack.bots.reading_fit import collect, fit, line_log_prior, log_loss, prior_log_loss
from twinrack.bots.seen import unseen
from twinrack.card import practice_card
from twinrack.engine import apply, legal_actions, new_game, view
from twinrack.engine.record import record_of
from twinrack.engine.rules import RuleSet
from twinrack.tiles import INDEX, JOKER

CARD = practice_card()
PL = planner(CARD)


def slow_features(way_index: int, thrown: set[int], recent: set[int],
                  unseen_n: list[int]) -> tuple[bool, list[float]]:
    """One way of a rack with no exposures, from its groups: possible while its naturals
    are unseen and Jokers cover what its big groups lack; the kinds it wants that were
    thrown (all, and lately); the log share of each wanted kind still unseen."""
    way = PL.ways[way_index]
    nat: dict[int, int] = {}
    tot: dict[int, int] = {}
    for g in way.groups:
        tot[g.tile] = tot.get(g.tile, 0) + g.size
        if not g.takes_jokers:
            nat[g.tile] = nat.get(g.tile, 0) + g.size
    ok = all(n <= unseen_n[t] for t, n in nat.items())
    lack = sum(max(tot[t] - nat.get(t, 0) - max(unseen_n[t] - nat.get(t, 0), 0), 0)
               for t in tot)
    ok = ok and lack <= unseen_n[JOKER]
    scarce = sum(math.log(min((unseen_n[t] + 0.5) / n, 1.0)) for t, n in tot.items())
    return ok, [len(set(tot) & thrown), len(set(tot) & recent), scarce]


def test_the_features_agree_with_the_slow_reading_on_seeded_games() -> None:
    checked = 0
    for seed in range(3):
        game = new_game(RuleSet.for_variant("siamese"), seed=bytes([seed]) * 8, card=CARD)
        rng = random.Random(seed)
        for _ in range(60 + 20 * seed):
            if game.over:
                break
            seat = game.to_act()[0]
            acts = [a for a in legal_actions(game, seat) if a.verb != "move"]
            apply(game, rng.choice(acts))
        v = view(game, 0)
        for r, rack in enumerate(v.seats[1].racks):
            if rack.exposures or not rack.open:
                continue
            un = unseen(v)
            ok, feats = rack_features(PL, v, 1, r, un)
            mine = [t for s, t in v.discards if s == 1]
            for w in np.flatnonzero(PL.cc.normal):
                slow_ok, slow = slow_features(int(w), set(mine), set(mine[-RECENT:]), un)
                assert bool(ok[w]) == slow_ok
                if slow_ok:
                    assert np.allclose(feats[w, :3], slow), (w, feats[w], slow)
                    checked += 1
    assert checked > 250


def test_exposures_leave_only_the_lines_that_hold_them() -> None:
    """Seat 1 exposed a pung of Red on rack 2: every line without such a pung keeps only
    its share of FLOOR."""
    seen = view(two_pungs_exposed(), 0)
    p = rack_reading(PL, fitted(), seen, 1, 1, unseen(seen))
    fits = PL.cc.rack(seen.seats[1].racks[1].exposures).fit
    assert 0 < fits.sum() < 100
    holding = set(PL.cc.way_hand[fits].tolist())
    playable = sum(not h.declared for h in CARD.hands)
    assert math.isclose(p.sum(), 1.0)
    for line, chance in enumerate(p):
        if line not in holding and not CARD.hands[line].declared:
            assert math.isclose(chance, FLOOR / playable)
    assert sum(p[line] for line in holding) > 1 - FLOOR


def test_a_seat_that_throws_a_suit_is_read_as_not_building_it() -> None:
    """Three Dots thrown: with the fitted (negative) weight of throws, lines wanting those
    Dots lose belief against the same position read without the throws counted."""
    game = rig(R(), hands=["F F F", "1D 3D 5D"], avoid="1D 3D 5D")
    play(game, "0: discard F", "1: pass", "1: discard 1D", "0: pass", "0: discard F",
         "1: pass", "1: discard 3D", "0: pass", "0: discard F", "1: pass", "1: discard 5D")
    seen = view(game, 0)
    model = fitted()
    assert model.weights[0] < 0
    blind = ReadingModel((0.0, 0.0, model.weights[2], model.weights[3]), model.card,
                         model.line_log_prior)
    read = rack_reading(PL, model, seen, 1, 0, unseen(seen))
    ignored = rack_reading(PL, blind, seen, 1, 0, unseen(seen))
    dots = {int(PL.cc.way_hand[w]) for w in range(PL.cc.n_ways)
            if PL.cc.normal[w] and PL.cc.nat[w, INDEX["3D"]] + PL.cc.big[w, INDEX["3D"]] > 0}
    assert read[sorted(dots)].sum() < ignored[sorted(dots)].sum()


def test_chances_sum_to_one_and_nothing_possible_falls_to_the_floor() -> None:
    ok = np.zeros(PL.cc.n_ways, dtype=bool)
    feats = np.zeros((PL.cc.n_ways, 4))
    ways = way_chances(fitted(), ok, feats, way_log_prior(PL, fitted()))
    assert not ways.any()
    lines = line_chances(PL, fitted(), ways)
    assert math.isclose(lines.sum(), 1.0)
    assert all(lines[i] == 0 for i, h in enumerate(CARD.hands) if h.declared)


def test_the_committed_model_is_for_the_practice_card_and_round_trips() -> None:
    model = fitted()
    assert model.card == CARD.sha256 and len(model.line_log_prior) == len(CARD.hands)
    again = ReadingModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.weights == model.weights
    # another card: every line alike
    other = ReadingModel(model.weights, "0" * 64, model.line_log_prior)
    prior = way_log_prior(PL, other)
    per_line = np.bincount(PL.cc.way_hand)
    assert np.allclose(prior, -np.log(per_line[PL.cc.way_hand]))


def test_danger_with_a_reading_still_names_only_the_lines_the_exposures_fit() -> None:
    seen = view(two_pungs_exposed(), 0)
    d = waiting_tiles(PL, seen, 1, unseen(seen), reading=fitted())
    assert d.max() <= 1.0
    assert {t for t in range(len(d)) if d[t] == 0} >= {INDEX[x] for x in
                                                       ("4B", "8B", "4C", "8C", "4D", "8D")}


def test_fitting_on_seeded_games_does_better_than_the_frequencies() -> None:
    """A few greedy games: the fitted weights explain their own samples better than the
    line frequencies alone (the committed figures on held-out games: docs/bots.md)."""
    records = []
    for seed in range(4):
        game = new_game(RuleSet.for_variant("siamese"), seed=bytes([seed + 9]) * 8, card=CARD)
        play_out(game, [GreedyBot(CARD), GreedyBot(CARD)],
                 [random.Random(seed), random.Random(seed + 50)])
        records.append(record_of(game))
    samples, labels = collect(records, CARD, PL, every=1)
    assert len(samples) > 20 and labels
    prior = line_log_prior(CARD, [line for _, line in labels])
    base = ReadingModel((0.0, 0.0, 0.0, 1.0), CARD.sha256, prior)
    model = fit(samples, PL, base, steps=60)
    assert log_loss(samples, PL, model) < log_loss(samples, PL, base)
    assert log_loss(samples, PL, base) < prior_log_loss(samples, CARD, prior)
