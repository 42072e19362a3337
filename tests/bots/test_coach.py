"""One coach: the hints and the review read one evaluation of each decision and agree, and a
hint never contradicts itself. Property checks over seeded whole games of every variant (the
player follows the hint, except at every fifth decision, where it takes another choice),
then a scenario for each wording.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest

from tests.bots.untimed import UNTIMED_BOTS
from twinrack.bots.coach import CHOICE_VERBS, advise
from twinrack.bots.hints import Hints, hints
from twinrack.bots.review import review
from twinrack.bots.seen import choices
from twinrack.card import practice_card
from twinrack.engine import Action, RuleSet, apply, legal_actions, new_game, view
from twinrack.engine.record import record_of
from twinrack.engine.shuffle import derive_seed
from twinrack.engine.view import View

GAMES = [("siamese", 2, 31), ("siamese", 2, 32), ("royale", 4, 33), ("imperial", 2, 34)]
#: every this many decisions the player does not follow the hint
ASTRAY = 5


@functools.cache
def played(variant: str, players: int, label: int) -> tuple[dict[str, Any],
                                                             tuple[tuple[View, Hints], ...]]:
    """A whole game: seat 0 follows its hints but at every ``ASTRAY``-th decision (then a
    choice drawn at random), experts at the other seats. The record, and seat 0's views
    with the hints it was given."""
    card = practice_card()
    game = new_game(RuleSet.for_variant(variant, players), seed=derive_seed(label, "coach"),
                    card=card)
    bots = [UNTIMED_BOTS["expert"](card) for _ in range(players)]
    rngs = [random.Random(label * 10 + s) for s in range(players)]
    seen: list[tuple[View, Hints]] = []
    while not game.over:
        seat = game.to_act()[0]
        v, legal = view(game, seat), legal_actions(game, seat)
        if seat != 0:
            apply(game, bots[seat].choose(v, legal, rngs[seat]))
            continue
        h = hints(v, card, legal=legal)
        options = choices(v, legal)
        seen.append((v, h))
        action: Action = next(a for a in options if a.body() == h.action.text) \
            if h.action is not None else options[0]
        if len(options) > 1 and len(seen) % ASTRAY == 0:
            action = rngs[0].choice([a for a in options if a != action])
        apply(game, action)
    return record_of(game), tuple(seen)


@pytest.mark.parametrize(("variant", "players", "label"), GAMES,
                         ids=[f"{v}-{n}p" for v, n, _l in GAMES])
def test_the_review_takes_the_hints_choice_as_the_best_and_never_calls_it_a_mistake(
        variant: str, players: int, label: int) -> None:
    record, seen = played(variant, players, label)
    hinted = {v.version: h.action.text for v, h in seen if h.action is not None}
    found = review(record, 0, practice_card(), searched=3, simulations=2)
    assert found.ratings
    by_number = {r.number: r for r in found.ratings}
    for r in found.ratings:
        assert r.best in hinted.values()
    # each rated decision's best is the hint given at that decision (found by its turn
    # and what was played: the versions of the replay are the table's)
    replay = new_game(RuleSet.from_dict(record["rules"]), seed=bytes.fromhex(record["seed"]),
                      card=practice_card())
    for number, text in enumerate(record["actions"], start=1):
        if number in by_number:
            v = view(replay, 0)
            assert by_number[number].best == hinted[v.version], number
        apply(replay, next(a for a in legal_actions(replay, int(text.split(":")[0]))
                           if str(a) == text))
    for m in found.mistakes:
        assert m.played != m.best and m.mistake
        assert not re.search(r"\b(expose|discard|claim) [0-9]", m.why)  # words, not notation
    assert all(not r.mistake for r in found.ratings if r.played == r.best)


def _numbers(text: str, pattern: str) -> list[int]:
    return [int(x) for x in re.findall(pattern, text)]


@pytest.mark.parametrize(("variant", "players", "label"), GAMES,
                         ids=[f"{v}-{n}p" for v, n, _l in GAMES])
def test_a_hint_never_contradicts_itself(variant: str, players: int, label: int) -> None:
    _record, seen = played(variant, players, label)
    for v, h in seen:
        what = f"turn {v.turn}: {h.to_dict()}"
        if h.plans:
            away = h.plans[0].away
            assert _numbers(h.summary, r"(\d+) away in all") in ([], [away]), what
            if h.discard is not None:
                said = _numbers(h.discard.reason, r"(?:stays|to) (\d+) away")
                assert said[:1] in ([], [away]), what
            for r in h.racks:
                for line in r.lines[1:]:  # no line instead makes a better plan than the plan
                    assert line.plan_away is None or line.plan_away >= away, what
            shares = [r.lines[0].away for r in h.racks
                      if r.lines and r.lines[0].plan_away == away]
            if len(shares) == len(h.plans[0].ids) <= 2:  # the racks' shares add up
                assert sum(shares) == away, what
        if h.mahjongg is not None and h.mahjongg.racks:
            for r in h.racks:
                if r.rack in h.mahjongg.racks:
                    assert r.lines and r.lines[0].away == 0 and not r.lines[0].needs, what
        if h.action is not None and h.action.verb == "exchange":
            assert h.discard is None and h.exchange is not None, what
        if h.discard is not None and h.discard.tile == "J":
            assert h.discard.reason.startswith("A Joker"), what
        marked = [c for c in h.choices if c.best]
        if h.action is not None and h.action.verb in CHOICE_VERBS and h.choices:
            assert [c.text for c in marked] == [h.action.text], what
        for verb in CHOICE_VERBS:
            group = [c for c in h.choices if c.verb == verb]
            assert all(not c.best for c in group[1:]), what  # the coach's choice first


def test_the_advice_is_the_same_whatever_the_arrangement() -> None:
    card = practice_card()
    game = new_game(RuleSet(declared_hands=False), seed=5, card=card)
    before = advise(view(game, 0), card, legal_actions(game, 0))
    move = next(a for a in legal_actions(game, 0) if a.verb == "move")
    apply(game, move)
    after = advise(view(game, 0), card, legal_actions(game, 0))
    assert after.best == before.best


def test_a_discard_that_may_feed_an_exposed_hand_is_warned_of_from_what_is_shown() -> None:
    """Seat 1 shows 2B 2B 2B and 4B 4B 4B on rack 1: the lines those two exposures fit
    (2468-5 wants 6 Bam) make a 6 Bam discard a risk; the warning names the seat, its
    rack and the line, and the hinted discard's reason carries the warning it has, the seat
    named by its wind (West, across a two-seat table) as everywhere else."""
    from tests.engine.helpers import R, play, rig

    game = rig(R(), hands=["2B 4B 6B 8B 8B", "2B 2B 4B 4B"], picks="N N E",
               avoid="2B 4B 6B 8B")
    play(game, "0: discard 2B", "1: claim expose", "1: expose 1 2B 2B 2B", "1: discard 1C",
         "0: pass", "0: discard 4B", "1: claim expose", "1: expose 1 4B 4B 4B",
         "1: discard 2C", "0: pass")
    card = practice_card()
    h = hints(view(game, 0), card, legal=legal_actions(game, 0))
    by_tile = {w.to_dict()["tile"]: w.to_dict() for w in h.warnings}
    assert by_tile["6B"]["seat"] == 1 and by_tile["6B"]["rack"] == 0
    assert by_tile["6B"]["lines"] == ["2468-5"] and by_tile["6B"]["wins"] is False
    assert by_tile["6B"]["text"] == (
        "Careful: 6 Bam may nearly complete the hand of {who} on rack 1: its 2 exposures "
        "fit only lines that still want it (2468-5).")
    assert "J" not in by_tile  # a discarded Joker cannot be claimed
    assert h.discard is not None and "{who}" not in h.discard.reason
    if h.discard.tile in by_tile:
        assert h.discard.reason.endswith(by_tile[h.discard.tile]["text"].removesuffix(".")
                                         .replace("{who}", "West"))
