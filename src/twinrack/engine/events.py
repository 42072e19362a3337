"""What happened: frozen event records, each with a text form that parses back.

Events that carry a secret (tiles dealt, picked or fixed by a declaration) have a
*redacted* form for everyone but their seat (:meth:`Event.seen_by`); the redacted text
parses back to the redacted event. A move between one's own racks is seen by its seat
alone: the others do not see it at all (:func:`redacted` leaves it out for them).

Text forms (seats from 0, racks and exposures from 1)::

    start siamese 2 2024 3f7a...        cut 4
    deal 0 27: 1B 1B ...  | deal 0 27     pick 0 5B | pick 0
    discard 0 5B          pass 1          claim 1 expose
    grant 1 expose 5B from 0              expose 1 2 5B 5B J
    dead 1 2 exposure     exchange 0 6C from 1:2:1
    mahjongg 0 1 Kongs-1 jokerless closed: F F ...
    error 0 2: TILES      error 0 claim   move 0 5B 1>2 | move 0 1>2
    declare 0 Special-1: TILES | declare 0 Special-1     undeclare 0 forced
    withdraw 1 5B         stop 1                end mahjongg 0 | end wall | end dead 1
    end stopped           end error

The Charleston of the American game (section 3)::

    chosen 1 charleston: 1B 5C blind 1 | chosen 1 charleston
    passed first-left blind 0 1 0 3       receive 2 3: 4D 4D N | receive 2 3
    votes again stop again again          offers 0 3 2 1       charleston over
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from twinrack.errors import NotationError
from twinrack.tiles import CANONICAL, format_tiles, parse_tiles, tile_index


@dataclass(frozen=True, slots=True)
class Event:
    def __str__(self) -> str:
        raise NotImplementedError

    def seen_by(self, seat: int | None) -> Event | None:
        """This event as ``seat`` may see it (``None``: a spectator), or None when that
        seat does not see it at all."""
        return self


def redacted(events: Iterable[Event], seat: int | None) -> list[Event]:
    """``events`` as ``seat`` may see them: each redacted, the unseen ones left out."""
    out = []
    for e in events:
        seen = e.seen_by(seat)
        if seen is not None:
            out.append(seen)
    return out


@dataclass(frozen=True, slots=True)
class Started(Event):
    variant: str
    players: int
    revision: str
    commitment: str

    def __str__(self) -> str:
        return f"start {self.variant} {self.players} {self.revision} {self.commitment}"


@dataclass(frozen=True, slots=True)
class Cut(Event):
    die: int

    def __str__(self) -> str:
        return f"cut {self.die}"


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    seat: int
    count: int
    tiles: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if self.tiles is None:
            return f"deal {self.seat} {self.count}"
        return f"deal {self.seat} {self.count}: {format_tiles(self.tiles)}"

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.seat else Dealt(self.seat, self.count)


@dataclass(frozen=True, slots=True)
class Picked(Event):
    seat: int
    tile: int | None = None

    def __str__(self) -> str:
        if self.tile is None:
            return f"pick {self.seat}"
        return f"pick {self.seat} {CANONICAL[self.tile]}"

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.seat else Picked(self.seat)


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: int
    tile: int

    def __str__(self) -> str:
        return f"discard {self.seat} {CANONICAL[self.tile]}"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int

    def __str__(self) -> str:
        return f"pass {self.seat}"


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    seat: int
    kind: str

    def __str__(self) -> str:
        return f"claim {self.seat} {self.kind}"


@dataclass(frozen=True, slots=True)
class Granted(Event):
    """The claim window closed: ``seat`` takes the discard of ``discarder``."""

    seat: int
    kind: str
    tile: int
    discarder: int

    def __str__(self) -> str:
        return f"grant {self.seat} {self.kind} {CANONICAL[self.tile]} from {self.discarder}"


@dataclass(frozen=True, slots=True)
class Exposed(Event):
    seat: int
    rack: int
    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return f"expose {self.seat} {self.rack + 1} {format_tiles(self.tiles)}"


@dataclass(frozen=True, slots=True)
class RackDead(Event):
    """A rack died: ``exposure`` (its exposures match no line) or ``error`` (a Mah Jongg
    in error)."""

    seat: int
    rack: int
    reason: str

    def __str__(self) -> str:
        return f"dead {self.seat} {self.rack + 1} {self.reason}"


@dataclass(frozen=True, slots=True)
class Exchanged(Event):
    seat: int
    tile: int
    owner: int
    rack: int
    index: int

    def __str__(self) -> str:
        return (f"exchange {self.seat} {CANONICAL[self.tile]} from "
                f"{self.owner}:{self.rack + 1}:{self.index + 1}")


@dataclass(frozen=True, slots=True)
class MahJonggDeclared(Event):
    """A valid Mah Jongg; ``tiles`` are the concealed tiles put on the rack."""

    seat: int
    rack: int
    hand: str
    jokerless: bool
    closed: bool
    tiles: tuple[int, ...]
    arranged: bool = False  # declared as arranged on the rack (strict)

    def __str__(self) -> str:
        flags = "".join(f" {f}" for f, on in (("jokerless", self.jokerless),
                                              ("closed", self.closed),
                                              ("arranged", self.arranged)) if on)
        return (f"mahjongg {self.seat} {self.rack + 1} {self.hand}{flags}: "
                f"{format_tiles(self.tiles)}").rstrip()


@dataclass(frozen=True, slots=True)
class MahJonggError(Event):
    """A Mah Jongg in error (strict): on a rack (``rack`` set, tiles shown and dead) or on a
    granted Mah Jongg claim that had no Mah Jongg (``rack`` None)."""

    seat: int
    rack: int | None
    tiles: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.rack is None:
            return f"error {self.seat} claim"
        return f"error {self.seat} {self.rack + 1}: {format_tiles(self.tiles)}".rstrip()


@dataclass(frozen=True, slots=True)
class Moved(Event):
    seat: int
    src: int
    dst: int
    tile: int | None = None

    def __str__(self) -> str:
        what = "" if self.tile is None else f" {CANONICAL[self.tile]}"
        return f"move {self.seat}{what} {self.src + 1}>{self.dst + 1}"

    def seen_by(self, seat: int | None) -> Event | None:
        return self if seat == self.seat else None


@dataclass(frozen=True, slots=True)
class HandDeclared(Event):
    seat: int
    hand: str
    tiles: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if self.tiles is None:
            return f"declare {self.seat} {self.hand}"
        return f"declare {self.seat} {self.hand}: {format_tiles(self.tiles)}"

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.seat else HandDeclared(self.seat, self.hand)


@dataclass(frozen=True, slots=True)
class Undeclared(Event):
    """Off the declared hand: ``voluntary`` or ``forced`` (a Flower or Joker picked with
    another Mah Jongg exposed)."""

    seat: int
    reason: str

    def __str__(self) -> str:
        return f"undeclare {self.seat} {self.reason}"


@dataclass(frozen=True, slots=True)
class Withdrawn(Event):
    """``seat`` took back its granted claim: ``tile`` is a discard again (section 4)."""

    seat: int
    tile: int

    def __str__(self) -> str:
        return f"withdraw {self.seat} {CANONICAL[self.tile]}"


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    """A player with every rack finished (Mah Jongg or dead) stops playing."""

    seat: int

    def __str__(self) -> str:
        return f"stop {self.seat}"


@dataclass(frozen=True, slots=True)
class Ended(Event):
    """``mahjongg`` (``seat`` won), ``wall``, ``dead`` (``seat``'s racks all died, 2
    players) or ``stopped`` (no one left to play)."""

    reason: str
    seat: int | None = None

    def __str__(self) -> str:
        return f"end {self.reason}" + ("" if self.seat is None else f" {self.seat}")


@dataclass(frozen=True, slots=True)
class Chosen(Event):
    """A seat made its choice in a stage of the Charleston (``kind``: the verb). What it
    chose (``detail``, the action's words after the verb) is seen by that seat alone: the
    others learn only that it has chosen."""

    seat: int
    kind: str
    detail: str | None = None

    def __str__(self) -> str:
        if self.detail is None:
            return f"chosen {self.seat} {self.kind}"
        return f"chosen {self.seat} {self.kind}: {self.detail}".rstrip()

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.seat else Chosen(self.seat, self.kind)


@dataclass(frozen=True, slots=True)
class PassMade(Event):
    """Every seat passed in stage ``name`` (``first-right``, ...); ``blind`` gives how
    many tiles each seat passed on unseen (empty: none did)."""

    name: str
    blind: tuple[int, ...] = ()

    def __str__(self) -> str:
        if not self.blind:
            return f"passed {self.name}"
        return f"passed {self.name} blind {' '.join(map(str, self.blind))}"


@dataclass(frozen=True, slots=True)
class Received(Event):
    """``seat`` keeps ``count`` tiles passed to it; which ones only it sees."""

    seat: int
    count: int
    tiles: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if self.tiles is None:
            return f"receive {self.seat} {self.count}"
        return f"receive {self.seat} {self.count}: {format_tiles(self.tiles)}"

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.seat else Received(self.seat, self.count)


@dataclass(frozen=True, slots=True)
class Voted(Event):
    """Every seat's vote on the second Charleston (``again`` or ``stop``), by seat; one
    ``stop`` stops it."""

    votes: tuple[str, ...]

    def __str__(self) -> str:
        return f"votes {' '.join(self.votes)}"


@dataclass(frozen=True, slots=True)
class Offered(Event):
    """Partners across have both offered: ``seat`` offered ``count``, ``partner``
    offered ``partner_count``; they pass the lower number."""

    seat: int
    count: int
    partner: int
    partner_count: int

    def __str__(self) -> str:
        return f"offers {self.seat} {self.count} {self.partner} {self.partner_count}"


@dataclass(frozen=True, slots=True)
class CharlestonOver(Event):
    """The Charleston is over: East discards first."""

    def __str__(self) -> str:
        return "charleston over"


# ---------------------------------------------------------------------- parsing


def _bad(text: str, why: str) -> NotationError:
    return NotationError("bad_event", f"cannot read event '{text}': {why}")


def _int(text: str, token: str, base: int = 0) -> int:
    if not token.isdigit():
        raise _bad(text, f"'{token}' is not a number")
    return int(token) - base


def _tiles(text: str, part: str) -> tuple[int, ...]:
    try:
        return tuple(parse_tiles(part))
    except NotationError as err:
        raise _bad(text, err.message) from None


def _tile(text: str, token: str) -> int:
    try:
        return tile_index(token)
    except NotationError as err:
        raise _bad(text, err.message) from None


def parse_event(text: str) -> Event:
    """Parse an event's text form."""
    head, colon, tail = text.partition(": ")
    if not colon and text.endswith(":"):
        head, colon, tail = text[:-1], ":", ""
    t = head.split()
    if not t:
        raise _bad(text, "it is empty")
    verb, a = t[0], t[1:]
    try:
        if verb == "start" and len(a) == 4:
            return Started(a[0], _int(text, a[1]), a[2], a[3])
        if verb == "cut" and len(a) == 1:
            return Cut(_int(text, a[0]))
        if verb == "deal" and len(a) == 2:
            return Dealt(_int(text, a[0]), _int(text, a[1]),
                         _tiles(text, tail) if colon else None)
        if verb == "pick" and len(a) in (1, 2):
            return Picked(_int(text, a[0]), _tile(text, a[1]) if len(a) == 2 else None)
        if verb == "discard" and len(a) == 2:
            return Discarded(_int(text, a[0]), _tile(text, a[1]))
        if verb == "pass" and len(a) == 1:
            return Passed(_int(text, a[0]))
        if verb == "claim" and len(a) == 2:
            return Claimed(_int(text, a[0]), a[1])
        if verb == "grant" and len(a) == 5 and a[3] == "from":
            return Granted(_int(text, a[0]), a[1], _tile(text, a[2]), _int(text, a[4]))
        if verb == "expose" and len(a) >= 3:
            return Exposed(_int(text, a[0]), _int(text, a[1], 1), _tiles(text, " ".join(a[2:])))
        if verb == "dead" and len(a) == 3:
            return RackDead(_int(text, a[0]), _int(text, a[1], 1), a[2])
        if verb == "exchange" and len(a) == 4 and a[2] == "from" and a[3].count(":") == 2:
            o, r, x = a[3].split(":")
            return Exchanged(_int(text, a[0]), _tile(text, a[1]), _int(text, o),
                             _int(text, r, 1), _int(text, x, 1))
        if verb == "mahjongg" and len(a) >= 3 and colon:
            flags = a[3:]
            if any(f not in ("jokerless", "closed", "arranged") for f in flags):
                raise _bad(text, "unknown Mah Jongg flag")
            return MahJonggDeclared(_int(text, a[0]), _int(text, a[1], 1), a[2],
                                    "jokerless" in flags, "closed" in flags, _tiles(text, tail),
                                    "arranged" in flags)
        if verb == "error" and len(a) == 2 and a[1] == "claim":
            return MahJonggError(_int(text, a[0]), None)
        if verb == "error" and len(a) == 2 and colon:
            return MahJonggError(_int(text, a[0]), _int(text, a[1], 1), _tiles(text, tail))
        if verb == "move" and len(a) in (2, 3) and ">" in a[-1]:
            s, _, d = a[-1].partition(">")
            return Moved(_int(text, a[0]), _int(text, s, 1), _int(text, d, 1),
                         _tile(text, a[1]) if len(a) == 3 else None)
        if verb == "declare" and len(a) == 2:
            return HandDeclared(_int(text, a[0]), a[1], _tiles(text, tail) if colon else None)
        if verb == "undeclare" and len(a) == 2:
            return Undeclared(_int(text, a[0]), a[1])
        if verb == "withdraw" and len(a) == 2:
            return Withdrawn(_int(text, a[0]), _tile(text, a[1]))
        if verb == "stop" and len(a) == 1:
            return Stopped(_int(text, a[0]))
        if verb == "end" and len(a) in (1, 2):
            return Ended(a[0], _int(text, a[1]) if len(a) == 2 else None)
        return _charleston_event(text, verb, a, tail if colon else None)
    except NotationError:
        raise


def _charleston_event(text: str, verb: str, a: list[str], tail: str | None) -> Event:
    """The events of the Charleston, once their verb is read (``tail``: after ': ')."""
    if verb == "chosen" and len(a) == 2:
        return Chosen(_int(text, a[0]), a[1], tail)
    if verb == "passed" and len(a) == 1:
        return PassMade(a[0])
    if verb == "passed" and len(a) > 2 and a[1] == "blind":
        return PassMade(a[0], tuple(_int(text, x) for x in a[2:]))
    if verb == "receive" and len(a) == 2:
        return Received(_int(text, a[0]), _int(text, a[1]),
                        _tiles(text, tail) if tail is not None else None)
    if verb == "votes" and a and all(v in ("again", "stop") for v in a):
        return Voted(tuple(a))
    if verb == "offers" and len(a) == 4:
        s, c, q, d = (_int(text, x) for x in a)
        return Offered(s, c, q, d)
    if verb == "charleston" and a == ["over"]:
        return CharlestonOver()
    raise _bad(text, "unknown event")
