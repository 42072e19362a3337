"""Every example in the documents is run, and says what the program does.

Marker convention
=================

An example is marked by an HTML comment on a line of its own (invisible once rendered):

    <!-- doc-test: KIND ARG ARG ... -->

The ARGs are shell-like words; quote a value that holds spaces (``pattern="FF 222a 444a"``).
Most are ``key=value``. Several markers may stand on consecutive lines; each applies to what
follows the run:

- a fenced code block: the block's text is the example (the marker may be indented like a
  block inside a list item);
- anything else (a paragraph, a list, a table: the lines up to the next blank line): the
  check is spelled out in the marker, and what it quotes (a pattern, a fragment) must
  appear in that text, so that marker and prose cannot drift apart.

Every fenced block of a checked document carries a marker. A block that is not run says
why, with ``not-run reason="..."`` (a command that starts a server) or
``illustrative reason="..."`` (a shape with placeholders such as ``{ ... }``).

Kinds
-----

==================  ======================================================================
``tiles``           block: each line is tile notation (``count=N``: of N tiles)
``exposure``        ``text= tile= size= jokers=``: the exposure parses to that
``tile-table``      table: each short form reads back as itself, each spelling in the
                    third column as the short form of its row
``card``            block: a TOML card that loads (``name=`` keeps it for later blocks,
                    ``lines=N``, ``ids=A,B``, ``ways=ID:N,ID:N``)
``hands``           block: ``[[hand]]`` tables that load as a card (the same options)
``card-file``       block: a card file kept under ``name=`` (loaded or not)
``card-errors``     block: exactly what loading the card kept as ``file=`` reports
``ways``            block: the concrete ways of ``pattern=`` (``suits= x= y=``), in
                    TwinRack's order; ``...`` skips ways, a list without it is complete;
                    ``count=N`` ways, and the paragraph before says "N way(s)"
``pattern``         ``pattern=`` loads (``suits= x= y=``); ``ways=N``: N ways, and the text
                    says so; ``jokers=none``: a Singles and Pairs line
``pattern-error``   ``pattern=`` (``x= y= suits=``) does not load: its first problem is
                    ``message=``, with the caret under character ``at=`` of the pattern
``groups``          words ``FRAGMENT=SIZES``: the groups the fragment makes
``practice``        the practice card has a line with ``pattern=`` and the flags given
``messages``        table: each message of the first column is what a bad card gets
                    (inputs in MESSAGES below)
``shell``           block: each line runs (``twinrack`` is the installed command) in a
                    fresh folder holding ``files=NAME:practice`` or ``NAME:KEPT``; exit
                    status ``exit=N`` (0); ``stdout-has=TEXT``
``output``          block: exactly the standard output of the shell block before it
``synopsis``        block: each ``twinrack`` line names a real command with its real
                    options (all of them, unless the line ends with ``...``), and every
                    command is named
``usage``           block: as ``synopsis``, without naming every command
``layout``          block: every file and folder named exists
``json-lines``      block: each line is one JSON value
``json-spans``      text: each inline ``{...}`` of it is one JSON value
``keys``            table: every key the page's script ``source=`` handles is listed
``routes``          table: each ``METHOD /path`` of its first column is a route of the web
                    app (``GET``, ``POST``, ``WS``; ``{...}`` for a parameter, a query left
                    out); ``covers=PREFIX,...``: every route under those prefixes is listed,
                    but those under ``except=PREFIX,...``
``pictures``        text: every picture it shows or links to (``docs/images/NAME.png``) is
                    there, and tools/screenshots.py is what makes it
``not-run``         block: not run, for the ``reason=`` given
``illustrative``    block: a shape, not literal, for the ``reason=`` given
==================  ======================================================================

Other documents (docs/rules.md, docs/score-keeper.md) can use :func:`marked_blocks` and
:func:`fenced_blocks` and add their own kinds to CHECKS.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import typer

from twinrack.card import Card, parse_card, practice_card
from twinrack.card.exposure import Exposure
from twinrack.card.pattern import parse_pattern
from twinrack.cli import app
from twinrack.errors import CardError
from twinrack.tiles import CANONICAL, format_tiles, parse_tiles

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["docs/card-language.md", "README.md", "docs/protocol.md", "docs/architecture.md",
        "docs/bots.md"]
#: the installed command, beside the running interpreter or in the project's .venv
TWINRACK = next((p for p in (Path(sys.executable).parent / "twinrack",
                             ROOT / ".venv" / "bin" / "twinrack") if p.exists()),
                ROOT / ".venv" / "bin" / "twinrack")

MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)\s*$")
SPAN = re.compile(r"`([^`]+)`")


# ---------------------------------------------------------------------------- the harness


@dataclass
class Marked:
    """One marker and the example it applies to."""

    path: Path
    line: int  # of the marker, from 1
    kind: str
    words: list[str]  # the arguments as written
    args: dict[str, str]  # the key=value ones
    body: str  # the fenced block's text, or the text after the markers
    fenced: bool
    lang: str = ""
    before: str = ""  # the paragraph before the markers

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.kind}"


def _block(lines: list[str], i: int) -> tuple[str, str, int] | None:
    """The fenced block opening at line ``i``: its language, text and the line after it."""
    f = FENCE.match(lines[i])
    if f is None:
        return None
    indent, fence, lang = f.groups()
    body: list[str] = []
    j = i + 1
    while j < len(lines) and lines[j].strip() != fence:
        text = lines[j]
        body.append(text[len(indent):] if text.startswith(indent) else text.lstrip())
        j += 1
    return lang, "\n".join(body) + "\n", j + 1


def _paragraph(lines: list[str], start: int, step: int) -> str:
    """The lines from ``start`` up to a blank line (going forward or back)."""
    out: list[str] = []
    j = start
    while 0 <= j < len(lines) and lines[j].strip() and not MARKER.match(lines[j]):
        out.append(lines[j])
        j += step
    return "\n".join(out if step > 0 else reversed(out))


def marked_blocks(path: Path) -> Iterator[Marked]:
    """Every marked example of a markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if not MARKER.match(lines[i]):
            i += 1
            continue
        first = i
        run: list[tuple[int, str]] = []
        while i < len(lines) and (m := MARKER.match(lines[i])):
            run.append((i + 1, m.group(1)))
            i += 1
        before = _paragraph(lines, first - 1, -1)
        block = _block(lines, i) if i < len(lines) else None
        if block is not None:
            lang, body, i = block
        else:
            lang, body = "", _paragraph(lines, i, 1)
        for line, text in run:
            words = shlex.split(text)
            kind, rest = words[0], words[1:]
            args = dict(w.split("=", 1) for w in rest if "=" in w)
            yield Marked(path, line, kind, rest, args, body, block is not None, lang, before)


