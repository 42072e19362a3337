"""One coach: the evaluation of a decision that the hints, the terminal hints and the review
all read, so that they never disagree.

:func:`advise` looks at one decision from the seat's own view: what the coach plays (the
master's whole decision, :class:`twinrack.bots.master.MasterBot`, which plays as the expert
where it does not search: three or four open racks), and every choice of the decision that
carries tiles or answers a discard (a Mah Jongg, an exposure, a Joker exchange, a claim or
a pass, a declaration), each named in words with its card line and points and ranked best
first by the expert's own measure (the chance of finishing, :mod:`twinrack.bots.odds`), the
coach's choice first, the fewest Jokers committed first among equals.

A fresh bot makes every decision, remembering nothing from other views, with a random
generator drawn from what the seat sees (:func:`decision_rng`): the same decision always
gets the same advice, at the table and in the review of the game afterwards. Moving tiles
between one's own racks changes nothing the coach reads (the digest leaves the arrangement
out), so a hint does not change because the player rearranged.

    >>> from twinrack.card import practice_card
    >>> from twinrack.engine import RuleSet, legal_actions, new_game, view
    >>> game = new_game(RuleSet(declared_hands=False), seed=1)
    >>> advice = advise(view(game, 0), practice_card(), legal_actions(game, 0))
    >>> advice.best.verb
    'discard'
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from twinrack.bots.expert import ExpertBot
from twinrack.bots.greedy import (
    Racks,
    declarations,
    left_after,
    minus,
    open_racks,
    plus,
    with_exposure,
)
from twinrack.bots.master import MasterBot
from twinrack.bots.review_words import group_words
from twinrack.bots.seen import Position, choices, position, unseen
from twinrack.card import Card
from twinrack.card.compiled import IMPOSSIBLE
from twinrack.card.model import Hand
from twinrack.engine import Action, Claim, Declare, Exchange, Expose, MahJongg, Pass
from twinrack.engine.scoring import hand_points
from twinrack.engine.view import View
from twinrack.narration import tile_label
from twinrack.tiles import JOKER, NUM_KINDS

#: the levels a coach may play at: the master, or the expert (quicker, for a caller that
#: cannot wait)
LEVELS = ("master", "expert")
#: the verbs whose choices the coach names and ranks (discards are the hint's own; moves
#: between one's racks decide nothing)
CHOICE_VERBS = ("mahjongg", "expose", "exchange", "claim", "pass", "declare")


def decision_key(view: View) -> str:
    """A digest of everything the seat sees at a decision but how it arranged its racks:
    its concealed tiles are counted together, and the version (which a move between its
    own racks changes) is left out."""
    d = view.to_dict()
    for arranged in ("hand", "version", "placed"):
        d.pop(arranged, None)
    if view.counts is not None:
        d["pool"] = [sum(rack[t] for rack in view.counts) for t in range(NUM_KINDS)]
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()


def decision_rng(view: View) -> random.Random:
    """A random generator fixed by the decision alone (:func:`decision_key`)."""
    return random.Random(int(decision_key(view)[:16], 16))


def coach_bot(card: Card, level: str = "master") -> ExpertBot:
    """A fresh bot of the coach's level (nothing remembered from other views). The expert
    gets no time budget: its sampled futures always run, so that the advice never depends
    on the machine's load."""
    if level not in LEVELS:
        raise ValueError(f"no coach level {level!r}: one of {', '.join(LEVELS)}")
    if level == "master":
        return MasterBot(card)
    return ExpertBot(card, budget_ms=float("inf"))


@dataclass(frozen=True)
class Choice:
    """One choice of a decision, in words: its ``text`` is the action's text form (the
    ``text`` of its legal object in the protocol)."""

    text: str
    verb: str
    note: str  # what it does, in words
    line: str | None = None  # the card line it makes or plays for
    points: int | None = None  # what that line scores (a Mah Jongg: as the table counts it)
    away: int | None = None  # the plan's tiles away after it, when it is planned
    jokers: int = 0  # Jokers it commits
    best: bool = False  # the coach's own choice

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "verb": self.verb, "note": self.note, "line": self.line,
                "points": self.points, "away": self.away, "jokers": self.jokers,
                "best": self.best}


