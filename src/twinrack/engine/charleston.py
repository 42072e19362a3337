"""How the Charleston of the American game changes the game: each seat's choice is kept
secret until every seat of the stage has chosen; then the tiles move, the votes or the
courtesy counts are announced, and the next stage begins (docs/rules.md, section 3).
The stages and the arithmetic of a blind pass are :mod:`twinrack.engine.charleston_plan`.
"""

from __future__ import annotations

from twinrack.engine.actions import CharlestonPass, Courtesy, Offer, Vote
from twinrack.engine.charleston_plan import (
    COURTESY,
    OFFER,
    PASS,
    VOTE,
    Charleston,
    Stage,
    kept_tiles,
    partner,
)
from twinrack.engine.events import (
    CharlestonOver,
    Chosen,
    Event,
    Offered,
    PassMade,
    Received,
    Voted,
)
from twinrack.engine.memo import tiles_joined
from twinrack.engine.state import CHARLESTON, GameState
from twinrack.engine.turns import begin_play, give, take

Choice = CharlestonPass | Vote | Offer | Courtesy


def start(st: GameState) -> None:
    """Right after the deal of the American game: the first pass, to the right."""
    st.phase = CHARLESTON
    st.charleston = Charleston(st.rules.players)


def choose(st: GameState, a: Choice, ev: list[Event]) -> None:
    """A seat's choice in the stage under way; the last one resolves the stage."""
    ch = st.charleston
    assert ch is not None
    ch.pending.remove(a.seat)
    ch.choices[a.seat] = a
    ev.append(Chosen(a.seat, a.verb, a.body().partition(" ")[2]))
    if isinstance(a, Offer):
        ch.offers[a.seat] = a.count
        other = partner(a.seat)
        if other in ch.offers:  # both partners have offered: their numbers are told
            ev.append(Offered(min(a.seat, other), ch.offers[min(a.seat, other)],
                              max(a.seat, other), ch.offers[max(a.seat, other)]))
    if not ch.pending:
        _resolve(st, ch, ev)


def _resolve(st: GameState, ch: Charleston, ev: list[Event]) -> None:
    stage = ch.stage
    n = st.rules.players
    if stage.kind == PASS:
        _pass(st, ch, stage, ev)
    elif stage.kind == VOTE:
        ch.votes = tuple("again" if ch.choices[s].again else "stop" for s in range(n))
        ev.append(Voted(ch.votes))
        if "stop" in ch.votes:
            ch.skip_second()
    elif stage.kind == OFFER:
        ch.counts = tuple(min(ch.offers[s], ch.offers[partner(s)]) for s in range(n))
    else:
        assert stage.kind == COURTESY
        own = {s: list(a.tiles) for s, a in ch.choices.items()}
        for s, tiles in own.items():
            take(st.players[s], tiles)
        for s in sorted(own):
            _receive(st, s, own[partner(s)], ev)
    _next_stage(st, ch, ev)


def _pass(st: GameState, ch: Charleston, stage: Stage, ev: list[Event]) -> None:
    """Every seat passes at once: its own tiles, then those it forwards unseen; each keeps
    what reaches it and is not forwarded (charleston_plan.kept_tiles)."""
    n = st.rules.players
    seats = range(n)
    own = [list(ch.choices[s].tiles) for s in seats]
    blind = [ch.choices[s].blind for s in seats]
    ev.append(PassMade(stage.name, tuple(blind) if any(blind) else ()))
    kept = kept_tiles(own, blind, lambda s: (s - stage.shift) % n)
    if kept is None:  # every seat passed on all it received: nothing moved
        return
    for s in seats:
        take(st.players[s], own[s])
    for s in seats:
        _receive(st, s, kept[s], ev)


def _receive(st: GameState, seat: int, tiles: list[int], ev: list[Event]) -> None:
    if not tiles:
        return
    p = st.players[seat]
    for t in tiles:
        give(p, t)
    tiles_joined(st, seat, len(tiles))
    ev.append(Received(seat, len(tiles), tuple(sorted(tiles))))


def _next_stage(st: GameState, ch: Charleston, ev: list[Event]) -> None:
    """On to the next stage, whose seats all choose; the courtesy pass asks only the
    pairs that agreed on one or more tiles. After the last, play begins: East, dealt one
    tile more, discards first (section 3)."""
    ch.choices = {}
    ch.index += 1
    if ch.index < len(ch.plan):
        if ch.stage.kind != COURTESY:
            ch.pending = list(range(st.rules.players))
            return
        ch.pending = [s for s, k in enumerate(ch.counts) if k]
        if ch.pending:
            return
    st.charleston = None
    ev.append(CharlestonOver())
    begin_play(st, ev)
