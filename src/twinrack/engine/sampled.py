"""A game state built from one seat's view and a guess at what it cannot see.

A search player (``twinrack.bots.master``) imagines the hidden tiles (the other players'
concealed tiles and the order of the wall) many times, consistently with its view, and
plays each imagined game forward through the ordinary ``legal_actions`` and ``apply``.
This module turns a view and one such guess into a :class:`GameState`; the guess is the
caller's (the core draws no randomness). Everything public comes from the view, so the
imagined game's view for the seat is the real one's, and so are its legal actions.

What a view does not carry is filled in as follows: the turn of a Mah Jongg already
exposed is the one the caller noted (else -1, "before this turn"), whether it was made
with a claimed tile is not known (no thrower), and the other seats' concealed tiles sit on
their first open rack. None of these change what may be played from here on; only the
score of a Double made across two earlier turns could differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from twinrack.card import Card
from twinrack.engine.actions import ClaimKind
from twinrack.engine.rules import RuleSet
from twinrack.engine.state import (
    BY_CLAIM,
    BY_DEAL,
    BY_PICK,
    MUST_DOUBLE,
    MUST_MAHJONGG,
    TURN,
    WINDOW,
    DeadReason,
    GameState,
    MahJonggRecord,
    Obligation,
    Phase,
    Player,
    Window,
)
from twinrack.engine.view import SeatView, View
from twinrack.errors import TwinRackError
from twinrack.tiles import NUM_KINDS


class NotSampleable(TwinRackError):
    """The view is one a sampled state is not built for (code ``not_sampleable``)."""

    def __init__(self, message: str) -> None:
        super().__init__("not_sampleable", message)


def sampled_state(seen: View, card: Card, concealed: Mapping[int, Sequence[int]],
                  wall: Sequence[int], rules: RuleSet | None = None,
                  mahjongg_turns: Mapping[tuple[int, int], int] | None = None) -> GameState:
    """The game as ``seen`` shows it, with each other seat holding ``concealed[seat]``
    (counts per tile kind) and ``wall`` the unseen wall in picking order. Built for the
    viewer's own turn and for a claim window; a view with another seat's declared hand
    (its fixed tiles cannot be guessed apart) raises :class:`NotSampleable`."""
    if seen.seat is None or seen.counts is None:
        raise NotSampleable("a spectator's view has no seat to play")
    if seen.phase not in (TURN, WINDOW):
        raise NotSampleable(f"a sampled state is built for a turn or a window, "
                            f"not the {seen.phase} phase")
    if seen.phase == TURN and seen.current != seen.seat:
        raise NotSampleable("a sampled state is built for the viewer's own turn")
    if len(wall) != seen.wall_left:
        raise NotSampleable(f"the wall has {seen.wall_left} tiles, not {len(wall)}")
    if rules is None:
        rules = RuleSet(variant=seen.variant, players=seen.players, revision=seen.revision)
        if rules.open_lines != seen.open_lines:
            rules = replace(rules, open_concealed=seen.open_lines)
    st = GameState(rules, card, b"sampled", seen.commitment, list(wall), seen.die, None)
    turns = mahjongg_turns or {}
    for sv in seen.seats:
        if sv.seat == seen.seat:
            racks = [list(c) for c in seen.counts]
        else:
            if sv.declared is not None:
                raise NotSampleable(f"seat {sv.seat} holds a declared hand")
            held = list(concealed[sv.seat])
            if sum(held) != sv.concealed:
                raise NotSampleable(f"seat {sv.seat} conceals {sv.concealed} tiles, "
                                    f"not {sum(held)}")
            racks = _arranged(sv, held)
        st.players[sv.seat] = _player(sv, racks, card, turns)
    _turn_facts(st, seen)
    st.discards = list(seen.discards)
    st.version = st.public_version = seen.version
    return st


def _arranged(sv: SeatView, held: list[int]) -> list[list[int]]:
    """Another seat's concealed tiles, all on its first open rack (moves are free)."""
    out = [[0] * NUM_KINDS for _ in sv.racks]
    first = next((i for i, r in enumerate(sv.racks) if r.open), 0)
    out[first] = held
    return out


def _player(sv: SeatView, racks: list[list[int]], card: Card,
            turns: Mapping[tuple[int, int], int]) -> Player:
    p = Player(len(sv.racks))
    for i, rv in enumerate(sv.racks):
        rack = p.racks[i]
        rack.exposures = list(rv.exposures)
        rack.killer = rv.killer
        rack.dead = DeadReason(rv.dead) if rv.dead is not None else None
        rack.error_tiles = rv.error_tiles
        rack.arranged = list(racks[i])
        if rv.mahjongg is not None:
            m = rv.mahjongg
            rec = MahJonggRecord(sv.seat, i, card.hand(m.hand), m.jokerless, m.closed,
                                 turns.get((sv.seat, i), -1), m.tiles)
            rack.mahjongg = rec
            p.mahjonggs.append(rec)
    p.mahjonggs.sort(key=lambda m: (m.turn, m.rack))
    p.pool = [sum(r[t] for r in racks) for t in range(NUM_KINDS)]
    p.concealed = sum(p.pool)
    p.declared = sv.declared
    p.stopped = sv.stopped
    return p


def _turn_facts(st: GameState, seen: View) -> None:
    """Whose turn, how it began, what a granted claim still requires, the window."""
    st.phase = Phase(seen.phase)
    st.current = seen.current
    st.turn_no = seen.turn
    if st.phase == TURN:
        st.acquired = seen.acquired
        st.acquired_rack = seen.placed
        st.obligation = Obligation(seen.must) if seen.must is not None else None
        if seen.claim is not None:
            _seat, kind, tile, discarder = seen.claim
            st.began = BY_CLAIM
            st.claim_tile, st.claim_from = tile, discarder
            st.claim_kind = _kind(kind)
            st.waiting = tuple((s, _kind(k)) for s, k in seen.waiting)
            if st.obligation in (MUST_MAHJONGG, MUST_DOUBLE):
                st.must_use = tile
            elif st.obligation is None and kind == "expose":
                st.claim_rack = _claim_rack(st, seen.current, tile)
        elif st.rules.revision == "2019" and seen.turn == 1:
            st.began = BY_DEAL
        else:
            st.began = BY_PICK
    else:
        assert seen.window is not None
        discarder, tile = seen.window
        mj_only = seen.wall_left == 0 and st.rules.last_discard == "mahjongg"
        w = Window(discarder, tile, list(seen.to_act), mj_only)
        w.answers = {s: _kind(k) for s, k in seen.answered}
        st.window = w


def _kind(text: str) -> ClaimKind:
    if text == "mahjongg":
        return "mahjongg"
    if text == "double":
        return "double"
    return "expose"


def _claim_rack(st: GameState, seat: int, tile: int) -> int | None:
    """The rack whose latest exposure holds the claimed tile."""
    for i, r in enumerate(st.players[seat].racks):
        if r.exposures and r.exposures[-1].tile == tile:
            return i
    return None
