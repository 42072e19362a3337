"""Game events in words, for logs that people read: the terminal client, the replay
command and the web table (whose server sends these lines, so no browser parses events).

Pure: names are passed in (``"You"`` gets the verbs of the second person), and so is the
way tiles are written (notation in a terminal, words for a page that a screen reader
reads aloud).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from twinrack.engine import (
    Action,
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
)
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


class TileWords(NamedTuple):
    """How a log writes one tile and a group of tiles."""

    tile: Callable[[int], str]
    tiles: Callable[[Sequence[int]], str]


#: tiles in notation (``5B``, ``5B 5B J``): the terminal client and the replay command
NOTATION = TileWords(CANONICAL.__getitem__, format_tiles)

_SUITS = {"B": "Bam", "C": "Crak", "D": "Dot"}
_HONOURS = {"N": "North wind", "E": "East wind", "W": "West wind", "S": "South wind",
            "R": "Red dragon", "G": "Green dragon", "0": "White dragon", "F": "Flower",
            "J": "Joker"}


def tile_label(tile: int) -> str:
    """A tile in words (``5 Bam``, ``White dragon``), as the web table's images are labelled."""
    name = CANONICAL[tile]
    if len(name) == 2 and name[1] in _SUITS:
        return f"{name[0]} {_SUITS[name[1]]}"
    return _HONOURS.get(name, name)


#: tiles in words (``5 Bam, 5 Bam, Joker``): the web table
LABELS = TileWords(tile_label, lambda tiles: ", ".join(tile_label(t) for t in tiles))


def _says(name: str, verb: str) -> str:
    """``Bot picks`` / ``You pick``."""
    return f"{name} {_VERBS.get(verb, verb) if name == 'You' else verb}"


def owner_words(name: str) -> str:
    """``your`` / ``Bot's``."""
    return "your" if name == "You" else f"{name}'s"


def narrate(e: Event, names: Sequence[str], declaring: bool = False,
            words: TileWords = NOTATION) -> str:
    """One event in words, from the player's side of the table (``declaring``: during the
    round of declarations right after the deal)."""
    def who(s: int | None) -> str:
        return "?" if s is None else names[s]

    tile, tiles = words
    if isinstance(e, Started):
        return (f"New game: {e.variant.title()}, {e.players} players, {e.revision} rules; "
                f"wall committed to sha256 {e.commitment[:12]}...")
    if isinstance(e, Cut):
        return f"East throws {e.die}: the first wall is cut by {e.die} stacks"
    if isinstance(e, Dealt):
        if e.tiles is not None:
            return f"{_says(who(e.seat), 'is')} dealt {e.count}: {tiles(e.tiles)}"
        return f"{_says(who(e.seat), 'is')} dealt {e.count} tiles"
    if isinstance(e, Picked):
        picked = tile(e.tile) if e.tile is not None else "a tile"
        return f"{_says(who(e.seat), 'picks')} {picked}"
    if isinstance(e, Discarded):
        return f"{_says(who(e.seat), 'discards')} {tile(e.tile)}"
    if isinstance(e, Passed):
        if declaring:
            return f"{_says(who(e.seat), 'declares')} no Atomic-style hand"
        return f"  {_says(who(e.seat), 'passes')}"
    if isinstance(e, Claimed):
        return f"  {_says(who(e.seat), 'calls')} for {CLAIM_WORDS.get(e.kind, e.kind)}"
    if isinstance(e, Granted):
        return (f"{_says(who(e.seat), 'takes')} {tile(e.tile)} from {who(e.discarder)} "
                f"for {CLAIM_WORDS.get(e.kind, e.kind)}")
    if isinstance(e, Exposed):
        return f"{_says(who(e.seat), 'exposes')} {tiles(e.tiles)} on rack {e.rack + 1}"
    if isinstance(e, RackDead):
        why = "its exposures fit no line" if e.reason == "exposure" else "Mah Jongg in error"
        return f"{owner_words(who(e.seat)).capitalize()} rack {e.rack + 1} is DEAD: {why}"
    if isinstance(e, Exchanged):
        return (f"{_says(who(e.seat), 'gives')} {tile(e.tile)} for a Joker on "
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
        moved = f"{tile(e.tile)} " if e.tile is not None else "a tile "
        return f"{_says(who(e.seat), 'moves')} {moved}from rack {e.src + 1} to rack {e.dst + 1}"
    if isinstance(e, HandDeclared):
        return f"{_says(who(e.seat), 'declares')} {e.hand} (an Atomic-style hand)"
    if isinstance(e, Undeclared):
        return f"{_says(who(e.seat), 'goes')} off the declared hand ({e.reason})"
    if isinstance(e, Withdrawn):
        return (f"{_says(who(e.seat), 'withdraws')} the claim: {tile(e.tile)} goes back "
                "to the discards")
    if isinstance(e, Stopped):
        return f"{_says(who(e.seat), 'has')} no open rack left and stops"
    if isinstance(e, Ended):
        return f"GAME OVER: {end_words(e.reason, e.seat, names)}"
    return str(e)


def tone(e: Event) -> str:
    """How an event's line stands out in a log: ``win`` (a Mah Jongg, the end of the game),
    ``dead`` (a rack dies), ``quiet`` (picks and passes, the most frequent) or ``""``."""
    if isinstance(e, MahJonggDeclared | Ended):
        return "win"
    if isinstance(e, RackDead):
        return "dead"
    if isinstance(e, Picked | Passed):
        return "quiet"
    return ""


def still_declaring(events: Iterable[Event]) -> bool:
    """Whether a game whose log so far is ``events`` is still in the round of declarations
    right after the deal (rules section 3): no tile has been discarded yet."""
    return not any(isinstance(e, Discarded) for e in events)


def narrate_log(events: Sequence[Event], names: Sequence[str], *, declaring: bool = True,
                words: TileWords = NOTATION) -> list[str]:
    """The lines of ``events``, one per event (``declaring``: the game is still in its round
    of declarations when they begin, see :func:`still_declaring`; a pass in it is a pass on
    declaring a hand, every later pass one on a discard)."""
    out = []
    for e in events:
        if declaring and isinstance(e, Discarded):
            declaring = False
        out.append(narrate(e, names, declaring=declaring, words=words))
    return out


def narrate_action(a: Action, names: Sequence[str], words: TileWords = NOTATION) -> str:
    """What a player did, in a few words (``Ann: discard 5 Bam``)."""
    tile, tiles = words
    if isinstance(a, Discard):
        what = f"discard {tile(a.tile)}"
    elif isinstance(a, Claim):
        what = f"claim for {CLAIM_WORDS.get(a.kind, a.kind)}"
    elif isinstance(a, Expose):
        what = f"expose {tiles(a.tiles)} on rack {a.rack + 1}"
    elif isinstance(a, Exchange):
        what = (f"give {tile(a.tile)} for the Joker in {owner_words(names[a.owner])} rack "
                f"{a.rack + 1}, group {a.index + 1}")
    elif isinstance(a, MahJongg):
        what = (f"Mah Jongg on rack {a.rack + 1}" if a.tiles
                else f"declare rack {a.rack + 1} as arranged")
    elif isinstance(a, Move):
        what = f"move {tile(a.tile)} from rack {a.src + 1} to rack {a.dst + 1}"
    elif isinstance(a, Declare):
        what = f"declare {a.hand}"
    else:
        what = {"pass": "pass", "undeclare": "go off the declared hand",
                "withdraw": "withdraw the claim"}.get(a.verb, a.body())
    return f"{names[a.seat]}: {what}"


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
