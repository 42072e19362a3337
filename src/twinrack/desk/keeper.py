"""The score keeper: what happened at a real table in, the engine's itemized score out.

A game sheet is JSON (docs/score-keeper.md has the format and examples)::

    {"players": ["Ann", "Bea"], "revision": "2024", "card": "practice",
     "events": [{"mahjongg": "Ann", "rack": 1, "value": 30, "jokerless": true},
                {"mahjongg": "Ann", "rack": 2, "hand": "2468-1", "discarder": "Bea"}]}

The keeper reads the events in order and works out the turn of each Mah Jongg (``double``
or ``turn`` join two into one turn); every field is checked and a bad one is named in the
message (``events[1].rack``). It states no rule of its own: the sheet's rules are checked by
:func:`twinrack.engine.rules.rules_from`, and which Mah Jonggs win (a Double when two come
in the winning turn), a wall game, dead racks and a wrong tile count are the engine's
(:func:`twinrack.engine.scoring.end_facts` and its helpers), as is the score.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from twinrack.card import Card, load_card
from twinrack.engine.american import PENALTIES, THROW_PENALTIES
from twinrack.engine.rules import VARIANTS, RulesError, RuleSet, rules_from
from twinrack.engine.scoring import (
    GameFacts,
    HandFacts,
    MahJonggFact,
    Penalty,
    Score,
    ScoringRules,
    end_facts,
    out_on_dead_racks,
    score_game,
    settle,
    winner_of,
    wrong_count_kills,
)
from twinrack.errors import CardError, TwinRackError

DEAD_CAUSES = ("exposure", "wrong_wall", "exposed_before_racking", "mahjongg_in_error",
               "claimed_for_mahjongg_then_exposed", "other")
#: a penalty of the four-handed tournament sheet that a Siamese table does not give: the
#: 2024 Siamese rules (14.A.b) cost a discarder nothing for a mis-named tile claimed for an
#: exposure (docs/rules.md, section 15)
NOT_AT_SIAMESE = "misnamed_exposure_tile"
#: the referee's penalties a game sheet may record: the conduct penalties of section 11 and
#: throwing the Mah Jongg tile to an exposed hand (section 11, for tables that play it)
SHEET_PENALTIES: dict[str, tuple[int, str]] = {
    code: given for code, given in {**PENALTIES, **THROW_PENALTIES}.items()
    if code != NOT_AT_SIAMESE}
#: the highest card value a sheet may give when it names no card (a sheet with a card is
#: capped at that card's highest line); docs/score-keeper.md, "Caps"
DEFAULT_MAX_VALUE = 100
#: the most points each player may put in the pot
MAX_POT = 100_000
TOP_FIELDS = ("players", "variant", "revision", "card", "lowest_value", "events", "pot",
              "wall_dead")
EVENT_KINDS = ("mahjongg", "wall_game", "dead", "wrong_tile_count", "penalty")
_EVENT_FIELDS: dict[str, set[str]] = {
    "mahjongg": {"mahjongg", "rack", "hand", "value", "jokerless", "closed", "self_picked",
                 "discarder", "misnamed", "singles_and_pairs", "quint", "star", "turn",
                 "double"},
    "wall_game": {"wall_game"},
    "dead": {"dead", "rack", "cause"},
    "wrong_tile_count": {"wrong_tile_count"},
    "penalty": {"penalty", "player"},
}
#: what a sheet says when its rules do not hold, by the option at fault
_RULES_WORDS = {
    "variant": f"one of {', '.join(v for v in VARIANTS if v != 'american')}",
    "revision": "\"2024\" or \"2019\" (a string)",
    "wall_dead": "\"any\" (a player with a dead rack gets nothing in a wall game) or \"all\" "
                 "(only a player whose racks are all dead)",
}


class GameSheetError(TwinRackError):
    """A game sheet that cannot be scored; the message names the field."""


@dataclass(frozen=True)
class KeptGame:
    """A checked game sheet: names, rules and the facts that decide its score."""

    players: tuple[str, ...]
    rules: ScoringRules
    facts: GameFacts
    pot: int = 0  # points each player puts in the pot (3-4 players)

    def score(self) -> Score:
        return score_game(self.facts, self.rules)

    @property
    def winner(self) -> int | None:
        return self.facts.winner


def _err(where: str, message: str) -> GameSheetError:
    return GameSheetError("bad_game_sheet", f"{where}: {message}")


def _bool(obj: dict[str, Any], key: str, where: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise _err(f"{where}.{key}", "must be true or false")
    return value


def _int(obj: dict[str, Any], key: str, where: str, *, low: int, high: int | None = None,
         where_is_key: bool = False) -> int:
    value = obj.get(key)
    if (not isinstance(value, int) or isinstance(value, bool) or value < low
            or (high is not None and value > high)):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        got = "missing" if key not in obj else f"got {json.dumps(value)}"
        raise _err(key if where_is_key else f"{where}.{key}",
                   f"must be a whole number {span} ({got})")
    return value


def _kind(ev: dict[str, Any], where: str) -> str:
    kinds = [k for k in EVENT_KINDS if k in ev]
    if not kinds:
        raise _err(where, "an event is one of " + ", ".join(EVENT_KINDS)
                   + f" (got the fields {', '.join(sorted(ev)) or 'none'})")
    kind = kinds[0]
    for key in ev:
        if key not in _EVENT_FIELDS[kind]:
            raise _err(f"{where}.{key}", f"unknown field of a {kind} event (fields: "
                                         f"{', '.join(sorted(_EVENT_FIELDS[kind]))})")
    return kind


def _open_card(ref: Any, base: Path | None) -> Card:
    if not isinstance(ref, str) or not ref.strip():
        raise _err("card", "the path of a card file, or \"practice\"")
    if ref == "practice":
        return load_card(None)
    path = Path(ref)
    if not path.is_absolute() and base is not None and (base / path).exists():
        path = base / path
    try:
        return load_card(path)
    except CardError as err:
        first = err.problems[0] if err.problems else None
        where = f" ({first.file}:{first.line}:{first.column})" if first else ""
        raise _err("card", f"the card does not load: {err.message}{where}") from None
    except TwinRackError as err:
        raise _err("card", err.message) from None


def highest_value(card: Card | None) -> int:
    """The cap on a hand's card value: the card's highest line, or the documented default."""
    return max(h.value for h in card.hands) if card is not None else DEFAULT_MAX_VALUE


def read_game(doc: Any, card: Card | None = None, base: Path | None = None, *,
              max_value: int | None = None, aliases: dict[str, str] | None = None) -> KeptGame:
    """Check a game sheet and turn it into scoring facts.

    ``base`` is the folder of the sheet: a relative ``card`` path is looked up there first.
    ``max_value`` caps card values (default: the card's highest line, or
    :data:`DEFAULT_MAX_VALUE`). ``aliases`` maps other names of the players (lower case,
    like nametags) to their names on the sheet.
    """
    if not isinstance(doc, dict):
        raise _err("game", "a game sheet is a JSON object")
    for key in doc:
        if key not in TOP_FIELDS:
            raise _err(key, f"unknown field (expected {', '.join(sorted(TOP_FIELDS))})")
    players = _players(doc)
    rules = _rules(doc, players)
    if card is None and doc.get("card") is not None:
        card = _open_card(doc["card"], base)
    cap = max_value if max_value is not None else highest_value(card)
    if "lowest_value" in doc:
        lowest = _int(doc, "lowest_value", "", low=1, high=cap, where_is_key=True)
    else:
        lowest = card.lowest_value if card else min(25, cap)
    pot = _pot(doc, players)
    events = doc.get("events")
    if not isinstance(events, list):
        raise _err("events", "a list of what happened, in order")
    game = _SheetGame(players, rules, card, cap, aliases or {})
    for i, ev in enumerate(events):
        game.take(ev, f"events[{i}]")
    return KeptGame(players, rules.scoring_rules(), game.facts(lowest), pot)


def _players(doc: dict[str, Any]) -> tuple[str, ...]:
    names = doc.get("players")
    if (not isinstance(names, list) or not 2 <= len(names) <= 4
            or not all(isinstance(n, str) and n.strip() for n in names)):
        raise _err("players", "a list of 2 to 4 player names, East first")
    if len({n.strip().lower() for n in names}) != len(names):
        raise _err("players", "two players have the same name")
    return tuple(n.strip() for n in names)


def _rules(doc: dict[str, Any], players: tuple[str, ...]) -> RuleSet:
    """The sheet's rules, checked by the engine; the variant defaults to Siamese for 2
    players and Royale for 3 or 4."""
    variant = doc.get("variant", "siamese" if len(players) == 2 else "royale")
    if variant == "american":
        raise _err("variant", "a game sheet is for the Siamese games; the standard American "
                              "game is scored on the tournament desk's four-seat sheet "
                              "(engine/american.py), or played here in full")
    try:
        return rules_from(variant, len(players), doc.get("revision", "2024"),
                          wall_dead=doc.get("wall_dead", "any"))
    except RulesError as err:
        if err.option == "players":
            raise _err("variant", f"{err.message} ({len(players)} players are named)"
                       ) from None
        raise _err(err.option, _RULES_WORDS[err.option]) from None


def _pot(doc: dict[str, Any], players: tuple[str, ...]) -> int:
    pot = doc.get("pot", 0)
    if not isinstance(pot, int) or isinstance(pot, bool) or not 0 <= pot <= MAX_POT:
        raise _err("pot", "the points each player puts in the pot, a whole number from 0 "
                          f"to {MAX_POT}")
    if pot and len(players) == 2:
        raise _err("pot", "a pot is for 3 or 4 players; 2 players settle the difference")
    return pot


class _SheetGame:
    """The game as its sheet has told it so far: the events are taken in order and each
    is checked against what came before. The rules of the end of a game are the engine's
    (:func:`twinrack.engine.scoring.end_facts` and its helpers); this class only reads."""

    def __init__(self, players: tuple[str, ...], rules: RuleSet, card: Card | None, cap: int,
                 aliases: dict[str, str]) -> None:
        self.players = players
        self.rules = rules
        self.racks = rules.racks
        self.card = card
        self.cap = cap  # the highest card value a hand may have
        self.other_names = {k.strip().lower(): v.strip().lower() for k, v in aliases.items()}
        self.mah_jonggs: list[MahJonggFact] = []  # in the order of the sheet
        self.dead: list[set[int]] = [set() for _ in players]
        self.penalties: list[Penalty] = []
        self.wall_game = False
        self.ended_by: str | None = None  # how the game ended, once it has
        self.last_turn: int | None = None  # the turn of the latest Mah Jongg event

    def seat(self, name: Any, where: str) -> int:
        """The seat of a player named on the sheet (any case, or by an alias)."""
        if not isinstance(name, str):
            raise _err(where, f"a player's name (one of {', '.join(self.players)})")
        key = name.strip().lower()
        key = self.other_names.get(key, key)
        for i, n in enumerate(self.players):
            if n.lower() == key:
                return i
        raise _err(where, f"unknown player {name!r} (players: {', '.join(self.players)})")

    def take(self, ev: Any, where: str) -> None:
        if not isinstance(ev, dict):
            raise _err(where, "each event is an object, like {\"wall_game\": true}")
        kind = _kind(ev, where)
        if self.ended_by is not None and kind != "penalty":
            raise _err(where, f"the game was already over ({self.ended_by}); only penalties "
                              "may follow")
        if kind == "mahjongg":
            self.mahjongg(ev, where)
        elif kind == "wall_game":
            self.wall_game_ends(ev, where)
        elif kind == "dead":
            self.rack_dies(ev, where)
        elif kind == "wrong_tile_count":
            self.wrong_tile_count(ev, where)
        else:
            self.penalty(ev, where)

    def mahjongg(self, ev: dict[str, Any], where: str) -> None:
        m, turn, double = _mahjongg(ev, where, self.seat, self.racks, self.card, self.cap)
        declarer, name = m.seat, self.players[m.seat]
        if m.rack in self.dead[declarer]:
            raise _err(f"{where}.rack", f"rack {m.rack + 1} of {name} is dead")
        if any(x.seat == declarer and x.rack == m.rack for x in self.mah_jonggs):
            raise _err(f"{where}.rack", f"rack {m.rack + 1} of {name} already has a Mah Jongg")
        m = replace(m, turn=self._turn_of(declarer, turn, double, where))
        same_turn = [x for x in self.mah_jonggs if x.seat == declarer and x.turn == m.turn]
        if m.discarder is not None and any(x.discarder is not None for x in same_turn):
            raise _err(f"{where}.discarder", "only one discard is claimed in a turn: name the "
                                             "discarder on one hand of the Double")
        if m.discarder == declarer:
            raise _err(f"{where}.discarder", f"{name} cannot claim its own discard")
        self.mah_jonggs.append(m)
        self.last_turn = m.turn
        if winner_of(self.racks, self.mah_jonggs) is not None:
            self.ended_by = f"{name} won"

    def _turn_of(self, seat: int, turn: int | None, double: bool, where: str) -> int:
        """The turn of a Mah Jongg: the one before's for a Double, the sheet's, or the
        next; Mah Jonggs of one turn make a Double."""
        previous = self.mah_jonggs[-1] if self.mah_jonggs else None
        last = self.last_turn
        if double:
            if previous is None or previous.seat != seat:
                raise _err(f"{where}.double", "a Double Mah Jongg is declared together with "
                                              "the same player's Mah Jongg in the event just "
                                              "before")
            return previous.turn
        if turn is None:
            return 0 if last is None else last + 1
        if last is not None and turn < last:
            raise _err(f"{where}.turn", f"turns go in the order of the events (the Mah Jongg "
                                        f"before was in turn {last})")
        if last is not None and turn == last and previous is not None and previous.seat != seat:
            raise _err(f"{where}.turn", f"{self.players[previous.seat]} declared in turn "
                                        f"{last}: two players cannot declare in the same turn")
        return turn

    def wall_game_ends(self, ev: dict[str, Any], where: str) -> None:
        if ev.get("wall_game") is not True:
            raise _err(f"{where}.wall_game", "must be true")
        if self.mah_jonggs:
            raise _err(where, "a wall game has no exposed Mah Jongg: when the wall ran out "
                              "with a Mah Jongg up, end the sheet without a wall_game event")
        self.wall_game = True
        self.ended_by = "wall game"

    def rack_dies(self, ev: dict[str, Any], where: str) -> None:
        who = self.seat(ev["dead"], f"{where}.dead")
        name = self.players[who]
        rack = _int(ev, "rack", where, low=1, high=self.racks) - 1
        if ev.get("cause", "other") not in DEAD_CAUSES:
            raise _err(f"{where}.cause", f"one of {', '.join(DEAD_CAUSES)}")
        if any(m.seat == who and m.rack == rack for m in self.mah_jonggs):
            raise _err(f"{where}.rack", f"rack {rack + 1} of {name} holds a valid Mah Jongg "
                                        "(a wrong tile count kills it: use wrong_tile_count)")
        if rack in self.dead[who]:
            raise _err(f"{where}.rack", f"rack {rack + 1} of {name} is already dead")
        self.dead[who].add(rack)
        self._out_on_dead_racks()

    def wrong_tile_count(self, ev: dict[str, Any], where: str) -> None:
        who = self.seat(ev["wrong_tile_count"], f"{where}.wrong_tile_count")
        held = {m.rack for m in self.mah_jonggs if m.seat == who}
        killed = wrong_count_kills(self.rules.scoring_rules(), self.racks, held)
        if killed <= self.dead[who]:
            kept = " without a Mah Jongg" if held - killed else ""
            raise _err(f"{where}.wrong_tile_count", f"every rack of {self.players[who]}{kept} "
                                                    "is already dead")
        self.dead[who] |= killed
        self.mah_jonggs = [m for m in self.mah_jonggs if not (m.seat == who and m.rack in killed)]
        self._out_on_dead_racks()

    def _out_on_dead_racks(self) -> None:
        out = out_on_dead_racks(len(self.players), self.racks, self.dead)
        if out is not None:
            self.ended_by = f"both racks of {self.players[out]} dead"

    def penalty(self, ev: dict[str, Any], where: str) -> None:
        code = ev["penalty"]
        if code == NOT_AT_SIAMESE:
            raise _err(f"{where}.penalty", "a mis-named tile claimed for an exposure costs "
                                           "the discarder nothing at a Siamese table (the "
                                           "-10 is the four-handed sheet's)")
        if code not in SHEET_PENALTIES:
            raise _err(f"{where}.penalty", f"one of {', '.join(sorted(SHEET_PENALTIES))}")
        points, reason = SHEET_PENALTIES[code]
        self.penalties.append(Penalty(self.seat(ev.get("player"), f"{where}.player"), points,
                                      reason, "11"))

    def facts(self, lowest: int) -> GameFacts:
        """The facts that decide the score, once the sheet has said how the game ended."""
        if not self.mah_jonggs and not self.wall_game and self.ended_by is None:
            raise _err("events", "the sheet does not say how the game ended: add a mahjongg, "
                                 "{\"wall_game\": true} or the dead racks")
        by_seat = sorted(self.mah_jonggs, key=lambda m: m.seat)
        return end_facts(len(self.players), self.racks, by_seat, self.dead,
                         wall_spent=self.wall_game, lowest_card_value=lowest,
                         penalties=self.penalties)


def _mahjongg(ev: dict[str, Any], where: str, seat: Callable[[Any, str], int], racks: int,
              card: Card | None, cap: int) -> tuple[MahJonggFact, int | None, bool]:
    """A Mah Jongg event: the Mah Jongg (its turn still to be worked out), the turn the
    sheet gives, if any, and whether it is marked part of a Double."""
    declarer = seat(ev["mahjongg"], f"{where}.mahjongg")
    rack = _int(ev, "rack", where, low=1, high=racks) - 1
    hand, closed = _hand(ev, where, card, cap)
    discarder = ev.get("discarder")
    self_picked = _bool(ev, "self_picked", where)
    if discarder is not None and self_picked:
        raise _err(f"{where}.discarder", "a self-picked Mah Jongg has no discarder")
    misnamed = _bool(ev, "misnamed", where)
    thrower = seat(discarder, f"{where}.discarder") if discarder is not None else None
    if misnamed and thrower is None:
        raise _err(f"{where}.misnamed", "a mis-named tile was thrown by a discarder: name them")
    turn = ev.get("turn")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 0):
        raise _err(f"{where}.turn", "must be a whole number of at least 0 (Mah Jonggs of one "
                                    "turn make a Double)")
    double = _bool(ev, "double", where)
    if double and turn is not None:
        raise _err(f"{where}.double", "give double or turn, not both")
    fact = MahJonggFact(seat=declarer, rack=rack, hand=hand,
                        jokerless=_bool(ev, "jokerless", where), closed=closed, turn=0,
                        discarder=thrower, self_picked=self_picked, misnamed=misnamed)
    return fact, turn, double


def _hand(ev: dict[str, Any], where: str, card: Card | None,
          cap: int) -> tuple[HandFacts, bool]:
    """The hand of a Mah Jongg event and whether it is closed: a line of the sheet's card
    (checked against what the event says of it), or a value and its flags."""
    hand_id = ev.get("hand")
    if hand_id is None:
        if "value" not in ev:
            raise _err(f"{where}.value", "give the card value of the hand (or hand, the id of "
                                         "a line on the sheet's card)")
        value = _int(ev, "value", where, low=1, high=cap)
        facts = HandFacts(f"a {value}-point hand", value, _bool(ev, "singles_and_pairs", where),
                          _bool(ev, "quint", where), _bool(ev, "star", where))
        return facts, _bool(ev, "closed", where)
    if card is None:
        raise _err(f"{where}.hand", "naming a card line needs \"card\" at the top of the "
                                    "sheet; or give value instead")
    try:
        line = card.hand(str(hand_id))
    except KeyError:
        raise _err(f"{where}.hand", f"no line {hand_id!r} on {card.name}") from None
    if "value" in ev and ev["value"] != line.value:
        raise _err(f"{where}.value", f"{line.id} is worth {line.value} on {card.name}")
    for key in ("singles_and_pairs", "quint", "star"):
        if key in ev and ev[key] != getattr(line, key):
            raise _err(f"{where}.{key}", f"the card says {str(getattr(line, key)).lower()} "
                                         f"for {line.id}")
    if line.concealed and ev.get("closed", True) is not True:
        raise _err(f"{where}.closed", f"{line.id} is a concealed line on {card.name}: it is "
                                      "always closed")
    return HandFacts.of(line), True if line.concealed else _bool(ev, "closed", where)


def score_siamese_game(doc: Any, card: Card | None = None) -> Score:
    """The itemized score of a game sheet."""
    return read_game(doc, card).score()


def load_game_file(path: str | Path) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise GameSheetError("unreadable", f"cannot read {path}: {err.strerror or err}"
                             ) from None
    except UnicodeDecodeError:
        raise GameSheetError("unreadable", f"cannot read {path}: it is not UTF-8 text"
                             ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise GameSheetError("bad_json", f"{path}:{err.lineno}:{err.colno}: not valid JSON: "
                                         f"{err.msg}") from None


def read_game_file(path: str | Path, card: Card | None = None) -> KeptGame:
    """Load and check a game sheet; a bad field is named with the file it is in."""
    doc = load_game_file(path)
    try:
        return read_game(doc, card, base=Path(path).parent)
    except GameSheetError as err:
        raise GameSheetError(err.code, f"{path}: {err.message}") from None


def score_json(game: KeptGame) -> dict[str, Any]:
    """``{"players": {NAME: TOTAL}, "lines": [{"player", "points", "reason"}]}``."""
    score = game.score()
    return {"players": {name: score.totals[i] for i, name in enumerate(game.players)},
            "lines": [{"player": game.players[x.seat], "points": x.points, "reason": x.reason}
                      for x in score.lines]}


def _amount(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


@dataclass
class Session:
    """Running totals over a session of games with the same players, and the settlement."""

    players: tuple[str, ...]
    games: list[Score]
    pot: int = 0  # points each player puts in the pot (3-4 players)

    @property
    def totals(self) -> tuple[int, ...]:
        totals = [0] * len(self.players)
        for score in self.games:
            for i, v in enumerate(score.totals):
                totals[i] += v
        return tuple(totals)

    @property
    def running(self) -> list[tuple[int, ...]]:
        """The totals after each game."""
        out: list[tuple[int, ...]] = []
        totals = [0] * len(self.players)
        for score in self.games:
            totals = [a + b for a, b in zip(totals, score.totals, strict=True)]
            out.append(tuple(totals))
        return out

    def unpaid(self, pot_per_player: int) -> dict[str, int]:
        """Plus scores the pot cannot pay (3-4 players): the engine's ``settle`` pays them
        in seat order until the pot runs out."""
        left = pot_per_player * len(self.players) + sum(-t for t in self.totals if t < 0)
        short: dict[str, int] = {}
        for name, t in zip(self.players, self.totals, strict=True):
            if t > 0:
                paid = min(t, left)
                left -= paid
                if paid < t:
                    short[name] = t - paid
        return short

    def settlement_json(self, pot_per_player: int | None = None) -> dict[str, Any]:
        """2 players: who pays whom the difference; 3-4: each player's net from the pot,
        and ``unpaid``: the plus scores (or parts) the pot could not pay."""
        pot = self.pot if pot_per_player is None else pot_per_player
        if pot and len(self.players) == 2:
            raise _err("--pot", "a pot is for 3 or 4 players; 2 players settle the difference")
        settlement = settle(self.totals, pot)
        doc: dict[str, Any] = {
            "pot_per_player": pot if len(self.players) > 2 else None,
            "transfers": [{"payer": self.players[a], "payee": self.players[b],
                           "amount": _amount(amount)} for a, b, amount in settlement.transfers],
            "net": {name: _amount(v) for name, v in zip(self.players, settlement.payouts,
                                                        strict=True)}}
        if len(self.players) > 2:
            doc["unpaid"] = self.unpaid(pot)
        return doc

    def settlement(self, pot_per_player: int | None = None) -> list[str]:
        """The settlement in words; with a pot, a last line says what it could not pay."""
        doc = self.settlement_json(pot_per_player)
        if len(self.players) == 2:
            if not doc["transfers"]:
                return ["the totals are equal: nobody pays"]
            return [f"{t['payer']} pays {t['payee']} {t['amount']}" for t in doc["transfers"]]
        out = [f"{name} {'+' if v > 0 else ''}{v}" for name, v in doc["net"].items()]
        if doc["unpaid"]:
            pot = doc["pot_per_player"] * len(self.players)
            owed = sum(t for t in self.totals if t > 0)
            out.append(f"the pot of {pot} cannot pay every plus score ({owed} in all): plus "
                       "scores are paid in seat order until it runs out; unpaid: "
                       + ", ".join(f"{n} {v}" for n, v in doc["unpaid"].items()))
        return out


def session_of(docs: Sequence[Any], card: Card | None = None,
               pot_per_player: int | None = None) -> Session:
    """A session from game sheets (documents); every sheet has the same players."""
    games = [read_game(d, card) for d in docs]
    return session_from(games, pot_per_player)


def session_of_files(paths: Sequence[str | Path], card: Card | None = None,
                     pot_per_player: int | None = None) -> Session:
    return session_from([read_game_file(p, card) for p in paths], pot_per_player)


def session_from(games: Sequence[KeptGame], pot_per_player: int | None = None) -> Session:
    """A session from checked games; the pot is the sheets' unless given."""
    if not games:
        raise _err("games", "a session has at least one game")
    players = games[0].players
    for i, g in enumerate(games):
        if tuple(n.lower() for n in g.players) != tuple(n.lower() for n in players):
            raise _err(f"games[{i}].players", "every game of a session has the same players, "
                                              f"in the same order: {', '.join(players)}")
    if pot_per_player and len(players) == 2:
        raise _err("--pot", "a pot is for 3 or 4 players; 2 players settle the difference")
    revision = games[0].rules.revision
    for i, g in enumerate(games):
        if g.rules.revision != revision:
            raise _err(f"games[{i}].revision", "every game of a session uses the same rules: "
                                               f"{revision} in the first game, "
                                               f"{g.rules.revision} here")
    pot = pot_per_player if pot_per_player is not None else games[0].pot
    for i, g in enumerate(games):
        if pot_per_player is None and g.pot != pot:
            raise _err(f"games[{i}].pot", f"the pot is fixed before play: {pot} in the first "
                                          f"game, {g.pot} here")
    return Session(players, [g.score() for g in games], pot)
