"""The referee: ``new_game``, ``legal_actions``, ``apply``, ``score``.

One code path decides legality: :func:`legal_actions` lists every action a seat may take
now, and :func:`apply` accepts an action only when it is in that list (a refused action
raises :class:`IllegalActionError` with a stable code and changes nothing). Section numbers
in docstrings refer to docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from twinrack.card import Card, practice_card
from twinrack.card.compiled import HAND_SIZE, CompiledCard, compiled
from twinrack.card.exposure import Exposure
from twinrack.card.model import Hand
from twinrack.engine.actions import (
    Action,
    Claim,
    ClaimKind,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Pass,
    Undeclare,
    Withdraw,
)
from twinrack.engine.events import (
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
    Passed,
    Picked,
    RackDead,
    Started,
    Stopped,
    Undeclared,
    Withdrawn,
)
from twinrack.engine.memo import RackReach, memo_of
from twinrack.engine.rules import RuleSet
from twinrack.engine.scoring import (
    GameFacts,
    HandFacts,
    MahJonggFact,
    Score,
    ScoringRules,
    Settlement,
    hand_points,
    score_game,
    settle,
)
from twinrack.engine.shuffle import commitment, die, seed_bytes, shuffled
from twinrack.engine.state import (
    DECLARING,
    DeadReason,
    EndReason,
    GameState,
    MahJonggRecord,
    Obligation,
    Phase,
    Player,
    Rack,
    TurnStart,
    Window,
)
from twinrack.errors import IllegalActionError, TwinRackError
from twinrack.tiles import CANONICAL, FLOWER, JOKER, NUM_KINDS, tiles_of

#: claims for Mah Jongg
MJ_KINDS: tuple[ClaimKind, ...] = ("mahjongg", "double")


def _card(st: GameState) -> CompiledCard:
    """The game's compiled card, whole (declared lines included)."""
    return compiled(st.card)


def _playable(st: GameState) -> CompiledCard:
    """The game's compiled card without the lines declared at the deal: what a rack not
    under a declared hand can make (section 7)."""
    return compiled(st.card).without_declared


# ------------------------------------------------------------------ cached actions

_DISCARDS: dict[tuple[int, int], Discard] = {}
_PASSES: dict[int, Pass] = {}
_CLAIMS: dict[tuple[int, ClaimKind], Claim] = {}
_MOVES: dict[tuple[int, int, int], tuple[Move, ...]] = {}
_DISCARD_TABLES: dict[int, tuple[Discard, ...]] = {}


def _discard(seat: int, tile: int) -> Discard:
    a = _DISCARDS.get((seat, tile))
    if a is None:
        a = _DISCARDS[(seat, tile)] = Discard(seat, tile)
    return a


def _move_table(seat: int, a: int, b: int) -> tuple[Move, ...]:
    t = _MOVES.get((seat, a, b))
    if t is None:
        t = _MOVES[(seat, a, b)] = tuple(Move(seat, k, a, b) for k in range(NUM_KINDS))
    return t


def _discard_table(seat: int) -> tuple[Discard, ...]:
    t = _DISCARD_TABLES.get(seat)
    if t is None:
        t = _DISCARD_TABLES[seat] = tuple(_discard(seat, k) for k in range(NUM_KINDS))
    return t


def _pass(seat: int) -> Pass:
    a = _PASSES.get(seat)
    if a is None:
        a = _PASSES[seat] = Pass(seat)
    return a


def _claim(seat: int, kind: ClaimKind) -> Claim:
    a = _CLAIMS.get((seat, kind))
    if a is None:
        a = _CLAIMS[(seat, kind)] = Claim(seat, kind)
    return a


# ------------------------------------------------------------------ the wall and the deal


def build_wall(rules: RuleSet, tiles: Sequence[int], die_value: int | None) -> list[int]:
    """Lay shuffled tiles into walls and return them in picking order (section 3).

    Each player builds one wall per rack, walls of 2-tile stacks; where the stacks do not
    divide evenly the first walls get one more. East's walls come first, then each next
    player's. East's die (if any) cuts East's first wall: that many stacks move from the
    head of the wall to its tail.
    """
    n_walls = rules.players * rules.racks
    stacks = len(tiles) // 2
    base, extra = divmod(stacks, n_walls)
    walls: list[list[int]] = []
    pos = 0
    for w in range(n_walls):
        length = 2 * (base + (1 if w < extra else 0))
        walls.append(list(tiles[pos:pos + length]))
        pos += length
    walls[-1].extend(tiles[pos:])  # never happens with an even tile count
    if die_value:
        cut = 2 * die_value
        walls[0] = walls[0][cut:] + walls[0][:cut]
    return [t for wall in walls for t in wall]


def deal_plan(rules: RuleSet) -> list[tuple[int, int]]:
    """(seat, tiles taken) in dealing order: 4 at a time, East first (section 3).

    2024: every player takes 14R-1 tiles and East then picks to begin. 2019: East takes
    14R and discards first.
    """
    targets = [rules.hold] * rules.players
    if rules.revision == "2019":
        targets[0] += 1
    got = [0] * rules.players
    plan: list[tuple[int, int]] = []
    while got != targets:
        for s in range(rules.players):
            take = min(4, targets[s] - got[s])
            if take:
                plan.append((s, take))
                got[s] += take
    return plan


