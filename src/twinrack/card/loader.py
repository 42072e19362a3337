"""Loading a card from its TOML file, with every problem reported at its line and column."""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from twinrack.card.model import Card, Hand, Way
from twinrack.card.pattern import PatternError, check_xy, expand, parse_pattern
from twinrack.errors import CardError, CardProblem, TwinRackError

HAND_KEYS = {"section", "pattern", "value", "id", "concealed", "star", "declared", "suits",
             "x", "y", "note"}
TOP_KEYS = {"name", "edition", "hand"}
HAND_SIZE = 14

# The budget of a card (docs/card-language.md, "How big a card may be"): what the loader
# accepts, so that no card can make the program slow. Real cards are far below it.
MAX_CARD_CHARS = 200_000
MAX_NESTING = 32  # arrays and inline tables inside one another
MAX_HANDS = 300
MAX_WAYS_PER_LINE = 1_000
MAX_WAYS_PER_CARD = 3_000
MAX_VALUE = 1_000

_HEADER = re.compile(r"^\s*\[\[\s*hand\s*\]\]")
_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+|\"[^\"]*\")?")
_NAME = r"(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')"
_KEY = re.compile(rf"^\s*({_NAME})\s*(?:\.\s*{_NAME}\s*)*=\s*")  # a key, maybe dotted
_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END = re.compile(r"\s*\(at end of document\)\s*$")


@dataclass
class _Spot:
    line: int  # 1-based
    column: int  # 1-based column where the value starts


class _Locator:
    """Finds where keys sit in the source text so problems point at the right place."""

    def __init__(self, source: str) -> None:
        # lines as TOML counts them: split at "\n" only
        self.lines = [t[:-1] if t.endswith("\r") else t for t in source.split("\n")]
        self.headers: list[int] = []
        self.tables: dict[str, _Spot] = {}  # other top-level [tables], by name
        self.keys: dict[tuple[int, str], _Spot] = {}
        current = -1
        for n, text in enumerate(self.lines, start=1):
            if _HEADER.match(text):
                current = len(self.headers)
                self.headers.append(n)
                continue
            table = _TABLE.match(text)
            if table:
                current = -2  # some other table: not ours
                if table.group(1):
                    self.tables.setdefault(table.group(1).strip('"'), _Spot(n, 1))
                continue
            m = _KEY.match(text)
            if m and current != -2:
                key = m.group(1).strip("\"'")
                self.keys.setdefault((current, key), _Spot(n, m.end() + 1))

    def value(self, hand: int, key: str) -> _Spot:
        spot = self.keys.get((hand, key))
        if spot is not None:
            return spot
        if hand == -1 and key in self.tables:
            return self.tables[key]
        return self.header(hand)

    def header(self, hand: int) -> _Spot:
        if 0 <= hand < len(self.headers):
            return _Spot(self.headers[hand], 1)
        # hands written inline (hand = [{...}]) or not tables at all: the `hand` key
        return self.keys.get((-1, "hand"), _Spot(1, 1))

    def end(self) -> _Spot:
        """Just after the last character of the document."""
        line = len(self.lines)
        while line > 1 and not self.lines[line - 1].strip():
            line -= 1
        return _Spot(line, len(self.source_line(line)) + 1)

    def pattern_column(self, hand: int, offset: int, pattern: str) -> _Spot:
        """The spot of a character of a pattern string (offset 0-based inside the string)."""
        spot = self.keys.get((hand, "pattern"))
        if spot is None or hand >= len(self.headers):
            found = self._find(pattern)
            if found is None:
                return self.header(hand)
            spot = found
        line = spot.line
        text = self.source_line(line)
        start = spot.column - 1
        if start >= len(text) or text[start] not in "\"'":
            return spot
        quote = text[start]
        start += 3 if text[start:start + 3] == quote * 3 else 1
        if start == len(text) and line < len(self.lines):  # """ then a new line
            line, text, start = line + 1, self.source_line(line + 1), 0
        if quote == "'":  # literal strings have no escapes
            return _Spot(line, start + offset + 1)
        i = start
        for _ in range(offset):  # walk the escapes of a basic string: \t, \u0046, ...
            if i < len(text) and text[i] == "\\":
                i += {"u": 6, "U": 10}.get(text[i + 1:i + 2], 2)
            else:
                i += 1
        return _Spot(line, i + 1)

    def _find(self, pattern: str) -> _Spot | None:
        """Where a pattern is written, when it is not under a [[hand]] header."""
        for n, text in enumerate(self.lines, start=1):
            for quote in ('"', "'"):
                at = text.find(quote + pattern + quote)
                if at >= 0 and pattern:
                    return _Spot(n, at + 1)
        return None

    def source_line(self, line: int) -> str:
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else ""