@dataclass(frozen=True)
class Advice:
    """What the coach plays at a decision, and its choices ranked (best first per verb)."""

    best: Action
    choices: tuple[Choice, ...]
    away: int | None = None  # the plan's tiles away now (before deciding)
    bot: ExpertBot | None = field(default=None, compare=False, repr=False)

    def choice(self, action: Action) -> Choice | None:
        text = action.body()
        return next((c for c in self.choices if c.text == text), None)


def best_action(view: View, card: Card, legal: Sequence[Action],
                level: str = "master") -> tuple[Action, ExpertBot]:
    """The coach's choice among the seat's decisions, and the bot that made it (its plans
    follow the table's card as played)."""
    bot = coach_bot(card, level)
    return bot.choose(view, legal, decision_rng(view)), bot


def advise(view: View, card: Card, legal: Sequence[Action], level: str = "master") -> Advice:
    """The coach's advice on the decision of ``view`` (a seat's own view), with the seat's
    legal actions."""
    legal = choices(view, legal)
    best, bot = best_action(view, card, legal, level)
    seat = position(view)
    ctx = _Context(bot, view, seat, open_racks(seat), unseen(view))
    made: list[Choice] = []
    made += _mahjongg_choices(ctx, [a for a in legal if isinstance(a, MahJongg)], best)
    made += _exposure_choices(ctx, [a for a in legal if isinstance(a, Expose)], best)
    made += _exchange_choices(ctx, [a for a in legal if isinstance(a, Exchange)], best)
    if view.window is not None:
        made += _claim_choices(ctx, legal, best)
    made += _declare_choices(ctx, legal, best)
    shown = _as_shown(ctx, best, legal, made)
    if shown != best:
        best = shown
        made = _first(_mark(made, best), best)
    plan = bot.best(seat.free, ctx.racks) if ctx.racks else None
    away = plan.away if plan is not None and plan.away < IMPOSSIBLE else None
    return Advice(best, tuple(made), away, bot)


def _overlap(view: View, rack: int, tiles: Sequence[int]) -> int:
    """How many of ``tiles`` lie on ``rack`` as the player arranged it."""
    if view.counts is None:
        return 0
    on = list(view.counts[rack])
    n = 0
    for t in tiles:
        if on[t] > 0:
            on[t] -= 1
            n += 1
    return n


def _as_shown(ctx: _Context, best: Action, legal: Sequence[Action],
              made: Sequence[Choice]) -> Action:
    """Among choices the coach cannot tell apart (the same tiles and line on racks showing
    the same exposures, or the same line and points from other tiles), the one that
    follows the racks as the player arranged them: a Mah Jongg takes the tiles its rack
    shows, an exposure goes on the rack that holds its tiles."""
    exposures = ctx.seat.exposures
    if isinstance(best, Expose):
        alike = [a for a in legal if isinstance(a, Expose) and a.tiles == best.tiles
                 and exposures[a.rack] == exposures[best.rack]]
        return max(alike, key=lambda a: (_overlap(ctx.view, a.rack, a.tiles), -a.rack))
    if isinstance(best, MahJongg):
        mine = next((c for c in made if c.text == best.body()), None)
        if mine is None:
            return best
        texts = {c.text for c in made if c.verb == "mahjongg"
                 and (c.line, c.points, c.away, c.jokers)
                 == (mine.line, mine.points, mine.away, mine.jokers)}
        same = [a for a in legal if isinstance(a, MahJongg) and a.body() in texts
                and (a.rack == best.rack or exposures[a.rack] == exposures[best.rack])]
        return max(same, key=lambda a: (_shown(ctx.view, a),
                                        _overlap(ctx.view, a.rack, a.tiles), -a.rack))
    return best


# ---------------------------------------------------------------------- evaluation


@dataclass
class _Context:
    bot: ExpertBot
    view: View
    seat: Position
    racks: Racks
    left: list[int]

    def picks(self, after_discard: bool) -> int:
        return self.bot.picks_left(self.view, after_discard)

    def plan_line(self, free: Sequence[int], racks: Racks, rack: int) -> tuple[Hand | None, int]:
        """The best plan's line for ``rack`` and the plan's tiles away (after one discard
        during a turn: the plan the holding keeps)."""
        plan = self.bot.best(free, racks)
        line = next((rp.hand for rp in plan.racks if rp.rack == rack), None)
        return line, plan.away

    def after_discard(self, free: Sequence[int], racks: Racks) -> int:
        return self.bot.after_discard(free, racks).away

    def turn_utility(self, free: Sequence[int], racks: Racks) -> float:
        kinds = [t for t in range(NUM_KINDS) if free[t]]
        if not kinds or not racks:
            return 0.0
        return float(self.bot.utilities(free, [minus(free, (t,)) for t in kinds], racks,
                                        self.left, self.picks(True)).max())