def fenced_blocks(path: Path) -> Iterator[tuple[int, bool]]:
    """Every fenced block of a markdown file: its first line and whether it is marked."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        block = _block(lines, i)
        if block is None:
            i += 1
            continue
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        yield i + 1, j >= 0 and MARKER.match(lines[j]) is not None and j == i - 1
        i = block[2]


@dataclass
class Context:
    """What the examples of one document share: kept card files, the last output."""

    tmp: Path
    files: dict[str, str] = field(default_factory=dict)
    stdout: str | None = None


Check = Callable[[Marked, Context], None]
CHECKS: dict[str, Check] = {}


def check(kind: str) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        CHECKS[kind] = fn
        return fn
    return register


def run_document(doc: str, tmp: Path) -> list[str]:
    """Run every marked example of ``doc``; the problems found, one line each."""
    ctx = Context(tmp)
    problems: list[str] = []
    for m in marked_blocks(ROOT / doc):
        fn = CHECKS.get(m.kind)
        try:
            if fn is None:
                raise AssertionError(f"unknown kind (known: {', '.join(sorted(CHECKS))})")
            fn(m, ctx)
        except AssertionError as err:
            problems.append(f"{m.where()}: {err}")
        except Exception as err:  # a broken example must name itself, not stop the others
            problems.append(f"{m.where()}: {type(err).__name__}: {err}")
    return problems


# ---------------------------------------------------------------------------- card helpers


def one_line_card(pattern: str, args: dict[str, str]) -> str:
    """A card of one line, section "S", with the options of the marker."""
    extra = ""
    if "suits" in args:
        extra += f'suits = "{args["suits"]}"\n'
    for key in ("x", "y"):
        if key in args:
            extra += f"{key} = [{args[key]}]\n"
    return f'name = "t"\n\n[[hand]]\nsection = "S"\npattern = "{pattern}"\nvalue = 25\n{extra}'


PATTERN_COLUMN = len('pattern = "')  # the pattern's first character is one after this


def spans(text: str) -> list[str]:
    """The inline code of a text (fenced blocks left out)."""
    return SPAN.findall(re.sub(r"^\s*(`{3,}|~{3,}).*?^\s*\1\s*$", "", text,
                               flags=re.M | re.S))


def says_ways(text: str, n: int) -> bool:
    return re.search(rf"(?<![\d.]){n} ways?\b", text) is not None


# ---------------------------------------------------------------------------- tiles


@check("tiles")
def _tiles(m: Marked, ctx: Context) -> None:
    for line in m.body.splitlines():
        if line.strip():
            tiles = parse_tiles(line)
            if "count" in m.args:
                assert len(tiles) == int(m.args["count"]), f"{len(tiles)} tiles in {line!r}"


@check("exposure")
def _exposure(m: Marked, ctx: Context) -> None:
    text = m.args["text"]
    assert f"`{text}`" in m.body, f"`{text}` is not in the text"
    x = Exposure.parse(text)
    assert (CANONICAL[x.tile], x.size, x.jokers) == (
        m.args["tile"], int(m.args["size"]), int(m.args["jokers"])), x


def table_rows(text: str) -> list[list[str]]:
    """The cells of a markdown table's rows (header and rule left out)."""
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.strip().startswith("|")]
    return [r for r in rows[1:] if not all(set(c) <= set("-: ") for c in r)]