class _Problems:
    def __init__(self, file: str, locator: _Locator) -> None:
        self.file = file
        self.locator = locator
        self.items: list[CardProblem] = []

    def add(self, spot: _Spot, message: str) -> None:
        self.items.append(CardProblem(self.file, spot.line, spot.column, message,
                                      self.locator.source_line(spot.line)))


def _bool(hand: dict[str, Any], key: str, i: int, problems: _Problems) -> bool:
    v = hand.get(key, False)
    if not isinstance(v, bool):
        problems.add(problems.locator.value(i, key), f"{key} must be true or false")
        return False
    return v


def _values(hand: dict[str, Any], key: str, i: int, problems: _Problems) -> tuple[int, ...] | None:
    if key not in hand:
        return None
    v = hand[key]
    if (not isinstance(v, list) or not v
            or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 9 for n in v)):
        problems.add(problems.locator.value(i, key),
                     f"{key} must be a list of numbers from 1 to 9, like [1, 2, 3]")
        return None
    return tuple(v)


def parse_card(source: str, file: str = "<card>") -> Card:
    """Build a card from TOML text; raises :class:`CardError` listing every problem."""
    doc, problems = _read(source, file)
    name, edition, raw_hands = _top(doc, problems)
    hands = _hands(raw_hands, problems)
    if problems.items:
        # in file order (a hand's keys are checked in a fixed order, not as written)
        raise CardError(sorted(problems.items, key=lambda p: (p.line, p.column)))
    return Card(name=name, edition=edition, hands=tuple(hands),
                sha256=hashlib.sha256(source.encode()).hexdigest(), source=source, path=file)


def _read(source: str, file: str) -> tuple[dict[str, Any], _Problems]:
    """The TOML document of a card within its budget, or :class:`CardError` at once."""
    if len(source) > MAX_CARD_CHARS:
        raise CardError([CardProblem(file, 1, 1, f"the card is {len(source):,} characters "
                                     f"long; a card may have at most {MAX_CARD_CHARS:,}", "")])
    locator = _Locator(source)
    problems = _Problems(file, locator)
    deep = _too_deep(source)
    if deep is not None:
        problems.add(deep, f"not valid here: arrays or tables nested more than {MAX_NESTING} "
                           "deep")
        raise CardError(problems.items)
    try:
        return tomllib.loads(source), problems
    except tomllib.TOMLDecodeError as err:
        text = str(err)
        m = _TOML_POS.search(text)
        spot = _Spot(int(m.group(1)), int(m.group(2))) if m else (
            locator.end() if _TOML_END.search(text) else _Spot(1, 1))
        message = _TOML_END.sub("", _TOML_POS.sub("", text))
        message = message[0].lower() + message[1:] if message else "malformed TOML"
        problems.add(spot, f"not valid TOML: {message}")
        raise CardError(problems.items) from None


