"""Is a rack complete, and what completes it: the one test behind every Mah Jongg
declaration, every claim for Mah Jongg or a Double, and the end of a rack that its
exposures kill (docs/rules.md, sections 4, 7 and 8).

Only the compiled card answers "how far" and "is it complete" (card/compiled.py, checked
against the oracle in tests/card/oracle.py); this module asks it about a player's racks.
A rack plays the card without its declared lines, except the first rack under a declared
hand, which is completed only by its 13 fixed tiles and the tile picked or claimed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from twinrack.card.compiled import CompiledCard, compiled
from twinrack.card.exposure import Exposure
from twinrack.card.model import Hand
from twinrack.engine.memo import RackReach, memo_of
from twinrack.engine.scoring import hand_points
from twinrack.engine.state import DECLARING, MUST_DOUBLE, GameState, Player
from twinrack.tiles import JOKER, tiles_of

#: each set of concealed tiles completing a rack, and the card ways it makes
Completions = dict[tuple[int, ...], list[int]]


class LineMade(NamedTuple):
    """The line a Mah Jongg declaration makes, as scored."""

    hand: Hand
    jokerless: bool
    closed: bool


#: the valid Mah Jongg declarations of a seat: (rack, tiles named) -> the line made
Declarations = dict[tuple[int, tuple[int, ...]], LineMade]


def whole_card(st: GameState) -> CompiledCard:
    """The game's compiled card, declared lines included, with concealed lines open to
    exposures when the rules say so (section 5)."""
    return compiled(st.card, open_lines=st.rules.open_lines)


def playable(st: GameState) -> CompiledCard:
    """The game's compiled card without the lines declared at the deal: what a rack not
    under a declared hand can make (section 7)."""
    return whole_card(st).without_declared


def rack_alive(st: GameState, exposures: Sequence[Exposure]) -> bool:
    """Some line of the card can still be made on a rack with these exposures (an
    exposure that fits none kills its rack, section 8)."""
    return playable(st).rack_alive(exposures)


def _reach(st: GameState, p: Player, r: int) -> RackReach:
    """How far rack ``r`` is, with the player's free tiles, from the lines it may make
    (worked out only as far as asked, remembered in engine.memo; the same object again
    while the free tiles and the rack's exposures stay as they were)."""
    seat = st.players.index(p)  # Players compare by identity
    rack = p.racks[r]
    free = tuple(p.free())
    exposures = tuple(rack.exposures)
    memo = memo_of(st)
    known = memo.reach
    hit = known.get((seat, r))
    if hit is not None and hit[0] == free and hit[1] == exposures:
        return hit[2]
    found = RackReach(playable(st), st.commitment, seat, rack.key(), exposures, free, memo)
    known[(seat, r)] = (free, exposures, found)
    return found


def _far(st: GameState, p: Player, r: int, floor: int) -> bool:
    """Rack ``r`` is known, without work, to be at least ``floor`` tiles from every line
    it may make (see engine.memo): no holding nor reach needs making then."""
    return memo_of(st).surely_far(st.players.index(p), p.racks[r].key(), floor)


def minus(counts: Sequence[int], tiles: Iterable[int]) -> list[int]:
    """``counts`` less one of each of ``tiles``."""
    out = list(counts)
    for t in tiles:
        out[t] -= 1
    return out


def declared_made_with(st: GameState, p: Player, x: int) -> bool:
    """The declared hand's 13 fixed tiles and ``x`` make that hand."""
    assert p.declared is not None
    counts = list(p.racks[0].arranged)
    counts[x] += 1
    cc = whole_card(st)
    return bool((cc.ways_away(cc.declared_ways[p.declared], counts) == 0).any())


def rack_completions(st: GameState, p: Player, r: int, counts: Sequence[int] | None = None,
                     need: int | None = None, fresh: int | None = None) -> Completions:
    """The one test of "rack ``r`` is complete" (section 7), behind every Mah Jongg
    declaration (hence the score) and every Mah Jongg or Double claim: each set of concealed
    tiles from ``counts`` (default: the player's free tiles) that completes the rack with
    its exposures, mapped to the card ways it makes; with ``need``, only sets holding that
    tile. A rack exposed in full is completed by the empty set. A declared hand is completed
    only by ``fresh``, the tile picked or claimed (default: this turn's)."""
    rack = p.racks[r]
    if p.declared is not None and r == 0:
        x = st.acquired if fresh is None else fresh
        return _declared_completion(st, p, p.free() if counts is None else counts, need, x)
    if counts is None:
        if _far(st, p, r, 1):
            return {}
        counts, ways = p.free(), _reach(st, p, r).done()
    else:
        ways = np.flatnonzero(playable(st).way_aways(counts, rack.exposures) == 0)
    out: Completions = {}
    if not len(ways):
        return out
    cc = whole_card(st)
    for w in ways.tolist():
        for fill in cc.fillings(w, counts, rack.exposures, need):
            out.setdefault(fill, []).append(w)
    return out


def _declared_completion(st: GameState, p: Player, counts: Sequence[int], need: int | None,
                         x: int | None) -> Completions:
    """The declared hand on the first rack: its 13 fixed tiles and the fresh tile ``x``."""
    assert p.declared is not None
    if x is None or counts[x] <= 0 or (need is not None and need != x):
        return {}
    if not declared_made_with(st, p, x):
        return {}
    return {(x,): whole_card(st).declared_ways[p.declared].tolist()}


def complete_all(st: GameState, p: Player, counts: Sequence[int], racks: Sequence[int],
                 need: int | None, fresh: int | None = None) -> bool:
    """Can every rack of ``racks`` be declared from ``counts`` (using ``need`` somewhere)?"""
    if not racks:
        return need is None
    for fill in rack_completions(st, p, racks[0], counts, None, fresh):
        still = None if need is None or need in fill else need
        if complete_all(st, p, minus(counts, fill), racks[1:], still, fresh):
            return True
    return False


# ------------------------------------------------------------------ declarations


def _best_line(st: GameState, p: Player, r: int, fill: tuple[int, ...],
               ways: Sequence[int]) -> tuple[tuple[int, ...], LineMade]:
    """The tiles a declaration names for a completion of rack ``r``, and the line worth the
    most among the ``ways`` it makes (section 10)."""
    rack = p.racks[r]
    if p.declared is not None and r == 0:
        tiles = tuple(sorted([*tiles_of(rack.arranged), *fill]))
        return tiles, LineMade(st.card.hand(p.declared), JOKER not in tiles, True)
    jokerless = JOKER not in fill and not any(x.jokers for x in rack.exposures)
    closed = not rack.exposures
    scoring = st.rules.scoring_rules()
    hands = [whole_card(st).hand_of(w) for w in ways]
    hand = max(hands, key=lambda h: (hand_points(h, jokerless, closed, scoring), -h.number))
    return fill, LineMade(hand, jokerless, closed)


def declarations(st: GameState, seat: int) -> Declarations:
    """Every valid Mah Jongg declaration of the seat on turn: (rack, tiles) -> the best
    line it makes (section 7). Remembered for the facts they depend on."""
    p = st.players[seat]
    fixed = tuple(p.racks[0].arranged) if p.declared is not None else None
    stamp = (seat, tuple(p.pool), fixed, p.declared, st.obligation, st.must_use, st.acquired,
             st.turn_no, tuple((tuple(r.exposures), r.finished) for r in p.racks))
    memo = memo_of(st)
    if memo.mahjongg is not None and memo.mahjongg[0] == stamp:
        found: Declarations = memo.mahjongg[1]
        return found
    free = p.free()
    need = st.must_use if st.obligation in DECLARING else None
    open_racks = p.open_racks()
    out: Declarations = {}
    for r in open_racks:
        others = [q for q in open_racks if q != r]
        for fill, ways in rack_completions(st, p, r, None, need).items():
            if st.obligation == MUST_DOUBLE:
                still = None if need is None or need in fill else need
                if not complete_all(st, p, minus(free, fill), others, still):
                    continue
            tiles, line = _best_line(st, p, r, fill, ways)
            out[(r, tiles)] = line
    memo.mahjongg = (stamp, out)
    return out


# ------------------------------------------------------------------ claims


def _near(st: GameState, p: Player, r: int, t: int) -> bool:
    """Rack ``r`` may be complete once ``t`` joins the free tiles (a cheap necessary test:
    some line at most one tile away)."""
    if p.declared is not None and r == 0:
        return declared_made_with(st, p, t)
    return not _far(st, p, r, 2) and bool(len(_reach(st, p, r).near()))


def _may_take(st: GameState, p: Player, r: int, t: int) -> bool:
    """``t`` may complete rack ``r`` (a cheap necessary test: some line at most one tile
    away holds ``t``, or a declared hand)."""
    if p.declared is not None and r == 0:
        return True
    if _far(st, p, r, 2):
        return False
    near = _reach(st, p, r).near()
    return bool(len(near)) and bool(playable(st).demand[near, t].any())


def _takes(st: GameState, p: Player, r: int, t: int, plus: Sequence[int]) -> bool:
    """``t`` completes rack ``r``: a cheap filter on lines that hold ``t``, then the one
    test, :func:`rack_completions`."""
    rack = p.racks[r]
    if not (p.declared is not None and r == 0):
        if _far(st, p, r, 2):
            return False
        near = _reach(st, p, r).near()
        if not len(near):
            return False
        cc = playable(st)
        cand = near[cc.demand[near, t]]
        if not len(cand) or not (cc.ways_away(cand, plus, rack.exposures) == 0).any():
            return False
    return bool(rack_completions(st, p, r, plus, t, t))


def claim_mahjongg(st: GameState, seat: int, t: int) -> tuple[bool, bool]:
    """Could ``seat`` declare a Mah Jongg using discard ``t``, and a Double (a Mah Jongg on
    every open rack in that turn, winning)? Decided by :func:`rack_completions`, as the
    declarations are (section 4)."""
    p = st.players[seat]
    open_racks = p.open_racks()
    if not any(_may_take(st, p, r, t) for r in open_racks):  # the usual answer, cheaply
        return False, False
    plus = list(p.free())
    plus[t] += 1
    if not any(_takes(st, p, r, t, plus) for r in open_racks):
        return False, False
    double = (len(open_racks) >= 2 and all(r.dead is None for r in p.racks)
              and all(_near(st, p, r, t) for r in open_racks)
              and complete_all(st, p, plus, open_racks, t, t))
    return True, double
