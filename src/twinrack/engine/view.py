"""What one seat may know: ``view(state, seat)`` (``None`` for a spectator).

A view holds the public table (exposures, Mah Jonggs, dead racks, discards, how many
tiles each player conceals, how many are left in the wall) and the viewer's own concealed
tiles, never another seat's concealed tiles nor an unseen wall tile. The seed is shown only
once the game is over. Bots and clients get nothing else.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twinrack.card.exposure import Exposure
from twinrack.engine.events import Event, redacted
from twinrack.engine.legality import legal_verbs
from twinrack.engine.memo import StateMemo, memo_of
from twinrack.engine.state import BY_CLAIM, OVER, TURN, GameState, Rack
from twinrack.tiles import CANONICAL, format_tiles


class MahJonggView(NamedTuple):
    hand: str
    value: int
    jokerless: bool
    closed: bool
    tiles: tuple[int, ...]  # the concealed tiles put on the rack


class RackView(NamedTuple):
    exposures: tuple[Exposure, ...]
    dead: str | None
    killer: int | None
    mahjongg: MahJonggView | None
    error_tiles: tuple[int, ...]

    @property
    def open(self) -> bool:
        """Still in play: neither a Mah Jongg nor dead (section 5)."""
        return self.mahjongg is None and self.dead is None


class SeatView(NamedTuple):
    seat: int
    concealed: int  # how many tiles the seat conceals
    racks: tuple[RackView, ...]
    declared: str | None  # a declared (Atomic-style) hand, announced to all
    stopped: bool

    @property
    def open_racks(self) -> tuple[int, ...]:
        """The seat's racks still in play."""
        return tuple(i for i, r in enumerate(self.racks) if r.open)


class CharlestonView(NamedTuple):
    """The Charleston as one seat sees it (section 3): the stage (``first-right``, ...,
    ``vote``, ``offer``, ``courtesy``), its kind (the verb that answers it), where a pass
    goes (``right``, ``across``, ``left``) and to which seat, whether tiles may be passed
    on unseen, the seats that have chosen (what they chose stays secret), the viewer's own
    choice, the courtesy offers both partners have made (by seat, None until then; the
    viewer's own at once), how many tiles the viewer passes in the courtesy pass, and every
    vote once all are in."""

    stage: str
    kind: str
    direction: str | None
    to: int | None
    blind: bool
    chosen: tuple[int, ...]
    mine: str | None
    offers: tuple[int | None, ...]
    owed: int | None
    votes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return dict(self._asdict(), chosen=list(self.chosen), offers=list(self.offers),
                    votes=list(self.votes))


