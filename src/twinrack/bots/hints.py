"""Hints for a person at the table: one coherent picture of the seat's holding, in the words
of the coach (:mod:`twinrack.bots.coach`), whose choice the review of the game will take as
the best one too.

First what the coach does now: a Mah Jongg (then nothing else is suggested), a Joker
exchange, a claim or a pass, an exposure, or the discard, each with why. Then the plan the
holding keeps (one card line per open rack, after the suggested discard) with what each rack
of it still needs, copies needed and how many are unseen. The racks draw on one shared
holding, so the plan splits what the holding lacks between them: the racks' needs add up to
the plan's tiles away. Each rack then lists the lines it could aim for instead, the other
racks keeping the plan's lines. Besides: every choice of the decision named and ranked
(``choices``), the discards that may give an opponent its hand (``warnings``), the moves
that arrange the racks as the plan (``arrange``), and each card line's tiles away (``reach``,
for the card panel). Tiles are named in words ("2 Crak").

Only the view and the seat's legal actions are used, like a bot: a hint never knows more
than the player.

    >>> from twinrack.card import practice_card
    >>> from twinrack.engine import RuleSet, legal_actions, new_game, view
    >>> game = new_game(RuleSet(declared_hands=False), seed=1)
    >>> h = hints(view(game, 0), practice_card(), legal=legal_actions(game, 0))
    >>> h.discard is not None and len(h.racks) == 2
    True
    >>> sum(r.lines[0].away for r in h.racks) == h.plans[0].away
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from twinrack.bots.arrange import arrangement
from twinrack.bots.coach import Advice, Choice, advise, best_action, decision_rng
from twinrack.bots.feeding import FeedWarning, feeding
from twinrack.bots.greedy import Racks, declarations, left_after, minus, open_racks, plus
from twinrack.bots.hint_words import claim_reason, discard_reason, exchange_words, mj_words
from twinrack.bots.plans import Planner, planner
from twinrack.bots.review_words import group_words
from twinrack.bots.seen import Position, choices, open_lines, position, unseen
from twinrack.bots.shares import (
    Line,
    Need,
    PlanHint,
    RackHint,
    SharedPlan,
    declared_rack,
    plans_for,
    rack_hints,
)
from twinrack.card import Card
from twinrack.card.compiled import IMPOSSIBLE
from twinrack.engine import Action, Claim, Discard, Exchange, Expose, MahJongg, Move, Pass
from twinrack.engine.actions import CharlestonPass, Courtesy, Offer, Vote
from twinrack.engine.view import View
from twinrack.narration import tile_label
from twinrack.tiles import CANONICAL, NUM_KINDS

__all__ = ["ClaimHint", "DiscardHint", "Hints", "Line", "MahjonggHint", "Need", "PlanHint",
           "RackHint", "hints", "view_rng"]

#: the time the suggested discard may take, in milliseconds: no longer used (the coach's
#: decisions are counted in futures, not in time), kept for callers that pass it
HINT_BUDGET_MS = 150.0

#: the same generator as the coach's (a view's decision, whatever the arrangement)
view_rng = decision_rng


@dataclass(frozen=True)
class DiscardHint:
    tile: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "reason": self.reason}


@dataclass(frozen=True)
class ClaimHint:
    """During a claim window: whether the coach claims the discard, and why."""

    tile: str
    helps: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "helps": self.helps, "reason": self.reason}


@dataclass(frozen=True)
class MahjonggHint:
    racks: tuple[int, ...]  # counted from 1
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"racks": list(self.racks), "text": self.text}


@dataclass(frozen=True)
class CharlestonHint:
    """During the American game's Charleston: what the expert would pass (or vote, or
    offer), as the legal action's text, its own tiles and blind count, and why."""

    action: str
    tiles: tuple[str, ...]
    blind: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "tiles": list(self.tiles), "blind": self.blind,
                "reason": self.reason}