def _ranked(scored: list[tuple[tuple[Any, ...], Choice]], best: Action) -> list[Choice]:
    """Choices best first: the coach's own choice, then by their keys (smaller first)."""
    text = best.body()
    order = sorted(scored, key=lambda kc: (kc[1].text != text, kc[0]))
    return [c for _k, c in order]


def _away(n: int) -> int | None:
    return None if n >= IMPOSSIBLE else n


def _line_words(line: Hand | None) -> str:
    return "no line" if line is None else f"{line.id} ({line.value} points)"


# ---------------------------------------------------------------------- Mah Jongg


def mahjongg_line(bot: ExpertBot, seat: Position, a: MahJongg) -> tuple[Hand | None, int,
                                                                         bool, bool]:
    """The line a declaration makes (the one scoring most), its points as the table counts
    them, whether it is jokerless and closed."""
    counts = [0] * NUM_KINDS
    for t in a.tiles:
        counts[t] += 1
    ex = seat.exposures[a.rack]
    if seat.declared is not None and a.rack == seat.fixed_rack:
        hand = bot.card.hand(seat.declared)
        jokerless = JOKER not in a.tiles and all(x.jokers == 0 for x in ex)
        return hand, bot.mahjongg_points(seat, a), jokerless, not ex
    best: tuple[tuple[int, int], Hand, bool, bool] | None = None
    for m in bot.plans.cc.matches(counts, ex):
        pts = hand_points(m.hand, m.jokerless, m.closed, seat.scoring)
        key = (pts, -m.hand.number)
        if best is None or key > best[0]:
            best = (key, m.hand, m.jokerless, m.closed)
    if best is None:
        return None, 0, False, False
    return best[1], best[0][0], best[2], best[3]


def _shown(view: View, a: MahJongg) -> bool:
    """The declaration puts on its rack the tiles the rack shows now."""
    if view.counts is None or not a.tiles:
        return False
    counts = [0] * NUM_KINDS
    for t in a.tiles:
        counts[t] += 1
    return list(view.counts[a.rack][:NUM_KINDS]) == counts


def _mahjongg_choices(ctx: _Context, options: Sequence[MahJongg], best: Action) -> list[Choice]:
    if not options:
        return []
    seat = ctx.seat
    real = declarations(options, seat)
    scored: list[tuple[tuple[Any, ...], Choice]] = []
    last = len(seat.open_racks) == 1
    for a in options:
        if a not in real:  # strict mode's "as arranged": a Mah Jongg in error
            note = f"rack {a.rack + 1} as arranged: it makes no line (a Mah Jongg in error)"
            scored.append(((2, 0, 0, 0, 0, a.rack), Choice(a.body(), a.verb, note)))
            continue
        line, points, jokerless, closed = mahjongg_line(ctx.bot, seat, a)
        others = tuple(r for r in ctx.racks if r[0] != a.rack)
        rest = left_after(seat, a)
        rest_away = ctx.bot.best(rest, others).away if others else 0
        wins = last or (bool(others) and ctx.bot.complete_racks(rest, others) == len(others))
        jokers = a.tiles.count(JOKER)
        bits = [f"{line.id}" if line else "a line of the card", f"{points} points"]
        if jokerless:
            bits.append("jokerless")
        if closed:
            bits.append("concealed")
        note = ", ".join(bits)
        if wins:
            note += ": wins the game"
        elif others and rest_away < IMPOSSIBLE:
            plural = "s" if len(others) > 1 else ""
            note += f"; your other rack{plural} then {rest_away} away"
        key = (0 if wins else 1, 0 if wins else rest_away, -points, jokers,
               not _shown(ctx.view, a), a.rack)
        scored.append((key, Choice(a.body(), a.verb, note, line.id if line else None, points,
                                   _away(rest_away) if others else 0, jokers)))
    return _mark(_ranked(scored, best), best)


def _first(made: list[Choice], best: Action) -> list[Choice]:
    """The choices with the coach's own moved to the front of its verb's group."""
    text = best.body()
    mine = [c for c in made if c.text == text]
    if not mine:
        return made
    at = next(i for i, c in enumerate(made) if c.verb == mine[0].verb)
    rest = [c for c in made if c.text != text]
    return rest[:at] + mine + rest[at:]


