"""Properties over random playouts of every variant: tiles conserved, tile counts, nothing
outside ``legal_actions`` accepted, every game ends, replays reproduce, views never leak."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twinrack.engine import (
    Action,
    Claim,
    Discard,
    Exchange,
    Expose,
    GameState,
    MahJongg,
    Move,
    Pass,
    RuleSet,
    Withdraw,
    apply,
    legal_actions,
    new_game,
    view,
)
from twinrack.engine.actions import CharlestonPass, Courtesy, Offer, Vote
from twinrack.engine.record import record_of, verify
from twinrack.engine.refusals import Code
from twinrack.errors import IllegalActionError
from twinrack.tiles import JOKER

CODES = {c.value for c in Code}

VARIANTS = [("siamese", 2), ("royale", 3), ("royale", 4), ("imperial", 2), ("imperial", 3),
            ("imperial", 4), ("american", 4), ("american", 3)]


def tile_census(g: GameState) -> Counter[int]:
    c: Counter[int] = Counter(g.wall[g.wall_pos:])
    c.update(t for _s, t in g.discards)
    for p in g.players:
        arranged = [0] * 36
        for r in p.racks:
            for t in range(36):
                arranged[t] += r.arranged[t]
            for x in r.exposures:
                c.update(x.tiles())
            c.update(r.error_tiles)
        assert arranged == p.pool
        assert sum(p.pool) == p.concealed
        c.update({t: n for t, n in enumerate(p.pool) if n})
        for m in p.mahjonggs:
            c.update(m.tiles)
    return c


def check_invariants(g: GameState) -> None:
    assert tile_census(g) == Counter(g.rules.tiles.wall())
    if g.phase == "charleston":  # the passes move tiles but never change a hand's size
        assert [p.concealed for p in g.players] == [14] + [13] * (g.rules.players - 1)
        assert not any(p.pool[JOKER] < 0 for p in g.players)
        return
    if g.phase not in ("turn", "window"):
        return
    for s, p in enumerate(g.players):
        in_turn = g.phase == "turn" and s == g.current
        expected = 14 * g.rules.racks - (0 if in_turn else 1)
        if in_turn and g.began == "deal":
            expected = 14 * g.rules.racks  # 2019: East dealt 14R
        if p.stopped and p.concealed == 0:
            expected = 14 * g.rules.racks  # two racks finished without a discard
        if p.stopped and g.rules.american:
            expected = 14  # a hand that died in its turn stops at once
        assert p.total() == expected, (s, p.total(), expected)


def fingerprint(g: GameState) -> tuple[object, ...]:
    return (g.version, len(g.events), len(g.actions), g.phase, g.current, g.wall_pos,
            tuple(tuple(p.pool) for p in g.players),
            tuple(tuple(tuple(r.arranged) for r in p.racks) for p in g.players),
            tuple(tuple(len(r.exposures) for r in p.racks) for p in g.players))


def illegal_candidates(g: GameState, rng: random.Random) -> list[Action]:
    """Actions that look plausible, some legal, most not."""
    n = g.rules.players
    out: list[Action] = []
    for _ in range(6):
        s = rng.randrange(n)
        t = rng.randrange(36)
        r = rng.randrange(g.rules.racks)
        out += [Discard(s, t), Pass(s), Claim(s, rng.choice(["mahjongg", "double", "expose"])),
                Expose(s, r, (t, t, JOKER)), Expose(s, r, (t, JOKER)),
                Exchange(s, t, rng.randrange(n), r, 0), MahJongg(s, r, (t,) * 14),
                Move(s, t, r, (r + 1) % g.rules.racks), Withdraw(s),
                CharlestonPass(s, (t, t, t)), CharlestonPass(s, (t, JOKER), 1),
                CharlestonPass(s, (), rng.randrange(5)), Vote(s, rng.random() < 0.5),
                Offer(s, rng.randrange(5)), Courtesy(s, (t,) * rng.randrange(4))]
    return out


def no_leak(g: GameState, seat: int, rng: random.Random) -> None:
    """Swapping a hidden tile (another seat's concealed tile with an unseen wall tile)
    changes nothing in this seat's view."""
    others = [o for o in range(g.rules.players) if o != seat and g.players[o].free_count()]
    if not others or g.wall_left == 0:
        return
    o = rng.choice(others)
    p = g.players[o]
    rack = next(i for i, r in enumerate(p.racks) if any(r.arranged)
                and not (p.declared is not None and i == 0))
    x = next(t for t in range(36) if p.racks[rack].arranged[t])
    k = rng.randrange(g.wall_pos, len(g.wall))
    y = g.wall[k]
    if x == y:
        return
    h = g.copy()
    h.wall = list(g.wall)
    h.wall[k] = x
    q = h.players[o]
    q.racks[rack].arranged[x] -= 1
    q.racks[rack].arranged[y] += 1
    q.pool[x] -= 1
    q.pool[y] += 1
    assert view(h, seat) == view(g, seat)
    assert view(h, None) == view(g, None)


def playout(rules: RuleSet, seed: int, probe: bool = True, max_actions: int = 20000) -> GameState:
    g = new_game(rules, seed=seed)
    rng = random.Random(seed)
    for step in range(max_actions):
        if g.over:
            break
        check_invariants(g)
        seats = g.to_act()
        seat = rng.choice(seats)
        legal = legal_actions(g, seat)
        assert legal, (g.phase, seat)
        if probe and step % 7 == 0:
            no_leak(g, seat, rng)
            for bad in illegal_candidates(g, rng):
                if bad in legal_actions(g, bad.seat):
                    continue
                before = fingerprint(g)
                with pytest.raises(IllegalActionError) as err:
                    apply(g, bad)
                assert err.value.code in CODES
                assert fingerprint(g) == before
        kinds: dict[type, list[Action]] = {}
        for a in legal:
            kinds.setdefault(type(a), []).append(a)
        choice = rng.choice(kinds[rng.choice(sorted(kinds, key=lambda k: k.__name__))])
        apply(g, choice)
    assert g.over, "a game did not end"
    check_invariants(g)
    return g


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
@pytest.mark.parametrize("revision", ["2024", "2019"])
def test_random_playouts_keep_every_invariant(variant: str, players: int, revision: str) -> None:
    for seed in range(2):
        rules = RuleSet(variant=variant, players=players, revision=revision,
                        strict=seed == 1, expose_any_time=seed == 1)
        g = playout(rules, seed)
        rec = record_of(g)
        verdict = verify(rec, g.card)
        assert verdict.ok, verdict.problem
        assert verdict.state is not None
        assert [str(e) for e in verdict.state.events] == rec["events"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.sampled_from(VARIANTS),
       revision=st.sampled_from(["2024", "2019"]), strict=st.booleans(),
       declared=st.booleans())
def test_hypothesis_playouts(seed: int, which: tuple[str, int], revision: str, strict: bool,
                             declared: bool) -> None:
    variant, players = which
    rules = RuleSet(variant=variant, players=players, revision=revision, strict=strict,
                    declared_hands=declared)
    g = playout(rules, seed, probe=seed % 3 == 0)
    assert verify(record_of(g), g.card).ok


def test_codes_are_stable_identifiers() -> None:
    assert {"not_your_turn", "claim_window_closed", "joker_in_pair", "no_mahjongg",
            "exchange_from_mahjongg", "exchange_from_dead", "tile_not_held"} <= CODES
    assert all(re.fullmatch(r"[a-z_]+", c) for c in CODES)


def test_many_quick_games_end() -> None:
    from twinrack.bots import RandomBot
    bot = RandomBot()
    for variant, players in VARIANTS:
        for seed in range(3):
            g = new_game(RuleSet(variant=variant, players=players), seed=100 + seed)
            rng = random.Random(seed)
            for _ in range(20000):
                if g.over:
                    break
                s = g.to_act()[0]
                apply(g, bot.choose(view(g, s), legal_actions(g, s), rng))
            assert g.over and g.end_reason in ("mahjongg", "wall", "dead", "stopped", "error")


def test_every_error_code_is_documented() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "rules.md").read_text()
    section = doc[doc.index("## 14."):doc.index("## 15.")]
    assert set(re.findall(r"`([a-z_]+)`", section)) - {"code", "bad_action", "bad_event"} == CODES
