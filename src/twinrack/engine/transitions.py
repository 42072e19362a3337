"""``apply``: a legal action changes the state and says what happened (events); any other
is refused with the reason :func:`~twinrack.engine.legality.why_illegal` gives, and the state
is left as it was. Section numbers refer to docs/rules.md.
"""

from __future__ import annotations

from twinrack.card.compiled import HAND_SIZE
from twinrack.card.exposure import Exposure
from twinrack.engine import charleston
from twinrack.engine.actions import (
    MAHJONGG_CLAIMS,
    Action,
    CharlestonPass,
    Claim,
    Courtesy,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Offer,
    Pass,
    Undeclare,
    Vote,
    Withdraw,
)
from twinrack.engine.completion import LineMade, declarations, rack_alive
from twinrack.engine.events import (
    Event,
    Exchanged,
    Exposed,
    HandDeclared,
    MahJonggDeclared,
    MahJonggError,
    Moved,
    Passed,
    RackDead,
)
from twinrack.engine.legality import listed, why_illegal
from twinrack.engine.memo import tiles_joined
from twinrack.engine.state import (
    BY_CLAIM,
    BY_PICK,
    MUST_DOUBLE,
    MUST_ERROR,
    MUST_EXPOSE,
    MUST_MAHJONGG,
    WINDOW,
    DeadReason,
    GameState,
    MahJonggRecord,
)
from twinrack.engine.turns import (
    after_rack_finished,
    answer,
    begin_play,
    discard,
    let_go,
    maybe_end_turn,
    playable_racks,
    take,
    tidy,
    withdraw,
)
from twinrack.tiles import JOKER, NUM_KINDS, tiles_of


def apply(state: GameState, action: Action) -> list[Event]:
    """Apply one action and return the events it caused. A refused action raises
    :class:`~twinrack.errors.IllegalActionError` and leaves the state as it was."""
    if not listed(state, action):
        raise why_illegal(state, action)
    st, seat = state, action.seat
    ev: list[Event] = []
    st.actions.append(action)
    if isinstance(action, Discard):
        discard(st, seat, action.tile, ev)
    elif isinstance(action, Pass):
        _pass(st, seat, ev)
    elif isinstance(action, Claim):
        answer(st, seat, action.kind, ev)
    elif isinstance(action, Expose):
        _expose(st, seat, action.rack, action.tiles, ev)
    elif isinstance(action, Exchange):
        _exchange(st, action, ev)
    elif isinstance(action, MahJongg):
        _mahjongg(st, seat, action.rack, action.tiles, ev)
    elif isinstance(action, Move):
        _move(st, action, ev)
    elif isinstance(action, Declare):
        _declare(st, action, ev)
    elif isinstance(action, Withdraw):
        withdraw(st, seat, ev)
    elif isinstance(action, Undeclare):
        let_go(st, seat, "voluntary", ev)
    elif isinstance(action, (CharlestonPass, Vote, Offer, Courtesy)):
        charleston.choose(st, action, ev)
    st.events.extend(ev)
    st.version += 1
    if type(action) is Move:
        st.moved[seat] = st.version  # seen by its seat alone (section 5)
    else:
        st.public_version = st.version
    return ev


def _pass(st: GameState, seat: int, ev: list[Event]) -> None:
    """A pass on the discard, or on declaring a hand after the deal."""
    if st.phase == WINDOW:
        answer(st, seat, None, ev)
        return
    st.declaring.remove(seat)
    ev.append(Passed(seat))
    if not st.declaring:
        begin_play(st, ev)


def _move(st: GameState, a: Move, ev: list[Event]) -> None:
    racks = st.players[a.seat].racks
    racks[a.src].arranged[a.tile] -= 1
    racks[a.dst].arranged[a.tile] += 1
    if a.tile == st.acquired and a.src == st.acquired_rack:
        st.acquired_rack = a.dst  # the fresh tile is followed where it goes
    ev.append(Moved(a.seat, a.src, a.dst, a.tile))


def _declare(st: GameState, a: Declare, ev: list[Event]) -> None:
    """13 tiles fixed on the first rack under a declared hand, the rest on the second
    (section 7)."""
    p = st.players[a.seat]
    fixed = [0] * NUM_KINDS
    for t in a.tiles:
        fixed[t] += 1
    for rack in p.racks:
        rack.arranged = [0] * NUM_KINDS
    p.racks[0].arranged = fixed
    p.racks[1].arranged = [x - y for x, y in zip(p.pool, fixed, strict=True)]
    p.declared = a.hand
    st.declaring.remove(a.seat)
    ev.append(HandDeclared(a.seat, a.hand, a.tiles))
    if not st.declaring:
        begin_play(st, ev)


