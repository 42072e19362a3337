"""Setting up a game: the walls, the deal, and a rigged wall for scenario tests and real
tables (docs/rules.md, section 3)."""

from __future__ import annotations

from collections.abc import Sequence

from twinrack.card import Card, practice_card
from twinrack.card.compiled import HAND_SIZE, compiled
from twinrack.engine.charleston import start as start_charleston
from twinrack.engine.events import Cut, Dealt, Event, Started
from twinrack.engine.rules import RuleSet
from twinrack.engine.shuffle import commitment, die, seed_bytes, shuffled
from twinrack.engine.state import DECLARE, GameState
from twinrack.engine.turns import begin_play
from twinrack.errors import TwinRackError
from twinrack.tiles import CANONICAL


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

    2024: every player takes 14R-1 tiles and East then picks to begin. 2019 and the
    American game: East takes 14R and discards first (in the American game: East 14, the
    others 13, the last round East 2 and the others 1).
    """
    targets = [rules.hold] * rules.players
    if rules.east_discards_first:
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
    if rules.american and rules.charleston:
        start_charleston(st)
    elif rules.declaration_round and compiled(card).declared_ways:
        st.phase = DECLARE
        st.declaring = list(range(rules.players))
    else:
        begin_play(st, st.events)
    return st
