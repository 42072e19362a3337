"""Game events in words, for logs that people read: the terminal client, the replay
command and the web table (whose server sends these lines, so no browser parses events).

Pure: names are passed in (``"You"`` gets the verbs of the second person), and so is the
way tiles are written (notation in a terminal, words for a page that a screen reader
reads aloud).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

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
from twinrack.engine.actions import CharlestonPass, Courtesy, Offer, Vote
from twinrack.engine.advice import ClaimOutcome
from twinrack.engine.events import (
    CharlestonOver,
    Chosen,
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
    Offered,
    Passed,
    PassMade,
    Picked,
    RackDead,
    Received,
    Started,
    Stopped,
    Undeclared,
    Voted,
    Withdrawn,
)
from twinrack.tiles import CANONICAL, format_tiles

CLAIM_WORDS = {"expose": "an exposure", "mahjongg": "Mah Jongg", "double": "a Double Mah Jongg"}

_VERBS = {
    "is": "are", "picks": "pick", "discards": "discard", "passes": "pass", "calls": "call",
    "takes": "take", "exposes": "expose", "gives": "give", "declares": "declare",
    "moves": "move", "goes": "go", "has": "have", "wins": "win", "withdraws": "withdraw",
    "receives": "receive", "chooses": "choose", "offers": "offer", "votes": "vote",
    "stops": "stop",
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


#: every tile kind in words, by index
_LABELS = tuple(tile_label(t) for t in range(len(CANONICAL)))

#: tiles in words (``5 Bam, 5 Bam, Joker``): the web table
LABELS = TileWords(_LABELS.__getitem__, lambda tiles: ", ".join(map(_LABELS.__getitem__, tiles)))


def _says(name: str, verb: str) -> str:
    """``Bot picks`` / ``You pick``."""
    return f"{name} {_VERBS.get(verb, verb) if name == 'You' else verb}"


def owner_words(name: str) -> str:
    """``your`` / ``Bot's``."""
    return "your" if name == "You" else f"{name}'s"


class _Teller:
    """Who is who and how tiles are written, for one log."""

    __slots__ = ("names", "tile", "tiles")

    def __init__(self, names: Sequence[str], words: TileWords) -> None:
        self.names = names
        self.tile, self.tiles = words

    def who(self, seat: int | None) -> str:
        return "?" if seat is None else self.names[seat]

    def says(self, seat: int | None, verb: str) -> str:
        """``Bot picks`` / ``You pick``."""
        return _says(self.who(seat), verb)


def _dealt(e: Dealt, t: _Teller, declaring: bool) -> str:
    if e.tiles is not None:
        return f"{t.says(e.seat, 'is')} dealt {e.count}: {t.tiles(e.tiles)}"
    return f"{t.says(e.seat, 'is')} dealt {e.count} tiles"


def _picked(e: Picked, t: _Teller, declaring: bool) -> str:
    return f"{t.says(e.seat, 'picks')} {t.tile(e.tile) if e.tile is not None else 'a tile'}"


def _passed(e: Passed, t: _Teller, declaring: bool) -> str:
    if declaring:
        return f"{t.says(e.seat, 'declares')} no Atomic-style hand"
    return f"  {t.says(e.seat, 'passes')}"


def _granted(e: Granted, t: _Teller, declaring: bool) -> str:
    return (f"{t.says(e.seat, 'takes')} {t.tile(e.tile)} from {t.who(e.discarder)} "
            f"for {CLAIM_WORDS.get(e.kind, e.kind)}")


def _dead(e: RackDead, t: _Teller, declaring: bool) -> str:
    why = "its exposures fit no line" if e.reason == "exposure" else "Mah Jongg in error"
    return f"{owner_words(t.who(e.seat)).capitalize()} rack {e.rack + 1} is DEAD: {why}"


def _exchanged(e: Exchanged, t: _Teller, declaring: bool) -> str:
    return (f"{t.says(e.seat, 'gives')} {t.tile(e.tile)} for a Joker on "
            f"{owner_words(t.who(e.owner))} rack {e.rack + 1}")