def rigged_stack(rules: RuleSet, hands: Sequence[Sequence[int]],
                 picks: Sequence[int] = ()) -> list[int]:
    """The wall order (picking order) that deals ``hands[s]`` to each seat, then ``picks``.

    For scenario tests and for replaying a real table's deal: pass it as ``stack`` to
    :func:`new_game`; the rest of the wall is shuffled from the seed.
    """
    plan = deal_plan(rules)
    need = [0] * rules.players
    for s, k in plan:
        need[s] += k
    for s in range(rules.players):
        if len(hands[s]) != need[s]:
            raise TwinRackError("bad_stack", f"seat {s} is dealt {need[s]} tiles, "
                                             f"not {len(hands[s])}")
    taken = [0] * rules.players
    out: list[int] = []
    for s, k in plan:
        out.extend(hands[s][taken[s]:taken[s] + k])
        taken[s] += k
    out.extend(picks)
    return out


def new_game(rules: RuleSet | None = None, *, seed: bytes | str | int,
             card: Card | None = None, stack: Sequence[int] | None = None) -> GameState:
    """A new game, dealt (section 3). ``seed`` drives the shuffle and the die (the core
    draws no randomness: a table passes fresh secret bytes, e.g. ``os.urandom(32)``); ``stack``
    (tests, real-table replays) fixes the first tiles of the picking order (no cut), the
    rest being shuffled from the seed. Without ``card`` the practice card is used."""
    rules = rules or RuleSet()
    card = card or practice_card()
    key = seed_bytes(seed)
    tiles = rules.tiles.wall()
    if stack is not None:
        rest = list(tiles)
        for t in stack:
            if t not in rest:
                raise TwinRackError("bad_stack", f"the stack holds more {CANONICAL[t]} than "
                                                 "the tile set")
            rest.remove(t)
        order = list(stack) + shuffled(key, rest)
        die_value: int | None = None
    else:
        die_value = die(key) if rules.dice_cut else None
        order = build_wall(rules, shuffled(key, tiles), die_value)
    st = GameState(rules, card, key, commitment(key), order, die_value,
                   tuple(stack) if stack is not None else None)
    ev: list[Event] = [Started(rules.variant, rules.players, rules.revision, st.commitment)]
    if die_value:
        ev.append(Cut(die_value))
    dealt: list[list[int]] = [[] for _ in range(rules.players)]
    for s, k in deal_plan(rules):
        dealt[s].extend(order[st.wall_pos:st.wall_pos + k])
        st.wall_pos += k
    for s, hand in enumerate(dealt):
        p = st.players[s]
        tiles_sorted = sorted(hand)
        for i, t in enumerate(tiles_sorted):
            r = min(i // HAND_SIZE, rules.racks - 1)
            p.racks[r].arranged[t] += 1
            p.pool[t] += 1
        p.concealed = len(hand)
        ev.append(Dealt(s, len(hand), tuple(tiles_sorted)))
    st.events.extend(ev)
    if rules.declared_hands and compiled(card).declared_ways:
        st.phase = Phase.DECLARE
        st.declaring = list(range(rules.players))
    else:
        _begin_play(st, st.events)
    return st


def _begin_play(st: GameState, ev: list[Event]) -> None:
    if st.rules.revision == "2019":
        st.phase = Phase.TURN
        st.current = 0
        st.turn_no = 1
        st.began = TurnStart.DEAL
        st.acquired = None
    else:
        _pick(st, 0, ev)


# ------------------------------------------------------------------ tiles-away helpers


def _reach(st: GameState, p: Player, rack: Rack) -> RackReach:
    """How far ``rack`` is, with the player's free tiles, from the lines it may make
    (worked out only as far as asked, remembered in engine.memo)."""
    seat = next(s for s, q in enumerate(st.players) if q is p)
    return RackReach(_playable(st), st.commitment, seat, rack.key(), rack.exposures,
                     tuple(p.free()))


def _minus(counts: Sequence[int], tiles: Iterable[int]) -> list[int]:
    out = list(counts)
    for t in tiles:
        out[t] -= 1
    return out


def _atomic_ok(st: GameState, p: Player, x: int) -> bool:
    """The declared hand's 13 fixed tiles and ``x`` make that hand."""
    assert p.declared is not None
    counts = list(p.racks[0].arranged)
    counts[x] += 1
    ways = _card(st).declared_ways[p.declared]
    return bool((_card(st).ways_away(ways, counts) == 0).any())


Completions = dict[tuple[int, ...], list[int]]


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
        counts, ways = p.free(), _reach(st, p, rack).done()
    else:
        ways = np.flatnonzero(_playable(st).way_aways(counts, rack.exposures) == 0)
    cc = _card(st)
    out: Completions = {}
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
    if not _atomic_ok(st, p, x):
        return {}
    return {(x,): _card(st).declared_ways[p.declared].tolist()}


def _complete_all(st: GameState, p: Player, counts: Sequence[int], racks: Sequence[int],
                  need: int | None, fresh: int | None = None) -> bool:
    """Can every rack of ``racks`` be declared from ``counts`` (using ``need`` somewhere)?"""
    if not racks:
        return need is None
    for fill in rack_completions(st, p, racks[0], counts, None, fresh):
        still = None if need is None or need in fill else need
        if _complete_all(st, p, _minus(counts, fill), racks[1:], still, fresh):
            return True
    return False


# ------------------------------------------------------------------ Mah Jongg options


def _hand_points(st: GameState, hand: Hand, jokerless: bool, closed: bool) -> int:
    return hand_points(hand, jokerless, closed, st.rules.scoring_rules())


MjOption = tuple[Hand, bool, bool]  # hand, jokerless, closed


def _best_line(st: GameState, p: Player, r: int, fill: tuple[int, ...],
               ways: Sequence[int]) -> tuple[tuple[int, ...], MjOption]:
    """The tiles a declaration names for a completion of rack ``r``, and the line worth the
    most among the ``ways`` it makes."""
    rack = p.racks[r]
    if p.declared is not None and r == 0:
        tiles = tuple(sorted([*tiles_of(rack.arranged), *fill]))
        return tiles, (st.card.hand(p.declared), JOKER not in tiles, True)
    jl = JOKER not in fill and not any(x.jokers for x in rack.exposures)
    closed = not rack.exposures
    hands = [_card(st).hand_of(w) for w in ways]
    hand = max(hands, key=lambda h: (_hand_points(st, h, jl, closed), -h.number))
    return fill, (hand, jl, closed)


def _mj_options(st: GameState, seat: int) -> dict[tuple[int, tuple[int, ...]], MjOption]:
    """Every valid Mah Jongg declaration of the seat on turn: (rack, tiles) -> the best
    line it makes (section 7). Remembered for the facts they depend on."""
    p = st.players[seat]
    fixed = tuple(p.racks[0].arranged) if p.declared is not None else None
    stamp = (seat, tuple(p.pool), fixed, p.declared, st.obligation, st.must_use, st.acquired,
             st.turn_no, tuple((tuple(r.exposures), r.finished) for r in p.racks))
    memo = memo_of(st)
    cached = memo.mahjongg
    if cached is not None and cached[0] == stamp:
        found: dict[tuple[int, tuple[int, ...]], MjOption] = cached[1]
        return found
    free = p.free()
    need = st.must_use if st.obligation in DECLARING else None
    open_racks = p.open_racks()
    out: dict[tuple[int, tuple[int, ...]], MjOption] = {}
    for r in open_racks:
        others = [q for q in open_racks if q != r]
        for fill, ways in rack_completions(st, p, r, None, need).items():
            if st.obligation == Obligation.DOUBLE:
                still = None if need is None or need in fill else need
                if not _complete_all(st, p, _minus(free, fill), others, still):
                    continue
            tiles, option = _best_line(st, p, r, fill, ways)
            out[(r, tiles)] = option
    memo.mahjongg = (stamp, out)
    return out


def _near(st: GameState, p: Player, r: int, t: int) -> bool:
    """Rack ``r`` may be complete once ``t`` joins the free tiles (a cheap necessary test:
    some line at most one tile away)."""
    rack = p.racks[r]
    if p.declared is not None and r == 0:
        return _atomic_ok(st, p, t)
    return bool(len(_reach(st, p, rack).near()))


def _takes(st: GameState, p: Player, r: int, t: int, plus: Sequence[int]) -> bool:
    """``t`` completes rack ``r``: a cheap filter on lines that hold ``t``, then the one
    test, :func:`rack_completions`."""
    rack = p.racks[r]
    if not (p.declared is not None and r == 0):
        cc = _playable(st)
        near = _reach(st, p, rack).near()
        cand = near[cc.demand[near, t]]
        if not len(cand) or not (cc.ways_away(cand, plus, rack.exposures) == 0).any():
            return False
    return bool(rack_completions(st, p, r, plus, t, t))


def _claim_mahjongg(st: GameState, seat: int, t: int) -> tuple[bool, bool]:
    """Could ``seat`` declare a Mah Jongg using discard ``t``, and a Double (a Mah Jongg on
    every open rack in that turn, winning)? Decided by :func:`rack_completions`, as the
    declarations are."""
    p = st.players[seat]
    plus = list(p.free())
    plus[t] += 1
    open_racks = p.open_racks()
    if not any(_takes(st, p, r, t, plus) for r in open_racks):
        return False, False
    double = (len(open_racks) >= 2 and all(r.dead is None for r in p.racks)
              and all(_near(st, p, r, t) for r in open_racks)
              and _complete_all(st, p, plus, open_racks, t, t))
    return True, double


# ------------------------------------------------------------------ legal actions


def _exposure_options(st: GameState, seat: int, only: int | None) -> list[Action]:
    """Groups of 3 or more of one tile (Jokers allowed) that the seat may expose now."""
    p = st.players[seat]
    free = p.free()
    left = p.free_count()
    jokers = free[JOKER]
    racks = [r for r in p.open_racks() if not (p.declared is not None and r == 0)]
    if not racks:
        return []
    top = max(3, _card(st).largest_group)
    kinds = [only] if only is not None else [t for t in range(JOKER) if free[t]]
    out: list[Action] = []
    for t in kinds:
        for k in range(1, free[t] + 1):
            for j in range(0, jokers + 1):
                size = k + j
                if size < 3 or size > top or left - size < 1:
                    continue
                tiles = (t,) * k + (JOKER,) * j
                for r in racks:
                    if p.racks[r].exposed + size <= HAND_SIZE:
                        out.append(Expose(seat, r, tiles))
    return out


def _declare_options(st: GameState, seat: int) -> list[Action]:
    """Declared lines the seat can fix 13 tiles for, one tile away (section 7, Atomic)."""
    p = st.players[seat]
    cc = _card(st)
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


def _declarations(st: GameState, seat: int) -> list[Action]:
    """Mah Jongg declarations: the valid ones and, in strict mode, racks declared as
    arranged (holding the claimed tile while a Mah Jongg claim awaits it)."""
    p = st.players[seat]
    out: list[Action] = [MahJongg(seat, r, tiles) for (r, tiles) in _mj_options(st, seat)]
    if st.rules.strict:
        need = st.must_use if st.obligation in DECLARING else None
        for r in p.open_racks():
            rack = p.racks[r]
            if (0 < sum(rack.arranged) == HAND_SIZE - rack.exposed
                    and (need is None or rack.arranged[need])
                    and not (p.declared is not None and r == 0)):
                out.append(MahJongg(seat, r, ()))
    return out


def _may_withdraw(st: GameState, seat: int) -> bool:
    """A granted claim may be taken back while nothing is exposed (section 4), except a
    claim for Mah Jongg that completes a declared hand: that one is declared (section 7)."""
    if st.began != TurnStart.CLAIM or st.obligation is None or st.turn_mahjonggs or (
            st.claim_rack is not None):
        return False
    p = st.players[seat]
    return not (st.obligation in DECLARING and p.declared is not None
                and any(r == 0 for r, _ in _mj_options(st, seat)))


def _claimed_options(st: GameState, seat: int) -> list[Action]:
    """Right after a granted claim: the exposure or the Mah Jongg it was claimed for
    (after a Mah Jongg claim in error, only the group the discard completes), or taking
    the claim back."""
    if st.obligation in DECLARING:
        out = _declarations(st, seat)
    else:
        out = _exposure_options(st, seat, st.claim_tile)
    if _may_withdraw(st, seat):
        out.append(Withdraw(seat))
    return out


def _turn_options(st: GameState, seat: int) -> list[Action]:
    p = st.players[seat]
    if st.obligation is not None:
        return _claimed_options(st, seat)
    out = _declarations(st, seat) if p.open_racks() else []
    if p.free_count() == 0:
        return out  # nothing to discard: a rack exposed in full is declared
    free = p.free()
    table = _discard_table(seat)
    out.extend([table[t] for t in range(NUM_KINDS) if free[t]])
    if p.open_racks():
        if st.rules.expose_any_time:
            out.extend(_exposure_options(st, seat, None))
        for o, other in enumerate(st.players):
            for q, rack in enumerate(other.racks):
                if rack.mahjongg is not None:
                    continue
                for i, x in enumerate(rack.exposures):
                    if x.jokers and free[x.tile] and i != rack.killer:
                        out.append(Exchange(seat, x.tile, o, q, i))
        if p.declared is None:
            racks = p.open_racks()
            if len(racks) > 1:
                for a in racks:
                    conc = p.racks[a].arranged
                    kinds = [t for t in range(NUM_KINDS) if conc[t]]
                    for b in racks:
                        if b != a:
                            mt = _move_table(seat, a, b)
                            out.extend([mt[t] for t in kinds])
        else:
            out.append(Undeclare(seat))
    return out


def _window_options(st: GameState, seat: int) -> list[Action]:
    w = st.window
    assert w is not None
    out: list[Action] = [_pass(seat)]
    single, double = _claim_mahjongg(st, seat, w.tile)
    if double:  # a discard that gives a Double is claimed as one (section 4)
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


def _legal(st: GameState, seat: int) -> list[Action]:
    if st.phase == Phase.OVER or not 0 <= seat < st.rules.players:
        return []
    if st.phase == Phase.WINDOW:
        assert st.window is not None
        return _window_options(st, seat) if seat in st.window.pending else []
    if st.phase == Phase.DECLARE:
        if seat not in st.declaring:
            return []
        return [_pass(seat), *_declare_options(st, seat)]
    if st.phase == Phase.TURN and seat == st.current:
        return _turn_options(st, seat)
    return []


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it has nothing to do)."""
    known = memo_of(state).legal
    hit = known.get(seat)
    if hit is not None and hit[0] == state.version:
        return list(hit[1])
    acts = _legal(state, seat)
    known[seat] = (state.version, acts, None)
    return list(acts)


def _legal_set(state: GameState, seat: int) -> frozenset[Action]:
    known = memo_of(state).legal
    hit = known.get(seat)
    if hit is None or hit[0] != state.version:
        legal_actions(state, seat)
        hit = known[seat]
    if hit[2] is None:
        hit = (hit[0], hit[1], frozenset(hit[1]))
        known[seat] = hit
    assert hit[2] is not None
    return hit[2]


def is_legal(state: GameState, action: Action) -> bool:
    return action in _legal_set(state, action.seat)


# ------------------------------------------------------------------ applying


def apply(state: GameState, action: Action) -> list[Event]:
    """Apply one action and return the events it caused. A refused action raises
    :class:`IllegalActionError` and leaves the state as it was."""
    hit = memo_of(state).legal.get(action.seat)
    listed = hit is not None and hit[0] == state.version and any(a is action for a in hit[1])
    if not listed and action not in _legal_set(state, action.seat):
        raise why_illegal(state, action)
    ev: list[Event] = []
    st = state
    st.actions.append(action)
    seat = action.seat
    if isinstance(action, Discard):
        _do_discard(st, seat, action.tile, ev)
    elif isinstance(action, Pass):
        if st.phase == Phase.WINDOW:
            _answer(st, seat, None, ev)
        else:
            st.declaring.remove(seat)
            ev.append(Passed(seat))
            if not st.declaring:
                _begin_play(st, ev)
    elif isinstance(action, Claim):
        _answer(st, seat, action.kind, ev)
    elif isinstance(action, Expose):
        _do_expose(st, seat, action.rack, action.tiles, ev)
    elif isinstance(action, Exchange):
        _do_exchange(st, action, ev)
    elif isinstance(action, MahJongg):
        _do_mahjongg(st, seat, action.rack, action.tiles, ev)
    elif isinstance(action, Move):
        rack_from = st.players[seat].racks[action.src].arranged
        rack_to = st.players[seat].racks[action.dst].arranged
        rack_from[action.tile] -= 1
        rack_to[action.tile] += 1
        if action.tile == st.acquired and action.src == st.acquired_rack:
            st.acquired_rack = action.dst  # the fresh tile is followed where it goes
        ev.append(Moved(seat, action.src, action.dst, action.tile))
    elif isinstance(action, Declare):
        _do_declare(st, action, ev)
    elif isinstance(action, Withdraw):
        _do_withdraw(st, seat, ev)
    elif isinstance(action, Undeclare):
        p = st.players[seat]
        p.declared = None
        ev.append(Undeclared(seat, "voluntary"))
    st.events.extend(ev)
    st.version += 1
    return ev


def _take(p: Player, tiles: Iterable[int], first: int | None = None) -> None:
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
            conc = p.racks[r].arranged
            if conc[t]:
                conc[t] -= 1
                break
        else:  # pragma: no cover - guarded by legality
            raise AssertionError(f"tile {CANONICAL[t]} not held")
        p.pool[t] -= 1
        p.concealed -= 1


def _give(p: Player, t: int) -> int:
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


def _tidy(p: Player, r: int) -> None:
    """Concealed tiles left on a finished rack go to the first open rack."""
    conc = p.racks[r].arranged
    if not any(conc):
        return
    for i, rack in enumerate(p.racks):
        if i != r and not rack.finished and not (p.declared is not None and i == 0):
            for t in range(NUM_KINDS):
                rack.arranged[t] += conc[t]
                conc[t] = 0
            return


def _active(st: GameState, seat: int) -> bool:
    p = st.players[seat]
    return not p.stopped and any(not r.finished for r in p.racks)


def _pick(st: GameState, seat: int, ev: list[Event]) -> None:
    """Begin ``seat``'s turn with the next wall tile (section 4)."""
    t = st.wall[st.wall_pos]
    st.wall_pos += 1
    p = st.players[seat]
    st.acquired_rack = _give(p, t)
    st.phase = Phase.TURN
    st.current = seat
    st.turn_no += 1
    st.acquired = t
    st.began = TurnStart.PICK
    st.obligation = None
    st.must_use = None
    st.claim_tile = st.claim_from = st.claim_kind = st.claim_rack = None
    st.turn_mahjonggs = 0
    st.waiting = ()
    ev.append(Picked(seat, t))
    if p.declared is not None and p.mahjonggs and t in (FLOWER, JOKER):
        p.declared = None
        ev.append(Undeclared(seat, "forced"))


