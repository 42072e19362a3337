"""The review's words: each choice in tiles and card lines, never in the engine's notation
("discarding 9 Bam", "exposing 3 Dot with two Jokers on rack 1"), and why one was better.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from twinrack.engine import Action, Claim, Declare, Discard, Exchange, Expose, MahJongg, Pass
from twinrack.engine.view import View
from twinrack.narration import tile_label
from twinrack.tiles import JOKER

NUMBERS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class Seen(Protocol):
    """What the words read of where a choice leaves the player (the review's Outlook)."""

    @property
    def chance(self) -> float: ...

    @property
    def lines(self) -> tuple[str, ...]: ...

    @property
    def away(self) -> int: ...


def group_words(tiles: Sequence[int]) -> str:
    """An exposure in words: "three 3 Dot", "3 Dot with two Jokers", "two 3 Dot and a
    Joker"."""
    jokers = sum(t == JOKER for t in tiles)
    nat = [t for t in tiles if t != JOKER]
    if not nat:
        return f"{NUMBERS.get(jokers, str(jokers))} Jokers"
    name = tile_label(nat[0])
    j = "" if not jokers else ("a Joker" if jokers == 1 else
                               f"{NUMBERS.get(jokers, str(jokers))} Jokers")
    if len(nat) == 1:
        return f"{name} with {j}" if j else name
    many = f"{NUMBERS.get(len(nat), str(len(nat)))} {name}"
    return f"{many} and {j}" if j else many


def jokers_words(n: int) -> str:
    return "a Joker" if n == 1 else f"{NUMBERS.get(n, str(n))} Jokers"


def choice_words(action: Action, seen: View | None = None) -> str:
    """A choice as the review names it: what was done, with which tiles."""
    tile = tile_label(seen.window[1]) if seen is not None and seen.window else "the discard"
    if isinstance(action, Discard):
        return f"discarding {tile_label(action.tile)}"
    if isinstance(action, Pass):
        return f"passing on {tile}" if seen is not None and seen.window else "passing"
    if isinstance(action, Claim):
        what = {"expose": "an exposure", "mahjongg": "Mah Jongg",
                "double": "a Double Mah Jongg"}[action.kind]
        return f"claiming {tile} for {what}"
    if isinstance(action, Expose):
        return f"exposing {group_words(action.tiles)} on rack {action.rack + 1}"
    if isinstance(action, Exchange):
        return (f"giving {tile_label(action.tile)} for the Joker of an exposure (rack "
                f"{action.rack + 1} of seat {action.owner + 1})")
    if isinstance(action, MahJongg):
        return f"declaring Mah Jongg on rack {action.rack + 1}"
    if isinstance(action, Declare):
        return f"declaring {action.hand}"
    return action.verb


def _lines(lines: Sequence[str]) -> str:
    return " + ".join(lines) or "no line"


def explain(played: Action, best: Action, mine: Seen, theirs: Seen,
            seen: View | None = None) -> str:
    """The mistake in words, with the tiles and the card lines involved."""
    if played == best:
        return "the best choice"
    only_mine = [x for x in mine.lines if x not in theirs.lines]
    only_theirs = [x for x in theirs.lines if x not in mine.lines]
    if not (only_mine and only_theirs):
        only_mine, only_theirs = list(mine.lines), list(theirs.lines)
    kept, lost = _lines(only_mine), _lines(only_theirs)
    if isinstance(played, Discard) and isinstance(best, Discard):
        b, p = tile_label(best.tile), tile_label(played.tile)
        if kept == lost:
            return (f"keeping {b} left {kept} {mine.away} away ({mine.chance:.0%} to "
                    f"finish); throwing {b} instead of {p} left it {theirs.away} away "
                    f"({theirs.chance:.0%} to finish)")
        return (f"keeping {b} kept {kept} alive ({mine.away} away, {mine.chance:.0%} to "
                f"finish) but gave up {lost}, which was {theirs.away} away "
                f"({theirs.chance:.0%} to finish); throwing {b} instead of {p} was better")
    if isinstance(played, Expose) and isinstance(best, Expose):
        spared = played.tiles.count(JOKER) - best.tiles.count(JOKER)
        keeps = f" kept {jokers_words(spared)} for {lost}" if spared > 0 else \
            f" made {lost}"
        return (f"you exposed {group_words(played.tiles)} on rack {played.rack + 1}; "
                f"{group_words(best.tiles)} on rack {best.rack + 1}{keeps} ({theirs.away} "
                f"away, {theirs.chance:.0%} to finish, against {mine.away} away and "
                f"{mine.chance:.0%})")
    return (f"{choice_words(played, seen)} left {kept} ({mine.away} away, {mine.chance:.0%} "
            f"to finish); {choice_words(best, seen)} was better: {lost} ({theirs.away} "
            f"away, {theirs.chance:.0%} to finish)")