def _mahjongg(e: MahJonggDeclared, t: _Teller, declaring: bool) -> str:
    flags = ", ".join(f for f, on in (("jokerless", e.jokerless), ("closed", e.closed)) if on)
    return (f"{t.says(e.seat, 'declares')} MAH JONGG on rack {e.rack + 1}: {e.hand}"
            f"{' (' + flags + ')' if flags else ''}")


def _in_error(e: MahJonggError, t: _Teller, declaring: bool) -> str:
    if e.rack is None:
        return f"{t.says(e.seat, 'has')} no Mah Jongg with the claimed tile (in error)"
    return f"{t.says(e.seat, 'declares')} a Mah Jongg in error on rack {e.rack + 1}"


def _moved(e: Moved, t: _Teller, declaring: bool) -> str:
    moved = f"{t.tile(e.tile)} " if e.tile is not None else "a tile "
    return f"{t.says(e.seat, 'moves')} {moved}from rack {e.src + 1} to rack {e.dst + 1}"


# ------------------------------------------------------------------ the Charleston


_CHOICE = {"charleston": "pass", "courtesy": "pass across"}


def _chosen(e: Chosen, t: _Teller, declaring: bool) -> str:
    if e.detail is None:
        return f"  {t.who(e.seat)} has chosen"
    return f"  {t.says(e.seat, 'chooses')}: {_CHOICE.get(e.kind, e.kind)} {e.detail}"


def _pass_made(e: PassMade, t: _Teller, declaring: bool) -> str:
    which, _, way = e.name.partition("-")
    blind = [f"{t.who(s)} {k} blind" for s, k in enumerate(e.blind) if k]
    return (f"The {which} Charleston: everyone passes {way}"
            + (f" ({', '.join(blind)})" if blind else ""))


def _received(e: Received, t: _Teller, declaring: bool) -> str:
    what = t.tiles(e.tiles) if e.tiles is not None else f"{e.count} tiles"
    return f"  {t.says(e.seat, 'receives')} {what}"


def _voted(e: Voted, t: _Teller, declaring: bool) -> str:
    stoppers = [t.who(s) for s, v in enumerate(e.votes) if v == "stop"]
    if not stoppers:
        return "Everyone votes again: the second Charleston"
    return f"{' and '.join(stoppers)} stopped the second Charleston"


def _offered(e: Offered, t: _Teller, declaring: bool) -> str:
    k = min(e.count, e.partner_count)
    return (f"{t.who(e.seat)} offered {e.count}, {t.who(e.partner)} {e.partner_count}: "
            f"they pass {k} across" if k else
            f"{t.who(e.seat)} offered {e.count}, {t.who(e.partner)} {e.partner_count}: "
            "no courtesy pass between them")


#: each kind of event in words (``declaring``: in the round of declarations after the deal)
_TELL: dict[type[Event], Callable[[Any, _Teller, bool], str]] = {
    Started: lambda e, t, d: (f"New game: {e.variant.title()}, {e.players} players, "
                              f"{e.revision} rules; wall committed to sha256 "
                              f"{e.commitment[:12]}..."),
    Cut: lambda e, t, d: f"East throws {e.die}: the first wall is cut by {e.die} stacks",
    Dealt: _dealt,
    Picked: _picked,
    Discarded: lambda e, t, d: f"{t.says(e.seat, 'discards')} {t.tile(e.tile)}",
    Passed: _passed,
    Claimed: lambda e, t, d: (f"  {t.says(e.seat, 'calls')} for "
                              f"{CLAIM_WORDS.get(e.kind, e.kind)}"),
    Granted: _granted,
    Exposed: lambda e, t, d: (f"{t.says(e.seat, 'exposes')} {t.tiles(e.tiles)} on rack "
                              f"{e.rack + 1}"),
    RackDead: _dead,
    Exchanged: _exchanged,
    MahJonggDeclared: _mahjongg,
    MahJonggError: _in_error,
    Moved: _moved,
    HandDeclared: lambda e, t, d: f"{t.says(e.seat, 'declares')} {e.hand} (an Atomic-style hand)",
    Undeclared: lambda e, t, d: f"{t.says(e.seat, 'goes')} off the declared hand ({e.reason})",
    Withdrawn: lambda e, t, d: (f"{t.says(e.seat, 'withdraws')} the claim: {t.tile(e.tile)} "
                                "goes back to the discards"),
    Stopped: lambda e, t, d: f"{t.says(e.seat, 'has')} no open rack left and stops",
    Chosen: _chosen,
    PassMade: _pass_made,
    Received: _received,
    Voted: _voted,
    Offered: _offered,
    CharlestonOver: lambda e, t, d: "The Charleston is over: East discards first",
    Ended: lambda e, t, d: f"GAME OVER: {end_words(e.reason, e.seat, t.names)}",
}


