"""The state of one game: walls, players, racks, the claim window, the logs.

The state is mutable for speed: :func:`twinrack.engine.apply` checks an action first and
only then changes the state in place. Use :meth:`GameState.copy` to keep a snapshot.

A player's concealed tiles are one *pool* (counts of the 36 tile kinds) plus an
*arrangement*: the counts placed on each rack. Moving tiles between one's racks is free and
changes nothing but the arrangement, except under a declared hand, whose 13 tiles are fixed
on the first rack (docs/rules.md, section 7, "Declared hands").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from twinrack.card.compiled import ExposureKey, exposure_key
from twinrack.card.exposure import Exposure
from twinrack.card.model import Card, Hand
from twinrack.engine.actions import Action, ClaimKind
from twinrack.engine.charleston_plan import Charleston
from twinrack.engine.events import Event
from twinrack.engine.rules import RuleSet
from twinrack.tiles import NUM_KINDS


class Phase(StrEnum):
    """Where the game is; the text is the view's ``phase``."""

    DECLARE = "declare"  # right after the deal: each seat declares a hand or passes (7)
    CHARLESTON = "charleston"  # the American game, after the deal: tiles are passed (3)
    TURN = "turn"  # the current seat plays (4)
    WINDOW = "window"  # every other seat claims the latest discard or passes (4)
    OVER = "over"  # (9)


class TurnStart(StrEnum):
    """How the turn on now began."""

    PICK = "pick"  # a tile from the wall
    CLAIM = "claim"  # a granted claim on a discard
    DEAL = "deal"  # East's first turn in the 2019 revision: East was dealt one more


class Obligation(StrEnum):
    """What a granted claim requires before anything else (section 4); the text is the
    view's ``must``."""

    EXPOSE = "expose"  # expose a group holding the claimed tile
    MAHJONGG = "mahjongg"  # declare a Mah Jongg using it
    DOUBLE = "double"  # declare a Mah Jongg on every open rack, one using it
    ERROR = "error"  # a Mah Jongg claim in error (strict): expose the group it completes


# The members as module names too, for the referee's hot paths: in Python 3.11 reading an
# attribute of an Enum class goes through EnumType's __getattr__ slot, about a thousand
# machine instructions against a few dozen for a module global, and phases and obligations
# are compared many times per action.
DECLARE, TURN, WINDOW, OVER = Phase.DECLARE, Phase.TURN, Phase.WINDOW, Phase.OVER
CHARLESTON = Phase.CHARLESTON
BY_PICK, BY_CLAIM, BY_DEAL = TurnStart.PICK, TurnStart.CLAIM, TurnStart.DEAL
MUST_EXPOSE, MUST_MAHJONGG, MUST_DOUBLE, MUST_ERROR = (
    Obligation.EXPOSE, Obligation.MAHJONGG, Obligation.DOUBLE, Obligation.ERROR)

#: obligations fulfilled by declaring Mah Jongg
DECLARING = (MUST_MAHJONGG, MUST_DOUBLE)


class DeadReason(StrEnum):
    """Why a rack is dead (section 8)."""

    EXPOSURE = "exposure"  # its exposures fit no line of the card
    ERROR = "error"  # a Mah Jongg declared in error (strict)


class EndReason(StrEnum):
    """Why the game ended (section 9)."""

    MAHJONGG = "mahjongg"  # a seat has a Mah Jongg on every rack
    DEAD = "dead"  # two players: every rack of a seat is dead
    STOPPED = "stopped"  # no seat is left playing
    WALL = "wall"  # the wall is spent
    ERROR = "error"  # American: after a Mah Jongg in error, fewer than two hands intact


@dataclass(frozen=True)
class MahJonggRecord:
    """A valid Mah Jongg exposed on a rack."""

    seat: int
    rack: int
    hand: Hand
    jokerless: bool
    closed: bool
    turn: int
    tiles: tuple[int, ...]  # concealed tiles put on the rack
    claimed_from: int | None = None  # discarder of a claimed tile used in it
    self_picked: bool = False
    #: exposures on the rack before the Mah Jongg tile came (the tournament sheet's
    #: penalty for throwing that tile depends on them)
    exposed_before: int = 0


class Rack:
    """One rack of a player: its exposures (in order), the concealed tiles arranged on it
    (counts per tile kind), and how it finished."""

    __slots__ = ("arranged", "dead", "error_tiles", "exposures", "killer", "mahjongg")

    def __init__(self) -> None:
        self.exposures: list[Exposure] = []
        self.killer: int | None = None  # the exposure that made the rack dead
        self.mahjongg: MahJonggRecord | None = None
        self.dead: DeadReason | None = None
        self.error_tiles: tuple[int, ...] = ()  # tiles shown in a Mah Jongg in error
        self.arranged: list[int] = [0] * NUM_KINDS

    @property
    def finished(self) -> bool:
        return self.mahjongg is not None or self.dead is not None

    @property
    def exposed(self) -> int:
        return sum(x.size for x in self.exposures)

    def key(self) -> ExposureKey:
        """The exposures as (tile, size), sorted: what fitting and tiles away depend on."""
        return exposure_key(self.exposures) if self.exposures else ()

    def copy(self) -> Rack:
        r = Rack.__new__(Rack)
        r.exposures = list(self.exposures)
        r.killer = self.killer
        r.mahjongg = self.mahjongg
        r.dead = self.dead
        r.error_tiles = self.error_tiles
        r.arranged = list(self.arranged)
        return r