def _next_turn(st: GameState, after: int, ev: list[Event]) -> None:
    """The next seat still playing picks; the game ends when the wall is spent or no
    one is left (section 9)."""
    n = st.rules.players
    st.window = None
    for k in range(1, n + 1):
        s = (after + k) % n
        if _active(st, s):
            break
    else:
        _end(st, EndReason.STOPPED, None, ev)
        return
    if st.wall_left == 0:
        _end(st, EndReason.WALL, None, ev)
        return
    _pick(st, s, ev)


def _end(st: GameState, reason: EndReason, seat: int | None, ev: list[Event]) -> None:
    st.phase = Phase.OVER
    st.window = None
    st.end_reason = reason
    st.winner = seat
    st.obligation = None
    ev.append(Ended(reason, seat))


def _finish_turn(st: GameState, seat: int, ev: list[Event]) -> None:
    """The turn is over (after a discard or with no concealed tile left)."""
    p = st.players[seat]
    st.obligation = None
    st.must_use = None
    st.acquired = None
    if not p.stopped and not p.open_racks():
        p.stopped = True
        ev.append(Stopped(seat))


def _do_discard(st: GameState, seat: int, t: int, ev: list[Event]) -> None:
    p = st.players[seat]
    order = [r for r in range(len(p.racks)) if not (p.declared is not None and r == 0)]
    # take it from the last rack holding it, to keep the first racks' arrangement
    for r in reversed(order):
        if p.racks[r].arranged[t]:
            p.racks[r].arranged[t] -= 1
            break
    p.pool[t] -= 1
    p.concealed -= 1
    st.discards.append((seat, t))
    ev.append(Discarded(seat, t))
    _finish_turn(st, seat, ev)
    if t == JOKER:  # a discarded Joker can never be claimed (section 4)
        _next_turn(st, seat, ev)
        return
    n = st.rules.players
    pending = [(seat + k) % n for k in range(1, n) if _active(st, (seat + k) % n)]
    if not pending:
        _next_turn(st, seat, ev)
        return
    mj_only = st.wall_left == 0 and st.rules.last_discard == "mahjongg"
    st.window = Window(seat, t, pending, mj_only)
    st.phase = Phase.WINDOW


