"""The tournament desk: players, tables, rounds, score sheets and standings.

The model is pure but for one thing: the time of each command is passed in (the desk's web
pages and command line read the clock), so a tournament is its settings plus its list of
commands and can be rebuilt, audited and tested exactly. The one random thing is each
player's confirmation code, drawn with :mod:`secrets` unless the caller gives it. Every
command is checked in full before anything changes: a refused command leaves the tournament
as it was.

Scoring: 4-seat tables use the tournament sheet of rules section 11
(:mod:`twinrack.desk.tournament_scoring`), 2-seat Siamese tables the engine's Siamese score
of section 10 (:mod:`twinrack.engine.scoring`, through the score keeper).

Seats in a round: the movement gives each table its nametags. A nametag's seat is taken by
its registered player, by a substitute the director seated for that round, or by nobody:
a nametag no one registered (the room was not full) or the seat of a player who withdrew.
A table with an empty seat does not play that round: its players have a bye.
"""

from __future__ import annotations

import copy
import json
import re
import secrets
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from twinrack.desk.keeper import DEFAULT_MAX_VALUE, GameSheetError, KeptGame, read_game
from twinrack.desk.movement import Movement
from twinrack.desk.tournament_scoring import (
    PENALTIES,
    TournamentGame,
    score_tournament_game,
)
from twinrack.engine.scoring import Penalty, Score, score_game
from twinrack.errors import TwinRackError

GAMES_PER_ROUND = 4
OPPOSITE = {"E": "W", "W": "E", "S": "N", "N": "S"}
#: the most a tournament may set as its highest card value
MAX_VALUE_LIMIT = 1000
#: confirmation codes: letters and digits that cannot be misread for one another
CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY34679"
CODE_LENGTH = 5


class DeskError(TwinRackError):
    """A desk command that cannot be taken; nothing changed."""


def new_code() -> str:
    """A player's short confirmation code, printed on the nametag and the table card."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass
class Player:
    name: str
    nametag: str
    #: the code that signs a confirmation; on the nametag and the table card only
    code: str = ""
    #: the first round the player no longer plays (withdrawn), or None
    withdrawn_from: int | None = None


@dataclass
class Substitute:
    """Someone who takes a seat for one round; not ranked."""

    round: int
    nametag: str
    name: str
    code: str


@dataclass(frozen=True)
class Seat:
    """Who sits on a seat in a round. ``name`` is None for an empty seat."""

    letter: str
    tag: str
    name: str | None
    code: str = ""
    substitute: bool = False


@dataclass
class GameEntry:
    """One game on a table's score sheet."""

    number: int
    result: dict[str, Any]  # what was entered, kept for audit and export
    points: dict[str, int]  # nametag -> points for this game
    lines: list[dict[str, Any]]  # itemized: nametag, player, points, reason, penalty
    winner: str | None
    entered_at: float
    late: bool = False  # finished after time and not delayed: scores nothing
    confirmed_by: str | None = None
    #: how the game ended, in words ("Ann won", "wall game", "no win: Mah Jongg by Ann")
    outcome: str = ""
    #: the winning hand or the Mah Jonggs made, in words, for the score sheet
    hand: str = ""


@dataclass
class Round:
    number: int
    started_at: float | None = None
    closed_at: float | None = None
    delayed_tables: list[int] = field(default_factory=list)
    sheets: dict[int, list[GameEntry]] = field(default_factory=dict)  # table -> games

    @property
    def locked(self) -> bool:
        return self.closed_at is not None


@dataclass
class AuditEntry:
    at: float
    who: str
    action: str
    detail: str


