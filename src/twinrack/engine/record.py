"""Game records: write one, replay it, and verify it (docs/rules.md, "Records").

A record is JSON::

    {"format": "twinrack-record/1", "rules": {...}, "card": {"name", "sha256"},
     "commitment": sha256(seed) hex, "seed": hex (only once the game has ended),
     "stack": tiles fixed at the head of the wall (rigged games only),
     "actions": [text], "events": [text], "score": {"totals", "lines"}}

Verification recomputes the wall from the seed, checks the seed against the commitment,
replays every action and compares every event and the final score; it reports the first
difference. Texts must be in canonical form, so a record with any byte of its seed or of its
actions changed does not verify.

Every replay goes through :func:`replay_steps`, one action at a time: :func:`replay`,
:func:`verify` (``twinrack replay --verify``), the web table's rebuilding of a stored game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from twinrack.card.model import Card
from twinrack.engine.actions import Action, parse_action
from twinrack.engine.events import Event
from twinrack.engine.game import apply, new_game, score
from twinrack.engine.rules import RuleSet
from twinrack.engine.state import GameState
from twinrack.engine.view import events_for
from twinrack.errors import TwinRackError
from twinrack.tiles import format_tiles, parse_tiles

FORMAT = "twinrack-record/1"


class RecordError(TwinRackError):
    """A record that cannot be read or replayed."""


class StepError(RecordError):
    """An action of a record that cannot be replayed: ``number`` (from 1) and ``text``;
    ``detail`` says why in a few words (the parser's or the referee's message). The code is
    the underlying error's (``bad_action``, or the refusal's code)."""

    def __init__(self, code: str, number: int, text: object, message: str, detail: str) -> None:
        super().__init__(code, message)
        self.number = number
        self.text = text
        self.detail = detail


@dataclass(frozen=True)
class Step:
    """One action of a record replayed: its number (from 1), text and action, the events
    it caused, and the game after it (the one state object, moving on)."""

    number: int
    text: str
    action: Action
    events: tuple[Event, ...]
    state: GameState


def replay_steps(state: GameState, actions: Iterable[object], *,
                 canonical: bool = False) -> Iterator[Step]:
    """Apply a record's actions (texts) one by one to ``state``, yielding each step; the
    first that is not text, does not parse, is not in canonical form (with ``canonical``)
    or is refused raises :class:`StepError` and ends the replay."""
    for number, text in enumerate(actions, start=len(state.actions) + 1):
        where = f"action {number} '{text}'"
        if not isinstance(text, str):
            raise StepError("bad_record", number, text, f"action {number} is not text",
                            "it is not text")
        try:
            action = parse_action(text)
        except TwinRackError as err:
            raise StepError(err.code, number, text, f"{where}: {err.message}",
                            err.message) from None
        if canonical and str(action) != text:
            raise StepError("bad_record", number, text,
                            f"{where} is not in canonical form ('{action}')",
                            f"it is not in canonical form ('{action}')")
        try:
            events = apply(state, action)
        except TwinRackError as err:
            raise StepError(err.code, number, text, f"{where} is refused on replay: "
                            f"{err.message}", err.message) from None
        yield Step(number, text, action, tuple(events), state)


def score_dict(state: GameState) -> dict[str, Any]:
    s = score(state)
    return {"totals": list(s.totals), "lines": [str(line) for line in s.lines]}


def record_of(state: GameState) -> dict[str, Any]:
    """The record of a game; the seed is included only once the game is over."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_dict(),
        "card": {"name": state.card.name, "sha256": state.card.sha256},
        "commitment": state.commitment,
        "seed": state.seed.hex() if state.over else None,
    }
    if state.stack is not None:
        rec["stack"] = format_tiles(state.stack)
    rec["actions"] = [str(a) for a in state.actions]
    rec["events"] = [str(e) for e in state.events]
    rec["score"] = score_dict(state) if state.over else None
    return rec


def record_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """The record as ``seat`` may see it (``None``: a spectator). Once the game is over
    every secret is out and this is :func:`record_of`; during play it is the log as that
    seat sees it (other seats' tiles redacted, as in its view) and no actions, whose text
    would tell which tiles a player moved or holds."""
    if state.over:
        return record_of(state)
    return {"format": FORMAT, "rules": state.rules.to_dict(),
            "card": {"name": state.card.name, "sha256": state.card.sha256},
            "commitment": state.commitment, "seed": None, "viewer": seat,
            "events": [str(e) for e in events_for(state, seat)], "score": None}


