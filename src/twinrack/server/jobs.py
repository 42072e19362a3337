"""The slow work of the table service, done in worker processes (server/workers.py).

Each function here runs in a worker process, takes plain picklable values and returns
them: checking an uploaded card, a bot's decision, hints, rebuilding a game by replay, the
replay frames, the verification and the review of a finished game. None of it ever runs
on the event loop that serves the sockets. A worker keeps the cards it has parsed (by
their sha256), so a card is parsed once per worker, not once per job.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import tomllib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twinrack.card import Card, parse_card
from twinrack.engine import GameState, new_game, view
from twinrack.engine.actions import Action
from twinrack.engine.record import replay_steps, verify
from twinrack.engine.rules import RuleSet
from twinrack.engine.view import View
from twinrack.errors import CardError, CardProblem, TwinRackError
from twinrack.tiles import CANONICAL

_CARDS: OrderedDict[str, Card] = OrderedDict()
_BOTS: dict[tuple[str, str], Any] = {}
_CARDS_KEPT = 8


def card_of(source: str, name: str) -> Card:
    """The card of ``source``, parsed once per worker process."""
    key = hashlib.sha256(source.encode()).hexdigest()
    card = _CARDS.get(key)
    if card is None:
        card = parse_card(source, name)
        _CARDS[key] = card
        while len(_CARDS) > _CARDS_KEPT:
            old, _ = _CARDS.popitem(last=False)
            for k in [k for k in _BOTS if k[0] == old]:
                del _BOTS[k]
    else:
        _CARDS.move_to_end(key)
    return card


def warm_up() -> None:
    """Run once in each new worker: step back in the CPU queue (the process serving the
    sockets comes first: a busy worker must not delay anyone's ping), then import
    everything, load the practice card and the compiled kernel (card/kernel.py: from
    numba's cache on disk, a third of a second; compiled afresh after an install, some
    seconds), so that no job pays for it."""
    import os

    os.nice(10)
    from twinrack.bots import kernels
    from twinrack.card import practice_card
    from twinrack.card.compiled import compiled

    compiled(practice_card()).warm_up()
    kernels.warm_up()


# ---------------------------------------------------------------------- cards


def check_card_problems(source: str, name: str) -> list[CardProblem]:
    """The problems of an uploaded card, each at its line and column (none when the card
    is good)."""
    try:
        card_of(source, name)
    except CardError as err:
        return list(err.problems)
    return []


# ---------------------------------------------------------------------- bots and hints


def _bot(source: str, name: str, level: str) -> Any:
    from twinrack.bots import BOTS

    card = card_of(source, name)
    key = (card.sha256, level)
    bot = _BOTS.get(key)
    if bot is None:
        make = BOTS.get(level, BOTS["random"])  # the one way to make a bot
        bot = _BOTS[key] = make(card)
    return bot


def bot_move(source: str, name: str, level: str, seat_view: View, legal: list[Action],
             rng_state: Any) -> tuple[Action, Any]:
    """A bot's decision and its generator's state afterwards (so a table replays the same
    decisions whichever worker made them)."""
    rng = random.Random()
    rng.setstate(rng_state)
    action = _bot(source, name, level).choose(seat_view, legal, rng)
    return action, rng.getstate()


def hints_for(source: str, name: str, seat_view: View,
              legal: Sequence[Action] = ()) -> dict[str, Any]:
    from twinrack.bots.hints import hints

    # no time budget: the expert's sampled futures always run, so that the same view gets
    # the same hint however loaded the machine (the pool's time limit bounds the job)
    out: dict[str, Any] = hints(seat_view, card_of(source, name), legal=legal,
                                budget_ms=math.inf).to_dict()
    return out


def legal_for(source: str, name: str, state: GameState,
              seats: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """The legal actions of ``seats`` as protocol objects, with what each claim would do
    (trying a claim replays the window on a copy of the game: too slow for the event
    loop in a big game)."""
    from twinrack.server.table.wire import legal_objects

    attach(state, card_of(source, name))
    return {seat: legal_objects(state, seat) for seat in seats}


# ---------------------------------------------------------------------- games


@dataclass
class Rebuilt:
    """A game rebuilt from its stored rows, without its card (the owner attaches its own
    copy: a card is big, and the owner has it already)."""

    state: GameState
    msg_ids: dict[tuple[int, str], int]


def detach(state: GameState) -> GameState:
    """Make ``state`` cheap to send between processes: drop the card (a state holds no
    cache)."""
    state.card = None  # type: ignore[assignment]
    return state


def attach(state: GameState, card: Card) -> GameState:
    state.card = card
    return state


def rebuild(source: str, name: str, rules: dict[str, Any], seed_hex: str,
            rows: list[dict[str, Any]]) -> Rebuilt:
    """Replay a stored game, checking every stored event against the replay."""
    card = card_of(source, name)
    state = new_game(RuleSet.from_dict(rules), seed=bytes.fromhex(seed_hex), card=card)
    steps = replay_steps(state, (row["action"] for row in rows if row["seq"]))
    msg_ids: dict[tuple[int, str], int] = {}
    for row in rows:
        if row["seq"] == 0:
            if row["events"] != [str(e) for e in state.events]:
                raise TwinRackError("replay_mismatch", "the deal differs")
            continue
        if row["seq"] != len(state.actions) + 1:
            raise TwinRackError("replay_gap", f"action {len(state.actions) + 1} is missing")
        events = next(steps).events
        if [str(e) for e in events] != row["events"]:
            raise TwinRackError("replay_mismatch", f"action {row['seq']} replays differently")
        if row["msg_id"]:
            msg_ids[(row["seat"], row["msg_id"])] = state.seen_version(row["seat"])
    return Rebuilt(detach(state), msg_ids)


def replay_frames(source: str, name: str, rec: dict[str, Any],
                  names: list[str]) -> list[dict[str, Any]]:
    """Every step of a finished game with every seat's view, for the replay page: the
    action (its text form and in words) and the log lines it caused (every hand shown)."""
    from twinrack.narration import LABELS, narrate_action, still_declaring
    from twinrack.server.table.wire import lines_of

    card = card_of(source, name)
    rules = RuleSet.from_dict(rec["rules"])
    game = new_game(rules, seed=bytes.fromhex(rec["seed"]), card=card)
    players = rules.players
    frames = [{"action": "deal", "said": "The deal",
               "log": lines_of(game.events, names),
               "views": [view(game, s).to_dict() for s in range(players)]}]
    declaring = still_declaring(game.events)
    for step in replay_steps(game, rec["actions"]):
        frames.append({"action": step.text, "said": narrate_action(step.action, names, LABELS),
                       "log": lines_of(step.events, names, declaring),
                       "views": [view(game, s).to_dict() for s in range(players)]})
        declaring = still_declaring(game.events)
    return frames


def verify_game(source: str, name: str, rec: dict[str, Any]) -> dict[str, Any]:
    verdict = verify(rec, card_of(source, name))
    return {"ok": verdict.ok, "problem": verdict.problem}


def review_game(source: str, name: str, rec: dict[str, Any], seat: int,
                searched: int | None = None, simulations: int | None = None) -> dict[str, Any]:
    """One seat's decisions in a finished game rated by the master (``None``: the review's
    own defaults), as :meth:`twinrack.bots.review.Review.to_dict` gives them."""
    from twinrack.bots.review import SEARCHED, SIMULATIONS, review

    found = review(rec, seat, card_of(source, name),
                   searched=SEARCHED if searched is None else searched,
                   simulations=SIMULATIONS if simulations is None else simulations)
    return found.to_dict()


# ---------------------------------------------------------------------- the card editor

_HAND_HEADER = re.compile(r"^\s*\[\[\s*hand\s*\]\]")


def card_summary(source: str, name: str) -> dict[str, Any]:
    """What the card editor shows: the card's problems as the loader reports them (line,
    column, message), and for every line that loads on its own, its ways and the groups of
    its first way."""
    problems: list[dict[str, Any]] = []
    loaded = None
    try:
        loaded = card_of(source, name)
    except CardError as err:
        problems = [_problem(p.line, p.column, p.message) for p in err.problems]
    from twinrack.card.sheet import sheet

    return {"ok": not problems, "problems": problems, "hands": _hand_summaries(source, name),
            "sheet": sheet(loaded) if loaded is not None else None}


#: the loader's message for a pattern of the wrong size: about the whole pattern, not the
#: group it points at (the editor then marks all of it)
_TILE_COUNT = re.compile(r"pattern has \d+ tiles?, a hand needs \d+")


def _problem(line: int, column: int, message: str) -> dict[str, Any]:
    out: dict[str, Any] = {"line": line, "column": column, "message": message}
    if _TILE_COUNT.fullmatch(message):
        out["span"] = "pattern"
    return out


def _hand_summaries(source: str, name: str) -> list[dict[str, Any] | None]:
    """Each ``[[hand]]`` table loaded alone: its line number, ways and a sample, or None."""
    lines = source.split("\n")
    starts = [i for i, text in enumerate(lines) if _HAND_HEADER.match(text)]
    out: list[dict[str, Any] | None] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunk = 'name = "line"\n' + "\n".join(lines[start:end])
        try:
            hand = parse_card(chunk, name).hands[0]
        except (CardError, IndexError):
            out.append(None)
            continue
        out.append({"line": start + 1, "ways": len(hand.ways),
                    "sample": [[CANONICAL[g.tile]] * g.size for g in hand.ways[0].groups]})
    return out


#: the keys of a hand that the editor edits, with the types it accepts
_FIELDS = {"section": str, "pattern": str, "value": int, "id": str, "concealed": bool,
           "star": bool, "declared": bool, "suits": str, "x": list, "y": list, "note": str}


def card_fields(source: str, name: str) -> dict[str, Any]:
    """A card file as the editor's fields (to load it back for editing), or its problems
    when it is not even a TOML file of hands."""
    try:
        card_of(source, name)
    except CardError as err:
        if any(p.message.startswith("not valid") for p in err.problems):
            return {"ok": False, "problems": [{"line": p.line, "column": p.column,
                                               "message": p.message} for p in err.problems]}
    doc = tomllib.loads(source)
    hands = [{k: v for k, v in raw.items() if k in _FIELDS and isinstance(v, _FIELDS[k])}
             for raw in doc.get("hand", []) if isinstance(raw, dict)]
    return {"ok": True, "name": str(doc.get("name", "")), "edition": str(doc.get("edition", "")),
            "hands": hands}
