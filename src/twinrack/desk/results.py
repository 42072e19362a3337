"""A table's game result, read and scored for the tournament desk.

A 4-seat table enters the fields of its tournament score sheet (rules section 11,
:mod:`twinrack.engine.american`); a 2-seat Siamese table enters a game sheet of
the score keeper (section 10, :mod:`twinrack.desk.keeper`). Either way the desk gets the
itemized lines, the referee's penalties, the winner and the words of its score sheet. Every
field is checked and a bad one named; nothing here knows which tournament it is in: players
are found through the ``seat_of`` the desk gives.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from twinrack.desk.keeper import GameSheetError, KeptGame, read_game
from twinrack.engine.american import (
    PENALTIES,
    TournamentGame,
    play_goes_on,
    score_tournament_game,
)
from twinrack.engine.scoring import Penalty, Score, score_game
from twinrack.errors import TwinRackError

#: finds the seat (0 = East) of a player named in a field: seat_of(name, field)
SeatOf = Callable[[Any, str], int]
#: the fields of a 4-seat table's result
FOUR_SEAT_FIELDS = ("winner", "value", "self_picked", "singles_and_pairs", "jokerless",
                    "wall_game", "discarder", "winner_exposures", "quint_two_exposures",
                    "misnamed", "dead", "in_error", "wall_destroyed_by", "exposed",
                    "penalties")
#: the fields only a game with a winner has
WINNER_FIELDS = ("value", "self_picked", "singles_and_pairs", "jokerless", "discarder",
                 "winner_exposures", "quint_two_exposures", "misnamed")


class DeskError(TwinRackError):
    """A desk command that cannot be taken; nothing changed."""


@dataclass(frozen=True)
class ScoredResult:
    """One game of a table, scored: what the desk writes on its score sheet."""

    score: Score
    penalties: list[Penalty]  # the referee's, kept apart: they count even after time
    winner: int | None  # seat of the winner, if the game had one
    outcome: str  # how it ended, in words ("Ann won", "wall game", ...)
    hand: str  # the winning hand or the Mah Jonggs made, in words


# ---------------------------------------------------------------- 4-seat tables


def score_four_seat_game(result: dict[str, Any], names: Sequence[str], seat_of: SeatOf,
                         max_value: int) -> ScoredResult:
    """A standard table's result (section 11); ``names`` are the seats' players."""
    if "winners" in result:
        raise DeskError("two_winners", "winners: a game has one winner: give `winner` once")
    for key in result:
        if key not in FOUR_SEAT_FIELDS:
            raise DeskError("bad_result", f"unknown field {key!r} (fields: "
                                          f"{', '.join(sorted(FOUR_SEAT_FIELDS))})")
    game = _four_seat_game(result, seat_of, max_value)
    penalties = referee_penalties(result, seat_of)
    outcome, hand = _four_seat_words(game, names)
    return ScoredResult(score_tournament_game(game), penalties, game.winner, outcome, hand)


def _four_seat_game(result: dict[str, Any], seat_of: SeatOf,
                    max_value: int) -> TournamentGame:
    winner_name, wall_game, miscaller_name = _one_ending(result)
    winner = seat_of(winner_name, "winner") if winner_name is not None else None
    value = _winning_value(result, winner, max_value)
    thrower = _thrower(result, seat_of, winner)
    exposures = result.get("winner_exposures", 0)
    if not isinstance(exposures, int) or isinstance(exposures, bool) or not 0 <= exposures <= 4:
        raise DeskError("bad_result", "winner_exposures: a number from 0 to 4")
    dead = tuple(seat_of(x, "dead") for x in _names(result, "dead"))
    if winner is not None and winner in dead:
        raise DeskError("bad_result", "dead: the winner's hand is not dead")
    miscaller = seat_of(miscaller_name, "in_error") if miscaller_name is not None else None
    destroyed = tuple(seat_of(x, "wall_destroyed_by")
                      for x in _names(result, "wall_destroyed_by"))
    exposed = tuple(seat_of(x, "exposed") for x in _names(result, "exposed"))
    _check_in_error(miscaller, dead, destroyed, exposed)
    game = TournamentGame(
        players=4, winner=winner, value=value, self_picked=_flag(result, "self_picked"),
        singles_and_pairs=_flag(result, "singles_and_pairs"),
        jokerless=_flag(result, "jokerless"), wall_game=wall_game, discarder=thrower,
        winner_exposures=exposures, quint_two_exposures=_flag(result, "quint_two_exposures"),
        dead=dead, misnamed=_flag(result, "misnamed"), in_error=miscaller,
        wall_destroyed_by=destroyed, exposed=exposed)
    if play_goes_on(game):
        raise DeskError("game_continues",
                        "in_error: two or more hands are intact, so the game goes on; enter "
                        "its result when it ends, with the mis-caller as dead")
    return game


def _one_ending(result: dict[str, Any]) -> tuple[Any, bool, Any]:
    """A game ends one way: a winner, a wall game or a Mah Jongg in error."""
    winner, miscaller = result.get("winner"), result.get("in_error")
    wall_game = _flag(result, "wall_game")
    ends = [k for k, on in (("winner", winner is not None), ("wall_game", wall_game),
                            ("in_error", miscaller is not None)) if on]
    if not ends:
        raise DeskError("bad_result", "a game needs a winner, wall_game: true or in_error")
    if len(ends) > 1:
        raise DeskError("bad_result", f"{' and '.join(ends)}: a game ends one way only")
    return winner, wall_game, miscaller


def _winning_value(result: dict[str, Any], winner: int | None, max_value: int) -> int:
    """The card value of the winning hand; a game without a winner has none of the
    winner's fields."""
    value = result.get("value")
    if winner is None:
        for key in WINNER_FIELDS:
            if key in result:
                raise DeskError("bad_result", f"{key}: only a game with a winner has it")
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= max_value:
        raise DeskError("bad_value", "value: the card value of the winning hand, a whole "
                                     f"number from 1 to {max_value} (got {json.dumps(value)})")
    return value