def _field(rec: dict[str, Any], key: str, kind: type) -> Any:
    if key not in rec:
        raise RecordError("bad_record", f"the record has no '{key}'")
    value = rec[key]
    if not isinstance(value, kind):
        raise RecordError("bad_record", f"'{key}' must be {kind.__name__}")
    return value


@dataclass(frozen=True)
class Verdict:
    ok: bool
    problem: str = ""
    state: GameState | None = None


def _start(rec: dict[str, Any], card: Card) -> GameState:
    if not isinstance(rec, dict):
        raise RecordError("bad_record", "a record is a JSON object")
    if rec.get("format") != FORMAT:
        raise RecordError("bad_record", f"unknown record format {rec.get('format')!r} "
                                        f"(expected {FORMAT})")
    rules = RuleSet.from_dict(_field(rec, "rules", dict))
    card_info = _field(rec, "card", dict)
    if card_info.get("sha256") != card.sha256:
        raise RecordError("card_mismatch", f"the record was played with card "
                                           f"{card_info.get('name')!r} "
                                           f"(sha256 {card_info.get('sha256')}), not this one "
                                           f"(sha256 {card.sha256})")
    seed_hex = rec.get("seed")
    if not isinstance(seed_hex, str):
        raise RecordError("no_seed", "the record carries no seed (the game has not ended): "
                                     "its wall cannot be checked yet")
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise RecordError("bad_seed", "the seed is not hexadecimal") from None
    if not seed or seed.hex() != seed_hex:
        raise RecordError("bad_seed", "the seed is not in canonical form (lower-case hex)")
    commit = _field(rec, "commitment", str)
    if hashlib.sha256(seed).hexdigest() != commit:
        raise RecordError("commitment_mismatch",
                          "sha256(seed) differs from the commitment published at the deal")
    stack = None
    if rec.get("stack") is not None:
        stack = parse_tiles(_field(rec, "stack", str))
    try:
        return new_game(rules, seed=seed, card=card, stack=stack)
    except TwinRackError as err:
        raise RecordError("bad_record", err.message) from None


def start_of(rec: dict[str, Any], card: Card) -> GameState:
    """The game a record starts from (its deal), checked as :func:`replay` checks it;
    raises :class:`RecordError`."""
    return _start(rec, card)


def replay(rec: dict[str, Any], card: Card) -> GameState:
    """Replay a record's actions from its seed; raises :class:`RecordError`."""
    state = _start(rec, card)
    try:
        for _step in replay_steps(state, map(str, _field(rec, "actions", list))):
            pass
    except StepError as err:
        raise RecordError("bad_action", f"action {err.number} '{err.text}': "
                                        f"{err.detail}") from None
    return state


def verify(rec: dict[str, Any], card: Card) -> Verdict:
    """Check a record completely; the first difference found is reported."""
    try:
        state = _start(rec, card)
        actions = _field(rec, "actions", list)
        events = _field(rec, "events", list)
    except TwinRackError as err:
        return Verdict(False, err.message)

    def compare(start: int, where: str) -> str:
        for k in range(start, len(state.events)):
            mine = str(state.events[k])
            if k >= len(events):
                return f"{where}: event {k + 1} '{mine}' is missing from the record"
            if events[k] != mine:
                return f"{where}: event {k + 1} is '{events[k]}' in the record, '{mine}' " \
                       "on replay"
        return ""

    problem = compare(0, "the deal")
    if problem:
        return Verdict(False, problem, state)
    try:
        for step in replay_steps(state, actions, canonical=True):
            problem = compare(len(state.events) - len(step.events),
                              f"action {step.number} '{step.text}'")
            if problem:
                return Verdict(False, problem, state)
    except StepError as err:
        return Verdict(False, err.message, state)
    if len(events) != len(state.events):
        return Verdict(False, f"the record has {len(events)} events, the replay "
                              f"{len(state.events)}", state)
    if not state.over:
        return Verdict(False, "the replayed game has not ended", state)
    if rec.get("score") != score_dict(state):
        return Verdict(False, f"the score differs: the record says {rec.get('score')}, the "
                              f"replay {score_dict(state)}", state)
    return Verdict(True, "", state)