def narrate(e: Event, names: Sequence[str], declaring: bool = False,
            words: TileWords = NOTATION) -> str:
    """One event in words, from the player's side of the table (``declaring``: during the
    round of declarations right after the deal)."""
    tell = _TELL.get(type(e))
    return str(e) if tell is None else tell(e, _Teller(names, words), declaring)


#: how a line stands out in a log (see :func:`tone`)
_TONES: dict[type[Event], str] = {MahJonggDeclared: "win", Ended: "win", RackDead: "dead",
                                  Picked: "quiet", Passed: "quiet"}


def tone(e: Event) -> str:
    """How an event's line stands out in a log: ``win`` (a Mah Jongg, the end of the game),
    ``dead`` (a rack dies), ``quiet`` (picks and passes, the most frequent) or ``""``."""
    return _TONES.get(type(e), "")


def still_declaring(events: Iterable[Event]) -> bool:
    """Whether a game whose log so far is ``events`` is still in the round of declarations
    right after the deal (rules section 3): no tile has been discarded yet."""
    return not any(isinstance(e, Discarded) for e in events)


def narrate_log(events: Sequence[Event], names: Sequence[str], *, declaring: bool = True,
                words: TileWords = NOTATION) -> list[str]:
    """The lines of ``events``, one per event (``declaring``: the game is still in its round
    of declarations when they begin, see :func:`still_declaring`; a pass in it is a pass on
    declaring a hand, every later pass one on a discard)."""
    teller = _Teller(names, words)
    out = []
    for e in events:
        if declaring and isinstance(e, Discarded):
            declaring = False
        tell = _TELL.get(type(e))
        out.append(str(e) if tell is None else tell(e, teller, declaring))
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
    elif isinstance(a, CharlestonPass):
        shown = [tiles(a.tiles)] if a.tiles else []
        what = "pass " + " and ".join(shown + ([f"{a.blind} blind"] if a.blind else []))
    elif isinstance(a, Courtesy):
        what = f"pass {tiles(a.tiles)} across (courtesy)"
    elif isinstance(a, Vote):
        what = "vote for the second Charleston" if a.again else "stop the Charleston"
    elif isinstance(a, Offer):
        what = f"offer {a.count} for the courtesy pass"
    else:
        what = {"pass": "pass", "undeclare": "go off the declared hand",
                "withdraw": "withdraw the claim"}.get(a.verb, a.body())
    return f"{names[a.seat]}: {what}"


def _racks_words(racks: Sequence[int]) -> str:
    """``rack 2`` / ``rack 1 or 2``: the racks a player may choose from (counted from 0)."""
    n = [str(r + 1) for r in racks]
    if len(n) == 1:
        return f"rack {n[0]}"
    return f"rack {', '.join(n[:-1])} or {n[-1]}"


