"""Scoring of one game (rules section 10), shared by the engine and the score keeper.

The input is what happened, not how: the Mah Jonggs declared (which line, jokerless or not,
closed or not, which turn, who threw the tile), wall game or not, dead racks, and any
penalties a referee recorded. The output is an itemized list of lines, one per reason, so
that every point can be explained to a player.

Order of scoring (a Decision of docs/rules.md): a hand's *base* is its card value, doubled
when jokerless where that applies; the Mah Jongg that wins the game doubles its base again;
in a Double Mah Jongg each of the hands declared in the winning turn scores twice its base.
The closed bonus (+10, 2024 only) and the Royale star bonus (+25) are added after the
multipliers, once per hand.

What scoring needs of the end of a game is decided here too, once for the engine and the
score keeper: who won and which Mah Jonggs win (:func:`winner_of`, :func:`end_facts`), when
a player is out on dead racks (:func:`out_on_dead_racks`), what a wrong tile count kills
(:func:`wrong_count_kills`) and what a wall game is. The engine's ``game_facts`` feeds
:func:`end_facts` from a finished state, the keeper from a checked game sheet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Protocol


@dataclass(frozen=True)
class ScoringRules:
    """The scoring options; the engine's RuleSet and the score keeper both build one."""

    revision: str = "2024"  # "2024" or "2019"
    players: int = 2
    royale: bool = False  # Royale bonuses: quints not doubled, (*) hands +25 when jokerless
    #: wall game: "any" = a player with any dead rack gets no +10; "all" = only when all dead
    wall_dead: str = "any"
    #: the closed bonus exists (the Siamese games; the American game has none)
    closed: bool = True

    @property
    def feed_penalty(self) -> int:
        """Throwing the tile of an opponent's winning (2nd) or Double Mah Jongg."""
        return 20 if self.revision == "2019" else 25

    @property
    def closed_bonus(self) -> int:
        return 10 if self.revision == "2024" and self.closed else 0


class CardLine(Protocol):
    """What scoring reads of a card line (a :class:`twinrack.card.model.Hand` is one)."""

    @property
    def id(self) -> str: ...
    @property
    def value(self) -> int: ...
    @property
    def singles_and_pairs(self) -> bool: ...
    @property
    def quint(self) -> bool: ...
    @property
    def star(self) -> bool: ...


@dataclass(frozen=True)
class HandFacts:
    """What scoring needs to know about a card line."""

    id: str
    value: int
    singles_and_pairs: bool = False
    quint: bool = False
    star: bool = False

    @classmethod
    def of(cls, line: CardLine) -> HandFacts:
        return cls(line.id, line.value, line.singles_and_pairs, line.quint, line.star)


@dataclass(frozen=True)
class MahJonggFact:
    """One valid Mah Jongg exposed on a rack."""

    seat: int
    rack: int
    hand: HandFacts
    jokerless: bool
    closed: bool  # no exposure on that rack before the Mah Jongg itself
    turn: int  # the turn it was declared in (Mah Jonggs of one turn form a Double)
    wins: bool = False  # declared in the turn that completed the player's racks
    discarder: int | None = None  # seat that threw the claimed winning tile, if claimed
    self_picked: bool = False
    misnamed: bool = False  # the claimed discard was mis-named by its thrower (real tiles)


@dataclass(frozen=True)
class Penalty:
    """A penalty recorded by a referee or the score keeper (real tiles)."""

    seat: int
    points: int  # negative
    reason: str
    rule: str = "10"


@dataclass(frozen=True)
class GameFacts:
    """Everything that decides the score of one finished game."""

    players: int
    mah_jonggs: tuple[MahJonggFact, ...] = ()
    wall_game: bool = False
    #: dead[seat] = the racks of that seat that are dead
    dead: tuple[tuple[int, ...], ...] = ()
    racks: int = 2
    both_dead: int | None = None  # the seat whose racks all died (2 players: ends the game)
    lowest_card_value: int = 25
    penalties: tuple[Penalty, ...] = ()

    @property
    def winner(self) -> int | None:
        """The seat whose Mah Jonggs won the game, if one did."""
        wins = {m.seat for m in self.mah_jonggs if m.wins}
        return wins.pop() if len(wins) == 1 else None


# ------------------------------------------------------------------ the end of a game


def winner_of(racks: int, mah_jonggs: Iterable[MahJonggFact]) -> int | None:
    """The seat with a Mah Jongg on every one of its racks: it has won (section 9)."""
    held = Counter(m.seat for m in mah_jonggs)
    return next((seat for seat, count in sorted(held.items()) if count >= racks), None)


def out_on_dead_racks(players: int, racks: int,
                      dead: Sequence[Collection[int]]) -> int | None:
    """Two players: the seat whose racks are all dead. That ends the game and costs the
    seat 4 x a hand's value (sections 8 and 10); with 3 or 4 players it only stops."""
    if players != 2:
        return None
    return next((seat for seat, gone in enumerate(dead) if len(gone) >= racks), None)


