"""Game events in words, for logs that people read (terminal client, replay command).

Pure: names are passed in (``"You"`` gets the verbs of the second person).
"""

from __future__ import annotations

from collections.abc import Sequence

from twinrack.engine.events import (
    Claimed,
    Cut,
    Dealt,
    Discarded,
    Ended,
    Event,
    Exchanged,
    Exposed,
    Granted,
    HandDeclared,
    MahJonggDeclared,
    MahJonggError,
    Moved,
    Passed,
    Picked,
    RackDead,
    Started,
    Stopped,
    Undeclared,
    Withdrawn,
)
from twinrack.tiles import CANONICAL, format_tiles

CLAIM_WORDS = {"expose": "an exposure", "mahjongg": "Mah Jongg", "double": "a Double Mah Jongg"}

_VERBS = {
    "is": "are", "picks": "pick", "discards": "discard", "passes": "pass", "calls": "call",
    "takes": "take", "exposes": "expose", "gives": "give", "declares": "declare",
    "moves": "move", "goes": "go", "has": "have", "wins": "win", "withdraws": "withdraw",
}


def _says(name: str, verb: str) -> str:
    """``Bot picks`` / ``You pick``."""
    return f"{name} {_VERBS.get(verb, verb) if name == 'You' else verb}"


def owner_words(name: str) -> str:
    """``your`` / ``Bot's``."""
    return "your" if name == "You" else f"{name}'s"


def narrate(e: Event, names: Sequence[str], declaring: bool = False) -> str:
    """One event in words, from the player's side of the table (``declaring``: during the
    round of declarations right after the deal)."""
    def who(s: int | None) -> str:
        return "?" if s is None else names[s]

    if isinstance(e, Started):
        return (f"New game: {e.variant.title()}, {e.players} players, {e.revision} rules; "
                f"wall committed to sha256 {e.commitment[:12]}...")
    if isinstance(e, Cut):
        return f"East throws {e.die}: the first wall is cut by {e.die} stacks"
    if isinstance(e, Dealt):
        if e.tiles is not None:
            return f"{_says(who(e.seat), 'is')} dealt {e.count}: {format_tiles(e.tiles)}"
        return f"{_says(who(e.seat), 'is')} dealt {e.count} tiles"
    if isinstance(e, Picked):
        tile = CANONICAL[e.tile] if e.tile is not None else "a tile"
        return f"{_says(who(e.seat), 'picks')} {tile}"
    if isinstance(e, Discarded):
        return f"{_says(who(e.seat), 'discards')} {CANONICAL[e.tile]}"
    if isinstance(e, Passed):
        if declaring:
            return f"{_says(who(e.seat), 'declares')} no Atomic-style hand"
        return f"  {_says(who(e.seat), 'passes')}"
    if isinstance(e, Claimed):
        return f"  {_says(who(e.seat), 'calls')} for {CLAIM_WORDS.get(e.kind, e.kind)}"
    if isinstance(e, Granted):
        return (f"{_says(who(e.seat), 'takes')} {CANONICAL[e.tile]} from {who(e.discarder)} "
                f"for {CLAIM_WORDS.get(e.kind, e.kind)}")
    if isinstance(e, Exposed):
        return f"{_says(who(e.seat), 'exposes')} {format_tiles(e.tiles)} on rack {e.rack + 1}"
    if isinstance(e, RackDead):
        why = "its exposures fit no line" if e.reason == "exposure" else "Mah Jongg in error"
        return f"{owner_words(who(e.seat)).capitalize()} rack {e.rack + 1} is DEAD: {why}"
    if isinstance(e, Exchanged):
        return (f"{_says(who(e.seat), 'gives')} {CANONICAL[e.tile]} for a Joker on "
                f"{owner_words(who(e.owner))} rack {e.rack + 1}")
    if isinstance(e, MahJonggDeclared):
        flags = ", ".join(f for f, on in (("jokerless", e.jokerless), ("closed", e.closed))
                          if on)
        return (f"{_says(who(e.seat), 'declares')} MAH JONGG on rack {e.rack + 1}: {e.hand}"
                f"{' (' + flags + ')' if flags else ''}")
    if isinstance(e, MahJonggError):
        if e.rack is None:
            return f"{_says(who(e.seat), 'has')} no Mah Jongg with the claimed tile (in error)"
        return f"{_says(who(e.seat), 'declares')} a Mah Jongg in error on rack {e.rack + 1}"
    if isinstance(e, Moved):
        tile = f"{CANONICAL[e.tile]} " if e.tile is not None else "a tile "
        return f"{_says(who(e.seat), 'moves')} {tile}from rack {e.src + 1} to rack {e.dst + 1}"
    if isinstance(e, HandDeclared):
        return f"{_says(who(e.seat), 'declares')} {e.hand} (an Atomic-style hand)"
    if isinstance(e, Undeclared):
        return f"{_says(who(e.seat), 'goes')} off the declared hand ({e.reason})"
    if isinstance(e, Withdrawn):
        return (f"{_says(who(e.seat), 'withdraws')} the claim: {CANONICAL[e.tile]} goes back "
                "to the discards")
    if isinstance(e, Stopped):
        return f"{_says(who(e.seat), 'has')} no open rack left and stops"
    if isinstance(e, Ended):
        return f"GAME OVER: {end_words(e.reason, e.seat, names)}"
    return str(e)


def end_words(reason: str | None, seat: int | None, names: Sequence[str]) -> str:
    who = names[seat] if seat is not None else "?"
    if reason == "mahjongg":
        return f"{_says(who, 'wins')} with a Mah Jongg on every rack"
    if reason == "wall":
        return "the wall is spent"
    if reason == "dead":
        return f"all of {owner_words(who)} racks are dead"
    if reason == "stopped":
        return "no one is left to play"
    return str(reason)
