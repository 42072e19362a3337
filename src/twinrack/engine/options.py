"""The actions of each kind a seat may take now, once the kind's gate
(:func:`twinrack.engine.refusals.gate`) has let the seat through: the phase, the turn and a
granted claim's obligation are settled there, the rest here (docs/rules.md, sections 4-7).

:data:`OPTIONS` maps each verb to its lister; a phase lists its kinds in the order of
:data:`twinrack.engine.refusals.PHASE_VERBS`.
Actions that come up again and again (discards, moves, passes, claims) are made once and
shared, so that :func:`twinrack.engine.apply` recognises a listed action by identity.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress

import numpy as np

from twinrack.card.compiled import HAND_SIZE
from twinrack.engine.actions import (
    Action,
    CharlestonPass,
    Claim,
    ClaimKind,
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
from twinrack.engine.completion import claim_mahjongg, declarations, whole_card
from twinrack.engine.state import (
    BY_CLAIM,
    DECLARING,
    MUST_ERROR,
    MUST_EXPOSE,
    GameState,
    Rack,
)
from twinrack.tiles import JOKER, NUM_KINDS

# ------------------------------------------------------------------ shared actions

_DISCARDS: dict[int, tuple[Discard, ...]] = {}
_MOVES: dict[tuple[int, int, int], tuple[Move, ...]] = {}
_PASSES: dict[int, Pass] = {}
_CLAIMS: dict[tuple[int, ClaimKind], Claim] = {}


def _discards(seat: int) -> tuple[Discard, ...]:
    found = _DISCARDS.get(seat)
    if found is None:
        found = _DISCARDS[seat] = tuple(Discard(seat, k) for k in range(NUM_KINDS))
    return found


def _moves(seat: int, src: int, dst: int) -> tuple[Move, ...]:
    found = _MOVES.get((seat, src, dst))
    if found is None:
        found = _MOVES[(seat, src, dst)] = tuple(Move(seat, k, src, dst)
                                                 for k in range(NUM_KINDS))
    return found


def _pass(seat: int) -> Pass:
    found = _PASSES.get(seat)
    if found is None:
        found = _PASSES[seat] = Pass(seat)
    return found


def _claim(seat: int, kind: ClaimKind) -> Claim:
    found = _CLAIMS.get((seat, kind))
    if found is None:
        found = _CLAIMS[(seat, kind)] = Claim(seat, kind)
    return found


def shared(action: Action) -> Action:
    """The engine's own instance of an action equal to ``action``, when it has made one
    (a discard, a move, a pass or a claim listed before), else ``action`` itself: an
    action parsed from its text is then recognised among the listed ones by identity."""
    kind = type(action)
    found: Action | None = None
    if kind is Discard:
        discards = _DISCARDS.get(action.seat)
        tile = action.tile  # type: ignore[attr-defined]
        found = discards[tile] if discards is not None and 0 <= tile < len(discards) else None
    elif kind is Move:
        moves = _MOVES.get((action.seat, action.src, action.dst))  # type: ignore[attr-defined]
        tile = action.tile  # type: ignore[attr-defined]
        found = moves[tile] if moves is not None and 0 <= tile < len(moves) else None
    elif kind is Pass:
        found = _PASSES.get(action.seat)
    elif kind is Claim:
        found = _CLAIMS.get((action.seat, action.kind))  # type: ignore[attr-defined]
    return action if found is None or found != action else found


# ------------------------------------------------------------------ the listers


def _playing(st: GameState, seat: int) -> bool:
    """An ordinary turn: no claim's obligation pending, a tile to play, an open rack."""
    if st.obligation is not None:
        return False
    p = st.players[seat]
    if p.free_count() <= 0:
        return False
    return any(r.mahjongg is None and r.dead is None for r in p.racks)


def pass_options(st: GameState, seat: int) -> list[Action]:
    """Passing on the discard, or on declaring after the deal, is always allowed."""
    return [_pass(seat)]


def claim_options(st: GameState, seat: int) -> list[Action]:
    """The claims the latest discard allows: a Double (claimed as one when it gives one),
    else Mah Jongg (strict: always, in error if need be), and a group of 3 or more."""
    w = st.window
    assert w is not None
    out: list[Action] = []
    single, double = claim_mahjongg(st, seat, w.tile)
    if double:
        out.append(_claim(seat, "double"))
    elif single or st.rules.strict:
        out.append(_claim(seat, "mahjongg"))
    if not w.mahjongg_only:
        p = st.players[seat]
        free = p.free()
        if (free[w.tile] + free[JOKER] >= 2 and p.free_count() >= 3
                and any(p.racks[r].exposed + 3 <= HAND_SIZE for r in p.open_racks()
                        if not (p.declared is not None and r == 0))):
            out.append(_claim(seat, "expose"))
    return out