@dataclass
class Tournament:
    name: str
    seats: int = 4  # 4: standard American tables; 2: Siamese tables
    rounds_planned: int = 4
    round_minutes: int = 50
    revision: str = "2024"
    moves: dict[str, int] = field(default_factory=dict)
    #: the highest card value of the card in use: a game's value is at most this
    max_value: int = DEFAULT_MAX_VALUE
    players: list[Player] = field(default_factory=list)
    substitutes: list[Substitute] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)

    # ---------------------------------------------------------------- set-up

    @property
    def movement(self) -> Movement:
        return Movement.standard(self.seats, self.moves or None)

    @property
    def tables(self) -> int:
        return max(1, -(-len(self.players) // self.seats))

    def player(self, who: str) -> Player:
        key = who.strip().lower()
        for p in self.players:
            if p.name.lower() == key or p.nametag.lower() == key:
                return p
        raise DeskError("unknown_player", f"no player {who!r} in this tournament")

    def add_player(self, name: str, at: float = 0.0, code: str | None = None) -> Player:
        name = name.strip()
        if not name:
            raise DeskError("bad_name", "a player needs a name")
        if any(p.name.lower() == name.lower() for p in self.players):
            raise DeskError("duplicate_player", f"{name!r} is already registered")
        if any(s.name.lower() == name.lower() for s in self.substitutes):
            raise DeskError("duplicate_player", f"{name!r} is already a substitute")
        if re.fullmatch(r"\d+[A-Za-z]", name):
            raise DeskError("bad_name", f"{name!r} looks like a nametag; give the player's name")
        if self.rounds:
            raise DeskError("started", "players cannot join once the first round has begun")
        n = len(self.players)
        table = n // self.seats + 1
        letter = self.movement.seats[n % self.seats]
        p = Player(name, f"{table}{letter}", code or new_code())
        self.players.append(p)
        self._log(at, "desk", "add player", f"{name} as {p.nametag}")
        return p

    def seating(self, round_no: int) -> dict[int, dict[str, str]]:
        """Table -> seat -> nametag for a round."""
        return self.movement.seating(self.tables, round_no)

    def seat_of(self, nametag: str, round_no: int) -> tuple[int, str]:
        for table, seats in self.seating(round_no).items():
            for letter, tag in seats.items():
                if tag == nametag:
                    return table, letter
        raise DeskError("unknown_player", f"{nametag} has no seat in round {round_no}")

    def occupant(self, round_no: int, tag: str) -> Seat:
        """Who sits on nametag ``tag``'s seat in a round."""
        letter = tag[-1]
        sub = next((x for x in self.substitutes if x.round == round_no and x.nametag == tag),
                   None)
        if sub is not None:
            return Seat(letter, tag, sub.name, sub.code, substitute=True)
        p = next((x for x in self.players if x.nametag == tag), None)
        if p is None or (p.withdrawn_from is not None and round_no >= p.withdrawn_from):
            return Seat(letter, tag, None)
        return Seat(letter, tag, p.name, p.code)

    def seated(self, round_no: int, table: int) -> list[Seat]:
        """The seats of a table in a round, E S W N (or E W)."""
        return [self.occupant(round_no, tag) for tag in self.seating(round_no)[table].values()]

    def plays(self, round_no: int, table: int) -> bool:
        """A table with an empty seat does not play: its players have a bye."""
        return all(s.name is not None for s in self.seated(round_no, table))

    def name_in(self, round_no: int, tag: str) -> str:
        """The name of whoever sits on ``tag``'s seat in a round (a substitute too)."""
        return self.occupant(round_no, tag).name or self.name_of(tag)

    def withdraw(self, who: str, at: float) -> Player:
        """The player plays no more from the next round that starts; their games stand."""
        p = self.player(who)
        if p.withdrawn_from is not None:
            raise DeskError("withdrawn", f"{p.name} has already withdrawn (from round "
                                         f"{p.withdrawn_from})")
        first = len(self.rounds) + 1
        if first > self.rounds_planned:
            raise DeskError("no_more_rounds", f"all {self.rounds_planned} rounds have started; "
                                              "there is nothing left to withdraw from")
        p.withdrawn_from = first
        self._log(at, "director", "withdraw", f"{p.name} ({p.nametag}) from round {first}")
        return p

    def substitute(self, nametag: str, name: str, round_no: int, at: float,
                   code: str | None = None) -> Substitute:
        """Seat a substitute on a nametag's seat for one round (an empty seat, a withdrawn
        player's, or a player absent that round). A substitute is not ranked, and the
        points of that seat in that round count for nobody."""
        tag = nametag.strip().upper()
        if not any(tag in seats.values() for seats in self.seating(1).values()):
            raise DeskError("unknown_seat", f"there is no seat {nametag!r} in this room "
                                            f"({self.tables} tables of {self.seats})")
        name = name.strip()
        if not name or re.fullmatch(r"\d+[A-Za-z]", name):
            raise DeskError("bad_name", "a substitute needs a name (not a nametag)")
        if any(p.name.lower() == name.lower() for p in self.players):
            raise DeskError("duplicate_player", f"{name!r} is a registered player; a "
                                                "substitute has a name of their own")
        if not 1 <= round_no <= self.rounds_planned:
            raise DeskError("unknown_round", f"there is no round {round_no} (1-"
                                             f"{self.rounds_planned})")
        if round_no < len(self.rounds) or (round_no == len(self.rounds)
                                           and self.rounds[-1].locked):
            raise DeskError("round_over", f"round {round_no} is over")
        table, _ = self.seat_of(tag, round_no)
        if round_no == len(self.rounds) and self.rounds[-1].sheets.get(table):
            raise DeskError("table_started", f"table {table} has entered games in round "
                                             f"{round_no}; its seats cannot change now")
        others = [x for x in self.substitutes if x.round == round_no and x.nametag != tag]
        if any(x.name.lower() == name.lower() for x in others):
            raise DeskError("duplicate_player", f"{name!r} already substitutes in round "
                                                f"{round_no}")
        self.substitutes = [x for x in self.substitutes
                            if not (x.round == round_no and x.nametag == tag)]
        sub = Substitute(round_no, tag, name, code or new_code())
        self.substitutes.append(sub)
        self._log(at, "director", "substitute", f"{name} on seat {tag} (table {table}) in "
                                                f"round {round_no}")
        return sub

    def byes(self, round_no: int) -> dict[int, list[str]]:
        """Tables that do not play a round -> the nametags of their empty seats."""
        out: dict[int, list[str]] = {}
        for table in range(1, self.tables + 1):
            empty = [s.tag for s in self.seated(round_no, table) if s.name is None]
            if empty:
                out[table] = empty
        return out

    def find_your_seat(self, round_no: int) -> list[dict[str, Any]]:
        """Where everyone sits in a round, in name order: registered players and the
        round's substitutes. A player whose table does not play has a bye."""
        rows: list[dict[str, Any]] = []
        for table in range(1, self.tables + 1):
            playing = self.plays(round_no, table)
            for s in self.seated(round_no, table):
                if s.name is None:
                    continue
                note = "" if playing else "bye"
                if s.substitute:
                    note = f"substitute for {s.tag}" + ("" if playing else "; bye")
                rows.append({"name": s.name, "nametag": s.tag, "table": table,
                             "seat": s.letter, "note": note})
        seated = {r["name"] for r in rows}
        for p in self.players:
            if p.name not in seated:
                away = ("withdrawn" if p.withdrawn_from is not None
                        and round_no >= p.withdrawn_from else "replaced by a substitute")
                rows.append({"name": p.name, "nametag": p.nametag, "table": None,
                             "seat": None, "note": away})
        return sorted(rows, key=lambda r: (r["name"].casefold(), r["name"]))

    # ---------------------------------------------------------------- rounds

    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def start_round(self, at: float) -> Round:
        if len(self.players) < self.seats:
            raise DeskError("tables_not_full",
                            f"{len(self.players)} players do not fill a table of {self.seats}: "
                            f"{self.seats - len(self.players)} more needed")
        cur = self.current()
        if cur is not None and not cur.locked:
            raise DeskError("round_open", f"round {cur.number} is still open: close it first")
        if len(self.rounds) >= self.rounds_planned:
            raise DeskError("no_more_rounds", f"all {self.rounds_planned} rounds are played")
        number = len(self.rounds) + 1
        if not any(self.plays(number, t) for t in range(1, self.tables + 1)):
            raise DeskError("no_table_plays", f"no table can play round {number}: every table "
                                              "has an empty seat; seat substitutes first")
        r = Round(number, started_at=at, sheets={t: [] for t in range(1, self.tables + 1)})
        self.rounds.append(r)
        self._log(at, "director", "start round", f"round {r.number}")
        return r

    def round_problems(self, round_no: int | None = None) -> list[str]:
        """What is missing before a round is locked: tables that play but entered no game,
        and wins not yet confirmed."""
        r = self.current() if round_no is None else self.round(round_no)
        if r is None:
            return []
        out: list[str] = []
        for table in range(1, self.tables + 1):
            sheet = r.sheets.get(table, [])
            if not sheet and self.plays(r.number, table):
                out.append(f"table {table} entered no game")
            for g in sheet:
                signer = self.signer_of(r.number, table, g)
                if signer is not None and g.confirmed_by is None:
                    out.append(f"table {table} game {g.number}: the win of "
                               f"{self.name_in(r.number, g.winner or '')} is not confirmed "
                               f"({signer.name} signs)")
        return out

    def close_round(self, at: float, force: bool = False) -> Round:
        """Lock the open round. Refused while games are unconfirmed or a table entered
        nothing (see :meth:`round_problems`), unless ``force``."""
        r = self._open_round()
        problems = self.round_problems(r.number)
        if problems and not force:
            raise DeskError("round_incomplete", f"round {r.number} is not complete: "
                                                + "; ".join(problems))
        r.closed_at = at
        self._log(at, "director", "close round", f"round {r.number} locked"
                  + (f" ({len(problems)} open point(s) left: {'; '.join(problems)})"
                     if problems else ""))
        return r

    def delay_table(self, table: int, at: float) -> list[GameEntry]:
        """A ruling delayed this table: its games count even when finished after time.

        Games already entered after time are scored again; they are returned.
        """
        r = self._open_round()
        self.check_table(table)
        if table not in r.delayed_tables:
            r.delayed_tables.append(table)
        restored: list[GameEntry] = []
        sheet = r.sheets.get(table, [])
        for i, old in enumerate(sheet):
            if old.late:
                new = self._score(r.number, table, old.number, old.result, old.entered_at)
                new.confirmed_by = old.confirmed_by
                sheet[i] = new
                restored.append(new)
        self._log(at, "director", "delay", f"table {table} in round {r.number} may finish late"
                  + (f"; game(s) {', '.join(str(g.number) for g in restored)} scored again"
                     if restored else ""))
        return restored

    def time_left(self, at: float) -> float:
        """Seconds left in the open round (negative once time is up)."""
        r = self._open_round()
        assert r.started_at is not None
        return r.started_at + self.round_minutes * 60 - at

    def _open_round(self) -> Round:
        r = self.current()
        if r is None:
            raise DeskError("no_round", "no round has been started")
        if r.locked:
            raise DeskError("round_locked", f"round {r.number} is closed and locked; only the "
                                            "director can correct it")
        return r

    def check_table(self, table: int) -> None:
        if not 1 <= table <= self.tables:
            raise DeskError("unknown_table", f"there is no table {table} (1-{self.tables})")

    def round(self, number: int) -> Round:
        """A started round by its number."""
        if not 1 <= number <= len(self.rounds):
            raise DeskError("unknown_round", f"round {number} has not been played")
        return self.rounds[number - 1]

    # ---------------------------------------------------------------- games

    def enter_game(self, table: int, result: dict[str, Any], at: float,
                   who: str = "table", finished_in_time: bool | None = None) -> GameEntry:
        """Record the next game of a table in the open round.

        A game finished after the round's time scores nothing (its conduct penalties still
        count) unless the director delayed the table. ``at`` is taken as the time the game
        finished; ``finished_in_time`` overrides the clock when sheets are entered later.
        """
        r = self._open_round()
        self.check_table(table)
        sheet = r.sheets.setdefault(table, [])
        if len(sheet) >= GAMES_PER_ROUND:
            raise DeskError("round_full", f"table {table} has already recorded "
                                          f"{GAMES_PER_ROUND} games this round")
        entry = self._score(r.number, table, len(sheet) + 1, result, at)
        assert r.started_at is not None
        after_time = (at > r.started_at + self.round_minutes * 60 if finished_in_time is None
                      else not finished_in_time)
        if after_time and table not in r.delayed_tables:
            _make_late(entry)
        sheet.append(entry)
        self._log(at, who, "enter game", f"round {r.number} table {table} game "
                                         f"{entry.number}: {self._points_text(r.number, entry)}"
                                         + (" (after time: no points)" if entry.late else ""))
        return entry

    def signer_of(self, round_no: int, table: int, entry: GameEntry) -> Seat | None:
        """Who signs a game: the player opposite the winner; None when there is no win."""
        if entry.winner is None or entry.late:
            return None
        return self.occupant(round_no, self._opposite(round_no, table, entry.winner))

    def confirm(self, table: int, game: int, by: str, at: float, *, code: str) -> GameEntry:
        """The winner's opponent (the player opposite) signs the win with their own code."""
        r = self._open_round()
        entry = self._entry(r, table, game)
        signer = self.signer_of(r.number, table, entry)
        if signer is None:
            raise DeskError("nothing_to_confirm", "only a win in time is confirmed; this game "
                                                  "has none")
        seats = self.seated(r.number, table)
        who = self._seat(by, seats, "signed by", r.number)
        if seats[who].tag != signer.tag:
            raise DeskError("wrong_confirmer",
                            f"the win of {self.name_in(r.number, entry.winner or '')} is "
                            f"confirmed by the player opposite, {signer.name} ({signer.tag}), "
                            f"not by {seats[who].name}")
        if entry.confirmed_by is not None:
            raise DeskError("already_confirmed", f"table {table} game {game} is already "
                                                 "confirmed by "
                                                 f"{self.name_in(r.number, entry.confirmed_by)}")
        given = code.strip().upper() if isinstance(code, str) else ""
        if not given or not secrets.compare_digest(given.encode(), signer.code.encode()):
            raise DeskError("wrong_code", f"code: that is not {signer.name}'s code (it is "
                                          f"printed on {signer.name}'s nametag and on the "
                                          "table card)")
        entry.confirmed_by = signer.tag
        self._log(at, signer.name or signer.tag, "confirm",
                  f"round {r.number} table {table} game {game}")
        return entry

    def correct_game(self, round_no: int, table: int, game: int, result: dict[str, Any],
                     at: float, reason: str, late: bool | None = None) -> GameEntry:
        """The director's correction of a recorded game, open or locked round alike.

        The old and the new result go in the audit trail. The game stays late (after time)
        or in time as it was unless ``late`` says otherwise; its confirmation stands only if
        the points did not change.
        """
        r = self.round(round_no)
        old = self._entry(r, table, game)
        if not isinstance(reason, str) or not reason.strip():
            raise DeskError("reason_needed", "a correction needs a reason for the audit trail")
        new = self._score(round_no, table, game, result, old.entered_at)
        if old.late if late is None else late:
            _make_late(new)
        new.confirmed_by = (old.confirmed_by if new.points == old.points
                            and new.winner == old.winner and not new.late else None)
        r.sheets[table][game - 1] = new
        self._log(at, "director", "correct",
                  f"round {round_no} table {table} game {game}: "
                  f"{self._points_text(round_no, old)}{' (late)' if old.late else ''} -> "
                  f"{self._points_text(round_no, new)}{' (late)' if new.late else ''}; was "
                  f"{json.dumps(old.result, sort_keys=True)}; reason: {reason.strip()}")
        return new

    def _entry(self, r: Round, table: int, game: int) -> GameEntry:
        self.check_table(table)
        sheet = r.sheets.get(table, [])
        if not 1 <= game <= len(sheet):
            raise DeskError("unknown_game", f"table {table} has no game {game} in round "
                                            f"{r.number}")
        return sheet[game - 1]

    def _opposite(self, round_no: int, table: int, nametag: str) -> str:
        seats = self.seating(round_no)[table]
        letter = next(k for k, v in seats.items() if v == nametag)
        other = OPPOSITE[letter] if self.seats == 4 else ("W" if letter == "E" else "E")
        return seats[other]

    def name_of(self, nametag: str) -> str:
        """The registered player's name for a nametag."""
        return next((p.name for p in self.players if p.nametag == nametag), nametag)

    def _points_text(self, round_no: int, entry: GameEntry) -> str:
        return ", ".join(f"{self.name_in(round_no, tag)} {pts:+d}" if pts
                         else f"{self.name_in(round_no, tag)} 0"
                         for tag, pts in entry.points.items())

    def _score(self, round_no: int, table: int, number: int, result: dict[str, Any],
               at: float) -> GameEntry:
        seats = self.seated(round_no, table)
        empty = [s.tag for s in seats if s.name is None]
        if empty:
            raise DeskError("table_bye", f"table {table} does not play in round {round_no}: "
                                         f"seat {', '.join(empty)} is empty (a bye); the "
                                         "director can seat a substitute")
        if not isinstance(result, dict):
            raise DeskError("bad_result", "a game result is an object of fields")
        if self.seats == 4:
            score, penalties, winner, outcome, hand = self._score_four(result, seats, round_no)
        else:
            score, penalties, winner, outcome, hand = self._score_two(result, seats)
        lines = [{"nametag": seats[x.seat].tag, "player": seats[x.seat].name,
                  "points": x.points, "reason": x.reason, "penalty": False}
                 for x in score.lines]
        lines += [{"nametag": seats[p.seat].tag, "player": seats[p.seat].name,
                   "points": p.points, "reason": p.reason, "penalty": True} for p in penalties]
        entry = GameEntry(number, copy.deepcopy(result), {s.tag: 0 for s in seats}, lines,
                          winner, at, outcome=outcome, hand=hand)
        _total(entry)
        return entry

    def _seat(self, who: Any, seats: list[Seat], field_name: str, round_no: int) -> int:
        """The index in ``seats`` of a player named by name or nametag, any case."""
        if isinstance(who, list) and field_name == "winner":
            raise DeskError("two_winners", "winner: a game has one winner, not "
                                           f"{len(who)}")
        if not isinstance(who, str):
            raise DeskError("bad_result", f"{field_name}: a player's name or nametag")
        key = who.strip().lower()
        for i, s in enumerate(seats):
            if s.name is not None and key in (s.name.lower(), s.tag.lower()):
                return i
        known = ({p.name.lower() for p in self.players} | {p.nametag.lower() for p in
                                                             self.players}
                 | {x.name.lower() for x in self.substitutes if x.round == round_no})
        if key not in known:
            raise DeskError("unknown_player", f"{field_name}: no player {who!r} in this "
                                              "tournament")
        at_table = ", ".join(f"{s.name} ({s.tag})" for s in seats)
        raise DeskError("not_at_table", f"{field_name}: {who.strip()} does not sit at this "
                                        f"table this round (here: {at_table})")

    def _score_four(self, result: dict[str, Any], seats: list[Seat], round_no: int
                    ) -> tuple[Score, list[Penalty], str | None, str, str]:
        allowed = {"winner", "value", "self_picked", "singles_and_pairs", "jokerless",
                   "wall_game", "discarder", "winner_exposures", "quint_two_exposures",
                   "misnamed", "dead", "in_error", "wall_destroyed_by", "exposed", "penalties"}
        if "winners" in result:
            raise DeskError("two_winners", "winners: a game has one winner: give `winner` once")
        for key in result:
            if key not in allowed:
                raise DeskError("bad_result", f"unknown field {key!r} (fields: "
                                              f"{', '.join(sorted(allowed))})")

        def seat(who: Any, name: str) -> int:
            return self._seat(who, seats, name, round_no)

        winner = result.get("winner")
        wall = _flag(result, "wall_game")
        in_error = result.get("in_error")
        ends = [k for k, on in (("winner", winner is not None), ("wall_game", wall),
                                ("in_error", in_error is not None)) if on]
        if not ends:
            raise DeskError("bad_result", "a game needs a winner, wall_game: true or in_error")
        if len(ends) > 1:
            raise DeskError("bad_result", f"{' and '.join(ends)}: a game ends one way only")
        w = seat(winner, "winner") if winner is not None else None
        value = result.get("value")
        if w is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or not 1 <= value <= self.max_value):
            raise DeskError("bad_value", "value: the card value of the winning hand, a whole "
                                         f"number from 1 to {self.max_value} (got "
                                         f"{json.dumps(value)})")
        if w is None:
            for key in ("value", "self_picked", "singles_and_pairs", "jokerless", "discarder",
                        "winner_exposures", "quint_two_exposures", "misnamed"):
                if key in result:
                    raise DeskError("bad_result", f"{key}: only a game with a winner has it")
        discarder = result.get("discarder")
        d = seat(discarder, "discarder") if discarder is not None else None
        if d is not None and d == w:
            raise DeskError("bad_result", "discarder: the winner cannot throw its own tile")
        if d is not None and _flag(result, "self_picked"):
            raise DeskError("bad_result", "discarder: a self-picked Mah Jongg has no discarder")
        if _flag(result, "misnamed") and d is None:
            raise DeskError("bad_result", "misnamed: name the discarder who mis-named the tile")
        exposures = result.get("winner_exposures", 0)
        if not isinstance(exposures, int) or isinstance(exposures, bool) or not 0 <= exposures <= 4:
            raise DeskError("bad_result", "winner_exposures: a number from 0 to 4")
        dead = tuple(seat(x, "dead") for x in _names(result, "dead"))
        if w is not None and w in dead:
            raise DeskError("bad_result", "dead: the winner's hand is not dead")
        e = seat(in_error, "in_error") if in_error is not None else None
        destroyed = tuple(seat(x, "wall_destroyed_by") for x in _names(result,
                                                                        "wall_destroyed_by"))
        exposed = tuple(seat(x, "exposed") for x in _names(result, "exposed"))
        if e is None and (destroyed or exposed):
            key = "wall_destroyed_by" if destroyed else "exposed"
            raise DeskError("bad_result", f"{key}: only after a Mah Jongg in error (in_error)")
        if e is not None:
            if e in dead or e in destroyed or e in exposed:
                raise DeskError("bad_result", "in_error: the mis-caller is listed again in "
                                              "dead, wall_destroyed_by or exposed")
            intact = [s for s in range(4)
                      if s != e and s not in dead and s not in destroyed and s not in exposed]
            if not destroyed and len(intact) >= 2:
                raise DeskError("game_continues",
                                "in_error: two or more hands are intact, so the game goes on; "
                                "enter its result when it ends, with the mis-caller as dead")
        game = TournamentGame(
            players=4, winner=w, value=value if w is not None and isinstance(value, int) else 0,
            self_picked=_flag(result, "self_picked"),
            singles_and_pairs=_flag(result, "singles_and_pairs"),
            jokerless=_flag(result, "jokerless"), wall_game=wall, discarder=d,
            winner_exposures=exposures, quint_two_exposures=_flag(result, "quint_two_exposures"),
            dead=dead, misnamed=_flag(result, "misnamed"), in_error=e,
            wall_destroyed_by=destroyed, exposed=exposed)
        penalties = self._penalties(result, seats, round_no)
        if w is not None:
            outcome = f"{seats[w].name} won"
            flags = [f for f, on in (("self-picked", game.self_picked),
                                     ("Singles & Pairs", game.singles_and_pairs),
                                     ("jokerless", game.jokerless and not game.singles_and_pairs))
                     if on]
            hand = f"card value {game.value}" + (f", {', '.join(flags)}" if flags else "")
        elif e is not None:
            outcome, hand = f"Mah Jongg in error by {seats[e].name}", ""
        else:
            outcome, hand = "wall game", ""
        return (score_tournament_game(game), penalties,
                (seats[w].tag if w is not None else None), outcome, hand)

    def _score_two(self, result: dict[str, Any], seats: list[Seat]
                   ) -> tuple[Score, list[Penalty], str | None, str, str]:
        names = [s.name or s.tag for s in seats]
        aliases = {s.tag.lower(): s.name or s.tag for s in seats}
        doc = dict(result)
        if isinstance(doc.get("players"), list):
            doc["players"] = [aliases.get(n.strip().lower(), n) if isinstance(n, str) else n
                              for n in doc["players"]]
        doc.setdefault("players", names)
        doc.setdefault("revision", self.revision)
        try:
            game = read_game(doc, max_value=self.max_value, aliases=aliases)
        except GameSheetError as err:
            raise DeskError("bad_result", err.message) from None
        if tuple(n.lower() for n in game.players) != tuple(n.lower() for n in names):
            raise DeskError("bad_result", "players: the players of this table, East first: "
                                          f"{', '.join(names)}")
        score = score_game(replace(game.facts, penalties=()), game.rules)
        outcome, hand = _siamese_outcome(game, names)
        return (score, list(game.facts.penalties),
                seats[game.winner].tag if game.winner is not None else None, outcome, hand)

    def _penalties(self, result: dict[str, Any], seats: list[Seat],
                   round_no: int) -> list[Penalty]:
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
            out.append(Penalty(self._seat(p["player"], seats, f"penalties[{i}].player",
                                          round_no), points, reason, "11"))
        return out

    # ---------------------------------------------------------------- standings

    def counts_for(self, round_no: int, tag: str) -> bool:
        """Whether a seat's points in a round count for its registered player (not when a
        substitute sat there)."""
        s = self.occupant(round_no, tag)
        return s.name is not None and not s.substitute

    def standings(self) -> list[dict[str, Any]]:
        """Players ranked by total points, then games won, then head-to-head points."""
        total = {p.nametag: 0 for p in self.players}
        wins = {p.nametag: 0 for p in self.players}
        games = {p.nametag: 0 for p in self.players}
        # head[a][b]: points a scored in rounds where a and b shared a table
        head: dict[str, dict[str, int]] = {p.nametag: {} for p in self.players}
        for r in self.rounds:
            seating = self.seating(r.number)
            for table, sheet in r.sheets.items():
                at_table = [tag for tag in seating[table].values()
                            if self.counts_for(r.number, tag)]
                for entry in sheet:
                    for tag, pts in entry.points.items():
                        if tag not in at_table:
                            continue
                        total[tag] += pts
                        games[tag] += 1
                        for other in at_table:
                            if other != tag:
                                head[tag][other] = head[tag].get(other, 0) + pts
                    if entry.winner in at_table and not entry.late:
                        wins[entry.winner] += 1

        def h2h(tag: str) -> int:
            rivals = [t for t in total if t != tag and total[t] == total[tag]
                      and wins[t] == wins[tag]]
            return sum(head[tag].get(t, 0) - head[t].get(tag, 0) for t in rivals)

        def key(p: Player) -> tuple[int, int, int]:
            return (-total[p.nametag], -wins[p.nametag], -h2h(p.nametag))

        ranked = sorted(self.players, key=lambda p: (key(p), p.name.lower()))
        out: list[dict[str, Any]] = []
        rank = 0
        for i, p in enumerate(ranked, start=1):
            if i == 1 or key(p) != key(ranked[i - 2]):
                rank = i  # players still tied after every tie-break share a rank
            out.append({"rank": rank, "name": p.name, "nametag": p.nametag,
                        "points": total[p.nametag], "wins": wins[p.nametag],
                        "games": games[p.nametag], "head_to_head": h2h(p.nametag)})
        return out

    # ---------------------------------------------------------------- persistence

    def _log(self, at: float, who: str, action: str, detail: str) -> None:
        self.audit.append(AuditEntry(at, who, action, detail))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, doc: Any) -> Tournament:
        """A tournament from its file; anything that is not one is refused with one line
        that names the first bad field (see :mod:`twinrack.desk.checkfile`)."""
        from twinrack.desk.checkfile import tournament_from_json
        return tournament_from_json(doc)


