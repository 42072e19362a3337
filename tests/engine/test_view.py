"""What a seat's view says of its own position: open and fixed racks, playable tiles,
where the fresh tile went, the kinds of action it may take (rules sections 4, 5, 7)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tests.engine.helpers import R, play, rig
from twinrack.bots import RandomBot
from twinrack.engine import GameState, RuleSet, apply, legal_actions, new_game, view
from twinrack.engine.view import MahJonggView, RackView, SeatView, View
from twinrack.tiles import parse_tiles, tile_index


def test_the_picked_tile_is_placed_and_followed_when_moved() -> None:
    g = rig(R(), ["2B 2B", "3C"], picks="5D 6D")
    v = view(g, 0)
    assert v.acquired == tile_index("5D") and v.placed == 0
    assert v.verbs == ("discard", "move")
    play(g, "0: move 5D 1>2")
    assert view(g, 0).placed == 1
    # out of turn a seat may only arrange its racks (section 5)
    assert view(g, 1).placed is None and view(g, 1).verbs == ("move",)


def test_the_claim_window_offers_pass_and_claims() -> None:
    g = rig(R(), ["2B", "2B 2B"], picks="5D 6D")
    play(g, "0: discard 2B")
    assert view(g, 1).verbs == ("claim", "move", "pass")
    assert view(g, 0).verbs == ("move",)  # the discarder arranges, and answers nothing
    assert view(g, None).verbs == () and view(g, None).free is None


def test_free_tiles_and_open_racks() -> None:
    g = rig(R(), ["2B 2B", "3C"], picks="5D 6D")
    v = view(g, 0)
    assert v.free is not None and sum(v.free) == 28 and v.fixed_rack is None
    assert v.free[tile_index("2B")] == 2
    assert v.open_racks == (0, 1) and v.seats[1].open_racks == (0, 1)
    d = v.to_dict()
    assert d["placed"] == 0 and d["verbs"] == ["discard", "move"] and d["open_racks"] == [0, 1]
    assert sorted(parse_tiles(d["free"])) == sorted(t for r in v.hand or () for t in r)


def test_a_dead_rack_is_not_open() -> None:
    # only a concealed line of the practice card holds a pung of West: at a table that
    # keeps those concealed the exposure kills rack 2
    g = rig(R(open_concealed=False), ["W", "W W 1D"], picks="5D 6D 7D")
    play(g, "0: discard W", "1: claim expose", "1: expose 2 W W W")
    v = view(g, 1)
    assert v.seats[1].racks[1].dead == "exposure"
    assert v.open_racks == (0,) and view(g, 0).seats[1].open_racks == (0,)
    assert v.verbs == ("discard",)


def _plain_view(st: GameState, seat: int | None) -> View:
    """The view made field by field, by keywords, remembering nothing: what ``view``
    must equal (it makes its named tuples from their fields in order, and remembers the
    public seats from one version to the next)."""
    turn = st.phase == "turn"
    claim = None
    if turn and st.began == "claim" and st.claim_tile is not None:
        claim = (st.current, st.claim_kind, st.claim_tile, st.claim_from)
    seats = tuple(
        SeatView(seat=s, concealed=q.concealed, declared=q.declared, stopped=q.stopped,
                 racks=tuple(RackView(
                     exposures=tuple(r.exposures), dead=r.dead, killer=r.killer,
                     error_tiles=r.error_tiles,
                     mahjongg=None if r.mahjongg is None else MahJonggView(
                         hand=r.mahjongg.hand.id, value=r.mahjongg.hand.value,
                         jokerless=r.mahjongg.jokerless, closed=r.mahjongg.closed,
                         tiles=r.mahjongg.tiles)) for r in q.racks))
        for s, q in enumerate(st.players))
    counts = free = acquired = placed = fixed_rack = None
    verbs: tuple[str, ...] = ()
    if seat is not None:
        p = st.players[seat]
        counts = tuple(tuple(r.arranged) for r in p.racks)
        free = tuple(p.free())
        fixed_rack = 0 if p.declared is not None else None
        verbs = tuple(sorted({a.verb for a in legal_actions(st, seat)}))
        if turn and st.current == seat:
            acquired = st.acquired
            if acquired is not None:
                holding = [r for r, c in enumerate(counts) if c[acquired]]
                placed = (st.acquired_rack if st.acquired_rack in holding
                          else next(iter(holding), None))
    over = st.phase == "over"
    w = st.window
    return View(
        seat=seat, variant=st.rules.variant, players=st.rules.players,
        racks=st.rules.racks, revision=st.rules.revision, open_lines=st.rules.open_lines,
        phase=st.phase,
        current=st.current, to_act=tuple(st.to_act()), turn=st.turn_no,
        wall_left=len(st.wall) - st.wall_pos, die=st.die, commitment=st.commitment,
        seed=st.seed.hex() if over else None, discards=tuple(st.discards),
        window=None if w is None else (w.discarder, w.tile),
        answered=() if w is None else tuple(sorted(w.answers.items())),
        claim=claim, waiting=st.waiting if claim is not None else (),
        must=st.obligation if turn else None, seats=seats, counts=counts,
        acquired=acquired, placed=placed, free=free, fixed_rack=fixed_rack, verbs=verbs,
        end_reason=st.end_reason, winner=st.winner, version=st.seen_version(seat),
        revealed=tuple(tuple(_tiles(r.arranged) for r in q.racks) for q in st.players)
        if over else ())


def _tiles(counts: list[int]) -> tuple[int, ...]:
    return tuple(t for t, n in enumerate(counts) for _ in range(n))


#: Special-1 "F NEWS 1357Da 2468b" (declared) less its 8C (as in test_declared_strict.py)
ATOM13 = "F N E W S 1B 3B 5B 7B G 2C 4C 6C"


def _declared_game() -> GameState:
    g = rig(R(declared_hands=True), [ATOM13], picks="8C")
    play(g, "0: declare Special-1 1B 3B 5B 7B 2C 4C 6C N E W S G F", "1: pass")
    return g


@pytest.mark.parametrize(("game", "seed"), [
    (lambda: new_game(RuleSet(), seed=3), 3),
    (lambda: new_game(RuleSet(), seed=31), 31),  # a Mah Jongg
    (lambda: new_game(RuleSet(variant="royale", players=4), seed=1), 1),
    (lambda: new_game(RuleSet(variant="royale", players=3), seed=2), 2),
    (lambda: new_game(RuleSet(variant="imperial", players=2), seed=5), 5),
    (_declared_game, 4)])
def test_every_view_is_the_view_made_field_by_field(game: Callable[[], GameState],
                                                    seed: int) -> None:
    """Random play: at every state, every seat's view and the spectator's equal the plain
    view, field by field, until the end of the game."""
    g = game()
    rng = random.Random(seed)
    bot = RandomBot()
    while True:
        for seat in (None, *range(g.rules.players)):
            made, plain = view(g, seat), _plain_view(g, seat)
            assert type(made) is View and len(made) == len(View._fields)
            assert made._asdict() == plain._asdict()
        if g.over:
            break
        seat = g.to_act()[0]
        apply(g, bot.choose(view(g, seat), legal_actions(g, seat), rng))