def _answer(st: GameState, seat: int, kind: ClaimKind | None, ev: list[Event]) -> None:
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

    mj = [s for s, k in answers.items() if k in MJ_KINDS]
    doubles = [s for s in mj if answers[s] == "double"]
    if mj:
        return min(doubles if doubles and st.rules.double_priority else mj, key=dist)
    return min(answers, key=dist) if answers else None


def _resolve(st: GameState, ev: list[Event]) -> None:
    """Close the claim window: grant the discard, or the next seat picks."""
    w = st.window
    assert w is not None
    winner = _claim_winner(st, w.discarder, w.answers)
    st.window = None
    if winner is None:
        _next_turn(st, w.discarder, ev)
    else:
        _grant(st, winner, w.tile, w.discarder, w.answers, ev)


def _grant(st: GameState, winner: int, t: int, discarder: int, answers: dict[int, ClaimKind],
           ev: list[Event]) -> None:
    """``winner`` takes discard ``t``: its turn begins with what the claim requires; the
    other claims wait in case it withdraws (section 4)."""
    kind = answers[winner]
    st.waiting = tuple(sorted((s, k) for s, k in answers.items() if s != winner))
    st.discards.pop()
    p = st.players[winner]
    st.acquired_rack = _give(p, t)
    st.phase = Phase.TURN
    st.current = winner
    st.turn_no += 1
    st.acquired = t
    st.began = TurnStart.CLAIM
    st.claim_tile = t
    st.claim_from = discarder
    st.claim_kind = kind
    st.claim_rack = None
    st.turn_mahjonggs = 0
    st.obligation = Obligation(kind)
    st.must_use = t if kind in MJ_KINDS else None
    ev.append(Granted(winner, kind, t, discarder))
    if kind in MJ_KINDS:
        st.version += 1  # new turn state: options must be recomputed
        if not _mj_options(st, winner):
            # strict: a Mah Jongg claim with no Mah Jongg (section 7, in error): expose
            # the group the discard completes, or withdraw
            ev.append(MahJonggError(winner, None))
            st.obligation = Obligation.ERROR
            st.must_use = None
            st.version += 1