def _expose(st: GameState, seat: int, r: int, tiles: tuple[int, ...],
            ev: list[Event]) -> None:
    """The group goes on rack ``r``; a rack whose exposures fit no line dies (section 8)."""
    p = st.players[seat]
    rack = p.racks[r]
    take(p, tiles, r)
    rack.exposures.append(Exposure.from_tiles(list(tiles)))
    ev.append(Exposed(seat, r, tiles))
    if st.obligation in (MUST_EXPOSE, MUST_ERROR):
        st.obligation = None
        st.claim_rack = r
    if not rack_alive(st, rack.exposures):
        rack.dead = DeadReason.EXPOSURE
        rack.killer = len(rack.exposures) - 1
        ev.append(RackDead(seat, r, DeadReason.EXPOSURE))
        tidy(p, r)
        if after_rack_finished(st, seat, ev):
            return
    maybe_end_turn(st, seat, ev)


def _exchange(st: GameState, a: Exchange, ev: list[Event]) -> None:
    """The natural tile takes a Joker's place in the exposure; the Joker joins the
    player's concealed tiles where the natural was (section 6)."""
    p = st.players[a.seat]
    rack = st.players[a.owner].racks[a.rack]
    x = rack.exposures[a.index]
    rack.exposures[a.index] = Exposure(x.tile, x.size, x.jokers - 1)
    for i in reversed(playable_racks(p)):
        arranged = p.racks[i].arranged
        if arranged[a.tile]:
            arranged[a.tile] -= 1
            arranged[JOKER] += 1
            break
    p.pool[a.tile] -= 1
    p.pool[JOKER] += 1
    tiles_joined(st, a.seat)
    ev.append(Exchanged(a.seat, a.tile, a.owner, a.rack, a.index))


def _mahjongg(st: GameState, seat: int, r: int, tiles: tuple[int, ...],
              ev: list[Event]) -> None:
    """Declare Mah Jongg on rack ``r`` with ``tiles`` (none: the rack as arranged, or a
    rack exposed in full); strict mode lets a declaration that is none kill the rack."""
    rack = st.players[seat].racks[r]
    arranged = not tiles and rack.exposed < HAND_SIZE  # a rack exposed in full adds none
    if arranged:
        tiles = tuple(tiles_of(rack.arranged))
    line = declarations(st, seat).get((r, tiles))
    if line is None:
        _mahjongg_in_error(st, seat, r, tiles, ev)
        return
    _lay_out(st, seat, r, tiles)
    _record_mahjongg(st, seat, r, tiles, line)
    ev.append(MahJonggDeclared(seat, r, line.hand.id, line.jokerless, line.closed, tiles,
                               arranged))
    p = st.players[seat]
    tidy(p, r)
    if after_rack_finished(st, seat, ev):
        return
    if st.obligation == MUST_DOUBLE and not p.open_racks():
        st.obligation = None
    maybe_end_turn(st, seat, ev)


def _mahjongg_in_error(st: GameState, seat: int, r: int, tiles: tuple[int, ...],
                       ev: list[Event]) -> None:
    """Strict: a declaration that is not a Mah Jongg shows its tiles on a dead rack
    (sections 7 and 8)."""
    p = st.players[seat]
    rack = p.racks[r]
    take(p, tiles, r)
    rack.error_tiles = tiles
    rack.dead = DeadReason.ERROR
    ev.append(MahJonggError(seat, r, tiles))
    ev.append(RackDead(seat, r, DeadReason.ERROR))
    st.obligation = None
    st.must_use = None
    tidy(p, r)
    if not after_rack_finished(st, seat, ev):
        maybe_end_turn(st, seat, ev)


def _lay_out(st: GameState, seat: int, r: int, tiles: tuple[int, ...]) -> None:
    """The declared tiles leave the concealed ones: under a declared hand, its 13 fixed
    tiles and the 14th just picked or claimed (which ends the declared hand)."""
    p = st.players[seat]
    rack = p.racks[r]
    if p.declared is None or r != 0:
        take(p, tiles, r)
        return
    x = st.acquired
    assert x is not None
    for t in range(NUM_KINDS):
        p.pool[t] -= rack.arranged[t]
        p.concealed -= rack.arranged[t]
        rack.arranged[t] = 0
    p.declared = None
    take(p, (x,), None)


def _record_mahjongg(st: GameState, seat: int, r: int, tiles: tuple[int, ...],
                     line: LineMade) -> None:
    """The Mah Jongg as scored (section 10), and what it fulfils of the turn's claim."""
    p = st.players[seat]
    used_claim = st.began == BY_CLAIM and (
        st.claim_kind in MAHJONGG_CLAIMS or st.claim_rack == r)
    exposed = len(p.racks[r].exposures)
    if used_claim and st.claim_kind == "expose":
        exposed -= 1  # the group made with the Mah Jongg tile came with it
    record = MahJonggRecord(seat, r, line.hand, line.jokerless, line.closed, st.turn_no,
                            tiles, st.claim_from if used_claim else None,
                            st.began == BY_PICK, exposed)
    p.racks[r].mahjongg = record
    p.mahjonggs.append(record)
    st.turn_mahjonggs += 1
    if st.must_use is not None and st.must_use in tiles:
        st.must_use = None
    if st.obligation in (MUST_MAHJONGG, MUST_ERROR):
        st.obligation = None