@check("tile-table")
def _tile_table(m: Marked, ctx: Context) -> None:
    rows = table_rows(m.body)
    assert rows, "no table"
    for cells in rows:
        short, spellings = spans(cells[0]), spans(cells[2])
        for s in short:
            assert format_tiles(parse_tiles(s)) == s, f"{s} does not read back as itself"
        for k, s in enumerate(spellings):
            want = short[k] if len(spellings) == len(short) else short[0]
            assert format_tiles(parse_tiles(s)) == want, f"{s} reads as {parse_tiles(s)}"


# ---------------------------------------------------------------------------- cards


@check("card")
@check("hands")
def _card(m: Marked, ctx: Context) -> None:
    name = m.args.get("name", "card.toml")
    source = m.body if m.kind == "card" else f'name = "Example"\n\n{m.body}'
    card = parse_card(source, name)
    ctx.files[name] = source
    if "lines" in m.args:
        assert len(card.hands) == int(m.args["lines"]), f"{len(card.hands)} lines"
    if "ids" in m.args:
        assert [h.id for h in card.hands] == m.args["ids"].split(","), \
            [h.id for h in card.hands]
    for spec in filter(None, m.args.get("ways", "").split(",")):
        hand_id, n = spec.split(":")
        assert len(card.hand(hand_id).ways) == int(n), \
            f"{hand_id} has {len(card.hand(hand_id).ways)} ways"


@check("card-file")
def _card_file(m: Marked, ctx: Context) -> None:
    ctx.files[m.args["name"]] = m.body


@check("card-errors")
def _card_errors(m: Marked, ctx: Context) -> None:
    name = m.args["file"]
    with pytest.raises(CardError) as err:
        parse_card(ctx.files[name], name)
    got = err.value.render() + "\n"
    assert got == m.body, f"the card reports:\n{got}"


def _one_line(pattern: str, args: dict[str, str]) -> Card:
    return parse_card(one_line_card(pattern, args), "t.toml")


@check("ways")
def _ways(m: Marked, ctx: Context) -> None:
    pattern = m.args["pattern"]
    assert f"`{pattern}`" in m.before, f"`{pattern}` is not in the paragraph before"
    ways = [str(w) for w in _one_line(pattern, m.args).hands[0].ways]
    n = int(m.args["count"])
    assert len(ways) == n, f"{len(ways)} ways, not {n}"
    assert says_ways(m.before, n), f"the paragraph before does not say {n} way(s)"
    rows = [r.strip() for r in m.body.splitlines() if r.strip()]
    if "..." not in rows:
        assert rows == ways, "the ways are:\n" + "\n".join(ways)
        return
    at = 0
    for r in rows:
        if r == "...":
            continue
        assert r in ways[at:], f"{r!r} is not a way (after the rows above); ways:\n" + \
            "\n".join(ways)
        at = ways.index(r, at) + 1