def _do_withdraw(st: GameState, seat: int, ev: list[Event]) -> None:
    """The claimer gives the tile back; the next waiting claim takes it, or play goes on
    as if everyone had passed (section 4)."""
    t, discarder = st.claim_tile, st.claim_from
    assert t is not None and discarder is not None
    p = st.players[seat]
    _take(p, (t,))
    st.discards.append((discarder, t))
    ev.append(Withdrawn(seat, t))
    answers = dict(st.waiting)
    st.waiting = ()
    winner = _claim_winner(st, discarder, answers)
    if winner is None:
        _next_turn(st, discarder, ev)
    else:
        _grant(st, winner, t, discarder, answers, ev)


def _rack_alive(st: GameState, exposures: Sequence[Exposure]) -> bool:
    return _playable(st).rack_alive(exposures)


def _after_rack_finished(st: GameState, seat: int, ev: list[Event]) -> bool:
    """Check the ends that a finished rack can cause; True when the game is over."""
    p = st.players[seat]
    if all(r.mahjongg is not None for r in p.racks):
        _end(st, EndReason.MAHJONGG, seat, ev)
        return True
    if st.rules.players == 2 and all(r.dead is not None for r in p.racks):
        _end(st, EndReason.DEAD, seat, ev)
        return True
    return False


