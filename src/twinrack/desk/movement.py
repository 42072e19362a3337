"""Where every player sits in every round of a tournament (rules section 11).

A nametag is the player's starting table and seat letter ("7W"). After each round each seat
letter moves by a fixed number of tables, wrapping around the room; East never moves.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

from twinrack.errors import TwinRackError

SEATS_4 = ("E", "S", "W", "N")
SEATS_2 = ("E", "W")

#: standard 4-seat movement: East stays, West up two, North up one, South down one
MOVES_4: dict[str, int] = {"E": 0, "S": -1, "W": 2, "N": 1}
#: Siamese 2-seat movement (a Decision, configurable): East stays, West up one
MOVES_2: dict[str, int] = {"E": 0, "W": 1}


class MovementError(TwinRackError):
    pass


@dataclass(frozen=True)
class Movement:
    """A movement rule: the seat letters of a table and how far each moves per round."""

    seats: tuple[str, ...]
    moves: Mapping[str, int]

    @classmethod
    def standard(cls, seats: int, moves: Mapping[str, int] | None = None) -> Movement:
        letters: tuple[str, ...]
        if seats == 4:
            letters, default = SEATS_4, MOVES_4
        elif seats == 2:
            letters, default = SEATS_2, MOVES_2
        else:
            raise MovementError("bad_seats", "a table has 4 seats (standard) or 2 (Siamese)")
        chosen = dict(default)
        if moves:
            for letter, step in moves.items():
                if not isinstance(letter, str) or letter.upper() not in letters:
                    raise MovementError("bad_movement",
                                        f"seat {letter!r} is not one of {' '.join(letters)}")
                if not isinstance(step, int) or isinstance(step, bool):
                    raise MovementError("bad_movement", f"seat {letter}: the move is a whole "
                                                        f"number of tables, got {step!r}")
                chosen[letter.upper()] = step
        if chosen.get("E", 0) != 0:
            raise MovementError("bad_movement", "East stays at its table (its move is 0)")
        return cls(letters, chosen)

    def table_of(self, nametag: str, round_no: int, tables: int) -> int:
        """The table (1-based) where ``nametag`` sits in ``round_no`` (1-based)."""
        start, letter = parse_nametag(nametag, self.seats)
        return (start - 1 + self.moves[letter] * (round_no - 1)) % tables + 1

    def seating(self, tables: int, round_no: int) -> dict[int, dict[str, str]]:
        """Table -> seat letter -> nametag, for one round."""
        if tables < 1:
            raise MovementError("bad_tables", "a tournament needs at least one table")
        at: dict[tuple[int, str], str] = {}
        for start in range(1, tables + 1):
            for letter in self.seats:
                tag = f"{start}{letter}"
                at[self.table_of(tag, round_no, tables), letter] = tag
        # seats always in table order (E S W N, or E W): every sheet and card reads the same
        return {t: {letter: at[t, letter] for letter in self.seats}
                for t in range(1, tables + 1)}

    def plan(self, tables: int, rounds: int) -> list[dict[int, dict[str, str]]]:
        if rounds < 1:
            raise MovementError("bad_rounds", "a tournament needs at least one round")
        return [self.seating(tables, r) for r in range(1, rounds + 1)]


def parse_moves(specs: list[str] | None) -> dict[str, int]:
    """``["W=2", "N=-1"]`` (the command line's ``--move``) as a movement override."""
    out: dict[str, int] = {}
    for spec in specs or []:
        letter, sep, step = spec.partition("=")
        try:
            out[letter.strip().upper()] = int(step)
        except ValueError:
            sep = ""
        if not sep or not letter.strip():
            raise MovementError("bad_movement", f"--move {spec!r}: a seat letter and a number "
                                                "of tables, like W=2 or S=-1")
    return out


def parse_nametag(nametag: str, seats: tuple[str, ...] = SEATS_4) -> tuple[int, str]:
    tag = nametag.strip().upper()
    number = tag[:-1]
    if (len(tag) < 2 or not number.isascii() or not number.isdigit() or int(number) < 1
            or tag[-1] not in seats):
        raise MovementError("bad_nametag", f"nametag {nametag!r} is not a table number and a "
                                           f"seat letter ({'/'.join(seats)}), like 3{seats[-1]}")
    return int(tag[:-1]), tag[-1]


def movement_json(seats: int, tables: int, rounds: int,
                  moves: Mapping[str, int] | None = None) -> dict[str, object]:
    """The seating of every round by nametag, as ``tournament movement --json`` prints it."""
    movement = Movement.standard(seats, moves)
    return {"rounds": [
        {"round": r, "tables": {str(t): {letter: seating[t][letter] for letter in movement.seats}
                                for t in sorted(seating)}}
        for r, seating in enumerate(movement.plan(tables, rounds), start=1)]}


@dataclass(frozen=True)
class PlanCheck:
    """What a movement plan repeats: whole rounds, and players who meet again."""

    tables: int
    rounds: int
    #: (round, earlier round with the very same tables)
    repeated_rounds: tuple[tuple[int, int], ...]
    #: seatings of two players at one table after they already met
    repeated_meetings: int
    #: pairs of nametags that meet more than once, with the rounds they meet in (most first)
    pairs: tuple[tuple[str, str, tuple[int, ...]], ...]

    @property
    def ok(self) -> bool:
        return not self.repeated_rounds and not self.repeated_meetings

    def summary(self) -> str:
        """One line in words."""
        if self.ok:
            return "no two players meet twice and no round repeats another"
        parts = [f"round {r} repeats round {e}" for r, e in self.repeated_rounds]
        if self.repeated_meetings:
            parts.append(f"{self.repeated_meetings} seatings put two players together again")
        if self.pairs:
            a, b, rs = self.pairs[0]
            parts.append(f"for example {a} and {b} meet in rounds "
                         f"{', '.join(map(str, rs[:-1]))} and {rs[-1]}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {"repeated_rounds": [list(x) for x in self.repeated_rounds],
                "repeated_meetings": self.repeated_meetings,
                "pairs": [{"players": [a, b], "rounds": list(rs)} for a, b, rs in self.pairs]}


def plan_check(mv: Movement, tables: int, rounds: int, examples: int = 5) -> PlanCheck:
    """Seat every round and count what repeats (the plain way: every table of every round)."""
    plan = mv.plan(tables, rounds)
    seen: dict[frozenset[frozenset[str]], int] = {}
    repeated: list[tuple[int, int]] = []
    met: dict[tuple[str, str], list[int]] = {}
    order = {f"{t}{x}": (t, mv.seats.index(x)) for t in range(1, tables + 1) for x in mv.seats}
    for r, seating in enumerate(plan, start=1):
        grouping = frozenset(frozenset(s.values()) for s in seating.values())
        if grouping in seen:
            repeated.append((r, seen[grouping]))
        else:
            seen[grouping] = r
        for seats in seating.values():
            tags = sorted(seats.values(), key=order.__getitem__)
            for i, a in enumerate(tags):
                for b in tags[i + 1:]:
                    met.setdefault((a, b), []).append(r)
    again = sorted(((a, b, tuple(rs)) for (a, b), rs in met.items() if len(rs) > 1),
                   key=lambda x: (-len(x[2]), order[x[0]], order[x[1]]))
    return PlanCheck(tables, rounds, tuple(repeated), sum(len(rs) - 1 for rs in met.values()),
                     tuple(again[:examples]))


def _cost(seats: tuple[str, ...], moves: Mapping[str, int], tables: int,
          rounds: int) -> tuple[int, int]:
    """(repeated rounds, repeated meetings) of a movement, worked out without seating it.

    Two letters whose moves differ by d meet again after ord(d) rounds, the order of d
    modulo the number of tables; a whole round comes back after the order of all moves.
    """
    def order(d: int) -> int:
        return tables // math.gcd(d % tables, tables)

    extra = 0
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            extra += tables * (rounds - min(rounds, order(moves[a] - moves[b])))
    cycle = tables // math.gcd(tables, *(m % tables for m in moves.values()))
    return rounds - min(rounds, cycle), extra


def best_moves(seats: int, tables: int, rounds: int,
               moves: Mapping[str, int] | None = None) -> dict[str, int] | None:
    """The movement (East stays, each other letter a fixed step) that repeats least; among
    equals the one closest to the standard. None when none repeats less than ``moves``."""
    movement = Movement.standard(seats, moves)
    now = _cost(movement.seats, movement.moves, tables, rounds)
    standard = Movement.standard(seats).moves
    letters = [x for x in movement.seats if x != "E"]
    half = tables // 2
    steps = [s for s in range(-half, tables - half) if abs(s) <= 12]
    best: tuple[tuple[int, ...], dict[str, int]] | None = None
    for combo in itertools.product(steps, repeat=len(letters)):
        candidate = {"E": 0, **dict(zip(letters, combo, strict=True))}
        cost = _cost(movement.seats, candidate, tables, rounds)
        changed = sum(1 for x in letters if candidate[x] % tables != standard[x] % tables)
        key = (*cost, changed, sum(abs(s) for s in combo))
        if best is None or key < best[0]:
            best = (key, candidate)
    assert best is not None
    if best[0][:2] >= now:
        return None
    return {x: best[1][x] for x in movement.seats}
