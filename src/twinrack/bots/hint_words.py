"""The words of the hints: why the coach's discard can go, why it claims or passes, what a
Joker exchange or a Mah Jongg gives. Each sentence reads the same figures as the choices
the coach ranked (:mod:`twinrack.bots.coach`), so a hint never says one thing and its
buttons another.
"""

from __future__ import annotations

from collections.abc import Sequence

from twinrack.bots.coach import Advice, Choice
from twinrack.bots.feeding import FeedWarning
from twinrack.bots.plans import Planner
from twinrack.bots.seen import Position
from twinrack.bots.shares import SharedPlan, split_tiles
from twinrack.engine import Exchange
from twinrack.engine.rules import seat_wind
from twinrack.narration import tile_label
from twinrack.tiles import JOKER


def discard_reason(pl: Planner, seat: Position, advice: Advice, tile: int, before: int,
                   after: SharedPlan | None, left: Sequence[int],
                   warnings: Sequence[FeedWarning], players: int) -> str:
    """One line saying why ``tile`` can go, in the words of the plan shown, then what the
    player should know besides: a Mah Jongg kept concealed, an opponent it may feed."""
    text = _why_discard(pl, seat, tile, before, after, left)
    made = [c for c in advice.choices if c.verb == "mahjongg" and c.line]
    if made:
        c = made[0]
        text += (f". You could declare Mah Jongg now ({c.line}, {c.points} points), but "
                 "kept concealed it can still grow, into a Double Mah Jongg or a dearer "
                 "line, while the wall is long")
    if warnings:  # named by wind here: this text is read as it is (the web, the terminal)
        w = warnings[0]
        text += f". {w.text.removesuffix('.').replace('{who}', seat_wind(w.seat, players))}"
    return text


def _why_discard(pl: Planner, seat: Position, tile: int, before: int,
                 after: SharedPlan | None, left: Sequence[int]) -> str:
    name = tile_label(tile)
    if after is None:
        return f"{name}: no line of the card is still possible, so it costs nothing"
    plan = f"your plan stays {after.away} away" if after.away == before else (
        f"your plan goes from {before} to {after.away} away")
    if tile == JOKER:
        return f"{joker_words(pl, seat, after)}: {plan}"
    if not plan_uses(pl, after, tile) and after.away == before:
        return f"{name} is in none of your plan's lines: {plan}"
    if left[tile] == 0 and seat.free[tile] == 1:
        return f"{name}: every other copy is out, so no pair or group of it can be made; {plan}"
    return f"{name} is the tile your plan needs least: {plan}"


def joker_words(pl: Planner, seat: Position, after: SharedPlan) -> str:
    """Why a Joker can go: a Joker stands only in groups of three or more, so a plan of
    pairs and singles has no use for it, and a plan's groups have room for so many."""
    held = seat.free[JOKER]
    with_it = list(seat.free)
    used = sum(g[JOKER] for g in split_tiles(pl, with_it, after.aims))
    if all(h.singles_and_pairs for h in after.hands):
        return ("A Joker: your plan's lines are Singles and Pairs, and a Joker stands only "
                "in a group of three or more")
    if used < held:
        return (f"A Joker: your plan's groups can use {used} of your {held} Jokers (a Joker "
                "stands only in a group of three or more; the natural tiles you hold fill "
                "the rest)")
    return ("A Joker, though it could stand in your plan's groups: every other tile you "
            "hold is worth more to your chance of finishing (a discarded Joker cannot be "
            "claimed by anyone)")


def plan_uses(pl: Planner, plan: SharedPlan, tile: int) -> bool:
    """Whether any way of the plan asks for ``tile`` at all."""
    return any(int(pl.cc.rack(a.exposures).tot[a.way, tile]) > 0 for a in plan.aims)


def claim_reason(advice: Advice, name: str, now: int | None, closer: bool) -> str:
    """Why the coach claims the discard ``name`` or passes, from its choices' figures
    (``closer``: the tile would bring the plan closer if it could stay concealed)."""
    best = advice.best
    by_kind = {c.text: c for c in advice.choices}
    chosen = by_kind.get(best.body())
    if best.verb == "claim":
        what = chosen.note if chosen else ""
        return f"Claim {name}: {what}." if what else f"Claim {name}."
    mj = by_kind.get("claim mahjongg")
    expose = by_kind.get("claim expose")
    if mj is not None and mj.line:
        return (f"{name} gives you Mah Jongg ({mj.note}), but a claimed Mah Jongg must be "
                "declared at once, and one worth so little is better kept concealed to "
                f"grow while the wall is long: pass.")
    if expose is not None and now is not None and expose.away is not None \
            and expose.away < now:
        return (f"{name} would bring your plan from {now} to {expose.away} away, but "
                "exposing it leaves you less chance of finishing than waiting for your own "
                "picks: pass.")
    if closer:
        return (f"{name} would help only in a pair or a concealed line, and a claimed tile "
                "must be exposed in a group: pass.")
    if now is None:
        return f"No line is still possible: {name} does not help."
    return f"{name} does not bring your plan closer ({now} away): pass."


def exchange_words(advice: Advice, ex: Exchange) -> str:
    """The Joker exchange the coach makes first, and what it gives."""
    c = advice.choice(ex)
    whose = "your own" if ex.owner == advice.best.seat else "an opponent's"
    what = f": it {c.note}" if c is not None and c.note else ""
    return (f"Exchange {tile_label(ex.tile)} for the Joker in {whose} exposure (rack "
            f"{ex.rack + 1}) first{what}; then discard.")


def mj_words(c: Choice | None, racks: Sequence[int]) -> str:
    """"Mah Jongg now with 2468-3 (35 points) on rack 1 or 2: declare it": the racks share
    one holding, so one Mah Jongg can go on any of them (but not on two at once)."""
    names = [str(r + 1) for r in racks]
    where = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    what = f"with {c.line} ({c.points} points) " if c is not None and c.line else ""
    return f"Mah Jongg now {what}on rack {where}: declare it."