class Player:
    """A seat's tiles and racks."""

    __slots__ = ("concealed", "declared", "mahjonggs", "pool", "racks", "stopped")

    def __init__(self, racks: int) -> None:
        self.racks: list[Rack] = [Rack() for _ in range(racks)]
        self.pool: list[int] = [0] * NUM_KINDS  # every concealed tile, fixed ones included
        self.concealed = 0  # how many tiles are in the pool
        self.declared: str | None = None  # a declared hand: 13 tiles fixed on rack 0
        self.stopped = False
        self.mahjonggs: list[MahJonggRecord] = []

    def free(self) -> list[int]:
        """Concealed tiles that may be played (not fixed by a declared hand)."""
        if self.declared is None:
            return self.pool
        fixed = self.racks[0].arranged
        return [a - b for a, b in zip(self.pool, fixed, strict=True)]

    def free_count(self) -> int:
        if self.declared is None:
            return self.concealed
        return self.concealed - sum(self.racks[0].arranged)

    def open_racks(self) -> list[int]:
        return [i for i, r in enumerate(self.racks) if r.mahjongg is None and r.dead is None]

    def total(self) -> int:
        """Every tile the player holds: concealed, exposed, Mah Jongg and error racks."""
        t = self.concealed
        for r in self.racks:
            t += r.exposed + len(r.error_tiles)
            if r.mahjongg is not None:
                t += len(r.mahjongg.tiles)
        return t

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.racks = [r.copy() for r in self.racks]
        p.pool = list(self.pool)
        p.concealed = self.concealed
        p.declared = self.declared
        p.stopped = self.stopped
        p.mahjonggs = list(self.mahjonggs)
        return p


class Window:
    """The claim window on the latest discard: who still has to answer, and the answers."""

    __slots__ = ("answers", "discarder", "mahjongg_only", "pending", "tile")

    def __init__(self, discarder: int, tile: int, pending: list[int], mahjongg_only: bool):
        self.discarder = discarder
        self.tile = tile
        self.pending = pending
        self.answers: dict[int, ClaimKind] = {}
        self.mahjongg_only = mahjongg_only

    def copy(self) -> Window:
        w = Window(self.discarder, self.tile, list(self.pending), self.mahjongg_only)
        w.answers = dict(self.answers)
        return w


class GameState:
    """One game. Build it with :func:`twinrack.engine.new_game`."""

    def __init__(self, rules: RuleSet, card: Card, seed: bytes, commitment: str,
                 wall: list[int], die: int | None, stack: tuple[int, ...] | None) -> None:
        self.rules = rules
        self.card = card
        self.seed = seed
        self.commitment = commitment
        self.die = die
        self.stack = stack
        self.wall = wall  # picking order
        self.wall_pos = 0
        self.players = [Player(rules.racks) for _ in range(rules.players)]
        self.phase = DECLARE
        self.current = 0  # the seat whose turn it is
        self.turn_no = 0
        self.acquired: int | None = None  # tile picked or claimed to begin this turn
        self.acquired_rack: int | None = None  # the rack that tile was put on
        self.began: TurnStart | None = None
        self.obligation: Obligation | None = None
        self.claim_tile: int | None = None
        self.claim_from: int | None = None
        self.claim_kind: ClaimKind | None = None
        self.claim_rack: int | None = None  # rack of the exposure made with the claimed tile
        self.must_use: int | None = None  # a claimed tile a Mah Jongg of this turn must use
        self.turn_mahjonggs = 0
        self.window: Window | None = None
        #: the other claims on the discard granted this turn, (seat, kind) by seat: the
        #: next in priority takes the tile if the claimer withdraws (section 4)
        self.waiting: tuple[tuple[int, ClaimKind], ...] = ()
        self.declaring: list[int] = []  # seats still to answer in the declare phase
        self.charleston: Charleston | None = None  # the American game's passes, under way
        self.discards: list[tuple[int, int]] = []
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.end_reason: EndReason | None = None
        self.winner: int | None = None
        self.version = 0  # state changes so far (every action, and a granted claim)
        #: the version of the latest change other seats could see: every action but a
        #: move between one's own racks, which only its seat sees (section 5)
        self.public_version = 0
        #: per seat, the version its latest move made
        self.moved = [0] * rules.players

    # ------------------------------------------------------------------ helpers

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def wall_left(self) -> int:
        return len(self.wall) - self.wall_pos

    def to_act(self) -> list[int]:
        """The seats that must act now."""
        if self.phase == WINDOW and self.window is not None:
            return list(self.window.pending)
        if self.phase == DECLARE:
            return list(self.declaring)
        if self.phase == CHARLESTON and self.charleston is not None:
            return list(self.charleston.pending)
        if self.phase == TURN:
            return [self.current]
        return []

    def seen_version(self, seat: int | None) -> int:
        """The version of the latest change ``seat`` could see (``None``: a spectator):
        what its view and its commands refer to. Another seat's move between its own
        racks leaves it as it was, so that move neither changes this seat's view nor makes
        its pending command stale."""
        if seat is None:
            return self.public_version
        moved = self.moved[seat]
        return moved if moved > self.public_version else self.public_version

    def copy(self) -> GameState:
        """A copy of the game's facts (caches live in engine.memo, never in the state)."""
        g = GameState.__new__(GameState)
        g.__dict__.update(self.__dict__)
        g.wall = self.wall  # never mutated, only read through wall_pos
        g.players = [p.copy() for p in self.players]
        g.window = self.window.copy() if self.window is not None else None
        g.declaring = list(self.declaring)
        g.charleston = self.charleston.copy() if self.charleston is not None else None
        g.moved = list(self.moved)
        g.discards = list(self.discards)
        g.events = list(self.events)
        g.actions = list(self.actions)
        return g