def _maybe_end_turn(st: GameState, seat: int, ev: list[Event]) -> None:
    """With no concealed tile left to discard, the turn ends by itself (section 7)."""
    p = st.players[seat]
    if (st.phase == Phase.TURN and st.obligation is None and p.free_count() == 0
            and not _mj_options(st, seat)):
        _finish_turn(st, seat, ev)
        _next_turn(st, seat, ev)


def _do_expose(st: GameState, seat: int, r: int, tiles: tuple[int, ...],
               ev: list[Event]) -> None:
    p = st.players[seat]
    rack = p.racks[r]
    _take(p, tiles, r)
    rack.exposures.append(Exposure.from_tiles(list(tiles)))
    ev.append(Exposed(seat, r, tiles))
    if st.obligation in (Obligation.EXPOSE, Obligation.ERROR):
        st.obligation = None
        st.claim_rack = r
    if not _rack_alive(st, rack.exposures):
        rack.dead = DeadReason.EXPOSURE
        rack.killer = len(rack.exposures) - 1
        ev.append(RackDead(seat, r, DeadReason.EXPOSURE))
        _tidy(p, r)
        if _after_rack_finished(st, seat, ev):
            return
    _maybe_end_turn(st, seat, ev)


def _do_exchange(st: GameState, a: Exchange, ev: list[Event]) -> None:
    p = st.players[a.seat]
    rack = st.players[a.owner].racks[a.rack]
    x = rack.exposures[a.index]
    rack.exposures[a.index] = Exposure(x.tile, x.size, x.jokers - 1)
    order = [i for i in range(len(p.racks)) if not (p.declared is not None and i == 0)]
    for i in reversed(order):
        conc = p.racks[i].arranged
        if conc[a.tile]:
            conc[a.tile] -= 1
            conc[JOKER] += 1
            break
    p.pool[a.tile] -= 1
    p.pool[JOKER] += 1
    ev.append(Exchanged(a.seat, a.tile, a.owner, a.rack, a.index))


