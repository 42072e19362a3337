"""The card played open (every line may take exposures, a concealed one included: the 2024
revision) agrees with the oracle run on the same card with no line marked concealed."""

from __future__ import annotations

import dataclasses
import random
from functools import cache

from tests.card import oracle
from tests.card.holdings import mah_jongg_rack, random_rack
from tests.card.paths import Both
from twinrack.card import Card, practice_card
from twinrack.card.compiled import CompiledCard, compiled

RACKS = 800


@cache
def cards() -> tuple[Card, Card, Both]:
    card = practice_card()
    unmarked = dataclasses.replace(card, hands=tuple(
        dataclasses.replace(h, concealed=False) for h in card.hands),
        sha256="unmarked:" + card.sha256)
    return card, unmarked, Both.of(CompiledCard(card)).open_lines


def test_the_practice_card_has_concealed_lines() -> None:
    card, _unmarked, opened = cards()
    assert any(h.concealed for h in card.hands)
    assert not opened.way_concealed.any()
    assert compiled(card, open_lines=True) is compiled(card).open_lines
    assert compiled(card).open_lines.open_lines is compiled(card).open_lines


def test_open_lines_agree_with_the_oracle_on_racks_with_exposures() -> None:
    card, unmarked, opened = cards()
    rng = random.Random(2501)
    differs = 0
    for _ in range(RACKS):
        rack = random_rack(rng, card)
        fast = opened.way_aways(rack.counts, rack.exposures).tolist()
        assert fast == oracle.card_way_aways(unmarked, rack.counts, rack.exposures), rack
        assert opened.rack_alive(rack.exposures) is oracle.rack_alive(unmarked, rack.exposures)
        closed = compiled(card).way_aways(rack.counts, rack.exposures).tolist()
        differs += fast != closed
    assert differs > 0  # some racks are nearer once concealed lines take exposures


def test_open_lines_matches_agree_and_an_open_concealed_line_is_not_closed() -> None:
    card, unmarked, opened = cards()
    rng = random.Random(2502)
    for _ in range(RACKS):
        rack = mah_jongg_rack(rng, card)
        fast = opened.matches(rack.counts, rack.exposures)
        plain = oracle.matches(unmarked, rack.counts, rack.exposures)
        assert [(m.hand.id, m.way, m.jokerless, m.closed) for m in fast] == [
            (m.hand_id, m.way, m.jokerless, m.closed) for m in plain], rack
        assert all(not m.closed for m in fast if rack.exposures)


def test_the_scope_without_declared_lines_stays_open() -> None:
    card, _unmarked, _opened = cards()
    scoped = compiled(card, open_lines=True).without_declared
    assert not scoped.way_concealed.any()
    assert scoped.scope is not None and not scoped.scope[compiled(card).declared].any()
