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
import json
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from twinrack.desk.keeper import DEFAULT_MAX_VALUE, GameSheetError, read_game
from twinrack.desk.movement import Movement
from twinrack.engine.scoring import Penalty, Score, score_game
from twinrack.engine.tournament_scoring import (
    PENALTIES,
    TournamentGame,
    score_tournament_game,
)
from twinrack.errors import TwinRackError

GAMES_PER_ROUND = 4
#: the most a tournament may set as its highest card value
MAX_VALUE_LIMIT = 1000
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
    lines: list[dict[str, Any]]  # itemized: nametag, player, points, reason, penalty
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
    #: the highest card value of the card in use: a game's value is at most this
    max_value: int = DEFAULT_MAX_VALUE
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
        if re.fullmatch(r"\d+[A-Za-z]", name):
            raise DeskError("bad_name", f"{name!r} looks like a nametag; give the player's name")
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
                                         f"{entry.number}: {self._points_text(entry)}"
                                         + (" (after time: no points)" if entry.late else ""))
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
                            f"the win of {self.name_of(entry.winner)} is confirmed by the "
                            f"player opposite, {self.name_of(expected)} ({expected}), not by "
                            f"{signer.name}")
        if entry.confirmed_by is not None:
            raise DeskError("already_confirmed", f"table {table} game {game} is already "
                                                 f"confirmed by {self.name_of(entry.confirmed_by)}")
        entry.confirmed_by = signer.nametag
        self._log(at, signer.name, "confirm", f"round {r.number} table {table} game {game}")
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
                            and new.winner == old.winner else None)
        r.sheets[table][game - 1] = new
        self._log(at, "director", "correct",
                  f"round {round_no} table {table} game {game}: {self._points_text(old)}"
                  f"{' (late)' if old.late else ''} -> {self._points_text(new)}"
                  f"{' (late)' if new.late else ''}; was {json.dumps(old.result, sort_keys=True)}"
                  f"; reason: {reason.strip()}")
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
        """The player's name for a nametag."""
        return next((p.name for p in self.players if p.nametag == nametag), nametag)

    def _points_text(self, entry: GameEntry) -> str:
        return ", ".join(f"{self.name_of(tag)} {pts:+d}" if pts else f"{self.name_of(tag)} 0"
                         for tag, pts in entry.points.items())

    def _score(self, round_no: int, table: int, number: int, result: dict[str, Any],
               at: float) -> GameEntry:
        seats = self.seating(round_no)[table]
        order = list(self.movement.seats)
        tags = [seats[letter] for letter in order]
        if not isinstance(result, dict):
            raise DeskError("bad_result", "a game result is an object of fields")
        if self.seats == 4:
            score, penalties, winner = self._score_four(result, tags)
        else:
            score, penalties, winner = self._score_two(result, tags)
        lines = [{"nametag": tags[x.seat], "player": self.name_of(tags[x.seat]),
                  "points": x.points, "reason": x.reason, "penalty": False}
                 for x in score.lines]
        lines += [{"nametag": tags[p.seat], "player": self.name_of(tags[p.seat]),
                   "points": p.points, "reason": p.reason, "penalty": True} for p in penalties]
        entry = GameEntry(number, copy.deepcopy(result), {tag: 0 for tag in tags}, lines,
                          winner, at)
        _total(entry)
        return entry

    def _seat(self, who: Any, tags: list[str], field_name: str) -> int:
        if isinstance(who, list) and field_name == "winner":
            raise DeskError("two_winners", "winner: a game has one winner, not "
                                           f"{len(who)}")
        if not isinstance(who, str):
            raise DeskError("bad_result", f"{field_name}: a player's name or nametag")
        try:
            p = self.player(who)
        except DeskError as err:
            raise DeskError(err.code, f"{field_name}: {err.message}") from None
        if p.nametag not in tags:
            at_table = ", ".join(f"{self.name_of(t)} ({t})" for t in tags)
            raise DeskError("not_at_table", f"{field_name}: {p.name} does not sit at this "
                                            f"table this round (here: {at_table})")
        return tags.index(p.nametag)

    def _score_four(self, result: dict[str, Any],
                    tags: list[str]) -> tuple[Score, list[Penalty], str | None]:
        allowed = {"winner", "value", "self_picked", "singles_and_pairs", "jokerless",
                   "wall_game", "discarder", "winner_exposures", "quint_two_exposures",
                   "misnamed", "dead", "in_error", "wall_destroyed_by", "exposed", "penalties"}
        if "winners" in result:
            raise DeskError("two_winners", "winners: a game has one winner: give `winner` once")
        for key in result:
            if key not in allowed:
                raise DeskError("bad_result", f"unknown field {key!r} (fields: "
                                              f"{', '.join(sorted(allowed))})")
        winner = result.get("winner")
        wall = _flag(result, "wall_game")
        in_error = result.get("in_error")
        ends = [k for k, on in (("winner", winner is not None), ("wall_game", wall),
                                ("in_error", in_error is not None)) if on]
        if not ends:
            raise DeskError("bad_result", "a game needs a winner, wall_game: true or in_error")
        if len(ends) > 1:
            raise DeskError("bad_result", f"{' and '.join(ends)}: a game ends one way only")
        w = self._seat(winner, tags, "winner") if winner is not None else None
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
        d = self._seat(discarder, tags, "discarder") if discarder is not None else None
        if d is not None and d == w:
            raise DeskError("bad_result", "discarder: the winner cannot throw its own tile")
        if d is not None and _flag(result, "self_picked"):
            raise DeskError("bad_result", "discarder: a self-picked Mah Jongg has no discarder")
        if _flag(result, "misnamed") and d is None:
            raise DeskError("bad_result", "misnamed: name the discarder who mis-named the tile")
        exposures = result.get("winner_exposures", 0)
        if not isinstance(exposures, int) or isinstance(exposures, bool) or not 0 <= exposures <= 4:
            raise DeskError("bad_result", "winner_exposures: a number from 0 to 4")
        dead = tuple(self._seat(x, tags, "dead") for x in _names(result, "dead"))
        if w is not None and w in dead:
            raise DeskError("bad_result", "dead: the winner's hand is not dead")
        e = self._seat(in_error, tags, "in_error") if in_error is not None else None
        destroyed = tuple(self._seat(x, tags, "wall_destroyed_by")
                          for x in _names(result, "wall_destroyed_by"))
        exposed = tuple(self._seat(x, tags, "exposed") for x in _names(result, "exposed"))
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
        penalties = self._penalties(result, tags)
        return score_tournament_game(game), penalties, (tags[w] if w is not None else None)

    def _score_two(self, result: dict[str, Any],
                   tags: list[str]) -> tuple[Score, list[Penalty], str | None]:
        names = [self.name_of(t) for t in tags]
        doc = dict(result)
        doc.setdefault("players", names)
        doc.setdefault("revision", self.revision)
        try:
            game = read_game(doc, max_value=self.max_value)
        except GameSheetError as err:
            raise DeskError("bad_result", err.message) from None
        if tuple(n.lower() for n in game.players) != tuple(n.lower() for n in names):
            raise DeskError("bad_result", "players: the players of this table, East first: "
                                          f"{', '.join(names)}")
        if len(game.players) != 2:
            raise DeskError("bad_result", "players: a 2-seat table has 2 players")
        score = score_game(replace(game.facts, penalties=()), game.rules)
        return (score, list(game.facts.penalties),
                tags[game.winner] if game.winner is not None else None)

    def _penalties(self, result: dict[str, Any], tags: list[str]) -> list[Penalty]:
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
                moves=dict(doc.get("moves", {})), max_value=_max_value(doc),
                players=[Player(**p) for p in doc.get("players", [])], rounds=rounds,
                audit=[AuditEntry(**a) for a in doc.get("audit", [])])
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise DeskError("bad_tournament_file", f"not a tournament file ({type(err).__name__}"
                                                   f": {err})") from None


def _max_value(doc: dict[str, Any]) -> int:
    v = doc.get("max_value", DEFAULT_MAX_VALUE)
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_VALUE_LIMIT:
        raise DeskError("bad_tournament_file", "not a tournament file: max_value: the highest "
                                               "card value, a whole number from 1 to "
                                               f"{MAX_VALUE_LIMIT}")
    return v


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