def _top(doc: dict[str, Any], problems: _Problems) -> tuple[str, str, list[Any]]:
    """The card's name, edition and raw hand tables."""
    locator = problems.locator
    for key in doc:
        if key not in TOP_KEYS:
            problems.add(locator.value(-1, key), f"unknown key '{key}' (expected name, edition "
                                                 "and [[hand]] tables)")
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.add(locator.value(-1, "name") if "name" in doc else _Spot(1, 1),
                     "a card needs a name: name = \"My Card\"")
        name = ""
    edition = doc.get("edition", "")
    if not isinstance(edition, str | int):
        problems.add(locator.value(-1, "edition"), "edition must be text, like \"2026\"")
        edition = ""
    raw_hands = doc.get("hand")
    if not isinstance(raw_hands, list) or not raw_hands:
        problems.add(locator.value(-1, "hand") if "hand" in doc else locator.end(),
                     "a card needs at least one [[hand]] table")
        raw_hands = []
    if len(raw_hands) > MAX_HANDS:
        problems.add(locator.header(MAX_HANDS), f"the card has {len(raw_hands)} hands; a card "
                                                f"may have at most {MAX_HANDS}")
        raise CardError(problems.items)
    return str(name), str(edition), raw_hands


def _hands(raw_hands: list[Any], problems: _Problems) -> list[Hand]:
    """Every hand that loads, within the card's budget of ways."""
    hands: list[Hand] = []
    per_section: dict[str, int] = {}
    ids: dict[str, int] = {}
    total_ways = 0
    for i, raw in enumerate(raw_hands):
        if not isinstance(raw, dict):
            problems.add(problems.locator.header(i), "each hand must be a [[hand]] table")
            continue
        before = len(problems.items)
        fields = _hand_fields(raw, i, problems, per_section, ids)
        ways = _hand_ways(raw, i, fields, problems, before)
        if ways is None:
            continue
        total_ways += len(ways)
        if total_ways > MAX_WAYS_PER_CARD:
            problems.add(problems.locator.pattern_column(i, 0, fields["pattern"]),
                         f"with this line the card makes {total_ways:,} ways; a card "
                         f"may make at most {MAX_WAYS_PER_CARD:,}")
            break
        hands.append(Hand(ways=tuple(ways), number=len(hands), **fields))
    return hands


def _hand_fields(raw: dict[str, Any], i: int, problems: _Problems,
                 per_section: dict[str, int], ids: dict[str, int]) -> dict[str, Any]:
    """The fields of hand ``i`` but its pattern's ways (problems are noted, and a bad field
    gets its default so that the other checks go on)."""
    locator = problems.locator
    for key in raw:
        if key not in HAND_KEYS:
            problems.add(locator.value(i, key),
                         f"unknown key '{key}' (a hand has section, pattern, value, id, "
                         "concealed, star, declared, suits, x, y, note)")
    section = raw.get("section")
    if not isinstance(section, str) or not section.strip():
        problems.add(locator.value(i, "section") if "section" in raw else locator.header(i),
                     "a hand needs a section: section = \"2468\"")
        section = ""
    per_section[section] = per_section.get(section, 0) + 1
    value = raw.get("value")
    if "value" not in raw:
        problems.add(locator.header(i), "a hand needs a value: value = 25")
    elif not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        problems.add(locator.value(i, "value"), "value must be a positive whole number")
    elif value > MAX_VALUE:
        problems.add(locator.value(i, "value"), f"value must be at most {MAX_VALUE:,}")
    hand_id = raw.get("id", f"{section}-{per_section[section]}")
    if not isinstance(hand_id, str) or not hand_id.strip():
        problems.add(locator.value(i, "id"), "id must be non-empty text")
        hand_id = f"{section}-{per_section[section]}"
    elif hand_id in ids:
        problems.add(locator.value(i, "id") if "id" in raw else locator.header(i),
                     f"id '{hand_id}' is already used by hand {ids[hand_id] + 1}")
    ids.setdefault(hand_id, i)
    flags = {key: _bool(raw, key, i, problems) for key in ("concealed", "star", "declared")}
    suits = raw.get("suits", "distinct")
    if suits not in ("distinct", "any"):
        problems.add(locator.value(i, "suits"), "suits must be \"distinct\" or \"any\"")
        suits = "distinct"
    x = _values(raw, "x", i, problems)
    y = _values(raw, "y", i, problems)
    note = raw.get("note", "")
    if not isinstance(note, str):
        problems.add(locator.value(i, "note"), "note must be text")
        note = ""
    return {"id": hand_id, "section": section, "pattern": raw.get("pattern"), "value": value,
            **flags, "suits": suits, "note": note, "x": x, "y": y}


