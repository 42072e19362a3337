"""What a player can do: frozen action records, each with a text form that parses back.

Text forms (racks and exposures are counted from 1, seats from 0; the seat prefix is
optional when the seat is given to :func:`parse_action`)::

    0: discard 5B                  1: pass
    1: claim mahjongg              1: claim double          1: claim expose
    1: expose 2 6C 6C J            (rack 2; the claimed tile is among them)
    0: exchange 6C from 1:2:1      (seat 1, rack 2, first exposure on that rack)
    0: mahjongg 1 F F 2B 2B J ...  (the concealed tiles put on rack 1; "mahjongg 1" declares
                                    a rack exposed in full, or in strict mode the tiles
                                    arranged on that rack)
    0: move 5B 1>2                 0: declare Special-1 F N E W S ...   0: undeclare
    1: withdraw                    (give a granted discard back before exposing anything)

The Charleston of the American game (docs/rules.md, section 3)::

    1: charleston 1B 5C 9D         (the three tiles passed)
    1: charleston 1B 5C blind 1    (two tiles and one of those received, unseen)
    1: charleston blind 3          (the three tiles received, passed on unseen)
    1: vote again                  1: vote stop        (the second Charleston, or not)
    1: offer 2                     (the courtesy pass: 0 to 3 tiles offered across)
    1: courtesy 1B 2B              (the tiles of the courtesy pass)

``str(action)`` is the text form and ``repr(action)`` pastes into a test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, cast

from twinrack.errors import NotationError
from twinrack.tiles import CANONICAL, JOKER, format_tiles, parse_tiles, tile_index

#: what a discard is claimed for (section 4)
ClaimKind = Literal["mahjongg", "double", "expose"]
CLAIM_KINDS: tuple[ClaimKind, ...] = ("mahjongg", "double", "expose")
#: the claims for Mah Jongg (a Double is one on every open rack)
MAHJONGG_CLAIMS: tuple[ClaimKind, ...] = ("mahjongg", "double")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; ``seat`` is who acts."""

    seat: int
    #: the first word of the text form: what kind of action this is
    verb: ClassVar[str] = ""

    def body(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return f"{self.seat}: {self.body()}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    verb: ClassVar[str] = "discard"

    tile: int

    def body(self) -> str:
        return f"discard {CANONICAL[self.tile]}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass on a discard in the claim window, or on declaring a hand after the deal."""

    verb: ClassVar[str] = "pass"

    def body(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Claim the latest discard: ``mahjongg``, ``double`` (a Double Mah Jongg) or ``expose``."""

    verb: ClassVar[str] = "claim"

    kind: ClaimKind

    def body(self) -> str:
        return f"claim {self.kind}"


@dataclass(frozen=True, slots=True)
class Expose(Action):
    """Put a group (pung or more, Jokers allowed) on a rack; ``tiles`` sorted, Jokers last."""

    verb: ClassVar[str] = "expose"

    rack: int
    tiles: tuple[int, ...]

    def body(self) -> str:
        return f"expose {self.rack + 1} {format_tiles(self.tiles)}"


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Give ``tile`` for a Joker of exposure ``index`` on rack ``rack`` of seat ``owner``."""

    verb: ClassVar[str] = "exchange"

    tile: int
    owner: int
    rack: int
    index: int

    def body(self) -> str:
        return (f"exchange {CANONICAL[self.tile]} from "
                f"{self.owner}:{self.rack + 1}:{self.index + 1}")


@dataclass(frozen=True, slots=True)
class MahJongg(Action):
    """Declare Mah Jongg on ``rack`` with these concealed tiles (sorted). Empty ``tiles``
    declares a rack exposed in full (no tile to add), or otherwise the tiles arranged on
    that rack (strict mode: the way a Mah Jongg in error is made)."""

    verb: ClassVar[str] = "mahjongg"

    rack: int
    tiles: tuple[int, ...] = ()

    def body(self) -> str:
        if not self.tiles:
            return f"mahjongg {self.rack + 1}"
        return f"mahjongg {self.rack + 1} {format_tiles(self.tiles)}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move one concealed tile between two of the player's own racks."""

    verb: ClassVar[str] = "move"

    tile: int
    src: int
    dst: int

    def body(self) -> str:
        return f"move {CANONICAL[self.tile]} {self.src + 1}>{self.dst + 1}"


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Declare a card line flagged ``declared`` right after the deal, fixing 13 tiles on
    the first rack (sorted)."""

    verb: ClassVar[str] = "declare"

    hand: str
    tiles: tuple[int, ...]

    def body(self) -> str:
        return f"declare {self.hand} {format_tiles(self.tiles)}"


@dataclass(frozen=True, slots=True)
class Undeclare(Action):
    """Go off a declared hand: its tiles become ordinary concealed tiles again."""

    verb: ClassVar[str] = "undeclare"

    def body(self) -> str:
        return "undeclare"


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Take back a claim that was granted, before anything is exposed: the tile returns to
    the discards and the claim window goes on without this seat (section 4)."""

    verb: ClassVar[str] = "withdraw"

    def body(self) -> str:
        return "withdraw"


@dataclass(frozen=True, slots=True)
class CharlestonPass(Action):
    """The tiles a seat passes in one pass of the Charleston (sorted): ``blind`` more are
    taken unseen from those it receives in that same pass; 3 in all, never a Joker."""

    verb: ClassVar[str] = "charleston"

    tiles: tuple[int, ...]
    blind: int = 0

    def body(self) -> str:
        parts = ["charleston"]
        if self.tiles:
            parts.append(format_tiles(self.tiles))
        if self.blind:
            parts.append(f"blind {self.blind}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """After the first Charleston: ``again`` for the second one, or stop it."""

    verb: ClassVar[str] = "vote"

    again: bool

    def body(self) -> str:
        return "vote again" if self.again else "vote stop"


@dataclass(frozen=True, slots=True)
class Offer(Action):
    """How many tiles (0 to 3) the seat would pass across in the courtesy pass."""

    verb: ClassVar[str] = "offer"

    count: int

    def body(self) -> str:
        return f"offer {self.count}"


@dataclass(frozen=True, slots=True)
class Courtesy(Action):
    """The tiles of the courtesy pass (sorted): as many as the partners agreed."""

    verb: ClassVar[str] = "courtesy"

    tiles: tuple[int, ...]

    def body(self) -> str:
        return f"courtesy {format_tiles(self.tiles)}"


#: the kinds of action of the Charleston
CHARLESTON_VERBS = ("charleston", "vote", "offer", "courtesy")


# ---------------------------------------------------------------------- parsing


def decisions(legal: Sequence[Action], arranging: bool) -> list[Action]:
    """The actions among ``legal`` that answer the table now. Moves between one's own
    racks are listed at any time during play (docs/rules.md, section 5) but only in an
    ordinary turn of one's own (``arranging``) are they part of the decision; anywhere
    else they answer nothing and are left out."""
    if arranging:
        return list(legal)
    return [a for a in legal if type(a) is not Move]


def _bad(text: str, why: str) -> NotationError:
    return NotationError("bad_action", f"cannot read action '{text}': {why}")


def _number(text: str, token: str, what: str, base: int = 1) -> int:
    if not token.isdigit():
        raise _bad(text, f"{what} must be a number, not '{token}'")
    n = int(token) - base
    if n < 0:
        raise _bad(text, f"{what} is counted from {base}")
    return n


def _tiles(text: str, tokens: list[str]) -> tuple[int, ...]:
    try:
        return tuple(sorted(parse_tiles(" ".join(tokens))))
    except NotationError as err:
        raise _bad(text, err.message) from None


def _tile(text: str, token: str) -> int:
    try:
        return tile_index(token)
    except NotationError as err:
        raise _bad(text, err.message) from None


def split_seat(text: str) -> tuple[int | None, str]:
    head, sep, rest = text.partition(":")
    if sep and head.strip().isdigit():
        return int(head.strip()), rest.strip()
    return None, text.strip()


def parse_action(text: str, seat: int | None = None) -> Action:
    """Parse an action's text form (``"0: discard 5B"`` or ``"discard 5B"`` with ``seat``)."""
    given, body = split_seat(text)
    if given is not None:
        if seat is not None and seat != given:
            raise _bad(text, f"it names seat {given}, not seat {seat}")
        seat = given
    if seat is None:
        raise _bad(text, "it does not say which seat acts (write '0: discard 5B')")
    tokens = body.split()
    if not tokens:
        raise _bad(text, "it is empty")
    verb, args = tokens[0].lower(), tokens[1:]
    if verb == "discard":
        if len(args) != 1:
            raise _bad(text, "write 'discard TILE'")
        return Discard(seat, _tile(text, args[0]))
    if verb == "pass":
        if args:
            raise _bad(text, "'pass' takes nothing more")
        return Pass(seat)
    if verb in ("undeclare", "withdraw"):
        if args:
            raise _bad(text, f"'{verb}' takes nothing more")
        return Undeclare(seat) if verb == "undeclare" else Withdraw(seat)
    if verb == "claim":
        if len(args) != 1 or args[0].lower() not in CLAIM_KINDS:
            raise _bad(text, "write 'claim mahjongg', 'claim double' or 'claim expose'")
        return Claim(seat, cast(ClaimKind, args[0].lower()))
    if verb == "expose":
        if len(args) < 2:
            raise _bad(text, "write 'expose RACK TILES'")
        tiles = _tiles(text, args[1:])
        return Expose(seat, _number(text, args[0], "rack"), tiles)
    if verb == "mahjongg":
        if not args:
            raise _bad(text, "write 'mahjongg RACK TILES'")
        return MahJongg(seat, _number(text, args[0], "rack"), _tiles(text, args[1:]))
    if verb == "move":
        if len(args) != 2 or ">" not in args[1]:
            raise _bad(text, "write 'move TILE FROM>TO'")
        src, _, dst = args[1].partition(">")
        return Move(seat, _tile(text, args[0]), _number(text, src, "rack"),
                    _number(text, dst, "rack"))
    if verb == "exchange":
        if len(args) != 3 or args[1].lower() != "from" or args[2].count(":") != 2:
            raise _bad(text, "write 'exchange TILE from SEAT:RACK:EXPOSURE'")
        s, r, x = args[2].split(":")
        tile = _tile(text, args[0])
        if tile == JOKER:
            raise _bad(text, "a Joker is exchanged for a natural tile, not for a Joker")
        return Exchange(seat, tile, _number(text, s, "seat", 0), _number(text, r, "rack"),
                        _number(text, x, "exposure"))
    if verb == "declare":
        if len(args) < 2:
            raise _bad(text, "write 'declare HAND TILES'")
        return Declare(seat, args[0], _tiles(text, args[1:]))
    if verb in CHARLESTON_VERBS:
        return _charleston(text, seat, verb, args)
    raise _bad(text, f"unknown verb '{tokens[0]}' (expected discard, pass, claim, expose, "
                     "exchange, mahjongg, move, declare, undeclare, withdraw, charleston, "
                     "vote, offer or courtesy)")


def _charleston(text: str, seat: int, verb: str, args: list[str]) -> Action:
    """The actions of the Charleston, once their verb is known."""
    if verb == "vote":
        if len(args) != 1 or args[0].lower() not in ("again", "stop"):
            raise _bad(text, "write 'vote again' or 'vote stop'")
        return Vote(seat, args[0].lower() == "again")
    if verb == "offer":
        if len(args) != 1:
            raise _bad(text, "write 'offer N' (0 to 3 tiles)")
        return Offer(seat, _number(text, args[0], "the count", 0))
    if verb == "courtesy":
        if not args:
            raise _bad(text, "write 'courtesy TILES'")
        return Courtesy(seat, _tiles(text, args))
    blind = 0
    lowered = [a.lower() for a in args]
    if "blind" in lowered:
        at = lowered.index("blind")
        if at != len(args) - 2:
            raise _bad(text, "write 'charleston TILES', 'charleston TILES blind N' or "
                             "'charleston blind 3'")
        blind = _number(text, args[-1], "the blind count", 0)
        args = args[:at]
    if not args and not blind:
        raise _bad(text, "write 'charleston TILES' (three tiles to pass)")
    return CharlestonPass(seat, _tiles(text, args) if args else (), blind)