def _do_mahjongg(st: GameState, seat: int, r: int, tiles: tuple[int, ...],
                 ev: list[Event]) -> None:
    p = st.players[seat]
    rack = p.racks[r]
    arranged = not tiles and rack.exposed < HAND_SIZE  # a rack exposed in full adds none
    if arranged:
        tiles = tuple(tiles_of(rack.arranged))
    options = _mj_options(st, seat)
    option = options.get((r, tiles))
    if option is None:
        # strict: a declaration that is not a Mah Jongg (section 7/8, in error)
        _take(p, tiles, r)
        rack.error_tiles = tiles
        rack.dead = DeadReason.ERROR
        ev.append(MahJonggError(seat, r, tiles))
        ev.append(RackDead(seat, r, DeadReason.ERROR))
        st.obligation = None
        st.must_use = None
        _tidy(p, r)
        if not _after_rack_finished(st, seat, ev):
            _maybe_end_turn(st, seat, ev)
        return
    hand, jokerless, closed = option
    atomic = p.declared is not None and r == 0
    if atomic:
        # the 13 fixed tiles and the 14th (just picked or claimed)
        x = st.acquired
        assert x is not None
        for t in range(NUM_KINDS):
            p.pool[t] -= rack.arranged[t]
            p.concealed -= rack.arranged[t]
            rack.arranged[t] = 0
        p.declared = None
        _take(p, (x,), None)
    else:
        _take(p, tiles, r)
    used_claim = st.began == TurnStart.CLAIM and (
        st.claim_kind in MJ_KINDS or st.claim_rack == r)
    record = MahJonggRecord(seat, r, hand, jokerless, closed, st.turn_no, tiles,
                            st.claim_from if used_claim else None, st.began == TurnStart.PICK)
    rack.mahjongg = record
    p.mahjonggs.append(record)
    st.turn_mahjonggs += 1
    if st.must_use is not None and st.must_use in tiles:
        st.must_use = None
    if st.obligation in (Obligation.MAHJONGG, Obligation.ERROR):
        st.obligation = None
    ev.append(MahJonggDeclared(seat, r, hand.id, jokerless, closed, tiles, arranged))
    _tidy(p, r)
    if _after_rack_finished(st, seat, ev):
        return
    if st.obligation == Obligation.DOUBLE and not p.open_racks():
        st.obligation = None
    _maybe_end_turn(st, seat, ev)


def _do_declare(st: GameState, a: Declare, ev: list[Event]) -> None:
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
        _begin_play(st, ev)


# ------------------------------------------------------------------ refusals


def _refuse(code: str, message: str, rule: str) -> IllegalActionError:
    return IllegalActionError(code, message, rule)


def why_illegal(st: GameState, a: Action) -> IllegalActionError:
    """The reason an action is refused, as a typed error with a stable code."""
    seat = a.seat
    if st.phase == Phase.OVER:
        return _refuse("game_over", "the game is over", "9")
    if not 0 <= seat < st.rules.players:
        return _refuse("no_such_seat", f"there is no seat {seat}", "2")
    p = st.players[seat]
    if st.phase == Phase.DECLARE:
        if seat not in st.declaring:
            return _refuse("not_your_turn", f"seat {seat} has already answered", "7")
        if isinstance(a, Declare):
            return _refuse("cannot_declare", f"seat {seat} cannot declare {a.hand} with "
                           "those 13 tiles", "7")
        return _refuse("declare_phase", "right after the deal, each seat declares a hand "
                       "or passes", "7")
    if st.phase == Phase.WINDOW:
        w = st.window
        assert w is not None
        if isinstance(a, Pass | Claim):
            if seat == w.discarder:
                return _refuse("own_discard", "a player cannot claim its own discard", "4")
            if seat not in w.pending:
                return _refuse("already_answered", f"seat {seat} has already answered or "
                               "is not playing", "4")
            assert isinstance(a, Claim)
            if a.kind == "expose" and w.mahjongg_only:
                return _refuse("mahjongg_only", "the last discard may be claimed only for "
                               "Mah Jongg", "9")
            if a.kind == "expose":
                return _refuse("cannot_expose", f"seat {seat} cannot make a group of 3 or "
                               f"more with {CANONICAL[w.tile]}", "4")
            if a.kind == "double":
                return _refuse("no_double", f"{CANONICAL[w.tile]} does not give seat {seat} "
                               "a Double Mah Jongg", "7")
            return _refuse("no_mahjongg", f"{CANONICAL[w.tile]} does not give seat {seat} a "
                           "Mah Jongg", "7")
        if isinstance(a, Withdraw):
            return _refuse("cannot_withdraw", "no claim has been granted yet (a claim, once "
                           "made, is withdrawn after it is granted)", "4")
        return _refuse("claim_window_open", "every seat must first claim or pass on the "
                       "discard", "4")
    # a turn
    if isinstance(a, Pass | Claim):
        return _refuse("claim_window_closed", "there is no discard to claim now", "4")
    if seat != st.current:
        return _refuse("not_your_turn", f"it is seat {st.current}'s turn", "4")
    if isinstance(a, Declare):
        return _refuse("declare_window_closed", "hands are declared right after the deal",
                       "7")
    if isinstance(a, Withdraw):
        return _why_not_withdraw(st)
    must = st.obligation
    if must == Obligation.EXPOSE and not isinstance(a, Expose):
        return _refuse("must_expose", "a discard claimed for an exposure goes into an "
                       "exposure first", "4")
    if must in DECLARING and not isinstance(a, MahJongg):
        return _refuse("must_declare", "a discard claimed for Mah Jongg must be declared",
                       "7")
    free = p.free()
    if isinstance(a, Discard):
        if must == Obligation.ERROR:
            return _refuse("must_expose", "after a Mah Jongg claim in error, expose the "
                           "group the discard completes", "7")
        if not p.pool[a.tile]:
            return _refuse("tile_not_held", f"seat {seat} holds no {CANONICAL[a.tile]}", "4")
        return _refuse("tile_fixed", f"{CANONICAL[a.tile]} is fixed by the declared hand",
                       "7")
    if isinstance(a, Expose):
        n = len(a.tiles)
        naturals = {t for t in a.tiles if t != JOKER}
        if n < 3 and JOKER in a.tiles:
            return _refuse("joker_in_pair", "Jokers stand only in groups of 3 or more", "6")
        if n < 3:
            return _refuse("group_too_small", "an exposure is a group of 3 or more", "4")
        if len(naturals) != 1:
            return _refuse("bad_exposure", "an exposure holds one kind of tile and Jokers",
                           "4")
        if not 0 <= a.rack < len(p.racks):
            return _refuse("no_such_rack", f"there is no rack {a.rack + 1}", "5")
        if p.racks[a.rack].finished:
            return _refuse("rack_finished", f"rack {a.rack + 1} is dead or has a Mah Jongg",
                           "5")
        if must in (Obligation.EXPOSE, Obligation.ERROR) and naturals != {st.claim_tile}:
            return _refuse("must_expose_claimed", "the exposure must hold the claimed "
                           "tile", "4")
        if must is None and not st.rules.expose_any_time:
            return _refuse("exposure_needs_claim", "groups are exposed with a claimed "
                           "discard", "4")
        for t in set(a.tiles):
            if free[t] < a.tiles.count(t):
                return _refuse("tile_not_held", f"seat {seat} does not hold "
                               f"{a.tiles.count(t)} {CANONICAL[t]}", "4")
        return _refuse("illegal_exposure", "that exposure is not allowed now (it must "
                       "leave a tile to discard and fit on the rack)", "4")
    if isinstance(a, Exchange):
        if not 0 <= a.owner < st.rules.players or not 0 <= a.rack < st.rules.racks:
            return _refuse("no_such_exposure", "there is no such rack", "6")
        rack = st.players[a.owner].racks[a.rack]
        if not 0 <= a.index < len(rack.exposures):
            return _refuse("no_such_exposure", "there is no such exposure", "6")
        x = rack.exposures[a.index]
        if rack.mahjongg is not None:
            return _refuse("exchange_from_mahjongg", "Jokers of an exposed Mah Jongg are "
                           "frozen", "6")
        if a.index == rack.killer:
            return _refuse("exchange_from_dead", "this exposure made its rack dead: its "
                           "Jokers stay", "6")
        if not x.jokers:
            return _refuse("no_joker", "that exposure holds no Joker", "6")
        if x.tile != a.tile:
            return _refuse("wrong_tile", f"the Jokers there stand for {CANONICAL[x.tile]}",
                           "6")
        if not free[a.tile]:
            return _refuse("tile_not_held", f"seat {seat} holds no {CANONICAL[a.tile]}", "6")
        return _refuse("exchange_not_now", "Jokers are exchanged during one's turn", "6")
    if isinstance(a, MahJongg):
        if not 0 <= a.rack < len(p.racks):
            return _refuse("no_such_rack", f"there is no rack {a.rack + 1}", "5")
        if p.racks[a.rack].finished:
            return _refuse("rack_finished", f"rack {a.rack + 1} is dead or has a Mah Jongg",
                           "5")
        if not a.tiles:
            return _refuse("arranged_declaration", "declaring the tiles as arranged is a "
                           "strict-mode declaration with exactly the rack's missing tiles",
                           "7")
        return _refuse("no_mahjongg", f"those tiles do not make a Mah Jongg on rack "
                       f"{a.rack + 1}", "7")
    if isinstance(a, Move):
        if p.declared is not None:
            return _refuse("declared_hand_fixed", "no tiles move between racks under a "
                           "declared hand", "7")
        return _refuse("illegal_move", "move a concealed tile between two open racks", "5")
    if isinstance(a, Undeclare):
        return _refuse("not_declared", f"seat {seat} has no declared hand", "7")
    return _refuse("illegal_action", f"'{a}' is not allowed now", "4")


