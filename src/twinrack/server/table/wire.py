"""What the table protocol says about a game, built from the engine's own objects
(docs/protocol.md): legal actions as objects, the log as narrated lines.

A browser renders these as they come: it parses no action text and no event grammar, and
it learns nothing the engine's view and ``seen_by`` do not give its seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

import orjson

from twinrack.engine import (
    Action,
    Claim,
    Declare,
    Discard,
    Event,
    Exchange,
    Expose,
    GameState,
    MahJongg,
    Move,
    legal_actions,
)
from twinrack.engine.actions import CharlestonPass, Courtesy, Offer, Vote
from twinrack.engine.advice import claim_outcome, kills_rack
from twinrack.engine.events import Discarded, redacted
from twinrack.narration import (
    LABELS,
    claim_words,
    end_words,
    narrate_log,
    still_declaring,
    tone,
    verdict_words,
)
from twinrack.tiles import CANONICAL

#: the version of the table protocol; a client says which one it speaks when it connects
#: (``/ws/{game}?protocol=N``) and is refused clearly when it is another
PROTOCOL = 2
#: the WebSocket close code after refusing a client of another protocol (reconnecting
#: cannot help: the page must be loaded again)
CLOSE_PROTOCOL = 4426


#: the standard library's compact JSON, for what orjson does not take (a named tuple, an
#: integer beyond 64 bits); the messages are plain trees, so it skips its cycle check
_slow_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def encode(msg: Any) -> str:
    """A message as the socket sends it: compact JSON, by orjson (a state message takes it
    a seventh of the standard library's time), else by the standard library."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return _slow_encode(msg)


def protocol_refusal(spoken: str | None) -> dict[str, Any]:
    """The error for a client that speaks another version of the protocol (or none)."""
    which = f"version {spoken}" if spoken else "no version"
    return {"type": "error", "code": "protocol_version", "protocol": PROTOCOL,
            "message": f"this page speaks table protocol {which} and the server "
                       f"version {PROTOCOL}: load the page again"}


def _tiles(tiles: Sequence[int]) -> list[str]:
    return [CANONICAL[t] for t in tiles]


#: each verb's object (see docs/protocol.md, "Server to browser"): its verb, its text form
#: and its own fields; an exposure also says whether it kills its rack
_OBJECTS: dict[str, Callable[[Any, bool], dict[str, Any]]] = {
    Discard.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "tile": CANONICAL[a.tile]},
    Claim.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "kind": a.kind},
    Expose.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "rack": a.rack,
                               "tiles": _tiles(a.tiles), "kills_rack": k},
    Exchange.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "tile": CANONICAL[a.tile],
                                 "owner": a.owner, "rack": a.rack, "index": a.index},
    MahJongg.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "rack": a.rack,
                                 "tiles": _tiles(a.tiles)},
    Move.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "tile": CANONICAL[a.tile],
                             "from": a.src, "to": a.dst},
    Declare.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "hand": a.hand,
                                "tiles": _tiles(a.tiles)},
    CharlestonPass.verb: lambda a, k: {"verb": a.verb, "text": a.body(),
                                       "tiles": _tiles(a.tiles), "blind": a.blind},
    Vote.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "again": a.again},
    Offer.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "count": a.count},
    Courtesy.verb: lambda a, k: {"verb": a.verb, "text": a.body(), "tiles": _tiles(a.tiles)},
}


def action_object(action: Action, kills: bool = False) -> dict[str, Any]:
    """One legal action as the protocol sends it: its verb, ``text`` (the engine's text form,
    to send back) and the fields of that verb (racks, exposures and seats counted from 0,
    as in the view); an exposure also says whether it ``kills_rack`` (ask the player
    first). Pass, undeclare and withdraw have no fields."""
    made = _OBJECTS.get(action.verb)
    return {"verb": action.verb, "text": action.body()} if made is None else made(action, kills)


def legal_objects(state: GameState, seat: int, advice: bool = True) -> list[dict[str, Any]]:
    """Every action ``seat`` may take now, as protocol objects; a claim also says what it
    would do (``advice``, unless told not to)."""
    out = []
    for a in legal_actions(state, seat):
        obj = action_object(a, a.verb == Expose.verb and kills_rack(state, a))
        if advice and isinstance(a, Claim) and state.window is not None:
            obj["advice"] = claim_advice(state, a)
        out.append(obj)
    return out


def claim_advice(state: GameState, action: Claim) -> dict[str, Any]:
    """What a claim would do, before the player makes it: ``says`` in words, ``warn`` when
    the player should think twice (every exposure kills a rack, a Mah Jongg in error, a
    claim that would not get the tile), ``withdraw`` when it could be taken back."""
    assert state.window is not None
    out = claim_outcome(state, action)
    return {"says": claim_words(out, state.window.tile),
            "warn": out.kills_every_rack or out.in_error or not out.granted,
            "withdraw": out.withdraw}


def names_for(names: Sequence[str], viewer: int | None) -> list[str]:
    """The players' names as ``viewer`` reads them: its own seat is "You"."""
    return ["You" if s == viewer else n for s, n in enumerate(names)]


def log_lines(state: GameState, viewer: int | None, names: Sequence[str],
              start: int = 0, first_discard: int | None = None) -> list[dict[str, str]]:
    """The log from event ``start`` on, as ``viewer`` may see it (each event redacted by
    its ``seen_by`` first), narrated for that viewer: each line's ``text`` and ``tone``
    (``first_discard``: the index of the game's first discard among its events, when the
    caller knows it: the events before ``start`` are not read then)."""
    seen = redacted(islice(state.events, start, None), viewer)
    declaring = (first_discard >= start if first_discard is not None
                 else still_declaring(islice(state.events, start)))
    return lines_of(seen, names_for(names, viewer), declaring=declaring)


def first_discard(events: Sequence[Event]) -> int | None:
    """The index of the first discard among a game's events (None: none yet)."""
    return next((i for i, e in enumerate(events) if isinstance(e, Discarded)), None)


def lines_of(events: Sequence[Event], names: Sequence[str],
             declaring: bool = True) -> list[dict[str, str]]:
    """Log lines of events already redacted for their reader (see
    :func:`twinrack.narration.narrate_log`)."""
    said = narrate_log(events, names, declaring=declaring, words=LABELS)
    return [{"text": text, "tone": tone(e)} for text, e in zip(said, events, strict=True)]


def score_object(result: dict[str, Any], viewer: int | None, names: Sequence[str],
                 racks: int | None = None) -> dict[str, Any]:
    """The final score as the protocol sends it: the stored result (its totals, lines, end
    reason and winner), its ``ending`` in words for ``viewer`` ("You win with a Mah Jongg
    on every rack.") and the ``verdict``, one line for the top of the end screen ("You won
    by 240, +120 to -120: Mah Jongg on both racks"); ``racks``: how many racks each player
    has."""
    said = end_words(result["end_reason"], result["winner"], names_for(names, viewer))
    verdict = verdict_words(result["totals"], result["end_reason"], result["winner"], viewer,
                            names, racks)
    return {**result, "ending": f"{said[:1].upper()}{said[1:]}.", "verdict": verdict}
