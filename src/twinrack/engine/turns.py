"""How turns follow one another: a pick or a granted claim begins a turn, a discard opens
the claim window, the window grants the tile or the next seat picks, and the game ends
(docs/rules.md, sections 4 and 9). Also how concealed tiles come and go on a player's racks.
"""

from __future__ import annotations

from collections.abc import Iterable

from twinrack.engine.actions import CLAIM_KINDS, MAHJONGG_CLAIMS, ClaimKind
from twinrack.engine.completion import claim_mahjongg, declarations
from twinrack.engine.events import (
    Claimed,
    Discarded,
    Ended,
    Event,
    Granted,
    MahJonggError,
    Passed,
    Picked,
    Stopped,
    Undeclared,
    Withdrawn,
)
from twinrack.engine.memo import tiles_joined
from twinrack.engine.state import (
    BY_CLAIM,
    BY_DEAL,
    BY_PICK,
    MUST_ERROR,
    OVER,
    TURN,
    WINDOW,
    DeadReason,
    EndReason,
    GameState,
    Obligation,
    Player,
    TurnStart,
    Window,
)
from twinrack.tiles import CANONICAL, FLOWER, JOKER, NUM_KINDS

# ------------------------------------------------------------------ concealed tiles


def take(p: Player, tiles: Iterable[int], first: int | None = None) -> None:
    """Remove concealed tiles from the pool and the arrangement (rack ``first`` first;
    never a fixed tile of a declared hand unless ``first`` is that rack)."""
    order = list(range(len(p.racks)))
    if first is not None:
        order.remove(first)
        order.insert(0, first)
    if p.declared is not None and first != 0:
        order.remove(0)
    for t in tiles:
        for r in order:
            arranged = p.racks[r].arranged
            if arranged[t]:
                arranged[t] -= 1
                break
        else:  # pragma: no cover - guarded by legality
            raise AssertionError(f"tile {CANONICAL[t]} not held")
        p.pool[t] -= 1
        p.concealed -= 1


def give(p: Player, t: int) -> int:
    """A tile joins the concealed tiles, on the first open rack that is not fixed; returns
    that rack."""
    target = None
    for i, r in enumerate(p.racks):
        if p.declared is not None and i == 0:
            continue
        if not r.finished:
            target = i
            break
    if target is None:
        target = 1 if p.declared is not None and len(p.racks) > 1 else 0
    p.racks[target].arranged[t] += 1
    p.pool[t] += 1
    p.concealed += 1
    return target


def tidy(p: Player, r: int) -> None:
    """Concealed tiles left on a finished rack go to the first open rack."""
    left = p.racks[r].arranged
    if not any(left):
        return
    for i, rack in enumerate(p.racks):
        if i != r and not rack.finished and not (p.declared is not None and i == 0):
            for t in range(NUM_KINDS):
                rack.arranged[t] += left[t]
                left[t] = 0
            return


def playable_racks(p: Player) -> list[int]:
    """The racks a tile given or discarded may sit on: all but a declared hand's."""
    return [r for r in range(len(p.racks)) if not (p.declared is not None and r == 0)]


# ------------------------------------------------------------------ beginning a turn


def _active(st: GameState, seat: int) -> bool:
    p = st.players[seat]
    if p.stopped:
        return False
    return any(r.mahjongg is None and r.dead is None for r in p.racks)


def begin_play(st: GameState, ev: list[Event]) -> None:
    """After the deal (and the declarations, or the Charleston): East picks, or in the
    2019 revision and the American game, having been dealt one more, discards first
    (section 3)."""
    if st.rules.east_discards_first:
        st.phase = TURN
        st.current = 0
        st.turn_no = 1
        st.began = BY_DEAL
        st.acquired = None
    else:
        _pick(st, 0, ev)


#: what a granted claim requires first, by its kind (section 4)
_OBLIGATION: dict[str, Obligation] = {kind: Obligation(kind) for kind in CLAIM_KINDS}


def _begin_turn(st: GameState, seat: int, t: int, began: TurnStart,
                claim: tuple[ClaimKind, int] | None = None) -> Player:
    """``seat``'s turn begins with tile ``t``, picked or granted on a claim of
    ``(kind, discarder)``: the tile joins its concealed tiles and the claim, if any, sets
    what must come first."""
    p = st.players[seat]
    st.acquired_rack = give(p, t)
    tiles_joined(st, seat)
    st.phase = TURN
    st.current = seat
    st.turn_no += 1
    st.acquired = t
    st.began = began
    st.turn_mahjonggs = 0
    st.claim_rack = None
    if claim is None:
        st.claim_tile = st.claim_from = st.claim_kind = None
        st.obligation = st.must_use = None
    else:
        kind, discarder = claim
        st.claim_tile, st.claim_from, st.claim_kind = t, discarder, kind
        st.obligation = _OBLIGATION[kind]
        st.must_use = t if kind in MAHJONGG_CLAIMS else None
    return p