def _mark(ranked: list[Choice], best: Action) -> list[Choice]:
    text = best.body()
    return [Choice(c.text, c.verb, c.note, c.line, c.points, c.away, c.jokers,
                   c.text == text) for c in ranked]


# ---------------------------------------------------------------------- exposures


def _exposure_choices(ctx: _Context, options: Sequence[Expose], best: Action) -> list[Choice]:
    if not options:
        return []
    bot, seat = ctx.bot, ctx.seat
    scored: list[tuple[tuple[Any, ...], Choice]] = []
    for a in options:
        after = minus(seat.free, a.tiles)
        new_racks = with_exposure(ctx.racks, a.rack, a.tiles)
        kinds = [t for t in range(NUM_KINDS) if after[t]]
        u = float(bot.utilities(after, [minus(after, (t,)) for t in kinds], new_racks,
                                ctx.left, ctx.picks(True)).max()) if kinds else 0.0
        line, _now = ctx.plan_line(after, new_racks, a.rack)
        away = ctx.after_discard(after, new_racks)
        jokers = a.tiles.count(JOKER)
        plan = f"{away} away" if away < IMPOSSIBLE else "no line left"
        note = f"{group_words(a.tiles)} for {_line_words(line)}: your plan then {plan}"
        scored.append(((-round(u, 9), jokers, -_overlap(ctx.view, a.rack, a.tiles), a.rack),
                       Choice(a.body(), a.verb, note, line.id if line else None,
                              line.value if line else None, _away(away), jokers)))
    return _mark(_ranked(scored, best), best)


# ---------------------------------------------------------------------- Joker exchanges


def _exchange_choices(ctx: _Context, options: Sequence[Exchange], best: Action) -> list[Choice]:
    if not options:
        return []
    seat = ctx.seat
    now_away = ctx.after_discard(seat.free, ctx.racks) if ctx.racks else IMPOSSIBLE
    scored: list[tuple[tuple[Any, ...], Choice]] = []
    for a in options:
        after = plus(minus(seat.free, (a.tile,)), JOKER)
        u = ctx.turn_utility(after, ctx.racks)
        away = ctx.after_discard(after, ctx.racks) if ctx.racks else IMPOSSIBLE
        if away < now_away:
            what = f"brings your plan from {now_away} to {away} away"
        elif away == now_away < IMPOSSIBLE:
            what = f"keeps your plan {away} away with a Joker in hand instead of " \
                   f"{tile_label(a.tile)}"
        elif away < IMPOSSIBLE:
            what = f"sets your plan back from {now_away} to {away} away"
        else:
            what = "no line of the card is left either way"
        scored.append(((-round(u, 9), a.owner != seat.seat, a.owner, a.rack, a.index),
                       Choice(a.body(), a.verb, what, None, None, _away(away), 0)))
    return _mark(_ranked(scored, best), best)


# ---------------------------------------------------------------------- claims


def _claim_choices(ctx: _Context, legal: Sequence[Action], best: Action) -> list[Choice]:
    """A claim window: passing, and each claim the seat may make."""
    assert ctx.view.window is not None
    tile = ctx.view.window[1]
    name = tile_label(tile)
    bot, seat = ctx.bot, ctx.seat
    scored: list[tuple[tuple[Any, ...], Choice]] = []
    now = bot.best(seat.free, ctx.racks).away if ctx.racks else IMPOSSIBLE
    for a in legal:
        if isinstance(a, Pass):
            note = (f"your plan stays {now} away" if now < IMPOSSIBLE
                    else "no line of the card is left")
            scored.append(((3,), Choice(a.body(), a.verb, note, None, None, _away(now))))
        elif isinstance(a, Claim) and a.kind in ("mahjongg", "double"):
            scored.append(_mahjongg_claim(ctx, a, tile))
        elif isinstance(a, Claim):
            scored.append(_expose_claim(ctx, a, tile, name, now))
    return _mark(_ranked(scored, best), best)