def _thrower(result: dict[str, Any], seat_of: SeatOf, winner: int | None) -> int | None:
    """The seat that threw the Mah Jongg tile, if the sheet names one."""
    name = result.get("discarder")
    thrower = seat_of(name, "discarder") if name is not None else None
    if thrower is not None and thrower == winner:
        raise DeskError("bad_result", "discarder: the winner cannot throw its own tile")
    if thrower is not None and _flag(result, "self_picked"):
        raise DeskError("bad_result", "discarder: a self-picked Mah Jongg has no discarder")
    if _flag(result, "misnamed") and thrower is None:
        raise DeskError("bad_result", "misnamed: name the discarder who mis-named the tile")
    return thrower


def _check_in_error(miscaller: int | None, dead: tuple[int, ...], destroyed: tuple[int, ...],
                    exposed: tuple[int, ...]) -> None:
    """Who destroyed the wall or exposed a hand is said only after a Mah Jongg in error,
    and the mis-caller is not among them."""
    if miscaller is None:
        if destroyed or exposed:
            key = "wall_destroyed_by" if destroyed else "exposed"
            raise DeskError("bad_result", f"{key}: only after a Mah Jongg in error (in_error)")
        return
    if miscaller in dead or miscaller in destroyed or miscaller in exposed:
        raise DeskError("bad_result", "in_error: the mis-caller is listed again in dead, "
                                      "wall_destroyed_by or exposed")


def _four_seat_words(game: TournamentGame, names: Sequence[str]) -> tuple[str, str]:
    """How the game ended and the winning hand, in words."""
    if game.winner is not None:
        flags = [f for f, on in (("self-picked", game.self_picked),
                                 ("Singles & Pairs", game.singles_and_pairs),
                                 ("jokerless", game.jokerless and not game.singles_and_pairs))
                 if on]
        hand = f"card value {game.value}" + (f", {', '.join(flags)}" if flags else "")
        return f"{names[game.winner]} won", hand
    if game.in_error is not None:
        return f"Mah Jongg in error by {names[game.in_error]}", ""
    return "wall game", ""