def claim_words(outcome: ClaimOutcome, tile: int) -> str:
    """What a claim on discard ``tile`` would do, said before the player makes it (from
    :func:`twinrack.engine.advice.claim_outcome`)."""
    name = tile_label(tile)
    if not outcome.granted:
        return "A claim already made comes first: this one would not get the tile"
    if outcome.kind == "double":
        return f"Mah Jongg on every rack with {name}: you win"
    if outcome.kind == "mahjongg":
        if not outcome.mahjongg:
            return (f"No Mah Jongg with {name}: the claim would be in error (you could then "
                    "only expose the group it completes, or withdraw)")
        return f"Mah Jongg with {name} on {_racks_words(outcome.mahjongg)}"
    if not outcome.alive:
        return f"Every exposure of {name} kills a rack"
    if outcome.killed:
        return (f"Expose {name} on {_racks_words(outcome.alive)}; on "
                f"{_racks_words(outcome.killed)} an exposure of it kills the rack")
    return f"Expose {name} in a group on {_racks_words(outcome.alive)}"


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
    if reason == "error":
        return "a Mah Jongg in error left fewer than two hands in play"
    return str(reason)


_EVERY_RACK = {1: "its rack", 2: "both racks", 3: "all three racks", 4: "all four racks"}


def outcome(totals: Sequence[int], seat: int) -> tuple[str, int, int]:
    """How a game ended for ``seat`` by the totals: ``won`` (more than every other seat),
    ``draw`` (level with the best of them) or ``lost``; by how many points (over or
    under the best other seat); and which seat that is."""
    others = [s for s in range(len(totals)) if s != seat]
    if not others:
        return "won", 0, seat
    best = max(others, key=lambda s: totals[s])
    margin = totals[seat] - totals[best]
    return ("won" if margin > 0 else "draw" if margin == 0 else "lost"), abs(margin), best


def outcome_words(totals: Sequence[int], seat: int, names: Sequence[str] | None = None
                  ) -> str:
    """The result for ``seat`` in words: "won by 80, +130 to +50", "lost by 80, +50 to
    +130", "a draw, +0 each" (``names``: to name the other seat, with three or four)."""
    how, margin, other = outcome(totals, seat)
    mine, theirs = totals[seat], totals[other]
    them = f"{names[other]}'s " if names is not None and len(totals) > 2 else ""
    if how == "draw":
        with_whom = f" with {names[other]}" if them and names is not None else ""
        return f"a draw{with_whom}, {mine:+d} each"
    return f"{how} by {margin}, {mine:+d} to {them}{theirs:+d}"


def verdict_words(totals: Sequence[int], reason: str | None, winner: int | None,
                  viewer: int | None, names: Sequence[str], racks: int | None) -> str:
    """The end of a game in one line for ``viewer`` (``None``: a spectator), the first thing
    the end screen says, won or lost and by how much: "You won by 240, +120 to -120: Mah
    Jongg on both racks", "You lost by 80, +50 to +130: Bea went Mah Jongg on both
    racks"."""
    who = names[winner] if winner is not None else "?"
    if reason == "mahjongg":
        how = ("Mah Jongg" if racks == 1
               else "Mah Jongg on " + _EVERY_RACK.get(racks or 0, "every rack"))
        why = how if winner == viewer else f"{who} went {how}"
    elif reason == "dead":
        why = f"all of {owner_words(who if winner != viewer else 'You')} racks are dead"
    else:
        why = {"wall": "the wall ran out", "stopped": "no one was left to play",
               "error": "a Mah Jongg in error ended it"}.get(str(reason), str(reason))
    if viewer is None:
        if not totals:
            return f"The game is over: {why}"
        top = max(range(len(totals)), key=lambda s: totals[s])
        if outcome(totals, top)[0] == "draw":
            return f"A draw at {totals[top]:+d}: {why}"
        return f"{names[top]} {outcome_words(totals, top, names)}: {why}"
    said = outcome_words(totals, viewer, names)
    return f"A{said[1:]}: {why}" if said.startswith("a draw") else f"You {said}: {why}"