@check("pattern")
def _pattern(m: Marked, ctx: Context) -> None:
    pattern = m.args["pattern"]
    assert f"`{pattern}`" in m.body, f"`{pattern}` is not in the text"
    hand = _one_line(pattern, m.args).hands[0]
    if "ways" in m.args:
        n = int(m.args["ways"])
        assert len(hand.ways) == n, f"{len(hand.ways)} ways, not {n}"
        assert says_ways(m.body, n), f"the text does not say {n} way(s)"
    if m.args.get("jokers") == "none":
        assert hand.singles_and_pairs, "the line has a group of 3 or more"


@check("pattern-error")
def _pattern_error(m: Marked, ctx: Context) -> None:
    pattern = m.args["pattern"]
    assert f"`{pattern}`" in m.body, f"`{pattern}` is not in the text"
    with pytest.raises(CardError) as err:
        _one_line(pattern, m.args)
    problem = err.value.problems[0]
    assert problem.message == m.args["message"], f"the message is {problem.message!r}"
    if "at" in m.args:
        at = problem.column - PATTERN_COLUMN
        assert at == int(m.args["at"]), f"the caret is under character {at}"


@check("groups")
def _groups(m: Marked, ctx: Context) -> None:
    for word in m.words:
        fragment, sizes = word.rsplit("=", 1)
        assert f"`{fragment}`" in m.body, f"`{fragment}` is not in the text"
        got = [g.size for g in parse_pattern(fragment).groups]
        assert got == [int(s) for s in sizes.split(",")], f"{fragment} makes groups {got}"


@check("practice")
def _practice(m: Marked, ctx: Context) -> None:
    found = practice_card().hands
    if "pattern" in m.args:
        assert f"`{m.args['pattern']}`" in m.body, f"`{m.args['pattern']}` is not in the text"
        found = tuple(h for h in found if h.pattern == m.args["pattern"])
    for flag in ("concealed", "star", "declared"):
        if flag in m.args:
            found = tuple(h for h in found if getattr(h, flag) == (m.args[flag] == "true"))
    assert found, "no such line on the practice card"


def _hand(**keys: object) -> str:
    """A [[hand]] table; a key given None is left out."""
    base: dict[str, object] = {"section": '"S"', "pattern": '"FF 2222a 4444a 6666a"',
                               "value": "25"}
    base.update(keys)
    return "\n[[hand]]\n" + "".join(f"{k} = {v}\n" for k, v in base.items() if v is not None)