class View(NamedTuple):
    """Immutable; ``hand`` gives the viewer's concealed tiles rack by rack."""

    seat: int | None
    variant: str
    players: int
    racks: int
    revision: str
    #: a concealed ("C") line may be played with exposures at this table (section 5)
    open_lines: bool
    phase: str
    current: int
    to_act: tuple[int, ...]
    turn: int
    wall_left: int
    die: int | None
    commitment: str
    seed: str | None
    discards: tuple[tuple[int, int], ...]
    window: tuple[int, int] | None  # (discarder, tile) while claims are collected
    answered: tuple[tuple[int, str], ...]  # claims and passes given so far in the window
    claim: tuple[int, str, int, int] | None  # (seat, kind, tile, discarder) of this turn
    #: the other claims on that discard, (seat, kind): the next in priority takes the tile
    #: if the claimer withdraws before exposing anything
    waiting: tuple[tuple[int, str], ...]
    must: str | None
    seats: tuple[SeatView, ...]
    counts: tuple[tuple[int, ...], ...] | None  # the viewer's concealed counts per rack
    acquired: int | None  # the tile the viewer just picked or claimed (its own turn)
    #: the viewer's rack that holds ``acquired`` (where the picked or claimed tile went)
    placed: int | None
    #: the viewer's concealed tiles it may play (discard, expose, move), as counts: all of
    #: them but the 13 a declared hand fixes on its first rack
    free: tuple[int, ...] | None
    fixed_rack: int | None  # the viewer's rack whose tiles a declared hand fixes
    verbs: tuple[str, ...]  # the kinds of action the viewer may take now (sorted)
    end_reason: str | None
    winner: int | None
    version: int
    #: once the game is over, every seat's concealed tiles rack by rack (the record shows
    #: them then too: its deal, picks and seed); empty during play
    revealed: tuple[tuple[tuple[int, ...], ...], ...] = ()
    #: the Charleston under way (the American game, right after the deal), else None
    charleston: CharlestonView | None = None

    @property
    def open_racks(self) -> tuple[int, ...]:
        """The viewer's racks still in play (``()`` for a spectator)."""
        return () if self.seat is None else self.seats[self.seat].open_racks

    @property
    def hand(self) -> tuple[tuple[int, ...], ...] | None:
        """The viewer's concealed tiles, rack by rack (``None`` for a spectator)."""
        if self.counts is None:
            return None
        return tuple(_tiles(c) for c in self.counts)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, tiles in notation."""
        return {
            "seat": self.seat, "variant": self.variant, "players": self.players,
            "racks": self.racks, "revision": self.revision, "open_lines": self.open_lines,
            "phase": self.phase,
            "current": self.current, "to_act": list(self.to_act), "turn": self.turn,
            "wall_left": self.wall_left, "die": self.die, "commitment": self.commitment,
            "seed": self.seed,
            "discards": [[s, CANONICAL[t]] for s, t in self.discards],
            "window": None if self.window is None else
            {"discarder": self.window[0], "tile": CANONICAL[self.window[1]]},
            "answered": [[s, k] for s, k in self.answered],
            "claim": None if self.claim is None else
            {"seat": self.claim[0], "kind": self.claim[1], "tile": CANONICAL[self.claim[2]],
             "discarder": self.claim[3]},
            "waiting": [[s, k] for s, k in self.waiting],
            "must": self.must,
            "seats": [seat_dict(s) for s in self.seats],
            "hand": None if self.hand is None else [format_tiles(r) for r in self.hand],
            "acquired": None if self.acquired is None else CANONICAL[self.acquired],
            "placed": self.placed,
            "free": None if self.free is None else format_tiles(_tiles(self.free)),
            "fixed_rack": self.fixed_rack, "open_racks": list(self.open_racks),
            "verbs": list(self.verbs),
            "end_reason": self.end_reason, "winner": self.winner, "version": self.version,
            "revealed": [[format_tiles(r) for r in hand] for hand in self.revealed],
            "charleston": None if self.charleston is None else self.charleston.to_dict(),
        }


def rack_dict(r: RackView) -> dict[str, Any]:
    """A rack of :meth:`View.to_dict` (its exposures, how it finished)."""
    return {
        "exposures": [str(x) for x in r.exposures],
        "dead": r.dead,
        "killer": r.killer,
        "mahjongg": None if r.mahjongg is None else {
            "hand": r.mahjongg.hand, "value": r.mahjongg.value,
            "jokerless": r.mahjongg.jokerless, "closed": r.mahjongg.closed,
            "tiles": format_tiles(r.mahjongg.tiles)},
        "error_tiles": format_tiles(r.error_tiles),
    }


def seat_dict(s: SeatView, racks: Any = None) -> dict[str, Any]:
    """A seat of :meth:`View.to_dict` (``racks``: its racks already made, in any form
    that encodes as the list of their :func:`rack_dict`)."""
    return {"seat": s.seat, "concealed": s.concealed, "declared": s.declared,
            "stopped": s.stopped,
            "racks": [rack_dict(r) for r in s.racks] if racks is None else racks}


def _tiles(conc: Any) -> tuple[int, ...]:
    out: list[int] = []
    for t, n in enumerate(conc):
        if n:
            out += [t] * n
    return tuple(out)


def _rack_view(r: Rack) -> RackView:
    mj = None
    if r.mahjongg is not None:
        m = r.mahjongg
        mj = MahJonggView(m.hand.id, m.hand.value, m.jokerless, m.closed, m.tiles)
    return RackView(tuple(r.exposures), r.dead, r.killer, mj, r.error_tiles)


def _public(st: GameState, memo: StateMemo) -> tuple[SeatView, ...]:
    """The public seats of the view: those of the last view again while nothing anyone
    sees changed (remembered per version), else each seat's last public view again when
    nothing public of it changed, its rack views again when only its count of concealed
    tiles did (racks change only by an exposure, an exchange, a Mah Jongg or death)."""
    cached = memo.public
    if cached is not None and cached[0] == st.version:
        found: tuple[SeatView, ...] = cached[1]
        return found
    known = memo.seats
    seats = []
    for s, p in enumerate(st.players):
        shown = tuple([(r.dead, r.killer, r.mahjongg, r.error_tiles, *r.exposures)
                       for r in p.racks])
        last: tuple[SeatView, tuple[Any, ...]] | None = known.get(s)
        if last is not None and last[1] == shown:
            seen = last[0]
            if (seen.concealed == p.concealed and seen.declared == p.declared
                    and seen.stopped == p.stopped):
                seats.append(seen)
                continue
            racks = seen.racks
        else:
            racks = tuple([_rack_view(r) for r in p.racks])
        # a named tuple made from its fields in order (as View below)
        seen = tuple.__new__(SeatView, (s, p.concealed, racks, p.declared, p.stopped))
        known[s] = (seen, shown)
        seats.append(seen)
    found = tuple(seats)
    memo.public = (st.version, found)
    return found


def view(state: GameState, seat: int | None = None) -> View:
    """What ``seat`` may see of the game (``None``: a spectator)."""
    st = state
    memo = memo_of(st)
    counts = free = None
    acquired = placed = fixed_rack = None
    verbs: tuple[str, ...] = ()
    phase = st.phase
    turn = phase == TURN
    if seat is not None:
        p = st.players[seat]
        counts = tuple([tuple(r.arranged) for r in p.racks])
        free = tuple(p.free())
        fixed_rack = 0 if p.declared is not None else None
        if turn and st.current == seat:
            acquired = st.acquired
            placed = _placed(counts, acquired, st.acquired_rack)
        verbs = legal_verbs(st, seat, memo)
    w = st.window
    rules = st.rules
    claim = None
    if turn and st.began == BY_CLAIM and st.claim_tile is not None:
        assert st.claim_kind is not None and st.claim_from is not None
        claim = (st.current, st.claim_kind, st.claim_tile, st.claim_from)
    # The fields in View's order, made into the named tuple without a keyword call: with
    # 30 fields, binding keywords costs about as much as the rest of the view together.
    # (tests/engine/test_view.py compares every field with a view made by keywords.)
    made: View = tuple.__new__(View, (
        seat, rules.variant, rules.players, rules.racks, rules.revision, rules.open_lines,
        phase, st.current, tuple(st.to_act()), st.turn_no, st.wall_left,
        st.die, st.commitment, st.seed.hex() if phase == OVER else None,  # die .. seed
        tuple(st.discards),
        None if w is None else (w.discarder, w.tile),  # window
        () if w is None else tuple(sorted(w.answers.items())),  # answered
        claim, st.waiting if claim is not None else (),  # claim, waiting
        st.obligation if turn else None,  # must
        _public(st, memo),  # seats
        counts, acquired, placed, free, fixed_rack, verbs,
        st.end_reason, st.winner, st.seen_version(seat),
        _revealed(st) if phase == OVER else (),  # revealed
        None if st.charleston is None else _charleston(st, seat)))
    return made


def _charleston(st: GameState, seat: int | None) -> CharlestonView:
    """What ``seat`` sees of the Charleston under way."""
    ch = st.charleston
    assert ch is not None
    stage = ch.stage
    n = st.rules.players
    offers: list[int | None] = [None] * n
    for s, k in ch.offers.items():
        if s == seat or (s + 2) % 4 in ch.offers:
            offers[s] = k
    mine = ch.choices.get(seat) if seat is not None else None
    owed = ch.counts[seat] if seat is not None and ch.counts else None
    return CharlestonView(
        stage.name, stage.kind, stage.direction(n),
        None if seat is None or not stage.shift else (seat + stage.shift) % n,
        stage.blind, tuple(sorted(ch.choices)), None if mine is None else mine.body(),
        tuple(offers), owed, ch.votes)


def _revealed(st: GameState) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every seat's concealed tiles (shown only once the game is over)."""
    return tuple(tuple(_tiles(r.arranged) for r in p.racks) for p in st.players)


def _placed(counts: tuple[tuple[int, ...], ...], tile: int | None,
            rack: int | None) -> int | None:
    """The rack holding the fresh tile: the one it was put on, else the first holding
    that kind (tiles left on a finished rack move on)."""
    if tile is None:
        return None
    if rack is not None and counts[rack][tile]:
        return rack
    return next((r for r, c in enumerate(counts) if c[tile]), None)


def events_for(state: GameState, seat: int | None) -> list[Event]:
    """The game's events as ``seat`` may see them (secrets of other seats redacted, their
    moves between their own racks left out)."""
    return redacted(state.events, seat)
