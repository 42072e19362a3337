"""Bots and hints plan on the card as the table plays it: under 2024 a concealed line may
take exposures (docs/rules.md, section 5), under 2019 it may not."""

from __future__ import annotations

import random

import pytest

from tests.engine.helpers import R, play, rig
from twinrack.bots.greedy import GreedyBot
from twinrack.bots.hints import hints
from twinrack.card import practice_card
from twinrack.engine import legal_actions, view

# Honors-7 "NNN EEE WWW SSS DDa" (50, concealed) less W and 0: a pung of West fits no other
# line of the practice card
HONORS = "N N N E E E W W S S S 0"


def west_discarded(revision: str):  # type: ignore[no-untyped-def]
    g = rig(R(revision=revision), [HONORS, "W 0"], picks="2B 3B 4B 5B",
            avoid="N E W S 0 R G F")
    play(g, "0: discard 1C", "1: pass", "1: discard W")
    return g


@pytest.mark.parametrize(("revision", "claims"), [("2024", True), ("2019", False)])
def test_greedy_claims_for_a_concealed_line_only_when_it_may_be_played_open(
        revision: str, claims: bool) -> None:
    g = west_discarded(revision)
    chosen = GreedyBot().choose(view(g, 0), legal_actions(g, 0), random.Random(1))
    assert str(chosen) == ("0: claim expose" if claims else "0: pass")


def test_one_bot_follows_each_table_it_plays() -> None:
    bot = GreedyBot()
    for revision, claims in (("2024", True), ("2019", False), ("2024", True)):
        g = west_discarded(revision)
        chosen = bot.choose(view(g, 0), legal_actions(g, 0), random.Random(1))
        assert (str(chosen) == "0: claim expose") is claims


def test_hints_plan_the_concealed_line_with_its_exposure_under_2024() -> None:
    g = west_discarded("2024")
    play(g, "0: claim expose", "0: expose 1 W W W")
    h = hints(view(g, 0), practice_card(), legal=legal_actions(g, 0), budget_ms=0)
    assert h.racks[0].rack == 1 and h.racks[0].lines[0].id == "Honors-7"
    assert h.racks[0].lines[0].away == 1
