"""The tournament desk: players, tables, rounds, score sheets and standings.

The model is pure: the time of each command is passed in (the desk's web pages and command
line read the clock), so a tournament is its settings plus its list of commands and can be
rebuilt, audited and tested exactly. Every command is checked in full before anything
changes: a refused command leaves the tournament as it was.

Scoring is the engine's: 4-seat tables use the tournament sheet of rules section 11
(:mod:`twinrack.engine.tournament_scoring`), 2-seat Siamese tables the Siamese score of
section 10 (:mod:`twinrack.engine.scoring`).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from twinrack.desk.keeper import GameSheetError, read_game
from twinrack.desk.movement import Movement
from twinrack.engine.scoring import Penalty, Score
from twinrack.engine.tournament_scoring import (
    PENALTIES,
    TournamentGame,
    score_tournament_game,
)
from twinrack.errors import TwinRackError

GAMES_PER_ROUND = 4
OPPOSITE = {"E": "W", "W": "E", "S": "N", "N": "S"}


class DeskError(TwinRackError):
    """A desk command that cannot be taken; nothing changed."""


@dataclass
class Player:
    name: str
    nametag: str


@dataclass
class GameEntry:
    """One game on a table's score sheet."""

    number: int
    result: dict[str, Any]  # what was entered (by nametag), kept for audit and export
    points: dict[str, int]  # nametag -> points for this game
    lines: list[dict[str, Any]]  # itemized: nametag, points, reason
    winner: str | None
    entered_at: float
    late: bool = False  # finished after time and not delayed: scores nothing
    confirmed_by: str | None = None


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
    players: list[Player] = field(default_factory=list)
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

    def add_player(self, name: str, at: float = 0.0) -> Player:
        name = name.strip()
        if not name:
            raise DeskError("bad_name", "a player needs a name")
        if any(p.name.lower() == name.lower() for p in self.players):
            raise DeskError("duplicate_player", f"{name!r} is already registered")
        if self.rounds:
            raise DeskError("started", "players cannot join once the first round has begun")
        n = len(self.players)
        table = n // self.seats + 1
        letter = self.movement.seats[n % self.seats]
        p = Player(name, f"{table}{letter}")
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

    # ---------------------------------------------------------------- rounds

    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def start_round(self, at: float) -> Round:
        if len(self.players) < self.seats or len(self.players) % self.seats:
            short = (-len(self.players)) % self.seats or self.seats
            raise DeskError("tables_not_full",
                            f"{len(self.players)} players do not fill tables of {self.seats}: "
                            f"{short} more needed")
        cur = self.current()
        if cur is not None and not cur.locked:
            raise DeskError("round_open", f"round {cur.number} is still open: close it first")
        if len(self.rounds) >= self.rounds_planned:
            raise DeskError("no_more_rounds", f"all {self.rounds_planned} rounds are played")
        r = Round(len(self.rounds) + 1, started_at=at,
                  sheets={t: [] for t in range(1, self.tables + 1)})
        self.rounds.append(r)
        self._log(at, "director", "start round", f"round {r.number}")
        return r

    def close_round(self, at: float) -> Round:
        r = self._open_round()
        r.closed_at = at
        self._log(at, "director", "close round", f"round {r.number} locked")
        return r

    def delay_table(self, table: int, at: float) -> None:
        r = self._open_round()
        self._check_table(table)
        if table not in r.delayed_tables:
            r.delayed_tables.append(table)
        self._log(at, "director", "delay", f"table {table} in round {r.number} may finish late")

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

    def _check_table(self, table: int) -> None:
        if not 1 <= table <= self.tables:
            raise DeskError("unknown_table", f"there is no table {table} (1-{self.tables})")

    def _round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise DeskError("unknown_round", f"round {number} has not been played")
        return self.rounds[number - 1]

    # ---------------------------------------------------------------- games

    def enter_game(self, table: int, result: dict[str, Any], at: float,
                   who: str = "table") -> GameEntry:
        """Record the next game of a table in the open round."""
        r = self._open_round()
        self._check_table(table)
        sheet = r.sheets.setdefault(table, [])
        if len(sheet) >= GAMES_PER_ROUND:
            raise DeskError("round_full", f"table {table} has already recorded "
                                          f"{GAMES_PER_ROUND} games this round")
        entry = self._score(r.number, table, len(sheet) + 1, result, at)
        assert r.started_at is not None
        if at > r.started_at + self.round_minutes * 60 and table not in r.delayed_tables:
            entry.late = True
            entry.points = {tag: 0 for tag in entry.points}
            entry.lines = [dict(line, points=0, reason=line["reason"] + " (after time: no "
                                "points)") for line in entry.lines]
        sheet.append(entry)
        self._log(at, who, "enter game", f"round {r.number} table {table} game "
                                         f"{entry.number}: {entry.points}")
        return entry

    def confirm(self, table: int, game: int, by: str, at: float) -> GameEntry:
        """The winner's opponent (the player opposite) signs the win."""
        r = self._open_round()
        entry = self._entry(r, table, game)
        if entry.winner is None:
            raise DeskError("nothing_to_confirm", "only a win is confirmed; this game has none")
        signer = self.player(by)
        expected = self._opposite(r.number, table, entry.winner)
        if signer.nametag != expected:
            raise DeskError("wrong_confirmer",
                            f"the win of {self._name(entry.winner)} is confirmed by the "
                            f"player opposite, {self._name(expected)}")
        entry.confirmed_by = signer.nametag
        self._log(at, signer.name, "confirm", f"round {r.number} table {table} game {game}")
        return entry

    def correct_game(self, round_no: int, table: int, game: int, result: dict[str, Any],
                     at: float, reason: str) -> GameEntry:
        """The director's correction of a recorded game, kept in the audit trail."""
        r = self._round(round_no)
        old = self._entry(r, table, game)
        if not reason.strip():
            raise DeskError("reason_needed", "a correction needs a reason for the audit trail")
        new = self._score(round_no, table, game, result, at)
        new.confirmed_by = old.confirmed_by if new.points == old.points else None
        r.sheets[table][game - 1] = new
        self._log(at, "director", "correct", f"round {round_no} table {table} game {game}: "
                                             f"{old.points} -> {new.points} ({reason})")
        return new

    def _entry(self, r: Round, table: int, game: int) -> GameEntry:
        self._check_table(table)
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

    def _name(self, nametag: str) -> str:
        return next((p.name for p in self.players if p.nametag == nametag), nametag)

    def _score(self, round_no: int, table: int, number: int, result: dict[str, Any],
               at: float) -> GameEntry:
        seats = self.seating(round_no)[table]
        order = list(self.movement.seats)
        tags = [seats[letter] for letter in order]
        if not isinstance(result, dict):
            raise DeskError("bad_result", "a game result is an object of fields")
        if self.seats == 4:
            score, winner = self._score_four(result, tags)
        else:
            score, winner = self._score_two(result, tags)
        points = {tag: 0 for tag in tags}
        for seat, total in enumerate(score.totals):
            points[tags[seat]] = total
        lines = [{"nametag": tags[x.seat], "player": self._name(tags[x.seat]),
                  "points": x.points, "reason": x.reason} for x in score.lines]
        return GameEntry(number, copy.deepcopy(result), points, lines, winner, at)

    def _seat(self, who: Any, tags: list[str], field_name: str) -> int:
        if not isinstance(who, str):
            raise DeskError("bad_result", f"{field_name}: a player's name or nametag")
        p = self.player(who)
        if p.nametag not in tags:
            raise DeskError("not_at_table", f"{field_name}: {p.name} does not sit at this table "
                                            "this round")
        return tags.index(p.nametag)

    def _score_four(self, result: dict[str, Any], tags: list[str]) -> tuple[Score, str | None]:
        allowed = {"winner", "winners", "value", "self_picked", "singles_and_pairs", "jokerless",
                   "wall_game", "discarder", "winner_exposures", "quint_two_exposures", "dead",
                   "in_error", "wall_destroyed_by", "penalties"}
        for key in result:
            if key not in allowed:
                raise DeskError("bad_result", f"unknown field {key!r}")
        if "winners" in result:
            raise DeskError("two_winners", "a game has one winner: give `winner` once")
        winner = result.get("winner")
        wall = _flag(result, "wall_game")
        in_error = result.get("in_error")
        if winner is None and not wall and in_error is None:
            raise DeskError("bad_result", "a game needs a winner, wall_game: true or in_error")
        if winner is not None and wall:
            raise DeskError("bad_result", "a game with a winner is not a wall game")
        value = result.get("value", 0)
        if winner is not None and (not isinstance(value, int) or isinstance(value, bool)
                                   or value <= 0):
            raise DeskError("bad_value", "value: the card value of the winning hand, a "
                                         "positive whole number")
        w = self._seat(winner, tags, "winner") if winner is not None else None
        discarder = result.get("discarder")
        d = self._seat(discarder, tags, "discarder") if discarder is not None else None
        if d is not None and d == w:
            raise DeskError("bad_result", "discarder: the winner cannot throw its own tile")
        if d is not None and _flag(result, "self_picked"):
            raise DeskError("bad_result", "a self-picked Mah Jongg has no discarder")
        exposures = result.get("winner_exposures", 0)
        if not isinstance(exposures, int) or isinstance(exposures, bool) or not 0 <= exposures <= 4:
            raise DeskError("bad_result", "winner_exposures: a number from 0 to 4")
        dead = tuple(self._seat(x, tags, "dead") for x in _names(result, "dead"))
        destroyed = tuple(self._seat(x, tags, "wall_destroyed_by")
                          for x in _names(result, "wall_destroyed_by"))
        e = self._seat(in_error, tags, "in_error") if in_error is not None else None
        game = TournamentGame(
            players=4, winner=w, value=value if w is not None else 0,
            self_picked=_flag(result, "self_picked"),
            singles_and_pairs=_flag(result, "singles_and_pairs"),
            jokerless=_flag(result, "jokerless"), wall_game=wall, discarder=d,
            winner_exposures=exposures, quint_two_exposures=_flag(result, "quint_two_exposures"),
            dead=dead, in_error=e, wall_destroyed_by=destroyed,
            penalties=tuple(self._penalties(result, tags)))
        return score_tournament_game(game), (tags[w] if w is not None else None)

    def _score_two(self, result: dict[str, Any], tags: list[str]) -> tuple[Score, str | None]:
        names = [self._name(t) for t in tags]
        doc = dict(result)
        doc.setdefault("players", names)
        doc.setdefault("revision", self.revision)
        try:
            game = read_game(doc)
        except GameSheetError as err:
            raise DeskError(err.code, err.message) from None
        if game.players != tuple(names):
            raise DeskError("bad_result", "players: the players of this table, East first: "
                                          f"{', '.join(names)}")
        return game.score(), (tags[game.winner] if game.winner is not None else None)

    def _penalties(self, result: dict[str, Any], tags: list[str]) -> list[Penalty]:
        raw = result.get("penalties", [])
        if not isinstance(raw, list):
            raise DeskError("bad_result", "penalties: a list of {player, kind}")
        out: list[Penalty] = []
        for i, p in enumerate(raw):
            if not isinstance(p, dict) or "player" not in p or "kind" not in p:
                raise DeskError("bad_result", f"penalties[{i}]: needs player and kind")
            kind = p["kind"]
            if kind not in PENALTIES:
                raise DeskError("bad_result", f"penalties[{i}].kind: one of "
                                              f"{', '.join(sorted(PENALTIES))}")
            points, reason = PENALTIES[kind]
            out.append(Penalty(self._seat(p["player"], tags, f"penalties[{i}].player"),
                               points, reason, "11"))
        return out

    # ---------------------------------------------------------------- standings

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
                at_table = list(seating[table].values())
                for entry in sheet:
                    for tag, pts in entry.points.items():
                        total[tag] += pts
                        games[tag] += 1
                        for other in at_table:
                            if other != tag:
                                head[tag][other] = head[tag].get(other, 0) + pts
                    if entry.winner is not None and not entry.late:
                        wins[entry.winner] += 1

        def h2h(tag: str) -> int:
            rivals = [t for t in total if t != tag and total[t] == total[tag]
                      and wins[t] == wins[tag]]
            return sum(head[tag].get(t, 0) - head[t].get(tag, 0) for t in rivals)

        ranked = sorted(self.players, key=lambda p: (-total[p.nametag], -wins[p.nametag],
                                                     -h2h(p.nametag), p.name.lower()))
        out: list[dict[str, Any]] = []
        for i, p in enumerate(ranked, start=1):
            out.append({"rank": i, "name": p.name, "nametag": p.nametag,
                        "points": total[p.nametag], "wins": wins[p.nametag],
                        "games": games[p.nametag], "head_to_head": h2h(p.nametag)})
        return out

    # ---------------------------------------------------------------- persistence

    def _log(self, at: float, who: str, action: str, detail: str) -> None:
        self.audit.append(AuditEntry(at, who, action, detail))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Tournament:
        try:
            rounds = []
            for r in doc.get("rounds", []):
                sheets = {int(t): [GameEntry(**g) for g in games]
                          for t, games in r.get("sheets", {}).items()}
                rounds.append(Round(r["number"], r.get("started_at"), r.get("closed_at"),
                                    list(r.get("delayed_tables", [])), sheets))
            return cls(
                name=doc["name"], seats=doc.get("seats", 4),
                rounds_planned=doc.get("rounds_planned", 4),
                round_minutes=doc.get("round_minutes", 50), revision=doc.get("revision", "2024"),
                moves=dict(doc.get("moves", {})),
                players=[Player(**p) for p in doc.get("players", [])], rounds=rounds,
                audit=[AuditEntry(**a) for a in doc.get("audit", [])])
        except (KeyError, TypeError, ValueError) as err:
            raise DeskError("bad_tournament_file", f"not a tournament file: {err}") from None


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