def wrong_count_kills(rules: ScoringRules, racks: int,
                      with_mahjongg: Collection[int]) -> frozenset[int]:
    """The racks that a wrong tile count kills (real tiles; docs/score-keeper.md,
    Decisions): in 2024 every rack, an exposed Mah Jongg too; in 2019 a Mah Jongg already
    exposed keeps its points and only the other racks die."""
    every = frozenset(range(racks))
    if rules.revision == "2019" and with_mahjongg:
        return every - frozenset(with_mahjongg)
    return every


def end_facts(players: int, racks: int, mah_jonggs: Iterable[MahJonggFact],
              dead: Sequence[Collection[int]], *, wall_spent: bool,
              lowest_card_value: int = 25, penalties: Iterable[Penalty] = ()) -> GameFacts:
    """The facts that decide the score of a game from what happened in it: the valid
    Mah Jonggs (their ``wins`` is decided here), each seat's dead racks and whether the
    wall ran out. The Mah Jonggs of the turn in which a seat completed all its racks win
    (two or more of them are a Double Mah Jongg); the wall running out with no Mah Jongg
    exposed is a wall game; a two-player seat whose racks all died is out (sections 8-10).
    """
    declared = tuple(mah_jonggs)
    winner = winner_of(racks, declared)
    winning_turn = (max(m.turn for m in declared if m.seat == winner)
                    if winner is not None else None)
    decided = tuple(replace(m, wins=m.seat == winner and m.turn == winning_turn)
                    for m in declared)
    dead_racks = tuple(tuple(sorted(gone)) for gone in dead)
    return GameFacts(players=players, mah_jonggs=decided,
                     wall_game=wall_spent and not decided, dead=dead_racks, racks=racks,
                     both_dead=out_on_dead_racks(players, racks, dead_racks),
                     lowest_card_value=lowest_card_value, penalties=tuple(penalties))


@dataclass(frozen=True)
class ScoreLine:
    seat: int
    points: int
    reason: str
    rule: str = "10"

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.points:+d}  {self.reason}"


@dataclass(frozen=True)
class Score:
    """The itemized score of one game."""

    players: int
    lines: tuple[ScoreLine, ...] = field(default_factory=tuple)

    @property
    def totals(self) -> tuple[int, ...]:
        t = [0] * self.players
        for line in self.lines:
            t[line.seat] += line.points
        return tuple(t)

    def lines_of(self, seat: int) -> list[ScoreLine]:
        return [x for x in self.lines if x.seat == seat]


def hand_base(hand: CardLine, jokerless: bool, rules: ScoringRules) -> tuple[int, list[str]]:
    """Card value, doubled when jokerless unless Singles and Pairs (or, in Royale, a
    quint hand or a (*) hand, which takes +25 instead)."""
    base = hand.value
    notes: list[str] = []
    if jokerless and not hand.singles_and_pairs:
        if rules.royale and hand.star:
            notes.append("jokerless (*) hand: +25 instead of doubling")
        elif rules.royale and hand.quint:
            notes.append("jokerless quint hand: not doubled in Royale")
        else:
            base *= 2
            notes.append("jokerless x2")
    elif jokerless:
        notes.append("jokerless Singles and Pairs: not doubled")
    return base, notes


def star_bonus(hand: CardLine, jokerless: bool, rules: ScoringRules) -> int:
    """Royale: a jokerless (*) hand earns +25 in place of doubling."""
    return 25 if rules.royale and hand.star and jokerless and not hand.singles_and_pairs else 0


def hand_points(hand: CardLine, jokerless: bool, closed: bool, rules: ScoringRules) -> int:
    """What one Mah Jongg on this line scores before the game's winning multiplier: its
    base, the closed bonus and the Royale star bonus (section 10). The engine (to pick the
    line a declaration names), every bot, the hints and the score keeper ask this one
    function; :func:`score_game` itemizes the same three parts."""
    base, _notes = hand_base(hand, jokerless, rules)
    return base + (rules.closed_bonus if closed else 0) + star_bonus(hand, jokerless, rules)


def score_game(facts: GameFacts, rules: ScoringRules) -> Score:
    """The itemized score of a finished game (rules section 10)."""
    winning = [m for m in facts.mah_jonggs if m.wins]
    double = len(winning) >= 2
    lines: list[ScoreLine] = []
    for m in sorted(facts.mah_jonggs, key=lambda x: (x.turn, x.seat, x.rack)):
        lines += _hand_lines(m, double, rules)
    fed = [m for m in winning if m.discarder is not None][:1]  # one penalty per game
    for m in fed:
        assert m.discarder is not None
        what = "Double Mah Jongg" if double else "winning Mah Jongg"
        lines.append(ScoreLine(m.discarder, -rules.feed_penalty,
                               f"threw the tile claimed for an opponent's {what}", "10"))
    lines += _misnamed_lines(facts, winning, double, rules)
    if facts.both_dead is not None and facts.players == 2:
        lines.append(_both_dead_line(facts, facts.both_dead))
    if facts.wall_game:
        lines += _wall_game_lines(facts, rules)
    for p in facts.penalties:
        lines.append(ScoreLine(p.seat, p.points, p.reason, p.rule))
    return Score(facts.players, tuple(lines))