HEAD = 'name = "c"\n'
#: each message of docs/card-language.md's tables: a card that gets it, and the words that
#: stand in for the table's placeholders
MESSAGES: dict[str, tuple[str, dict[str, str]]] = {
    "not valid TOML: ...": ('name = "x\n', {}),
    "unknown key 'K' (expected name, edition and [[hand]] tables)":
        (HEAD + "colour = 1\n" + _hand(), {"'K'": "'colour'"}),
    'a card needs a name: name = "My Card"': (_hand(), {}),
    'edition must be text, like "2026"': (HEAD + "edition = [1]\n" + _hand(), {}),
    "a card needs at least one [[hand]] table": (HEAD, {}),
    "each hand must be a [[hand]] table": (HEAD + "hand = [1]\n", {}),
    "unknown key 'K' (a hand has section, pattern, value, id, concealed, star, declared, "
    "suits, x, y, note)": (HEAD + _hand(colour='"red"'), {"'K'": "'colour'"}),
    'a hand needs a section: section = "2468"': (HEAD + _hand(section=None), {}),
    "a hand needs a value: value = 25": (HEAD + _hand(value=None), {}),
    "value must be a positive whole number": (HEAD + _hand(value="0"), {}),
    'a hand needs a pattern: pattern = "FF 2222a 4444a 6666a"':
        (HEAD + _hand(pattern=None), {}),
    "pattern must be text in quotes": (HEAD + _hand(pattern="5"), {}),
    "id must be non-empty text": (HEAD + _hand(id='""'), {}),
    "id 'I' is already used by hand N": (HEAD + _hand(id='"a"') + _hand(id='"a"'),
                                         {"'I'": "'a'", "hand N": "hand 1"}),
    "concealed must be true or false": (HEAD + _hand(concealed='"yes"'), {}),
    'suits must be "distinct" or "any"': (HEAD + _hand(suits='"same"'), {}),
    "x must be a list of numbers from 1 to 9, like [1, 2, 3]":
        (HEAD + _hand(pattern='"XXXX0a XXX1a XXXX2a XXX3a"', x="[0]"), {}),
    "x value V puts X+K outside 1..9":
        (HEAD + _hand(pattern='"XXXX0a XXX1a XXXX2a XXX3a"', x="[7]"),
         {"value V": "value 7", "X+K": "X+3"}),
    "note must be text": (HEAD + _hand(note="5"), {}),
    "2 needs a suit letter a, b or c": (HEAD + _hand(pattern='"FF 2222 4444a 6666a"'), {}),
    "D needs a suit letter a, b or c": (HEAD + _hand(pattern='"FF DDD 4444a 6666a"'), {}),
    "X needs a suit letter a, b or c": (HEAD + _hand(pattern='"FF XXXX0 4444a 6666a"'), {}),
    "X needs an offset digit 0 to 8 after it (XXX0 for X itself)":
        (HEAD + _hand(pattern='"FF XXXa 4444a 6666a"'), {}),
    "offset 9 is too big: use 0 to 8": (HEAD + _hand(pattern='"FF XXXX9a 4444a 6666a"'), {}),
    "unknown symbol 'Q'": (HEAD + _hand(pattern='"FF QQQQ 4444a 6666a"'), {}),
    "unknown symbol 'n' (symbols are capital letters: N)":
        (HEAD + _hand(pattern='"nn 2222a 4444a 6666a"'), {}),
    "unknown symbol 'a' (a suit letter goes only at the end of a token)":
        (HEAD + _hand(pattern='"FF 2222a+4444a 6666a"'), {}),
    "suit letter 'a' has no tiles before it": (HEAD + _hand(pattern='"FF 2222a a"'), {}),
    "pattern has 13 tiles, a hand needs 14": (HEAD + _hand(pattern='"FF 2222a 4444a 666a"'),
                                              {}),
    "no way to make this hand: its singles and pairs need more natural copies of a tile "
    "than one set holds (Jokers cannot stand in them)":
        (HEAD + _hand(pattern='"FF 11a 11a 11a 11a 11a 11b"'), {}),
}


@check("messages")
def _messages(m: Marked, ctx: Context) -> None:
    rows = table_rows(m.body)
    assert rows, "no table"
    for cells in rows:
        documented = spans(cells[0])[0]
        assert documented in MESSAGES, f"no input in MESSAGES gets {documented!r}"
        source, words = MESSAGES[documented]
        with pytest.raises(CardError) as err:
            parse_card(source, "c.toml")
        got = err.value.problems[0].message
        if documented.endswith("..."):
            assert got.startswith(documented[:-3]), got
            continue
        want = documented
        for placeholder, word in words.items():
            want = want.replace(placeholder, word)
        assert got == want, f"the card gets {got!r}, not {want!r}"


# ---------------------------------------------------------------------------- commands


def _files(m: Marked, ctx: Context, where: Path) -> None:
    for spec in filter(None, m.args.get("files", "").split(",")):
        name, source = spec.split(":", 1)
        text = practice_card().source if source == "practice" else ctx.files[source]
        (where / name).write_text(text, encoding="utf-8")


def _argv(words: list[str]) -> list[str]:
    program = {"twinrack": str(TWINRACK), ".venv/bin/twinrack": str(TWINRACK),
               ".venv/bin/python": sys.executable, "python": sys.executable}
    return [program.get(words[0], words[0]), *words[1:]]


@check("shell")
def _shell(m: Marked, ctx: Context) -> None:
    where = ctx.tmp / f"shell-{m.line}"
    where.mkdir()
    _files(m, ctx, where)
    want = int(m.args.get("exit", "0"))
    outputs: list[str] = []
    for line in m.body.splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        done = subprocess.run(_argv(words), cwd=where, capture_output=True, text=True,
                              timeout=300, check=False)
        assert "Traceback" not in done.stdout + done.stderr, done.stderr
        assert done.returncode == want, \
            f"{line!r} exits {done.returncode}, not {want}: {done.stderr.strip()}"
        outputs.append(done.stdout)
    ctx.stdout = "".join(outputs)
    if "stdout-has" in m.args:
        assert m.args["stdout-has"] in ctx.stdout, f"the output is:\n{ctx.stdout}"


