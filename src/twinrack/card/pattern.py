"""The pattern language of a card line, and its expansion into concrete ways.

A pattern is a list of tokens; each token is a run of tile symbols with an optional final
suit letter (``a``, ``b`` or ``c``). Each maximal run of one symbol inside a token is one
group. See docs/card-language.md for the player's description.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from twinrack.card.model import Group, Way
from twinrack.tiles import FLOWER, INDEX, ONE_SET, SUIT_DRAGON, SUITS, suited

DECORATION = frozenset({"+", "=", "-", "x", "*"})
SUIT_LETTERS = "abc"
HONOURS = {"R": INDEX["R"], "G": INDEX["G"], "0": INDEX["0"], "N": INDEX["N"],
           "E": INDEX["E"], "W": INDEX["W"], "S": INDEX["S"], "F": FLOWER}


class PatternError(Exception):
    """A problem in a pattern at a 0-based column of the pattern text."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


@dataclass(frozen=True)
class Symbol:
    """A tile symbol before suits and variables are chosen.

    kind: ``"num"`` (number), ``"var"`` (X or Y plus offset), ``"dragon"`` (D: the suit's
    dragon) or ``"tile"`` (a fixed tile). ``suit`` is the token's suit letter or "".
    """

    kind: str
    value: int  # the number, the offset, or the fixed tile index
    var: str = ""  # "X" or "Y"
    suit: str = ""

    def tile(self, suits: dict[str, str], xy: dict[str, int]) -> int:
        if self.kind == "tile":
            return self.value
        suit = suits[self.suit]
        if self.kind == "dragon":
            return INDEX[SUIT_DRAGON[suit]]
        number = self.value if self.kind == "num" else xy[self.var] + self.value
        return suited(number, suit)


@dataclass(frozen=True)
class PatternGroup:
    symbol: Symbol
    size: int
    column: int  # 0-based column of the group's first symbol in the pattern


@dataclass(frozen=True)
class Pattern:
    groups: tuple[PatternGroup, ...]

    @property
    def size(self) -> int:
        return sum(g.size for g in self.groups)

    @property
    def suit_letters(self) -> list[str]:
        return sorted({g.symbol.suit for g in self.groups if g.symbol.kind != "tile"})

    def offsets(self, var: str) -> list[int]:
        return sorted({g.symbol.value for g in self.groups if g.symbol.var == var})


def _tokens(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    col = 0
    for token in text.split():
        col = text.index(token, col)
        out.append((col, token))
        col += len(token)
    return out


def parse_pattern(text: str) -> Pattern:
    """Parse a pattern into groups of symbols; raises :class:`PatternError`."""
    groups: list[PatternGroup] = []
    for col, token in _tokens(text):
        if token in DECORATION:
            continue
        suit = ""
        body = token
        if token[-1] in SUIT_LETTERS:
            suit = token[-1]
            body = token[:-1]
            if not body:
                raise PatternError(col, f"suit letter '{suit}' has no tiles before it")
        symbols: list[tuple[int, Symbol, int]] = []  # (column, symbol, count)
        i = 0
        while i < len(body):
            ch = body[i]
            at = col + i
            if ch in "XY":
                j = i
                while j < len(body) and body[j] == ch:
                    j += 1
                if j >= len(body) or not body[j].isdigit():
                    raise PatternError(at, f"{ch} needs an offset digit 0 to 8 after it "
                                           f"({ch * (j - i)}0 for {ch} itself)")
                offset = int(body[j])
                if offset > 8:
                    raise PatternError(col + j, f"offset {offset} is too big: use 0 to 8")
                if not suit:
                    raise PatternError(at, f"{ch} needs a suit letter a, b or c")
                symbols.append((at, Symbol("var", offset, var=ch, suit=suit), j - i))
                i = j + 1
                continue
            if ch in "123456789":
                if not suit:
                    raise PatternError(at, f"{ch} needs a suit letter a, b or c")
                sym = Symbol("num", int(ch), suit=suit)
            elif ch == "D":
                if not suit:
                    raise PatternError(at, "D needs a suit letter a, b or c")
                sym = Symbol("dragon", 0, suit=suit)
            elif ch in HONOURS:
                sym = Symbol("tile", HONOURS[ch])
            else:
                hint = ""
                if ch.upper() in HONOURS or ch.upper() in "XYD":
                    hint = f" (symbols are capital letters: {ch.upper()})"
                elif ch in SUIT_LETTERS:
                    hint = " (a suit letter goes only at the end of a token)"
                raise PatternError(at, f"unknown symbol '{ch}'{hint}")
            if symbols and symbols[-1][1] == sym and body[i - 1] == ch:
                c0, s0, n0 = symbols[-1]
                symbols[-1] = (c0, s0, n0 + 1)
            else:
                symbols.append((at, sym, 1))
            i += 1
        for at, sym, count in symbols:
            groups.append(PatternGroup(sym, count, at))
    return Pattern(tuple(groups))


def _xy_values(pattern: Pattern, var: str, allowed: tuple[int, ...] | None) -> list[int]:
    offsets = pattern.offsets(var)
    if not offsets:
        return []
    candidates = allowed if allowed is not None else tuple(range(1, 10))
    return [v for v in candidates if all(1 <= v + k <= 9 for k in offsets)]


def expand(
    pattern: Pattern,
    *,
    suits: str = "distinct",
    x: tuple[int, ...] | None = None,
    y: tuple[int, ...] | None = None,
) -> tuple[list[Way], int]:
    """Every concrete way of making a pattern, without duplicates, in a stable order.

    Returns the ways and how many candidate ways were dropped because their singles and
    pairs need more natural copies of a tile than a set holds.
    """
    letters = pattern.suit_letters
    if suits == "any":
        assignments = list(itertools.product(SUITS, repeat=len(letters)))
    else:
        assignments = list(itertools.permutations(SUITS, len(letters)))
    xs = _xy_values(pattern, "X", x) or [0]
    ys = _xy_values(pattern, "Y", y) or [0]
    uses_x = bool(pattern.offsets("X"))
    uses_y = bool(pattern.offsets("Y"))
    seen: set[tuple[Group, ...]] = set()
    ways: list[Way] = []
    dropped = 0
    for xv in xs:
        for yv in ys:
            if uses_x and uses_y and xv == yv:
                continue
            xy = {"X": xv, "Y": yv}
            for assignment in assignments:
                suit_map = dict(zip(letters, assignment, strict=True))
                groups = tuple(sorted(
                    Group(g.symbol.tile(suit_map, xy), g.size) for g in pattern.groups))
                if groups in seen:
                    continue
                seen.add(groups)
                naturals: dict[int, int] = {}
                for grp in groups:
                    if grp.size < 3:
                        naturals[grp.tile] = naturals.get(grp.tile, 0) + grp.size
                if any(n > ONE_SET[t] for t, n in naturals.items()):
                    dropped += 1
                    continue
                ways.append(Way(groups))
    return ways, dropped


def check_xy(pattern: Pattern, var: str, allowed: tuple[int, ...]) -> str | None:
    """A message when an allowed value of X or Y puts a tile outside 1..9, else None."""
    for v in allowed:
        for k in pattern.offsets(var):
            if not 1 <= v + k <= 9:
                return f"{var.lower()} value {v} puts {var}+{k} outside 1..9"
    return None