def _why_not_withdraw(st: GameState) -> IllegalActionError:
    if st.began != TurnStart.CLAIM or st.obligation is None:
        return _refuse("cannot_withdraw", "there is no granted claim to withdraw", "4")
    if st.turn_mahjonggs or st.claim_rack is not None:
        return _refuse("cannot_withdraw", "a claim is withdrawn only before anything is "
                       "exposed", "4")
    return _refuse("cannot_withdraw", "a discard claimed for a declared hand must be "
                   "declared", "7")


# ------------------------------------------------------------------ scoring


def game_facts(st: GameState) -> GameFacts:
    """What decides the score, from the state (section 10)."""
    win_turn = None
    if st.end_reason == EndReason.MAHJONGG and st.winner is not None:
        win_turn = max(m.turn for m in st.players[st.winner].mahjonggs)
    facts: list[MahJonggFact] = []
    for p in st.players:
        for m in p.mahjonggs:
            h = m.hand
            facts.append(MahJonggFact(
                seat=m.seat, rack=m.rack,
                hand=HandFacts.of(h),
                jokerless=m.jokerless, closed=m.closed, turn=m.turn,
                wins=m.seat == st.winner and m.turn == win_turn,
                discarder=m.claimed_from, self_picked=m.self_picked))
    dead = tuple(tuple(i for i, r in enumerate(p.racks) if r.dead is not None)
                 for p in st.players)
    return GameFacts(
        players=st.rules.players, mah_jonggs=tuple(facts),
        wall_game=st.end_reason == EndReason.WALL and not facts, dead=dead, racks=st.rules.racks,
        both_dead=st.winner if st.end_reason == EndReason.DEAD else None,
        lowest_card_value=st.card.lowest_value)


def score(state: GameState) -> Score:
    """The itemized score (section 10); of the game so far if it has not ended."""
    return score_game(game_facts(state), state.rules.scoring_rules())


def settlement(state: GameState) -> Settlement:
    return settle(score(state).totals, state.rules.pot)


def scoring_rules(state: GameState) -> ScoringRules:
    return state.rules.scoring_rules()