def _pick(st: GameState, seat: int, ev: list[Event]) -> None:
    """Begin ``seat``'s turn with the next wall tile (section 4). A Flower or Joker picked
    after a Mah Jongg ends a declared hand (section 7)."""
    t = st.wall[st.wall_pos]
    st.wall_pos += 1
    st.waiting = ()
    p = _begin_turn(st, seat, t, BY_PICK)
    ev.append(Picked(seat, t))
    if p.declared is not None and p.mahjonggs and t in (FLOWER, JOKER):
        let_go(st, seat, "forced", ev)


def let_go(st: GameState, seat: int, how: str, ev: list[Event]) -> None:
    """The declared hand ends (``voluntary`` or ``forced``, section 7): its fixed tiles
    join the free tiles."""
    p = st.players[seat]
    tiles_joined(st, seat, sum(p.racks[0].arranged))
    p.declared = None
    ev.append(Undeclared(seat, how))


def _grant(st: GameState, winner: int, t: int, discarder: int, answers: dict[int, ClaimKind],
           ev: list[Event]) -> None:
    """``winner`` takes discard ``t``: its turn begins with what the claim requires; the
    other claims wait in case it withdraws (section 4)."""
    kind = answers[winner]
    st.waiting = tuple(sorted((s, k) for s, k in answers.items() if s != winner))
    st.discards.pop()
    _begin_turn(st, winner, t, BY_CLAIM, (kind, discarder))
    ev.append(Granted(winner, kind, t, discarder))
    if kind in MAHJONGG_CLAIMS:
        st.version += 1  # a new turn: what the seat may declare is worked out anew
        if not declarations(st, winner):
            # strict: a Mah Jongg claim with no Mah Jongg (section 7, in error): expose
            # the group the discard completes, or withdraw
            ev.append(MahJonggError(winner, None))
            st.obligation = MUST_ERROR
            st.must_use = None
            st.version += 1


# ------------------------------------------------------------------ ending a turn


def next_turn(st: GameState, after: int, ev: list[Event]) -> None:
    """The next seat still playing picks; the game ends when the wall is spent or no
    one is left (section 9)."""
    n = st.rules.players
    st.window = None
    for k in range(1, n + 1):
        s = (after + k) % n
        if _active(st, s):
            break
    else:
        end(st, EndReason.STOPPED, None, ev)
        return
    if st.wall_left == 0:
        end(st, EndReason.WALL, None, ev)
        return
    _pick(st, s, ev)


def end(st: GameState, reason: EndReason, seat: int | None, ev: list[Event]) -> None:
    st.phase = OVER
    st.window = None
    st.end_reason = reason
    st.winner = seat
    st.obligation = None
    ev.append(Ended(reason, seat))


def finish_turn(st: GameState, seat: int, ev: list[Event]) -> None:
    """The turn is over (after a discard or with no concealed tile left)."""
    p = st.players[seat]
    st.obligation = None
    st.must_use = None
    st.acquired = None
    if not p.stopped and not p.open_racks():
        p.stopped = True
        ev.append(Stopped(seat))


def after_rack_finished(st: GameState, seat: int, ev: list[Event]) -> bool:
    """Check the ends that a finished rack can cause; True when the game is over."""
    p = st.players[seat]
    if all(r.mahjongg is not None for r in p.racks):
        end(st, EndReason.MAHJONGG, seat, ev)
        return True
    if st.rules.players == 2 and all(r.dead is not None for r in p.racks):
        end(st, EndReason.DEAD, seat, ev)
        return True
    if st.rules.american and _error_leaves_too_few(st):
        end(st, EndReason.ERROR, None, ev)
        return True
    return False


def _error_leaves_too_few(st: GameState) -> bool:
    """The American game, after a Mah Jongg in error: play goes on only while two or
    more hands are intact (the tournament sheet; docs/rules.md, section 8)."""
    if not any(r.dead == DeadReason.ERROR for q in st.players for r in q.racks):
        return False
    return sum(1 for q in st.players if not q.stopped and q.open_racks()) < 2