def _hand_ways(raw: dict[str, Any], i: int, fields: dict[str, Any], problems: _Problems,
               before: int) -> list[Way] | None:
    """The concrete ways of hand ``i``'s pattern, or None when the hand does not load
    (its pattern is bad, or the hand had problems after the first ``before``)."""
    locator = problems.locator
    pattern_text = fields["pattern"]
    if not isinstance(pattern_text, str):
        problems.add(locator.value(i, "pattern") if "pattern" in raw else locator.header(i),
                     "a hand needs a pattern: pattern = \"FF 2222a 4444a 6666a\""
                     if "pattern" not in raw else "pattern must be text in quotes")
        return None
    try:
        pattern = parse_pattern(pattern_text)
    except PatternError as err:
        problems.add(locator.pattern_column(i, err.column, pattern_text), err.message)
        return None
    if pattern.size != HAND_SIZE:
        first = pattern.groups[0].column if pattern.groups else 0
        problems.add(locator.pattern_column(i, first, pattern_text),
                     f"pattern has {pattern.size} tiles, a hand needs {HAND_SIZE}")
        return None
    for var, allowed in (("X", fields["x"]), ("Y", fields["y"])):
        if allowed is not None:
            msg = check_xy(pattern, var, allowed)
            if msg:
                problems.add(locator.value(i, var.lower()), msg)
    if len(problems.items) > before:
        return None
    ways, _dropped = expand(pattern, suits=fields["suits"], x=fields["x"], y=fields["y"])
    where = locator.pattern_column(i, 0, pattern_text)
    if not ways:
        problems.add(where, "no way to make this hand: its singles and pairs need more "
                            "natural copies of a tile than one set holds (Jokers cannot "
                            "stand in them)")
        return None
    if len(ways) > MAX_WAYS_PER_LINE:
        problems.add(where, f"this line makes {len(ways):,} ways; a line may make at most "
                            f"{MAX_WAYS_PER_LINE:,} (narrow X and Y with the x and y keys, "
                            "or use suits = \"distinct\")")
        return None
    return ways


def _too_deep(source: str) -> _Spot | None:
    """Where arrays or inline tables first nest deeper than :data:`MAX_NESTING` (strings and
    comments skipped), or ``None``. Checked before parsing: a parser recursing into
    thousands of brackets would fail without saying where."""
    depth, line, col, i, n = 0, 1, 1, 0, len(source)
    while i < n:
        ch = source[i]
        if ch in "\"'":
            quote = source[i:i + 3] if source[i:i + 3] in ('"""', "'''") else ch
            end = i + len(quote)
            while end < n and not source.startswith(quote, end):
                end += 2 if source[end] == "\\" and quote[0] == '"' else 1
            end = min(n, end + len(quote))
        elif ch == "#":
            end = source.find("\n", i)
            end = n if end < 0 else end
        else:
            end = i + 1
            if ch in "[{":
                depth += 1
                if depth > MAX_NESTING:
                    return _Spot(line, col)
            elif ch in "]}":
                depth = max(0, depth - 1)
        for c in source[i:end]:
            line, col = (line + 1, 1) if c == "\n" else (line, col + 1)
        i = end
    return None


def load_card(path: str | Path | None = None) -> Card:
    """Load a card file; ``None`` loads the bundled practice card."""
    if path is None:
        ref = resources.files("twinrack.cards").joinpath("practice.toml")
        return parse_card(ref.read_text(encoding="utf-8"), "practice.toml")
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as err:
        reason = err.strerror or str(err)
        raise TwinRackError("card_unreadable", f"cannot read card {path}: {reason}") from None
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TwinRackError("card_unreadable",
                            f"cannot read card {path}: it is not UTF-8 text") from None
    return parse_card(source, str(path))


@functools.cache
def practice_card() -> Card:
    """The bundled practice card, loaded once (a Card is immutable, so it is shared)."""
    return load_card(None)
