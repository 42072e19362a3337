"""The review of one player's game: each decision rated against the best choice, and the
three biggest mistakes explained in words.

Every decision the player had a real choice in (a discard, a claim or a pass, an exposure,
a Mah Jongg declared or kept, a Joker exchange, and in the American game each pass, vote
and offer of the Charleston; never a move between its own racks, which decides nothing) is
replayed from the record and looked at from the player's own view only. The coach
(:mod:`twinrack.bots.coach`: the master, the untimed expert whose choice is checked by
racing futures near the end) says what it would have done, exactly as the hints said it
at the table: the same decision, the same generator, so a choice the hint recommended is
never a mistake here. Both that choice and the one played are rated by the chance of
finishing every open rack before the wall is spent and by the expected points of the best
plan (its chance times its card value), from the tiles the player had not seen
(:mod:`twinrack.bots.odds`). The decisions that lost most by that measure are then played
out to the end of imagined games through the engine (:class:`twinrack.bots.playout.Playout`,
the master's first search) to say how many points of game margin the choice cost, and
the three that cost most are explained in tiles and card lines ("you exposed 3 Dot with two
Jokers; two 3 Dot and a Joker kept a Joker for Runs-2"). A decision whose loss is within
noise is no mistake: the same chance of finishing and the same expected points by the odds
(to the rounding shown), and no play-out margin beyond twice its standard error.
:func:`review` is pure and returns a :class:`Review`; ``twinrack review RECORD`` prints
it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from twinrack.bots.coach import advise
from twinrack.bots.greedy import Racks, minus, open_racks, plus, with_exposure
from twinrack.bots.master import MasterBot
from twinrack.bots.odds import candidates, chances, needs
from twinrack.bots.plans import Planner
from twinrack.bots.playout import Playout
from twinrack.bots.review_words import choice_words, explain
from twinrack.bots.seen import Position, choices, position, unseen
from twinrack.card import Card
from twinrack.engine import (
    Action,
    Claim,
    Discard,
    Expose,
    GameState,
    Move,
    Pass,
    RuleSet,
    legal_actions,
    new_game,
    view,
)
from twinrack.engine.actions import CHARLESTON_VERBS, CharlestonPass, Courtesy
from twinrack.engine.record import RecordError, replay_steps, verify
from twinrack.engine.view import View
from twinrack.errors import TwinRackError
from twinrack.tiles import parse_tiles

#: decisions played out by the master (the ones losing most by the odds)
SEARCHED = 6
#: imagined games per choice for each of those
SIMULATIONS = 6
#: how many mistakes are explained
MISTAKES = 3
#: differences by the odds below these are noise: a chance of finishing (0.5 percentage
#: point, the rounding of a whole percent) and expected points (the rounding shown)
NOISE_CHANCE = 0.005
NOISE_POINTS = 0.05
#: a play-out margin counts only beyond this many standard errors of its imagined games
NOISE_SE = 2.0


class ReviewError(TwinRackError):
    """A review that cannot be made: a record that does not replay, a seat not in it."""


@dataclass(frozen=True)
class Outlook:
    """Where a choice leaves the player: the chance of finishing every open rack before
    the wall is spent, the best plan's expected points, its lines and tiles away."""

    chance: float
    points: float
    lines: tuple[str, ...]
    away: int


@dataclass(frozen=True)
class Rating:
    """One decision: what was played, what was best, both rated."""

    number: int  # the action's number in the record (from 1)
    turn: int
    kind: str  # discard, claim, pass, exposure, mahjongg, exchange
    played: str
    best: str
    chance_played: float
    chance_best: float
    points_played: float
    points_best: float
    margin_lost: float | None  # game margin the master's search says it cost (points)
    why: str
    played_words: str = ""  # the choice played, in tiles and lines ("discarding 9 Bam")
    best_words: str = ""
    margin_error: float | None = None  # the standard error of margin_lost

    @property
    def mistake(self) -> bool:
        """A choice other than the coach's that cost more than noise: by the odds (a
        chance or expected points lower beyond their rounding), or by a play-out margin
        beyond ``NOISE_SE`` standard errors."""
        if self.played == self.best:
            return False
        odds = (self.chance_best - self.chance_played >= NOISE_CHANCE
                or self.points_best - self.points_played >= NOISE_POINTS)
        margin = (self.margin_lost is not None and self.margin_lost > 0
                  and self.margin_lost > NOISE_SE * (self.margin_error or 0.0))
        return odds or margin

    @property
    def loss(self) -> float:
        """Expected points given up by the odds (never below zero)."""
        return max(0.0, self.points_best - self.points_played)


