"""The tournament desk: players, tables, rounds, score sheets and standings.

The model is pure but for one thing: the time of each command is passed in (the desk's web
pages and command line read the clock), so a tournament is its settings plus its list of
commands and can be rebuilt, audited and tested exactly. The one random thing is each
player's confirmation code, drawn with :mod:`secrets` unless the caller gives it. Every
command is checked in full before anything changes: a refused command leaves the tournament
as it was.

Scoring: 4-seat tables use the tournament sheet of rules section 11
(:mod:`twinrack.engine.american`), 2-seat Siamese tables the engine's Siamese score
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
from dataclasses import asdict, dataclass, field
from typing import Any

from twinrack.desk.keeper import DEFAULT_MAX_VALUE
from twinrack.desk.movement import Movement
from twinrack.desk.results import DeskError as DeskError  # raised by the model too
from twinrack.desk.results import (
    SeatOf,
    score_four_seat_game,
    score_siamese_table_game,
)

GAMES_PER_ROUND = 4
OPPOSITE = {"E": "W", "W": "E", "S": "N", "N": "S"}
#: the most a tournament may set as its highest card value
MAX_VALUE_LIMIT = 1000
#: confirmation codes: letters and digits that cannot be misread for one another
CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY34679"
CODE_LENGTH = 5


def new_code() -> str:
    """A player's short confirmation code, printed on the nametag and the table card."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass
class Entrant:
    """A registered player of the tournament (a player at a game table is the engine's)."""

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
class Occupant:
    """Who sits on a seat of a table in a round: the registered player, a substitute or
    nobody (``name`` is None for an empty seat)."""

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
    players: list[Entrant] = field(default_factory=list)
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

    def give_missing_codes(self) -> None:
        """A file from before confirmation codes: every player without one gets one (the
        next time the tournament changes)."""
        for p in self.players:
            if not p.code:
                p.code = new_code()

    def player(self, who: str) -> Entrant:
        key = who.strip().lower()
        for p in self.players:
            if p.name.lower() == key or p.nametag.lower() == key:
                return p
        raise DeskError("unknown_player", f"no player {who!r} in this tournament")

    def add_player(self, name: str, at: float = 0.0, code: str | None = None) -> Entrant:
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
        p = Entrant(name, f"{table}{letter}", code or new_code())
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

    def occupant(self, round_no: int, tag: str) -> Occupant:
        """Who sits on nametag ``tag``'s seat in a round."""
        letter = tag[-1]
        sub = next((x for x in self.substitutes if x.round == round_no and x.nametag == tag),
                   None)
        if sub is not None:
            return Occupant(letter, tag, sub.name, sub.code, substitute=True)
        p = next((x for x in self.players if x.nametag == tag), None)
        if p is None or (p.withdrawn_from is not None and round_no >= p.withdrawn_from):
            return Occupant(letter, tag, None)
        return Occupant(letter, tag, p.name, p.code)

    def seated(self, round_no: int, table: int) -> list[Occupant]:
        """The seats of a table in a round, E S W N (or E W)."""
        return [self.occupant(round_no, tag) for tag in self.seating(round_no)[table].values()]

    def plays(self, round_no: int, table: int) -> bool:
        """A table with an empty seat does not play: its players have a bye."""
        return all(s.name is not None for s in self.seated(round_no, table))

    def name_in(self, round_no: int, tag: str) -> str:
        """The name of whoever sits on ``tag``'s seat in a round (a substitute too)."""
        return self.occupant(round_no, tag).name or self.name_of(tag)

    def withdraw(self, who: str, at: float) -> Entrant:
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
        latest = self.current()
        if latest is not None and not latest.locked:
            raise DeskError("round_open", f"round {latest.number} is still open: close it first")
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

    def signer_of(self, round_no: int, table: int, entry: GameEntry) -> Occupant | None:
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
        names = [s.name or s.tag for s in seats]
        if self.seats == 4:
            scored = score_four_seat_game(result, names, self._seat_finder(seats, round_no),
                                          self.max_value)
        else:
            scored = score_siamese_table_game(result, names, [s.tag for s in seats],
                                              self.revision, self.max_value)
        lines = [{"nametag": seats[x.seat].tag, "player": seats[x.seat].name,
                  "points": x.points, "reason": x.reason, "penalty": False}
                 for x in scored.score.lines]
        lines += [{"nametag": seats[p.seat].tag, "player": seats[p.seat].name,
                   "points": p.points, "reason": p.reason, "penalty": True}
                  for p in scored.penalties]
        winner = seats[scored.winner].tag if scored.winner is not None else None
        entry = GameEntry(number, copy.deepcopy(result), {s.tag: 0 for s in seats}, lines,
                          winner, at, outcome=scored.outcome, hand=scored.hand)
        _total(entry)
        return entry

    def _seat_finder(self, seats: list[Occupant], round_no: int) -> SeatOf:
        return lambda who, field_name: self._seat(who, seats, field_name, round_no)

    def _seat(self, who: Any, seats: list[Occupant], field_name: str, round_no: int) -> int:
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

        def head_to_head_of(tag: str) -> int:
            rivals = [t for t in total if t != tag and total[t] == total[tag]
                      and wins[t] == wins[tag]]
            return sum(head[tag].get(t, 0) - head[t].get(tag, 0) for t in rivals)

        def key(p: Entrant) -> tuple[int, int, int]:
            return (-total[p.nametag], -wins[p.nametag], -head_to_head_of(p.nametag))

        ranked = sorted(self.players, key=lambda p: (key(p), p.name.lower()))
        out: list[dict[str, Any]] = []
        rank = 0
        for i, p in enumerate(ranked, start=1):
            if i == 1 or key(p) != key(ranked[i - 2]):
                rank = i  # players still tied after every tie-break share a rank
            out.append({"rank": rank, "name": p.name, "nametag": p.nametag,
                        "points": total[p.nametag], "wins": wins[p.nametag],
                        "games": games[p.nametag], "head_to_head": head_to_head_of(p.nametag)})
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


def atomic(t: Tournament, command: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a command on a copy and keep it only if it succeeds (all or nothing)."""
    trial = copy.deepcopy(t)
    result = command(trial, *args, **kwargs)
    t.__dict__.update(trial.__dict__)
    return result