@check("output")
def _output(m: Marked, ctx: Context) -> None:
    assert ctx.stdout is not None, "no shell block before"
    assert ctx.stdout == m.body, f"the command prints:\n{ctx.stdout}"


@check("not-run")
def _not_run(m: Marked, ctx: Context) -> None:
    assert m.args.get("reason", "").strip(), "say why it is not run: reason=\"...\""


@check("illustrative")
def _illustrative(m: Marked, ctx: Context) -> None:
    assert m.args.get("reason", "").strip(), "say why it is not literal: reason=\"...\""


@check("json-lines")
def _json_lines(m: Marked, ctx: Context) -> None:
    for line in m.body.splitlines():
        if line.strip():
            json.loads(line)


@check("json-spans")
def _json_spans(m: Marked, ctx: Context) -> None:
    found = [span for span in spans(m.body) if span.startswith("{")]
    assert found, "no JSON in the text"
    for span in found:
        json.loads(span)


# ---------------------------------------------------------------------------- synopsis


def _commands() -> dict[tuple[str, ...], Any]:
    """Every command and subcommand of ``twinrack`` (click objects), by its path."""
    out: dict[tuple[str, ...], Any] = {}

    def walk(cmd: Any, path: tuple[str, ...]) -> None:
        out[path] = cmd
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return out


def _options(cmd: Any) -> set[str]:
    return {o for p in cmd.params if p.param_type_name == "option" for o in p.opts} - {"--help"}


def synopsis_lines(text: str) -> list[str]:
    """The ``twinrack`` lines of a synopsis, continuation lines (indented) joined, comments
    dropped."""
    out: list[str] = []
    for line in text.splitlines():
        body = line.split("  #", 1)[0].rstrip()
        if not body.strip():
            continue
        if line[:1].isspace() and out:
            out[-1] += " " + body.strip()
        else:
            out.append(body.strip())
    return out


@check("usage")
def _usage(m: Marked, ctx: Context) -> None:
    _command_lines(m)


@check("synopsis")
def _synopsis(m: Marked, ctx: Context) -> None:
    covered = _command_lines(m)
    commands = _commands()
    leaves = {k for k, c in commands.items() if k and not hasattr(c, "commands")}
    assert leaves <= covered, f"not in the synopsis: {sorted(leaves - covered)}"


def _command_lines(m: Marked) -> set[tuple[str, ...]]:
    """Each ``twinrack`` line of the block names a real command with its real options (all
    of them, unless the line ends with ``...``); the commands named."""
    commands = _commands()
    covered: set[tuple[str, ...]] = set()
    for line in synopsis_lines(m.body):
        words = line.split()
        assert words[0] == "twinrack", f"{line!r} is not a twinrack command"
        path: list[str] = []
        for w in words[1:]:
            if not re.fullmatch(r"[a-z][a-z|-]*", w):
                break
            path.append(w)
        *group, last = path
        names = last.split("|")
        listed = set(re.findall(r"--[a-z][a-z0-9-]*", line))
        for name in names:
            key = (*group, name)
            assert key in commands, f"no command 'twinrack {' '.join(key)}'"
            covered.add(key)
            real = _options(commands[key])
            assert listed <= real or len(names) > 1, \
                f"'twinrack {' '.join(key)}' has no option {sorted(listed - real)}"
            if not line.endswith("...") and len(names) == 1:
                assert real <= listed, \
                    f"'twinrack {' '.join(key)}' also has {sorted(real - listed)}"
    return covered


@check("layout")
def _layout(m: Marked, ctx: Context) -> None:
    top: Path | None = None
    entry: Path | None = None
    for line in m.body.splitlines():
        if not line.strip():
            continue
        head, _, words = line.partition("  ")
        if not line[:1].isspace():  # a top folder
            top = ROOT / head.strip()
            entry = top
            assert top.exists(), f"{head.strip()} does not exist"
        elif head.strip():
            assert top is not None
            names = [n.strip() for n in head.strip().split(",")]
            for n in names:
                assert list(top.glob(n.rstrip("/"))), f"{top.relative_to(ROOT)}/{n} missing"
            entry = top / names[0].rstrip("/")
        base = entry if entry is not None and entry.is_dir() else top
        assert base is not None
        for name in re.findall(r"\b[\w*]+\.(?:py|toml)\b", words):
            assert list(base.glob(name)) or list(base.rglob(name)), \
                f"{name} is not in {base.relative_to(ROOT)}"


