"""The rulings of the third review (docs/rules.md, sections 5, 7 and 15): concealed lines
played open under 2024, moving tiles between one's racks out of turn, and a false Mah Jongg
caller beside a real one in Royale (strict)."""

from __future__ import annotations

import pytest

from tests.engine.helpers import R, legal_texts, lines, play, rig
from twinrack.engine import apply, parse_action, view
from twinrack.errors import IllegalActionError

# Honors-7 "NNN EEE WWW SSS DDa" (50, concealed): the only line of the practice card with a
# pung of West, so an exposed W W W fits nothing else
HONORS = "N N N E E E W W S S S 0"
NOT_HONORS = "N E W S 0 R G F"


def west_pung_game(revision: str):  # type: ignore[no-untyped-def]
    """Seat 0 claims seat 1's West and exposes W W W on rack 1."""
    g = rig(R(revision=revision), [HONORS, "W 0"], picks="2B 3B 4B 5B", avoid=NOT_HONORS)
    play(g, "0: discard 1C", "1: pass", "1: discard W", "0: claim expose")
    return g


def test_2024_a_concealed_line_takes_an_exposure_and_scores_without_the_closed_bonus() -> None:
    g = west_pung_game("2024")
    assert play(g, "0: expose 1 W W W") == ["expose 0 1 W W W"]
    assert g.players[0].racks[0].dead is None
    play(g, "0: discard 9C", "1: pass", "1: discard 0", "0: claim mahjongg")
    assert "0: mahjongg 1 N N N E E E S S S 0 0" in legal_texts(g, 0)
    assert play(g, "0: mahjongg 1 N N N E E E S S S 0 0") == [
        "mahjongg 0 1 Honors-7 jokerless: N N N E E E S S S 0 0"]
    made = g.players[0].racks[0].mahjongg
    assert made is not None and not made.closed
    play(g, "0: discard 1D")
    assert view(g, 0).seats[0].racks[0].mahjongg.closed is False  # type: ignore[union-attr]
    assert lines(g) == ["seat 0: +100  Mah Jongg on rack 1: Honors-7 (card value 50; "
                        "jokerless x2)"]


def test_2019_a_concealed_line_stays_concealed() -> None:
    g = west_pung_game("2019")
    assert play(g, "0: expose 1 W W W") == ["expose 0 1 W W W", "dead 0 1 exposure"]


def test_2024_closed_concealed_line_keeps_its_bonus() -> None:
    g = rig(R(), [HONORS + " W"], picks="2B 3B 0", avoid=NOT_HONORS)
    play(g, "0: discard 1C", "1: pass", "1: discard 3B", "0: pass")
    assert "0: mahjongg 1 N N N E E E W W W S S S 0 0" in legal_texts(g, 0)
    play(g, "0: mahjongg 1 N N N E E E W W W S S S 0 0")
    assert g.players[0].racks[0].mahjongg.closed  # type: ignore[union-attr]