@dataclass(frozen=True)
class ActionHint:
    """What the coach does now: the action's text form (to send back), its verb, why."""

    text: str
    verb: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "verb": self.verb, "reason": self.reason}


@dataclass(frozen=True)
class Hints:
    summary: str  # the one line to read first
    racks: tuple[RackHint, ...]
    discard: DiscardHint | None
    plans: tuple[PlanHint, ...]  # the best plan first, then other plans
    claim: ClaimHint | None = None
    mahjongg: MahjonggHint | None = None
    action: ActionHint | None = None
    exchange: ActionHint | None = None
    choices: tuple[Choice, ...] = ()
    warnings: tuple[FeedWarning, ...] = ()
    arrange: tuple[str, ...] = ()
    reach: tuple[tuple[str, int], ...] = ()
    advice: Advice | None = field(default=None, compare=False, repr=False)
    charleston: CharlestonHint | None = None

    def to_dict(self) -> dict[str, Any]:
        def opt(x: Any) -> Any:
            return None if x is None else x.to_dict()

        return {"summary": self.summary, "charleston": opt(self.charleston),
                "mahjongg": opt(self.mahjongg),
                "claim": opt(self.claim), "racks": [r.to_dict() for r in self.racks],
                "discard": opt(self.discard), "plans": [p.to_dict() for p in self.plans],
                "action": opt(self.action), "exchange": opt(self.exchange),
                "choices": [c.to_dict() for c in self.choices],
                "warnings": [w.to_dict() for w in self.warnings],
                "arrange": list(self.arrange),
                "reach": [{"id": i, "away": a} for i, a in self.reach]}


NO_HINTS = Hints("", (), None, ())


# ---------------------------------------------------------------------- the holding planned


@dataclass
class _Seen:
    """The decision as the hints read it."""

    view: View
    card: Card
    seat: Position
    racks: Racks
    left: list[int]
    pl: Planner
    legal: list[Action]  # the seat's decisions
    moves: set[str]  # the moves between its racks it may make now (text forms)


def _planned(s: _Seen, best: Action | None) -> tuple[list[int], Racks, MahJongg | None]:
    """The holding the plan shown is for, its racks, and the Mah Jongg declared first:
    after the coach's discard the tiles it keeps; after its Mah Jongg the tiles left and
    the other racks."""
    free = list(s.seat.free)
    if isinstance(best, Discard):
        return minus(free, (best.tile,)), s.racks, None
    if isinstance(best, MahJongg) and best in declarations([best], s.seat):
        rest = left_after(s.seat, best)
        return rest, tuple(r for r in s.racks if r[0] != best.rack), best
    return free, s.racks, None


def _mj_rack(s: _Seen, a: MahJongg, advice: Advice) -> RackHint:
    """The rack of the Mah Jongg the coach declares: its line made, nothing needed."""
    c = advice.choice(a)
    line = s.card.hand(c.line) if c is not None and c.line else None
    if line is None:
        return RackHint(a.rack + 1, ())
    return RackHint(a.rack + 1, (Line(line.id, line.section, 0, (), line.value,
                                      line.concealed, None),))