def _hand_lines(m: MahJonggFact, double: bool, rules: ScoringRules) -> list[ScoreLine]:
    """A Mah Jongg's lines: its base (doubled when it wins), the closed bonus, the star."""
    base, notes = hand_base(m.hand, m.jokerless, rules)
    if m.wins and double:
        points, kind = base * 2, "Double Mah Jongg hand x2"
    elif m.wins:
        points, kind = base * 2, "winning Mah Jongg x2"
    else:
        points, kind = base, "Mah Jongg"
    detail = "; ".join([f"card value {m.hand.value}", *notes])
    lines = [ScoreLine(m.seat, points,
                       f"{kind} on rack {m.rack + 1}: {m.hand.id} ({detail})", "10")]
    if m.closed and rules.closed_bonus:
        lines.append(ScoreLine(m.seat, rules.closed_bonus,
                               f"closed hand on rack {m.rack + 1}: {m.hand.id}", "10"))
    star = star_bonus(m.hand, m.jokerless, rules)
    if star:
        lines.append(ScoreLine(m.seat, star, f"jokerless (*) hand on rack {m.rack + 1}: "
                                             f"{m.hand.id}", "10"))
    return lines


def _misnamed_lines(facts: GameFacts, winning: list[MahJonggFact], double: bool,
                    rules: ScoringRules) -> list[ScoreLine]:
    """A mis-named discard claimed for Mah Jongg costs its thrower (real tiles only)."""
    lines: list[ScoreLine] = []
    for m in facts.mah_jonggs:
        if not (m.misnamed and m.discarder is not None):
            continue
        if rules.revision == "2019":
            lines.append(ScoreLine(m.discarder, -25,
                                   f"mis-named the tile claimed for {m.hand.id}", "10"))
        elif m.wins and double:
            values = [w.hand.value for w in winning]
            lines.append(ScoreLine(m.discarder, -sum(values),
                                   "mis-named the tile claimed for a Double Mah Jongg: minus "
                                   f"each hand's value ({' + '.join(map(str, values))})", "10"))
        else:
            lines.append(ScoreLine(m.discarder, -m.hand.value,
                                   f"mis-named the tile claimed for {m.hand.id}: minus its "
                                   "value", "10"))
    return lines


def _both_dead_line(facts: GameFacts, seat: int) -> ScoreLine:
    """Two players: all racks dead costs 4 x the opponent's Mah Jongg value, or 4 x the
    lowest value on the card (section 8)."""
    theirs = [m for m in facts.mah_jonggs if m.seat != seat]
    if theirs:
        value = theirs[0].hand.value
        why = f"4 x the opponent's Mah Jongg value {value}"
    else:
        value = facts.lowest_card_value
        why = f"4 x the lowest value on the card, {value}"
    return ScoreLine(seat, -4 * value, f"both racks dead: {why}", "8")


def _wall_game_lines(facts: GameFacts, rules: ScoringRules) -> list[ScoreLine]:
    """+10 each, withheld from a player with a dead rack (``wall_dead``: any or all)."""
    lines: list[ScoreLine] = []
    for seat in range(facts.players):
        dead = facts.dead[seat] if seat < len(facts.dead) else ()
        forfeits = bool(dead) if rules.wall_dead == "any" else len(dead) >= facts.racks
        if forfeits:
            lines.append(ScoreLine(seat, 0, "wall game: nothing for a player with a dead "
                                            "rack", "10"))
        else:
            lines.append(ScoreLine(seat, 10, "wall game", "10"))
    return lines


@dataclass(frozen=True)
class Settlement:
    """Who pays whom: ``transfers`` are (payer, payee, amount)."""

    transfers: tuple[tuple[int, int, Fraction], ...]
    payouts: tuple[Fraction, ...]  # net gain (+) or loss (-) of each player


def settle(totals: Sequence[int], pot_per_player: int | Fraction = 0) -> Settlement:
    """Settle scores: 2 players pay the difference; 3-4 players use a pot.

    Pot (3-4 players): each puts in ``pot_per_player``; a player with a minus total first
    pays that much into the pot; players with a plus total are paid their total from the
    pot; what is left is shared equally. Amounts are in points (a table converts them).
    """
    n = len(totals)
    if n == 2:
        a, b = totals
        if a == b:
            return Settlement((), (Fraction(0), Fraction(0)))
        payer, payee = (0, 1) if a < b else (1, 0)
        diff = Fraction(abs(a - b))
        pay = [Fraction(0), Fraction(0)]
        pay[payer] = -diff
        pay[payee] = diff
        return Settlement(((payer, payee, diff),), tuple(pay))
    pot = Fraction(pot_per_player) * n
    net = [-Fraction(pot_per_player)] * n
    for i, t in enumerate(totals):
        if t < 0:
            pot += -t
            net[i] -= -t
    for i, t in enumerate(totals):
        if t > 0:
            paid = min(Fraction(t), pot)
            pot -= paid
            net[i] += paid
    share = pot / n
    net = [x + share for x in net]
    return Settlement((), tuple(net))

