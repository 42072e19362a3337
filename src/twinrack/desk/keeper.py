"""The score keeper: what happened at a real table in, the engine's itemized score out.

A game sheet is JSON (docs/score-keeper.md has the format and examples)::

    {"players": ["Ann", "Bea"], "revision": "2024",
     "events": [{"mahjongg": "Ann", "rack": 1, "value": 30, "jokerless": true},
                {"mahjongg": "Ann", "rack": 2, "hand": "2468-1", "discarder": "Bea"}]}

Every field is checked and a bad one is named in the message (``events[1].rack``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twinrack.card import Card, load_card
from twinrack.engine.scoring import (
    GameFacts,
    HandFacts,
    MahJonggFact,
    Penalty,
    Score,
    ScoringRules,
    score_game,
    settle,
)
from twinrack.engine.tournament_scoring import PENALTIES
from twinrack.errors import TwinRackError
from twinrack.tiles import racks_for, tile_set

VARIANTS = ("siamese", "royale", "imperial")
DEAD_CAUSES = ("exposure", "wrong_wall", "exposed_before_racking", "mahjongg_in_error",
               "claimed_for_mahjongg_then_exposed", "other")


class GameSheetError(TwinRackError):
    """A game sheet that cannot be scored; the message names the field."""


@dataclass(frozen=True)
class KeptGame:
    """A checked game sheet: names, rules and the facts that decide its score."""

    players: tuple[str, ...]
    rules: ScoringRules
    facts: GameFacts

    def score(self) -> Score:
        return score_game(self.facts, self.rules)

    @property
    def winner(self) -> int | None:
        wins = {m.seat for m in self.facts.mah_jonggs if m.wins}
        return wins.pop() if len(wins) == 1 else None


def _err(where: str, message: str) -> GameSheetError:
    return GameSheetError("bad_game_sheet", f"{where}: {message}")


def _bool(obj: dict[str, Any], key: str, where: str) -> bool:
    v = obj.get(key, False)
    if not isinstance(v, bool):
        raise _err(f"{where}.{key}", "must be true or false")
    return v


def _int(obj: dict[str, Any], key: str, where: str, *, low: int, high: int | None = None) -> int:
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < low or (high is not None and v > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise _err(f"{where}.{key}", f"must be a whole number {span}")
    return v


def read_game(doc: Any, card: Card | None = None) -> KeptGame:
    """Check a game sheet and turn it into scoring facts."""
    if not isinstance(doc, dict):
        raise _err("game", "a game sheet is a JSON object")
    known = {"players", "variant", "revision", "card", "lowest_value", "events", "pot"}
    for key in doc:
        if key not in known:
            raise _err(key, f"unknown field (expected {', '.join(sorted(known))})")
    names = doc.get("players")
    if (not isinstance(names, list) or not 2 <= len(names) <= 4
            or not all(isinstance(n, str) and n.strip() for n in names)):
        raise _err("players", "a list of 2 to 4 player names, East first")
    if len({n.lower() for n in names}) != len(names):
        raise _err("players", "two players have the same name")
    players = tuple(n.strip() for n in names)
    variant = doc.get("variant", "siamese" if len(players) == 2 else "royale")
    if variant not in VARIANTS:
        raise _err("variant", f"one of {', '.join(VARIANTS)}")
    try:
        sets = tile_set(variant, len(players)).sets
    except ValueError as err:
        raise _err("variant", str(err)) from None
    racks = racks_for(variant)
    revision = doc.get("revision", "2024")
    if revision not in ("2024", "2019"):
        raise _err("revision", "\"2024\" or \"2019\"")
    rules = ScoringRules(revision=str(revision), players=len(players), royale=sets >= 2)
    if card is None and doc.get("card") is not None:
        ref = doc["card"]
        if not isinstance(ref, str):
            raise _err("card", "the path of a card file, or \"practice\"")
        card = load_card(None if ref == "practice" else ref)
    lowest = doc.get("lowest_value", card.lowest_value if card else 25)
    if not isinstance(lowest, int) or isinstance(lowest, bool) or lowest <= 0:
        raise _err("lowest_value", "must be a positive whole number")

    def seat(name: Any, where: str) -> int:
        if not isinstance(name, str):
            raise _err(where, "a player's name")
        for i, n in enumerate(players):
            if n.lower() == name.strip().lower():
                return i
        raise _err(where, f"unknown player {name!r} (players: {', '.join(players)})")

    events = doc.get("events")
    if not isinstance(events, list):
        raise _err("events", "a list of what happened, in order")
    mjs: list[dict[str, Any]] = []
    dead: list[set[int]] = [set() for _ in players]
    penalties: list[Penalty] = []
    wall_game = False
    ended = False
    both_dead: int | None = None
    for i, ev in enumerate(events):
        where = f"events[{i}]"
        if not isinstance(ev, dict):
            raise _err(where, "each event is an object")
        if ended:
            raise _err(where, "the game was already over")
        if "mahjongg" in ev:
            mjs.append(_mahjongg(ev, where, i, seat, racks, card))
            s = mjs[-1]["seat"]
            if mjs[-1]["rack"] in dead[s]:
                raise _err(f"{where}.rack", "that rack is dead")
            if sum(1 for m in mjs if m["seat"] == s and m["rack"] == mjs[-1]["rack"]) > 1:
                raise _err(f"{where}.rack", "that rack already has a Mah Jongg")
            if sum(1 for m in mjs if m["seat"] == s) == racks:
                ended = True  # every rack of this player is a Mah Jongg: the game is won
        elif "wall_game" in ev:
            if ev.get("wall_game") is not True:
                raise _err(f"{where}.wall_game", "must be true")
            if mjs:
                raise _err(where, "a wall game has no exposed Mah Jongg; the wall ran out with "
                                  "a Mah Jongg up, so just end the sheet")
            wall_game = True
            ended = True
        elif "dead" in ev:
            s = seat(ev["dead"], f"{where}.dead")
            rack = _int(ev, "rack", where, low=1, high=racks) - 1
            cause = ev.get("cause", "other")
            if cause not in DEAD_CAUSES:
                raise _err(f"{where}.cause", f"one of {', '.join(DEAD_CAUSES)}")
            if any(m["seat"] == s and m["rack"] == rack for m in mjs):
                raise _err(f"{where}.rack", "that rack holds a valid Mah Jongg")
            dead[s].add(rack)
            if len(dead[s]) == racks:
                both_dead = s
                ended = len(players) == 2
        elif "wrong_tile_count" in ev:
            s = seat(ev["wrong_tile_count"], f"{where}.wrong_tile_count")
            dead[s] = set(range(racks))
            mjs = [m for m in mjs if m["seat"] != s]  # even an exposed Mah Jongg dies
            both_dead = s
            ended = len(players) == 2
        elif "penalty" in ev:
            kind = ev["penalty"]
            if kind not in PENALTIES:
                raise _err(f"{where}.penalty", f"one of {', '.join(sorted(PENALTIES))}")
            points, reason = PENALTIES[kind]
            penalties.append(Penalty(seat(ev.get("player"), f"{where}.player"), points, reason,
                                     "11"))
        else:
            raise _err(where, "an event is one of mahjongg, wall_game, dead, "
                              "wrong_tile_count, penalty")
    # the Mah Jonggs of the turn in which a player completed all its racks win
    facts_mj: list[MahJonggFact] = []
    for s in range(len(players)):
        own = [m for m in mjs if m["seat"] == s]
        winning_turn = own[-1]["turn"] if len(own) == racks else None
        for m in own:
            facts_mj.append(MahJonggFact(
                seat=s, rack=m["rack"], hand=m["hand"], jokerless=m["jokerless"],
                closed=m["closed"], turn=m["turn"], wins=m["turn"] == winning_turn,
                discarder=m["discarder"], self_picked=m["self_picked"], misnamed=m["misnamed"]))
    for fact in facts_mj:
        if fact.discarder == fact.seat:
            raise _err("events", f"{players[fact.seat]} cannot claim its own discard")
    facts = GameFacts(players=len(players), mah_jonggs=tuple(facts_mj), wall_game=wall_game,
                      dead=tuple(tuple(sorted(d)) for d in dead), racks=racks,
                      both_dead=both_dead, lowest_card_value=lowest,
                      penalties=tuple(penalties))
    return KeptGame(players, rules, facts)


def _mahjongg(ev: dict[str, Any], where: str, index: int, seat: Any, racks: int,
              card: Card | None) -> dict[str, Any]:
    allowed = {"mahjongg", "rack", "hand", "value", "jokerless", "closed", "self_picked",
               "discarder", "misnamed", "singles_and_pairs", "quint", "star", "turn"}
    for key in ev:
        if key not in allowed:
            raise _err(f"{where}.{key}", "unknown field of a mahjongg event")
    s = seat(ev["mahjongg"], f"{where}.mahjongg")
    rack = _int(ev, "rack", where, low=1, high=racks) - 1
    hand_id = ev.get("hand")
    if hand_id is not None:
        if card is None:
            raise _err(f"{where}.hand", "naming a card line needs \"card\" at the top of the "
                                        "sheet; or give value instead")
        try:
            h = card.hand(str(hand_id))
        except KeyError:
            raise _err(f"{where}.hand", f"no line {hand_id!r} on {card.name}") from None
        if "value" in ev and ev["value"] != h.value:
            raise _err(f"{where}.value", f"{h.id} is worth {h.value} on {card.name}")
        facts = HandFacts(h.id, h.value, h.singles_and_pairs, h.quint, h.star)
    else:
        value = _int(ev, "value", where, low=1)
        facts = HandFacts(f"a {value}-point hand", value, _bool(ev, "singles_and_pairs", where),
                          _bool(ev, "quint", where), _bool(ev, "star", where))
    discarder = ev.get("discarder")
    self_picked = _bool(ev, "self_picked", where)
    if discarder is not None and self_picked:
        raise _err(f"{where}.discarder", "a self-picked Mah Jongg has no discarder")
    misnamed = _bool(ev, "misnamed", where)
    d = seat(discarder, f"{where}.discarder") if discarder is not None else None
    if misnamed and d is None:
        raise _err(f"{where}.misnamed", "a mis-named tile was thrown by a discarder: name them")
    turn = ev.get("turn", index)
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise _err(f"{where}.turn", "must be a whole number (equal turns make a Double)")
    return {"seat": s, "rack": rack, "hand": facts, "jokerless": _bool(ev, "jokerless", where),
            "closed": _bool(ev, "closed", where), "self_picked": self_picked, "discarder": d,
            "misnamed": misnamed, "turn": turn}


def score_siamese_game(doc: Any, card: Card | None = None) -> Score:
    """The itemized score of a game sheet."""
    return read_game(doc, card).score()


def load_game_file(path: str | Path) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise GameSheetError("unreadable", f"cannot read {path}: {err}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise GameSheetError("bad_json", f"{path}:{err.lineno}:{err.colno}: not valid JSON: "
                                         f"{err.msg}") from None


def score_json(game: KeptGame) -> dict[str, Any]:
    score = game.score()
    return {"players": {name: score.totals[i] for i, name in enumerate(game.players)},
            "lines": [{"player": game.players[x.seat], "points": x.points, "reason": x.reason}
                      for x in score.lines]}


@dataclass
class Session:
    """Running totals over a session of games with the same players."""

    players: tuple[str, ...]
    games: list[Score]

    @property
    def totals(self) -> tuple[int, ...]:
        t = [0] * len(self.players)
        for s in self.games:
            for i, v in enumerate(s.totals):
                t[i] += v
        return tuple(t)

    def settlement(self, pot_per_player: int = 0) -> list[str]:
        st = settle(self.totals, pot_per_player)
        if st.transfers:
            return [f"{self.players[a]} pays {self.players[b]} {amount}"
                    for a, b, amount in st.transfers]
        return [f"{name}: {'+' if v >= 0 else ''}{v}" for name, v in zip(self.players,
                                                                         st.payouts, strict=True)]


def session_of(docs: Sequence[Any], card: Card | None = None) -> Session:
    games = [read_game(d, card) for d in docs]
    players = games[0].players if games else ()
    for i, g in enumerate(games):
        if g.players != players:
            raise _err(f"games[{i}].players", "every game of a session has the same players")
    return Session(players, [g.score() for g in games])