def maybe_end_turn(st: GameState, seat: int, ev: list[Event]) -> None:
    """With no concealed tile left to discard, the turn ends by itself (section 7); in
    the American game a hand that died in its turn stops at once, without a discard
    (section 8)."""
    p = st.players[seat]
    done = p.free_count() == 0 or (st.rules.american and not p.open_racks())
    if (st.phase == TURN and st.obligation is None and done
            and not declarations(st, seat)):
        finish_turn(st, seat, ev)
        next_turn(st, seat, ev)


# ------------------------------------------------------------------ the claim window


def discard(st: GameState, seat: int, t: int, ev: list[Event]) -> None:
    """Discard ``t`` (from the last rack holding it, to keep the first racks' arrangement)
    and open the claim window on it for the seats still playing (section 4)."""
    p = st.players[seat]
    for r in reversed(playable_racks(p)):
        if p.racks[r].arranged[t]:
            p.racks[r].arranged[t] -= 1
            break
    p.pool[t] -= 1
    p.concealed -= 1
    st.discards.append((seat, t))
    ev.append(Discarded(seat, t))
    finish_turn(st, seat, ev)
    if t == JOKER:  # a discarded Joker can never be claimed (section 4)
        next_turn(st, seat, ev)
        return
    n = st.rules.players
    pending = [(seat + k) % n for k in range(1, n) if _active(st, (seat + k) % n)]
    if not pending:
        next_turn(st, seat, ev)
        return
    mj_only = st.wall_left == 0 and st.rules.last_discard == "mahjongg"
    st.window = Window(seat, t, pending, mj_only)
    st.phase = WINDOW


def answer(st: GameState, seat: int, kind: ClaimKind | None, ev: list[Event]) -> None:
    """A claim (or a pass, ``None``) on the discard; the last answer closes the window."""
    w = st.window
    assert w is not None
    w.pending.remove(seat)
    if kind is None:
        ev.append(Passed(seat))
    else:
        w.answers[seat] = kind
        ev.append(Claimed(seat, kind))
    if not w.pending:
        _resolve(st, ev)


def _claim_winner(st: GameState, discarder: int,
                  answers: dict[int, ClaimKind]) -> int | None:
    """Who takes the discard: Mah Jongg over exposure; a Double first (2024); then the
    seat closest in turn after the discarder (section 4). None when nobody claimed."""
    n = st.rules.players

    def dist(s: int) -> int:
        return (s - discarder) % n

    mj = [s for s, k in answers.items() if k in MAHJONGG_CLAIMS]
    doubles = [s for s in mj if answers[s] == "double"]
    if mj:
        return min(doubles if doubles and st.rules.double_priority else mj, key=dist)
    return min(answers, key=dist) if answers else None


def _false_callers(st: GameState, t: int, answers: dict[int, ClaimKind],
                   ev: list[Event]) -> None:
    """Strict: when a seat claimed discard ``t`` for a Mah Jongg it really has, the claims
    for a Mah Jongg that would be in error give way to it (Royale 13.A.f, docs/rules.md
    section 7): each is announced in error and dropped from ``answers``. With no real Mah
    Jongg among the claims they stand, and the first in priority is granted in error."""
    if not st.rules.strict:
        return
    callers = [s for s, k in answers.items() if k == "mahjongg"]
    if len(callers) < 2:
        return
    real = {s for s in callers if claim_mahjongg(st, s, t)[0]}
    if not real:
        return
    for s in sorted(set(callers) - real):
        del answers[s]
        ev.append(MahJonggError(s, None))


def _resolve(st: GameState, ev: list[Event]) -> None:
    """Close the claim window: grant the discard, or the next seat picks."""
    w = st.window
    assert w is not None
    _false_callers(st, w.tile, w.answers, ev)
    winner = _claim_winner(st, w.discarder, w.answers)
    st.window = None
    if winner is None:
        next_turn(st, w.discarder, ev)
    else:
        _grant(st, winner, w.tile, w.discarder, w.answers, ev)


def withdraw(st: GameState, seat: int, ev: list[Event]) -> None:
    """The claimer gives the tile back; the next waiting claim takes it, or play goes on
    as if everyone had passed (section 4)."""
    t, discarder = st.claim_tile, st.claim_from
    assert t is not None and discarder is not None
    take(st.players[seat], (t,))
    st.discards.append((discarder, t))
    ev.append(Withdrawn(seat, t))
    answers = dict(st.waiting)
    st.waiting = ()
    winner = _claim_winner(st, discarder, answers)
    if winner is None:
        next_turn(st, discarder, ev)
    else:
        _grant(st, winner, t, discarder, answers, ev)