# ---------------------------------------------------------------------------- keys


KEY_NAMES = {"ArrowLeft": "←", "ArrowRight": "→", "ArrowUp": "↑", "ArrowDown": "↓",
             "Escape": "Esc", " ": "Space", "PageUp": "Page Up", "PageDown": "Page Down",
             "Home": "Home", "End": "End", "Tab": "Tab", "?": "?", "Enter": "Enter"}


def script_keys(source: Path) -> set[str]:
    """The keys a page's script handles (``e.key === "d"`` and the like), as the
    documentation names them: letters in capitals, arrows as arrows."""
    text = source.read_text(encoding="utf-8")
    found = set(re.findall(r"""\b(?:e\.key|k)\s*===\s*"([^"]+)\"""", text))
    return {KEY_NAMES.get(k, k.upper()) for k in found}


@check("keys")
def _keys(m: Marked, ctx: Context) -> None:
    documented: set[str] = set()
    for cells in table_rows(m.body):
        for span in spans(cells[0]) + re.findall(r"<kbd>([^<]+)</kbd>", cells[0]):
            documented.update(k.strip() for k in re.split(r"\s*/\s*|\s+or\s+", span))
    handled = script_keys(ROOT / m.args["source"])
    assert handled, f"no key found in {m.args['source']}"
    assert handled <= documented, f"keys not listed: {sorted(handled - documented)}"


# ---------------------------------------------------------------------------- pages

# the kinds about the web pages (routes, pictures) are in a module of their own
import tests.doc_pages  # noqa: E402, F401  (registers its kinds in CHECKS)

# ---------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("doc", DOCS)
def test_every_marked_example_runs(doc: str, tmp_path: Path) -> None:
    problems = run_document(doc, tmp_path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("doc", DOCS)
def test_every_fenced_block_is_marked(doc: str) -> None:
    unmarked = [line for line, marked in fenced_blocks(ROOT / doc) if not marked]
    assert not unmarked, f"{doc}: fenced blocks without a doc-test marker at lines {unmarked}"


def test_every_card_line_in_the_card_guide_is_checked() -> None:
    """A whole line of a card quoted in the guide (10 tiles or more) is the pattern of a
    marker: it loads (or fails) as the guide says."""
    path = ROOT / "docs/card-language.md"
    checked = {m.args.get("pattern") for m in marked_blocks(path)}
    text = path.read_text(encoding="utf-8")
    unchecked = []
    for span in sorted(set(spans(text))):
        try:
            size = parse_pattern(span).size
        except Exception:
            continue
        if size >= 10 and len(span.split()) >= 2 and span not in checked:
            unchecked.append(span)
    assert not unchecked, f"card lines with no marker: {unchecked}"


def test_the_harness_reads_markers_blocks_and_paragraphs(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text('Intro with `FF 2222a`.\n<!-- doc-test: ways pattern="x y" count=2 -->\n'
                   "  ```\n  1B\n  ...\n  ```\n\n"
                   "<!-- doc-test: pattern pattern=P ways=1 -->\n"
                   "<!-- doc-test: not-run reason=\"a reason\" -->\nSome `P` text,\n"
                   "on two lines.\n\nAfter.\n```sh\nrun me\n```\n", encoding="utf-8")
    found = list(marked_blocks(doc))
    assert [(m.kind, m.args, m.fenced) for m in found] == [
        ("ways", {"pattern": "x y", "count": "2"}, True),
        ("pattern", {"pattern": "P", "ways": "1"}, False),
        ("not-run", {"reason": "a reason"}, False)]
    assert found[0].body == "1B\n...\n" and found[0].before == "Intro with `FF 2222a`."
    assert found[1].body == found[2].body == "Some `P` text,\non two lines."
    assert list(fenced_blocks(doc)) == [(3, True), (14, False)]
