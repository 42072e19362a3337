"""How the bots play the Charleston of the American game: by the plan (docs/bots.md).

The tiles a seat gives away are the ones its best lines need least: the three it would
throw first, one after another, if it were discarding (the greedy bot's discard: the tile
whose loss leaves the best plan nearest and worth most, then the one the fewest near lines
want), never a Joker. A tile whose loss would set the plan back is kept: in the last pass
of a Charleston it is replaced by a tile passed on unseen (a blind pass), which keeps the
hand as it is. A seat whose best line is :data:`STRONG` tiles away or nearer stops the
second Charleston (a good hand is not broken up further); it offers for the courtesy pass
as many tiles as it can spare without setting its plan back, and passes those.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from twinrack.bots.plans import AwayValue
from twinrack.card.compiled import IMPOSSIBLE
from twinrack.engine.actions import Action, CharlestonPass, Courtesy, Offer, Vote
from twinrack.engine.view import View
from twinrack.tiles import JOKER

if TYPE_CHECKING:
    from twinrack.bots.greedy import GreedyBot

#: the best line this many tiles away (or nearer) is a hand strong enough to stop the
#: second Charleston
STRONG = 5


class Spare(NamedTuple):
    """A tile the seat would give, and what giving it costs its best plan (tiles away)."""

    tile: int
    cost: int


def holding(view: View) -> list[int]:
    assert view.free is not None
    return list(view.free)


def spares(bot: GreedyBot, free: Sequence[int], count: int = 3) -> list[Spare]:
    """The ``count`` tiles the seat would give first, in order, and each one's cost: the
    greedy discard made ``count`` times over, never a Joker (the hand has one rack, no
    exposure yet)."""
    racks = ((0, ()),)
    left = list(free)
    out: list[Spare] = []
    for _ in range(count):
        kinds = [t for t in range(JOKER) if left[t]]
        if not kinds:
            break
        now = bot.best(left, racks).away_value
        tile, after = _first_to_give(bot, left, kinds)
        out.append(Spare(tile, max(0, after.away - now.away)))
        left[tile] -= 1
    return out


def _first_to_give(bot: GreedyBot, held: list[int], kinds: list[int]) -> tuple[int, AwayValue]:
    """The tile the greedy discard would throw from ``held`` (among ``kinds``), and the
    best plan left without it."""
    racks = ((0, ()),)
    outcomes = bot.discard_outcomes(held, racks)
    use = bot.plans.usefulness(held, racks)
    none = AwayValue(IMPOSSIBLE, 0)

    def key(t: int) -> tuple[int, int, int, int]:
        s = outcomes.get(t, none)
        return (s.away, -s.value, use[t], t)

    tile = min(kinds, key=key)
    return tile, outcomes.get(tile, none)


def strength(bot: GreedyBot, free: Sequence[int]) -> int:
    """How far the seat's best line is (tiles away)."""
    return bot.best(free, ((0, ()),)).away


def choose_pass(bot: GreedyBot, view: View, blind_allowed: bool) -> tuple[tuple[int, ...], int]:
    """The tiles of the seat's own to pass, and how many to pass on unseen."""
    given = spares(bot, holding(view))
    if blind_allowed:
        own = [s.tile for s in given if s.cost == 0]
        return tuple(sorted(own)), 3 - len(own)
    return tuple(sorted(s.tile for s in given)), 0


def charleston_decision(bot: GreedyBot, view: View, legal: Sequence[Action]) -> Action:
    """The bot's choice in the stage of the Charleston under way (one of ``legal``)."""
    ch = view.charleston
    assert ch is not None and view.seat is not None
    seat = view.seat
    free = holding(view)
    wanted: Action
    if ch.kind == "vote":
        wanted = Vote(seat, strength(bot, free) > STRONG)
    elif ch.kind == "offer":
        wanted = Offer(seat, sum(1 for s in spares(bot, free) if s.cost == 0))
    elif ch.kind == "courtesy":
        owed = ch.owed or 0
        wanted = Courtesy(seat, tuple(sorted(s.tile for s in spares(bot, free, owed))))
    else:
        tiles, blind = choose_pass(bot, view, ch.blind)
        wanted = CharlestonPass(seat, tiles, blind)
    return wanted if wanted in legal else legal[0]