def _mahjongg_claim(ctx: _Context, a: Claim, tile: int) -> tuple[tuple[Any, ...], Choice]:
    bot, seat = ctx.bot, ctx.seat
    with_tile = plus(seat.free, tile)
    made: tuple[tuple[int, int], Hand, int] | None = None
    for r, ex in ctx.racks:
        made_now = bot.plans.rack_aways(with_tile, ex)
        before = bot.plans.rack_aways(seat.free, ex)
        for w in ((made_now == 0) & (before > 0)).nonzero()[0].tolist():
            line = bot.plans.cc.hand_of(int(w))
            used = bot.plans.used(int(w), with_tile, ex)
            jokerless = used[JOKER] == 0 and all(x.jokers == 0 for x in ex)
            pts = hand_points(line, jokerless, not ex, seat.scoring)
            on = _overlap(ctx.view, r, [t for t, n in enumerate(used) for _ in range(n)])
            if made is None or (pts, on) > made[0]:
                made = ((pts, on), line, r)
    if a.kind == "double":
        note = f"{tile_label(tile)} completes every rack you play: a Double Mah Jongg wins"
        return (0,), Choice(a.body(), a.verb, note, made[1].id if made else None,
                            made[0][0] if made else None, 0)
    if made is None:
        note = f"{tile_label(tile)} makes no Mah Jongg for you: a claim in error"
        return (4,), Choice(a.body(), a.verb, note)
    (pts, _on), line, r = made
    last = len(seat.open_racks) == 1
    note = f"{line.id} on rack {r + 1}, {pts} points" + (": wins the game" if last else "")
    return (1,), Choice(a.body(), a.verb, note, line.id, pts, 0)


def _expose_claim(ctx: _Context, a: Claim, tile: int, name: str,
                  now: int) -> tuple[tuple[Any, ...], Choice]:
    bot, seat = ctx.bot, ctx.seat
    with_tile = plus(seat.free, tile)
    best: tuple[tuple[int, int, int], int, tuple[int, ...], Hand | None, int] | None = None
    for rack, tiles in bot.exposure_options(seat, tile):
        after = minus(with_tile, tiles)
        new_racks = with_exposure(ctx.racks, rack, tiles)
        away = ctx.after_discard(after, new_racks)
        line, _a = ctx.plan_line(after, new_racks, rack)
        key = (away, tiles.count(JOKER), -_overlap(ctx.view, rack, tiles[:-1]))
        if best is None or key < best[0]:
            best = (key, rack, tiles, line, away)
    if best is None:
        note = f"{name} fits no group you could expose"
        return (2, IMPOSSIBLE), Choice(a.body(), a.verb, note)
    (away, jokers, _on), rack, tiles, line, _away_n = best
    if away >= IMPOSSIBLE:
        note = f"exposing {name} leaves no line of the card"
    elif away < now:
        note = (f"expose {group_words(tiles)} on rack {rack + 1} for {_line_words(line)}: "
                f"your plan goes from {now} to {away} away")
    else:
        note = (f"expose {group_words(tiles)} on rack {rack + 1} for {_line_words(line)}: "
                f"your plan {'stays' if away == now else 'goes to'} {away} away")
    return (2, away, jokers), Choice(a.body(), a.verb, note, line.id if line else None,
                                     line.value if line else None, _away(away), jokers)


# ---------------------------------------------------------------------- declarations


def _declare_choices(ctx: _Context, legal: Sequence[Action], best: Action) -> list[Choice]:
    """Right after the deal: declaring a special hand, or passing."""
    declares = [a for a in legal if isinstance(a, Declare)]
    if not declares:
        return []
    scored: list[tuple[tuple[Any, ...], Choice]] = []
    for a in declares:
        line = ctx.bot.card.hand(a.hand)
        rest = minus(ctx.seat.free, a.tiles)
        others = tuple(r for r in ctx.racks if r[0] != 0)
        away = ctx.bot.best(rest, others).away if others else 0
        note = (f"{line.id} ({line.value} points) fixed on rack 1, waiting for one tile; "
                f"your other racks then {away} away" if away < IMPOSSIBLE
                else f"{line.id} ({line.value} points) fixed on rack 1")
        scored.append(((away, -line.value), Choice(a.body(), a.verb, note, line.id,
                                                   line.value, _away(away))))
    if ctx.view.window is None:
        for p in legal:
            if isinstance(p, Pass):
                now = ctx.bot.best(ctx.seat.free, ctx.racks).away
                scored.append(((IMPOSSIBLE + 1, 0), Choice(
                    p.body(), p.verb, "declare nothing: play your racks as dealt", None,
                    None, _away(now))))
    return _mark(_ranked(scored, best), best)