def referee_penalties(result: dict[str, Any], seat_of: SeatOf) -> list[Penalty]:
    """The conduct penalties of a 4-seat result (section 11): ``[{player, kind}]``."""
    raw = result.get("penalties", [])
    if not isinstance(raw, list):
        raise DeskError("bad_result", "penalties: a list of {player, kind}")
    out: list[Penalty] = []
    for i, p in enumerate(raw):
        if not isinstance(p, dict) or "player" not in p or "kind" not in p:
            raise DeskError("bad_result", f"penalties[{i}]: needs player and kind")
        extra = sorted(set(p) - {"player", "kind"})
        if extra:
            raise DeskError("bad_result", f"penalties[{i}].{extra[0]}: unknown field "
                                          "(fields: player, kind)")
        kind = p["kind"]
        if not isinstance(kind, str) or kind not in PENALTIES:
            raise DeskError("bad_result", f"penalties[{i}].kind: one of "
                                          f"{', '.join(sorted(PENALTIES))}")
        points, reason = PENALTIES[kind]
        out.append(Penalty(seat_of(p["player"], f"penalties[{i}].player"), points, reason,
                           "11"))
    return out


# ---------------------------------------------------------------- 2-seat Siamese tables


def score_siamese_table_game(result: dict[str, Any], names: Sequence[str], tags: Sequence[str],
                             revision: str, max_value: int) -> ScoredResult:
    """A Siamese table's game sheet (section 10): the players default to the table's,
    East first, and may be named by nametag; the revision is the tournament's."""
    aliases = {tag.lower(): name for tag, name in zip(tags, names, strict=True)}
    doc = dict(result)
    if isinstance(doc.get("players"), list):
        doc["players"] = [aliases.get(n.strip().lower(), n) if isinstance(n, str) else n
                          for n in doc["players"]]
    doc.setdefault("players", list(names))
    doc.setdefault("revision", revision)
    try:
        game = read_game(doc, max_value=max_value, aliases=aliases)
    except GameSheetError as err:
        raise DeskError("bad_result", err.message) from None
    if tuple(n.lower() for n in game.players) != tuple(n.lower() for n in names):
        raise DeskError("bad_result", "players: the players of this table, East first: "
                                      f"{', '.join(names)}")
    score = score_game(replace(game.facts, penalties=()), game.rules)
    outcome, hand = _siamese_words(game, names)
    return ScoredResult(score, list(game.facts.penalties), game.winner, outcome, hand)


def _siamese_words(game: KeptGame, names: Sequence[str]) -> tuple[str, str]:
    """How a Siamese game ended, and its Mah Jonggs, in words."""
    facts = game.facts
    hands = "; ".join(
        f"{names[m.seat]} rack {m.rack + 1}: {m.hand.id}"
        + ("" if m.hand.id.startswith("a ") else f" ({m.hand.value})")
        + (", jokerless" if m.jokerless else "") for m in facts.mah_jonggs)
    if game.winner is not None:
        return f"{names[game.winner]} won", hands
    if facts.mah_jonggs:
        who = sorted({names[m.seat] for m in facts.mah_jonggs}, key=list(names).index)
        return f"no win: Mah Jongg by {' and '.join(who)}", hands
    if facts.wall_game:
        return "wall game", hands
    dead = [names[s] for s, racks in enumerate(facts.dead) if len(racks) == facts.racks]
    if dead:
        return f"no win: every rack of {' and '.join(dead)} dead", hands
    return "no win", hands


# ---------------------------------------------------------------- fields


def _flag(result: dict[str, Any], key: str) -> bool:
    v = result.get(key, False)
    if not isinstance(v, bool):
        raise DeskError("bad_result", f"{key}: true or false")
    return v


def _names(result: dict[str, Any], key: str) -> list[Any]:
    v = result.get(key, [])
    if isinstance(v, str):
        return [v]
    if not isinstance(v, list):
        raise DeskError("bad_result", f"{key}: a list of players")
    return v
