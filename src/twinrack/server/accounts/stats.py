"""What a finished game tells about each seat (the profile's statistics), read from the
engine's final state, and whether it is rated, and in which pool."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from twinrack.card import practice_card
from twinrack.engine import GameState, game_facts
from twinrack.server.writer import result_of


@dataclass(frozen=True)
class SeatFacts:
    seat: int
    points: int
    won: bool
    mahjonggs: int
    #: 1 when this seat won with a Double Mah Jongg (two racks or more completed in the
    #: winning turn, as the score counts it), else 0
    doubles: int
    dead_racks: int
    racks: int
    lines: tuple[str, ...]


def seat_facts(state: GameState) -> list[SeatFacts]:
    """Every seat's facts of a finished game."""
    totals = result_of(state)["totals"]
    winning = Counter(m.seat for m in game_facts(state).mah_jonggs if m.wins)
    out = []
    for seat, player in enumerate(state.players):
        out.append(SeatFacts(
            seat=seat, points=int(totals[seat]), won=state.winner == seat,
            mahjonggs=len(player.mahjonggs), doubles=int(winning[seat] >= 2),
            dead_racks=sum(1 for r in player.racks if r.dead is not None),
            racks=len(player.racks), lines=tuple(m.hand.id for m in player.mahjonggs)))
    return out


def rated_pool(variant: str, card_sha256: str, kinds: list[str],
               accounts: dict[int, int]) -> str | None:
    """The rating pool of a finished game, or None when it is unrated: rated are games
    with the default (practice) card whose every human seat is a signed-in account, all
    different, either between two or more people and no computer ("people:VARIANT"), or
    one person against the computer ("computer:VARIANT")."""
    humans = [s for s, k in enumerate(kinds) if k == "human"]
    if card_sha256 != practice_card().sha256 or not humans:
        return None
    if any(s not in accounts for s in humans):
        return None
    if len({accounts[s] for s in humans}) != len(humans):
        return None  # one account on two seats: never rated
    if len(humans) == len(kinds) and len(humans) >= 2:
        return f"people:{variant}"
    if len(humans) == 1 and len(kinds) >= 2:
        return f"computer:{variant}"
    return None