def declare_options(st: GameState, seat: int) -> list[Action]:
    """Declared lines the seat can fix 13 tiles for, one tile away (section 7)."""
    p = st.players[seat]
    cc = whole_card(st)
    out: set[Declare] = set()
    for hid, ways in cc.declared_ways.items():
        a = cc.ways_away(ways, p.pool)
        for w in ways[a <= 1].tolist():
            for x in np.flatnonzero(cc.demand[w, :NUM_KINDS]).tolist():
                plus = list(p.pool)
                plus[x] += 1
                for fill in cc.fillings(w, plus, (), x):
                    rest = list(fill)
                    rest.remove(x)
                    out.add(Declare(seat, hid, tuple(rest)))
    return sorted(out, key=str)


def mahjongg_options(st: GameState, seat: int) -> list[Action]:
    """Mah Jongg declarations: the valid ones and, in strict mode, racks declared as
    arranged (holding the claimed tile while a Mah Jongg claim awaits it)."""
    p = st.players[seat]
    if not (st.obligation in DECLARING or (st.obligation is None and p.open_racks())):
        return []
    return _mahjonggs(st, seat, p.open_racks())


def _mahjonggs(st: GameState, seat: int, racks: list[int]) -> list[Action]:
    """:func:`mahjongg_options` once its condition holds (``racks``: the open racks)."""
    p = st.players[seat]
    out: list[Action] = [MahJongg(seat, r, tiles) for (r, tiles) in declarations(st, seat)]
    if st.rules.strict:
        need = st.must_use if st.obligation in DECLARING else None
        for r in racks:
            rack = p.racks[r]
            if (0 < sum(rack.arranged) == HAND_SIZE - rack.exposed
                    and (need is None or rack.arranged[need])
                    and not (p.declared is not None and r == 0)):
                out.append(MahJongg(seat, r, ()))
    return out


def discard_options(st: GameState, seat: int) -> list[Action]:
    p = st.players[seat]
    if st.obligation is not None or p.free_count() == 0:
        return []
    return list(compress(_discards(seat), p.free()))  # the discard of each kind held


def expose_options(st: GameState, seat: int) -> list[Action]:
    """Groups of 3 or more of one tile (Jokers allowed): of the claimed tile after a claim
    for an exposure (or in error), of any tile held with ``expose_any_time``; each must
    leave a tile to discard and fit on the rack (section 4)."""
    if st.obligation in (MUST_EXPOSE, MUST_ERROR):
        return _exposures(st, seat, st.claim_tile)
    if st.rules.expose_any_time and _playing(st, seat):
        return _exposures(st, seat, None)
    return []


def _exposures(st: GameState, seat: int, only: int | None) -> list[Action]:
    p = st.players[seat]
    free = p.free()
    left = p.free_count()
    jokers = free[JOKER]
    racks = [r for r in p.open_racks() if not (p.declared is not None and r == 0)]
    if not racks:
        return []
    top = max(3, whole_card(st).largest_group)
    kinds = [only] if only is not None else [t for t in range(JOKER) if free[t]]
    out: list[Action] = []
    for t in kinds:
        for k in range(1, free[t] + 1):
            for j in range(0, jokers + 1):
                size = k + j
                if size < 3 or size > top or left - size < 1:
                    continue
                tiles = (t,) * k + (JOKER,) * j
                out.extend(Expose(seat, r, tiles) for r in racks
                           if p.racks[r].exposed + size <= HAND_SIZE)
    return out


def exchange_options(st: GameState, seat: int) -> list[Action]:
    """A natural tile for a Joker of an exposure on any rack, except a Mah Jongg's and
    the exposure that made its rack dead (section 6)."""
    if not _playing(st, seat):
        return []
    return _exchanges(st, seat, st.players[seat].free())


def _exchanges(st: GameState, seat: int, free: list[int]) -> list[Action]:
    out: list[Action] = []
    for o, other in enumerate(st.players):
        for q, rack in enumerate(other.racks):
            if rack.mahjongg is not None:
                continue
            for i, x in enumerate(rack.exposures):
                if x.jokers and free[x.tile] and i != rack.killer:
                    out.append(Exchange(seat, x.tile, o, q, i))
    return out


def move_options(st: GameState, seat: int) -> list[Action]:
    """A concealed tile from one open rack to another, at any time during play, on the
    seat's turn or not, unless a declared hand fixes them (section 5)."""
    p = st.players[seat]
    if p.declared is not None:
        return []
    return _moves_between(seat, p.racks, p.open_racks())


def _moves_between(seat: int, all_racks: list[Rack], racks: list[int]) -> list[Action]:
    out: list[Action] = []
    if len(racks) > 1:
        for a in racks:
            arranged = all_racks[a].arranged
            for b in racks:
                if b != a:  # the move of each kind on rack a
                    out.extend(compress(_moves(seat, a, b), arranged))
    return out