@dataclass(frozen=True)
class Review:
    seat: int
    ratings: tuple[Rating, ...]
    mistakes: tuple[Rating, ...]
    #: the player's chance of finishing after each of its decisions: (turn, chance)
    chances: tuple[tuple[int, float], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": len(self.ratings),
                "mistakes": [asdict(m) for m in self.mistakes],
                "ratings": [asdict(r) for r in self.ratings],
                "chances": [list(c) for c in self.chances]}


def kind_of(action: Action) -> str:
    """The kind of decision an action was: its verb, an exposure named as such."""
    return "exposure" if action.verb == "expose" else action.verb


class Judge:
    """Rates choices from one seat's view with the expert's odds; the best choice is the
    master's (its default budget of simulations: the same choice on any machine)."""

    def __init__(self, card: Card) -> None:
        self.card = card
        self.master = MasterBot(card)

    @property
    def plans(self) -> Planner:
        """The master's planner, on the card as the reviewed table played it (the master
        follows each view it is asked about)."""
        return self.master.plans

    def outlook(self, free: Sequence[int], racks: Racks, unseen_counts: Sequence[int],
                picks: int) -> Outlook:
        """The chance of finishing the plan most likely to finish, and its points."""
        if not racks:
            return Outlook(1.0, 0.0, (), 0)
        plans = candidates(self.plans, free, racks)
        if not len(plans):
            return Outlook(0.0, 0.0, (), 0)
        h = np.asarray([free], dtype=np.int64)
        ch = chances(plans, h, unseen_counts, [picks])[0, :, 0]
        exp_points = ch * plans.value
        best = int(np.argmax(ch + 1e-6 * exp_points))
        short_nat, short_big, jokers = needs(plans.take(np.asarray([best])), h)
        away = int(short_nat.sum()) + max(0, int(short_big.sum()) - int(jokers[0]))
        lines = tuple(self.plans.cc.hand_of(int(w)).id for w in plans.ways[best])
        return Outlook(float(ch[best]), float(exp_points.max()), lines, away)

    def after(self, seen: View, seat: Position, action: Action) -> Outlook | None:
        """Where ``action`` leaves the player, or ``None`` when the odds cannot say (a
        Mah Jongg, a Joker exchange: the master's search rates those)."""
        racks = open_racks(seat)
        left = unseen(seen)
        if isinstance(action, Discard):
            return self.outlook(minus(seat.free, (action.tile,)), racks, left,
                                self.master.picks_left(seen, True))
        if isinstance(action, CharlestonPass | Courtesy):  # as many new tiles come back
            return self.outlook(minus(seat.free, action.tiles), racks, left,
                                self.master.picks_left(seen, False) + len(action.tiles))
        if isinstance(action, Pass) and seen.window is not None:
            return self.outlook(seat.free, racks, left, self.master.picks_left(seen, False))
        if isinstance(action, Claim) and action.kind == "expose" and seen.window is not None:
            tile = seen.window[1]
            best: Outlook | None = None
            for rack, tiles in self.master.exposure_options(seat, tile):
                got = self.best_discard(minus(plus(seat.free, tile), tiles),
                                        with_exposure(racks, rack, tiles), left,
                                        self.master.picks_left(seen, False) - 1)
                if best is None or got.points > best.points:
                    best = got
            return best
        if isinstance(action, Expose):
            return self.best_discard(minus(seat.free, action.tiles),
                                     with_exposure(racks, action.rack, action.tiles), left,
                                     self.master.picks_left(seen, True))
        return None

    def best_discard(self, free: Sequence[int], racks: Racks, left: Sequence[int],
                     picks: int) -> Outlook:
        kinds = [t for t in range(len(free)) if free[t]]
        outs = [self.outlook(minus(free, (t,)), racks, left, picks) for t in kinds]
        return max(outs, key=lambda o: (o.points, o.chance)) if outs else Outlook(
            0.0, 0.0, (), 0)