def _siamese_outcome(game: KeptGame, names: list[str]) -> tuple[str, str]:
    """How a Siamese game ended, and its Mah Jonggs, in words."""
    facts = game.facts
    hands = "; ".join(
        f"{names[m.seat]} rack {m.rack + 1}: {m.hand.id}"
        + ("" if m.hand.id.startswith("a ") else f" ({m.hand.value})")
        + (", jokerless" if m.jokerless else "") for m in facts.mah_jonggs)
    if game.winner is not None:
        return f"{names[game.winner]} won", hands
    if facts.mah_jonggs:
        who = sorted({names[m.seat] for m in facts.mah_jonggs}, key=names.index)
        return f"no win: Mah Jongg by {' and '.join(who)}", hands
    if facts.wall_game:
        return "wall game", hands
    dead = [names[s] for s, racks in enumerate(facts.dead) if len(racks) == facts.racks]
    if dead:
        return f"no win: every rack of {' and '.join(dead)} dead", hands
    return "no win", hands


def _total(entry: GameEntry) -> None:
    """A game's points per player are the sum of its lines."""
    entry.points = {tag: 0 for tag in entry.points}
    for line in entry.lines:
        entry.points[line["nametag"]] += line["points"]


def _make_late(entry: GameEntry) -> None:
    """A game finished after time scores nothing; conduct penalties still count."""
    entry.late = True
    entry.lines = [line if line.get("penalty") else
                   dict(line, points=0, reason=line["reason"] + " (after time: no points)")
                   for line in entry.lines]
    _total(entry)


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


def atomic(t: Tournament, command: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a command on a copy and keep it only if it succeeds (all or nothing)."""
    trial = copy.deepcopy(t)
    result = command(trial, *args, **kwargs)
    t.__dict__.update(trial.__dict__)
    return result