def undeclare_options(st: GameState, seat: int) -> list[Action]:
    if _playing(st, seat) and st.players[seat].declared is not None:
        return [Undeclare(seat)]
    return []


def withdraw_options(st: GameState, seat: int) -> list[Action]:
    """A granted claim may be taken back while nothing is exposed (section 4), except a
    claim for Mah Jongg that completes a declared hand: that one is declared (section 7)."""
    if (st.began != BY_CLAIM or st.obligation is None or st.turn_mahjonggs
            or st.claim_rack is not None):
        return []
    p = st.players[seat]
    if (st.obligation in DECLARING and p.declared is not None
            and any(r == 0 for r, _ in declarations(st, seat))):
        return []
    return [Withdraw(seat)]


def _add(out: list[Action], verbs: list[str], verb: str, found: list[Action]) -> None:
    if found:
        out.extend(found)
        verbs.append(verb)


def ordinary_turn(st: GameState, seat: int) -> tuple[list[Action], list[str]]:
    """The legal actions of the seat on an ordinary turn (no claim's obligation pending)
    and their verbs, unsorted: the listers of every kind the gate lets through then, in
    the order of PHASE_VERBS, but in one pass that finds the open racks and the free tiles
    once (this is the referee's most asked question)."""
    p = st.players[seat]
    racks = p.open_racks()
    out: list[Action] = []
    verbs: list[str] = []
    if racks:
        _add(out, verbs, "mahjongg", _mahjonggs(st, seat, racks))
    if p.free_count() <= 0:  # nothing to play: no discard, exposure, exchange nor move
        return out, verbs
    free = p.free()
    out.extend(compress(_discards(seat), free))  # the discard of each kind held
    verbs.append("discard")  # free_count > 0: some tile is held
    if not racks:
        return out, verbs
    if st.rules.expose_any_time:
        _add(out, verbs, "expose", _exposures(st, seat, None))
    _add(out, verbs, "exchange", _exchanges(st, seat, free))
    if p.declared is None:
        _add(out, verbs, "move", _moves_between(seat, p.racks, racks))
    else:
        out.append(Undeclare(seat))
        verbs.append("undeclare")
    return out, verbs


# ------------------------------------------------------------------ the Charleston


def choices_of(held: list[int], size: int) -> list[tuple[int, ...]]:
    """Every choice of ``size`` tiles (sorted, by kind: multiplicities matter) from the
    counts ``held``, never a Joker (section 3)."""
    kinds = [t for t in range(JOKER) if held[t]]
    out: list[tuple[int, ...]] = []

    def pick(start: int, left: int, chosen: list[int]) -> None:
        if not left:
            out.append(tuple(chosen))
            return
        for i in range(start, len(kinds)):
            t = kinds[i]
            if chosen.count(t) < held[t]:
                chosen.append(t)
                pick(i, left - 1, chosen)
                chosen.pop()

    pick(0, size, [])
    return out


def charleston_options(st: GameState, seat: int) -> list[Action]:
    """Three tiles to pass, none a Joker; in the last pass of each Charleston, 1 to 3 of
    them may be taken unseen from those received (``blind``)."""
    ch = st.charleston
    assert ch is not None
    held = st.players[seat].pool
    blinds = range(4) if ch.stage.blind else range(1)
    return [CharlestonPass(seat, tiles, b) for b in blinds for tiles in choices_of(held, 3 - b)]


def vote_options(st: GameState, seat: int) -> list[Action]:
    return [Vote(seat, True), Vote(seat, False)]


def offer_options(st: GameState, seat: int) -> list[Action]:
    return [Offer(seat, n) for n in range(4)]


def courtesy_options(st: GameState, seat: int) -> list[Action]:
    """Exactly the number of tiles the partners agreed on, none a Joker."""
    ch = st.charleston
    assert ch is not None
    return [Courtesy(seat, tiles) for tiles in choices_of(st.players[seat].pool,
                                                          ch.counts[seat])]


#: every verb's lister (a phase lets only some verbs through their gate: passes and
#: claims, or passes and declarations, or the rest)
OPTIONS: dict[str, Callable[[GameState, int], list[Action]]] = {
    "pass": pass_options,
    "claim": claim_options,
    "declare": declare_options,
    "mahjongg": mahjongg_options,
    "discard": discard_options,
    "expose": expose_options,
    "exchange": exchange_options,
    "move": move_options,
    "undeclare": undeclare_options,
    "withdraw": withdraw_options,
    "charleston": charleston_options,
    "vote": vote_options,
    "offer": offer_options,
    "courtesy": courtesy_options,
}