def start_of(record: dict[str, Any], card: Card) -> GameState:
    """The dealt game of a record that verifies (wall, every event and the score)."""
    verdict = verify(record, card)
    if not verdict.ok:
        raise ReviewError("bad_record", f"the record does not verify: {verdict.problem}")
    stack = parse_tiles(record["stack"]) if record.get("stack") is not None else None
    return new_game(RuleSet.from_dict(record["rules"]), seed=bytes.fromhex(record["seed"]),
                    card=card, stack=stack)


def review(record: dict[str, Any], seat: int, card: Card, *, searched: int = SEARCHED,
           simulations: int = SIMULATIONS) -> Review:
    """Rate every real decision of ``seat`` in a finished game's record."""
    try:
        game = start_of(record, card)
    except RecordError as err:
        raise ReviewError(err.code, err.message) from None
    if not 0 <= seat < game.rules.players:
        raise ReviewError("bad_seat", f"seat {seat} is not at this table (seats 0 to "
                                      f"{game.rules.players - 1})")
    judge = Judge(card)
    rng = random.Random(f"review:{record['commitment']}:{seat}")
    rated: list[tuple[Rating, View, list[Action]]] = []
    for text in record["actions"]:
        acting = seat in game.to_act() and game.phase in ("turn", "window", "charleston")
        seen = view(game, seat) if acting else None
        everything = legal_actions(game, seat) if seen is not None else []
        legal = choices(seen, everything) if seen is not None else []
        step = next(replay_steps(game, [text]))
        if (seen is None or len(legal) < 2 or step.action.seat != seat
                or isinstance(step.action, Move) or step.action not in legal):
            continue  # a move between one's own racks decides nothing
        rated.append((rate(judge, seen, legal, step.action, step.number), seen, everything))
    return finish(rated, seat, card, searched, simulations, rng)


def rate(judge: Judge, seen: View, legal: Sequence[Action], played: Action,
         number: int) -> Rating:
    """One decision rated: the coach's choice (the hint's, for this very view) against the
    one played."""
    seat = position(seen)
    best = advise(seen, judge.card, legal).best
    judge.master.follow(seen)
    mine = judge.after(seen, seat, played)
    theirs = judge.after(seen, seat, best) if best != played else mine
    if mine is None or theirs is None:
        mine = theirs = Outlook(0.0, 0.0, (), 0)
    why = explain(played, best, mine, theirs, seen)
    return Rating(number, seen.turn, kind_of(played), played.body(), best.body(),
                  round(mine.chance, 4), round(theirs.chance, 4), round(mine.points, 2),
                  round(theirs.points, 2), None, why, choice_words(played, seen),
                  choice_words(best, seen))


def finish(rated: list[tuple[Rating, View, list[Action]]], seat: int, card: Card,
           searched: int, simulations: int, rng: random.Random) -> Review:
    """Play the costliest decisions out with the master and name the three worst (those
    beyond noise)."""
    order = sorted(range(len(rated)), key=lambda i: (-rated[i][0].loss, rated[i][0].number))
    # the Charleston's decisions are rated by the odds alone (no future is raced from it)
    chosen = {i for i in order[:searched] if rated[i][0].played != rated[i][0].best
              and rated[i][0].kind not in CHARLESTON_VERBS}
    master = Playout(card, simulations=simulations)
    out = [r for r, _seen, _legal in rated]
    for i, (r, seen, legal) in enumerate(rated):
        master.note_mahjonggs(seen)  # what the master would have noted, in order
        if i not in chosen:
            continue
        best = next(a for a in legal if a.body() == r.best)
        played = next(a for a in legal if a.body() == r.played)
        found = master.search(seen, legal, [best, played], random.Random(rng.getrandbits(32)))
        if found is not None:
            margins, _wins = found
            diff = margins[0] - margins[1]
            se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.inf
            out[i] = replace(r, margin_lost=round(float(diff.mean()), 2),
                             margin_error=round(se, 2) if math.isfinite(se) else None)
    wrong = [r for r in out if r.mistake]
    wrong.sort(key=lambda r: (-(r.loss + max(0.0, r.margin_lost or 0.0) / 10), r.number))
    chart = tuple((r.turn, r.chance_played) for r in out)
    return Review(seat, tuple(out), tuple(wrong[:MISTAKES]), chart)
