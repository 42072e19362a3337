"""Listing and refusing are one path (engine/legality.py): over seeded playouts of every
variant, for many candidate actions, ``apply`` accepts exactly the listed ones and refuses
every other with the very code and message ``why_illegal`` gives, leaving the game as it
was; ``is_legal`` agrees; ``why_illegal`` of a listed action is a mistake."""

from __future__ import annotations

import random

import pytest

from twinrack.engine import (
    Action,
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    GameState,
    MahJongg,
    Move,
    Pass,
    RuleSet,
    Undeclare,
    Withdraw,
    apply,
    is_legal,
    legal_actions,
    new_game,
    why_illegal,
)
from twinrack.engine.actions import decisions
from twinrack.engine.options import OPTIONS, ordinary_turn
from twinrack.engine.refusals import PHASE_VERBS, Code, acting_gate, open_kinds
from twinrack.engine.state import Obligation, Phase
from twinrack.errors import IllegalActionError
from twinrack.tiles import JOKER

CASES = [
    ("siamese", 2, {}),
    ("siamese", 2, {"strict": True, "expose_any_time": True}),
    ("siamese", 2, {"revision": "2019", "strict": True}),
    ("royale", 3, {"expose_any_time": True}),
    ("royale", 4, {"strict": True, "last_discard": "mahjongg"}),
    ("imperial", 2, {}),
    ("imperial", 3, {"strict": True}),
]


def candidates(g: GameState, rng: random.Random) -> list[Action]:
    """Actions of every kind for every seat (and two seats that do not exist): some made
    of the tiles and exposures really there, some of random ones, and a few legal ones."""
    n, racks = g.rules.players, g.rules.racks
    out: list[Action] = []
    for s in [*range(n), n, -1]:
        t, r = rng.randrange(36), rng.randrange(racks + 1)
        out += [Discard(s, t), Pass(s), Claim(s, rng.choice(["mahjongg", "double", "expose"])),
                Expose(s, r, (t, t, JOKER)), Expose(s, r, (t, JOKER)),
                Expose(s, r, (JOKER,) * 3), Expose(s, r, (t, (t + 1) % 35, JOKER)),
                Exchange(s, t, rng.randrange(n + 1), r, rng.randrange(3)),
                MahJongg(s, r, (t,) * 14), MahJongg(s, r, ()), Move(s, t, r, (r + 1) % racks),
                Withdraw(s), Undeclare(s), Declare(s, "Special-1", (t,) * 13)]
        if not 0 <= s < n:
            continue
        free = g.players[s].free()
        held = [k for k in range(36) if free[k]]
        if held:
            k = rng.choice(held)
            fill = (k,) * min(3, free[k]) + (JOKER,) * max(0, 3 - free[k])
            out += [Discard(s, k), Expose(s, rng.randrange(racks), fill), Move(s, k, 0, 1)]
        out += [Exchange(s, x.tile, o, q, i) for o, p in enumerate(g.players)
                for q, rack in enumerate(p.racks) for i, x in enumerate(rack.exposures)]
        legal = legal_actions(g, s)
        out += rng.sample(legal, min(3, len(legal)))
    return out


def facts(g: GameState) -> tuple[object, ...]:
    """What a refused action must leave as it was (the logs only ever grow)."""
    return (g.version, g.phase, len(g.events), len(g.actions), g.wall_pos,
            [tuple(p.pool) for p in g.players],
            [[(tuple(r.arranged), tuple(r.exposures), r.dead) for r in p.racks]
             for p in g.players])


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
def test_apply_refuses_exactly_what_is_not_listed(variant: str, players: int,
                                                  options: dict[str, object]) -> None:
    rules = RuleSet(variant=variant, players=players, **options)  # type: ignore[arg-type]
    seen: dict[bool, int] = {True: 0, False: 0}
    codes: set[str] = set()
    for seed in range(3):
        g = new_game(rules, seed=900 + seed)
        rng = random.Random(seed)
        for step in range(400):
            if g.over:
                break
            if step % (3 * players) == 0:
                tried = 0
                for a in candidates(g, rng):
                    listed = 0 <= a.seat < players and a in legal_actions(g, a.seat)
                    assert is_legal(g, a) is listed
                    seen[listed] += 1
                    if listed:
                        with pytest.raises(ValueError):
                            why_illegal(g, a)
                        if tried < 2:  # a listed action is applied (to a copy)
                            apply(g.copy(), a)
                            tried += 1
                        continue
                    reason = why_illegal(g, a)
                    before = facts(g)
                    with pytest.raises(IllegalActionError) as refused:
                        apply(g, a)
                    err = refused.value
                    assert (err.code, err.message, err.rule) == (
                        reason.code, reason.message, reason.rule)
                    assert facts(g) == before
                    codes.add(err.code)
            seat = rng.choice(g.to_act())
            legal = legal_actions(g, seat)
            rare = [a for a in legal if a.verb in ("claim", "mahjongg", "expose", "withdraw")]
            apply(g, rng.choice(rare if rare and rng.random() < 0.25 else legal))
    assert seen[True] > 30 and seen[False] > 500
    assert codes <= {c.value for c in Code} and len(codes) >= 12


def test_no_kind_gets_through_a_gate_outside_its_phase() -> None:
    """The listing asks only the phase's kinds: every other kind is refused by the gate."""
    for phase in Phase:
        for obligation in (None, *Obligation):
            for verb in OPTIONS:
                if verb not in PHASE_VERBS[phase]:
                    assert acting_gate(phase, obligation, verb) is not None, (phase, verb)


def listed_kind_by_kind(g: GameState, seat: int) -> tuple[list[Action], list[str]]:
    """The legal actions by every open kind's own lister, in listing order, and the
    verbs among them: what the one-pass listing of an ordinary turn must give."""
    out: list[Action] = []
    verbs: list[str] = []
    for verb in open_kinds(g.phase, g.obligation):
        found = OPTIONS[verb](g, seat)
        if found:
            out += found
            verbs.append(verb)
    return out, verbs


@pytest.mark.parametrize(("variant", "players", "options"), CASES)
def test_an_ordinary_turn_lists_what_each_kind_lists(variant: str, players: int,
                                                     options: dict[str, object]) -> None:
    rules = RuleSet(variant=variant, players=players, **options)  # type: ignore[arg-type]
    turns = 0
    for seed in range(4):
        g = new_game(rules, seed=700 + seed)
        rng = random.Random(seed)
        while not g.over:
            seat = rng.choice(g.to_act())
            if g.phase == Phase.TURN and g.obligation is None:
                assert ordinary_turn(g, seat) == listed_kind_by_kind(g, seat)
                turns += 1
            legal = decisions(legal_actions(g, seat), g.phase == Phase.TURN
                              and g.current == seat and g.obligation is None)
            rare = [a for a in legal if a.verb in ("claim", "mahjongg", "expose", "move")]
            apply(g, rng.choice(rare if rare and rng.random() < 0.3 else legal))
    assert turns > 100