def _reach(s: _Seen, free: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """Per card line, its tiles away on the nearest open rack from the whole holding."""
    cc = s.pl.cc
    best = np.full(len(s.card.hands), IMPOSSIBLE, dtype=np.int64)
    for _r, ex in s.racks:
        aways = s.pl.rack_aways(free, ex)
        np.minimum.at(best, cc.way_hand[: len(aways)], aways)
    return tuple((h.id, int(best[h.number])) for h in s.card.hands
                 if best[h.number] < IMPOSSIBLE)


def _arranged(s: _Seen, free: Sequence[int], plan: SharedPlan,
              mj: MahJongg | None) -> tuple[SharedPlan, tuple[str, ...]]:
    """The plan as the racks should show it, and the moves (legal now) that arrange
    them so; a Mah Jongg declared first takes its own tiles onto its rack."""
    counts = s.view.counts
    if counts is None or not s.moves:
        return plan, ()
    own = [list(r) for r in counts]
    keep = list(free)
    if mj is not None:  # the Mah Jongg's tiles count as already on their rack
        want = [0] * NUM_KINDS
        for t in mj.tiles:
            want[t] += 1
        own, keep = _with_fixed(own, keep, mj.rack, want)
    shown, moves = arrangement(s.pl, keep, plan, own, s.view.seat or 0, s.seat.fixed_rack)
    if mj is not None:
        moves = _fixed_moves(s, mj) + moves
    texts = tuple(m.body() for m in moves)
    return shown, texts if all(t in s.moves for t in texts) else ()


def _with_fixed(own: list[list[int]], free: list[int], rack: int,
                want: list[int]) -> tuple[list[list[int]], list[int]]:
    """The arrangement and holding as if ``want`` already lay on ``rack`` (and only
    there): the other racks give up the tiles it takes."""
    out = [list(r) for r in own]
    for t in range(NUM_KINDS):
        need = want[t] - out[rack][t]
        for r in range(len(out)):
            if r == rack or need <= 0:
                continue
            take = min(need, out[r][t])
            out[r][t] -= take
            out[rack][t] += take
            need -= take
    out[rack] = [0] * NUM_KINDS
    return out, free


def _fixed_moves(s: _Seen, mj: MahJongg) -> list[Move]:
    """The moves that bring a Mah Jongg's tiles onto its rack."""
    assert s.view.counts is not None and s.view.seat is not None
    own = [list(r) for r in s.view.counts]
    out = []
    want = [0] * NUM_KINDS
    for t in mj.tiles:
        want[t] += 1
    for t in range(NUM_KINDS):
        need = want[t] - own[mj.rack][t]
        for r in range(len(own)):
            while need > 0 and r != mj.rack and own[r][t] > 0:
                out.append(Move(s.view.seat, t, r, mj.rack))
                own[r][t] -= 1
                need -= 1
    return out


# ---------------------------------------------------------------------- words


def _claim_hint(s: _Seen, advice: Advice, plan: SharedPlan | None) -> ClaimHint | None:
    """During a claim window: the coach's claim or pass, and why, in the words of the
    choices."""
    w = s.view.window
    if w is None:
        return None
    t = w[1]
    name = tile_label(t)
    if not any(isinstance(a, Claim) for a in s.legal):
        return ClaimHint(CANONICAL[t], False, f"You cannot claim {name} now: pass.")
    if plan is None and not isinstance(advice.best, Claim):
        return ClaimHint(CANONICAL[t], False,
                         f"No line is still possible: {name} does not help.")
    unexposed = plans_for(s.pl, plus(s.seat.free, t), s.racks, 1)
    closer = bool(unexposed) and plan is not None and unexposed[0].away < plan.away
    reason = claim_reason(advice, name, plan.away if plan else None, closer)
    return ClaimHint(CANONICAL[t], isinstance(advice.best, Claim), reason)


def _summary(s: _Seen, advice: Advice | None, mahjongg: MahjonggHint | None,
             plan: SharedPlan | None, racks: Sequence[RackHint], discard: int | None) -> str:
    """The picture in one line: the plan is that of the holding after the coach's
    discard (or Mah Jongg), so it says so."""
    if mahjongg is not None and (plan is None or advice is None
                                 or isinstance(advice.best, Claim)):
        return mahjongg.text
    if advice is not None and isinstance(advice.best, Exchange):
        return exchange_words(advice, advice.best)
    if advice is not None and isinstance(advice.best, Expose):
        c = advice.choice(advice.best)
        note = c.note if c else group_words(advice.best.tiles)
        return f"Expose {note.replace(' for ', f' on rack {advice.best.rack + 1} for ', 1)}."
    if plan is None:
        return mahjongg.text if mahjongg else (
            "No line of the card is still possible on your open racks.")
    parts = [f"{r.lines[0].id} on rack {r.rack} ({r.lines[0].away} away)"
             for r in racks if r.lines and r.lines[0].plan_away == plan.away]
    value = sum(h.value for h in plan.hands)
    after = "" if discard is None else f" once you discard {tile_label(discard)}"
    text = f"Best plan{after}: {' + '.join(parts)}: {plan.away} away in all, {value} points."
    return f"{mahjongg.text} {text}" if mahjongg else text


def _mahjongg(s: _Seen, advice: Advice) -> MahjonggHint | None:
    """The Mah Jongg the coach makes now: a claim for one, or a declaration (on the racks
    where the same tiles make it)."""
    best = advice.best
    if isinstance(best, Claim) and best.kind in ("mahjongg", "double") and s.view.window:
        tile = tile_label(s.view.window[1])
        if best.kind == "double":
            return MahjonggHint((), f"{tile} gives you Mah Jongg on every rack: claim it "
                                    "and win.")
        return MahjonggHint((), f"{tile} gives you Mah Jongg: claim it.")
    if not isinstance(best, MahJongg):
        return None
    c = advice.choice(best)
    return MahjonggHint((best.rack + 1,), mj_words(c, [best.rack]))


def _exchange(advice: Advice) -> ActionHint | None:
    if not isinstance(advice.best, Exchange):
        return None
    return ActionHint(advice.best.body(), "exchange", exchange_words(advice, advice.best))


# ---------------------------------------------------------------------- together


def _context(view: View, card: Card, legal: Sequence[Action]) -> _Seen:
    seat = position(view)
    moves = {a.body() for a in legal if isinstance(a, Move)}
    return _Seen(view, card, seat, open_racks(seat), unseen(view),
                 planner(card, open_lines(view)), choices(view, legal), moves)


def hints(view: View, card: Card, top: int = 3, legal: Sequence[Action] = (),
          budget_ms: float = HINT_BUDGET_MS, level: str = "master") -> Hints:
    """Hints for the seat of ``view`` (a player's own view, not a spectator's), with the
    seat's ``legal`` actions (what the rules allow it now), from the coach at ``level``
    (``budget_ms`` is no longer used: the coach counts its work in futures)."""
    if view.free is None:
        return NO_HINTS
    if view.phase == "charleston":
        return charleston_hints(view, card, choices(view, legal), level)
    s = _context(view, card, legal)
    advice = advise(view, card, s.legal, level) if len(s.legal) else None
    best = advice.best if advice is not None else None
    free, racks, mj = _planned(s, best)
    found = plans_for(s.pl, free, racks, top)
    plan = found[0] if found else None
    arrange: tuple[str, ...] = ()
    if plan is not None:
        plan, arrange = _arranged(s, free, plan, mj)
        found = [plan, *found[1:]]
    rack_list = [RackHint(r + 1, ()) for r, _ex in racks] if plan is None else rack_hints(
        s.pl, free, plan, s.left, top, view.counts)
    extra = [declared_rack(card, s.seat, s.left)]
    if mj is not None and advice is not None:
        extra.append(_mj_rack(s, mj, advice))
    rack_list = sorted([*rack_list, *(r for r in extra if r is not None)],
                       key=lambda r: r.rack)
    tile = best.tile if isinstance(best, Discard) else None
    warnings = _warnings(s) if "discard" in view.verbs else []
    discard = None
    if tile is not None and advice is not None:
        before = plans_for(s.pl, s.seat.free, s.racks, 1)
        discard = DiscardHint(CANONICAL[tile], discard_reason(
            s.pl, s.seat, advice, tile, before[0].away if before else IMPOSSIBLE, plan,
            s.left, [w for w in warnings if w.tile == tile], s.view.players))
    mahjongg = _mahjongg(s, advice) if advice is not None else None
    claim = _claim_hint(s, advice, plan) if advice is not None and mahjongg is None else None
    action = _action(advice, discard, claim, mahjongg)
    return Hints(_summary(s, advice, mahjongg, plan, rack_list, tile), tuple(rack_list),
                 discard, tuple(p.hint for p in found), claim, mahjongg, action,
                 _exchange(advice) if advice is not None else None,
                 advice.choices if advice is not None else (), tuple(warnings), arrange,
                 _reach(s, free), advice)


def _warnings(s: _Seen) -> list[FeedWarning]:
    held = [t for t in range(NUM_KINDS) if s.seat.free[t]]
    return feeding(s.view, s.pl, held)


def _action(advice: Advice | None, discard: DiscardHint | None, claim: ClaimHint | None,
            mahjongg: MahjonggHint | None) -> ActionHint | None:
    """The coach's choice now, with the words the other fields give it."""
    if advice is None:
        return None
    best = advice.best
    if isinstance(best, Discard) and discard is not None:
        return ActionHint(best.body(), best.verb, discard.reason)
    if isinstance(best, Claim | Pass) and claim is not None:
        return ActionHint(best.body(), best.verb, claim.reason)
    if mahjongg is not None:
        return ActionHint(best.body(), best.verb, mahjongg.text)
    c = advice.choice(best)
    if isinstance(best, Exchange):
        return ActionHint(best.body(), best.verb, exchange_words(advice, best))
    if c is None and isinstance(best, Pass):
        return ActionHint(best.body(), best.verb, "Nothing to declare: pass.")
    return ActionHint(best.body(), best.verb, c.note if c is not None else "")


# ---------------------------------------------------------------------- the Charleston


def charleston_hints(view: View, card: Card, legal: Sequence[Action],
                     level: str = "master") -> Hints:
    """The Charleston's hint: the coach's choice (a pass weighed by the chance of
    finishing, :meth:`ExpertBot.choose_charleston`) and the plan it keeps."""
    seat = position(view)
    racks = open_racks(seat)
    pl = planner(card, open_lines(view))
    made = best_action(view, card, list(legal), level)[0] if legal else None
    passed = made.tiles if isinstance(made, CharlestonPass | Courtesy) else ()
    before = plans_for(pl, seat.free, racks, 1)
    after = plans_for(pl, minus(seat.free, passed), racks, 1) if passed else before
    plan = after[0] if after else None
    words = "no line of the card is in reach" if plan is None else (
        f"your plan {' + '.join(h.id for h in plan.hands)} is {plan.away} away")
    if made is None:
        return Hints(f"The Charleston: {words}.", (), None, tuple(p.hint for p in after))
    reason = _charleston_reason(made, before[0].away if before else None, plan, words)
    blind = made.blind if isinstance(made, CharlestonPass) else 0
    hint = CharlestonHint(made.body(), tuple(CANONICAL[t] for t in passed), blind, reason)
    return Hints(reason, (), None, tuple(p.hint for p in after), charleston=hint)


def _charleston_reason(made: Action, before: int | None, plan: SharedPlan | None,
                       words: str) -> str:
    if isinstance(made, Vote):
        return (f"Vote again: {words}, and another Charleston can bring it closer."
                if made.again else f"Stop the second Charleston: {words}; keep your tiles.")
    if isinstance(made, Offer):
        return (f"Offer {made.count}: {words}, and you can spare that many."
                if made.count else f"Offer nothing: {words}, and every tile serves it.")
    assert isinstance(made, CharlestonPass | Courtesy)
    blind = made.blind if isinstance(made, CharlestonPass) else 0
    if not made.tiles:
        return f"Pass all {blind} blind: every tile you hold serves your plan ({words})."
    what = ", ".join(tile_label(t) for t in made.tiles)
    extra = f" and {blind} blind" if blind else ""
    kept = "" if plan is None or before is None or plan.away == before else (
        f" (from {before} to {plan.away} away)")
    return f"Pass {what}{extra}: the tiles your plan needs least; {words}{kept}."
