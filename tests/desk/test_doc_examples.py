"""Every example in docs/score-keeper.md is run, and must give what the document shows.

Conventions of the document (kept by this test):

- A fenced block right after a line ``<!-- file: NAME -->`` is written to the file NAME
  before the commands that follow it run. Every ``json`` block carries such a marker.
- A ``console`` block holds commands, each on a line starting with ``$ ``; the lines after
  a command, up to the next command or the end of the block, are what it prints (standard
  output, then standard error). An output that starts with ``twinrack: `` is a refusal:
  the command must exit with status 2; any other must exit 0.
- All blocks of the document run in order, in one folder, like a session at a terminal:
  a tournament file made in one section is used in the next.
- The clock is fixed (2026-11-30 04:01:49 UTC, one second more for each command), the
  console is 100 columns wide and the confirmation codes come from a seeded generator, so
  that the output is the same on every run.
- Fenced blocks without a language (``` alone) are usage synopses, not examples.

Run this file as a script (``.venv/bin/python tests/desk/test_doc_examples.py``) to print
what every command gives now, to update the document after a deliberate change.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import shlex
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

import twinrack.cli.desk
import twinrack.desk.tournament
from twinrack.cli import main
from twinrack.desk.tournament import CODE_ALPHABET, CODE_LENGTH

DOC = Path(__file__).resolve().parents[2] / "docs" / "score-keeper.md"
START = 1796011309.0  # 2026-11-30 04:01:49 UTC
FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!-- file: ([\w.-]+) -->\s*$")
CLOCK = [START]


@dataclass
class Step:
    line: int  # 1-based line of the document
    kind: str  # "file" or "command"
    text: str  # the file's content, or the command
    expected: str = ""  # a command's documented output
    name: str = ""  # a file's name


def steps(doc: str) -> list[Step]:
    """The document's examples, in order."""
    lines = doc.splitlines()
    out: list[Step] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        lang = m.group(1)
        start = i + 1
        j = start
        while not lines[j].startswith("```"):
            j += 1
        body = lines[start:j]
        marker = MARKER.match(lines[i - 1]) if i > 0 else None
        if lang == "json":
            assert marker, f"docs line {i + 1}: a json example needs <!-- file: NAME -->"
        if marker:
            out.append(Step(i + 1, "file", "\n".join(body) + "\n", name=marker.group(1)))
        elif lang == "console":
            for k, text in enumerate(body):
                if text.startswith("$ "):
                    expected: list[str] = []
                    for follow in body[k + 1:]:
                        if follow.startswith("$ "):
                            break
                        expected.append(follow)
                    while expected and not expected[-1].strip():
                        expected.pop()
                    out.append(Step(start + k + 1, "command", text[2:],
                                    "\n".join(expected)))
        i = j + 1
    return out


@contextlib.contextmanager
def fixed_world(folder: Path) -> Iterator[None]:
    """A fixed clock, time zone, console width and code generator; the folder as cwd."""
    CLOCK[0] = START
    rng = random.Random(2026)
    saved = (time.time, twinrack.cli.desk.out, twinrack.desk.tournament.new_code, Path.cwd())
    tz = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()

    def now() -> float:
        return CLOCK[0]

    def code() -> str:
        return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))

    time.time = now  # type: ignore[assignment]
    twinrack.cli.desk.out = Console(highlight=False, soft_wrap=True, width=100)
    twinrack.desk.tournament.new_code = code
    os.chdir(folder)
    try:
        yield
    finally:
        time.time, twinrack.cli.desk.out, twinrack.desk.tournament.new_code, cwd = saved
        os.chdir(cwd)
        if tz is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = tz
        time.tzset()


def run_command(command: str) -> tuple[int, str]:
    args = shlex.split(command)
    assert args[0] == "twinrack", command
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(args[1:])
    CLOCK[0] += 1
    text = out.getvalue().rstrip("\n")
    if err.getvalue():
        text = (text + "\n" if text else "") + err.getvalue().rstrip("\n")
    return rc, "\n".join(line.rstrip() for line in text.splitlines())


def run_document(folder: Path) -> list[tuple[Step, int, str]]:
    """Every step of the document: (step, exit status, output) for each command."""
    results: list[tuple[Step, int, str]] = []
    with fixed_world(folder):
        for step in steps(DOC.read_text(encoding="utf-8")):
            if step.kind == "file":
                (folder / step.name).write_text(step.text, encoding="utf-8")
                continue
            rc, got = run_command(step.text)
            results.append((step, rc, got))
    return results


def test_the_document_has_examples() -> None:
    found = steps(DOC.read_text(encoding="utf-8"))
    assert sum(1 for s in found if s.kind == "command") >= 30
    assert sum(1 for s in found if s.kind == "file") >= 8


def test_every_example_gives_what_the_document_shows(tmp_path: Path) -> None:
    for step, rc, got in run_document(tmp_path):
        where = f"docs/score-keeper.md line {step.line}: $ {step.text}"
        refusal = step.expected.startswith("twinrack: ")
        assert rc == (2 if refusal else 0), f"{where}\nexit {rc}\n{got}"
        assert got == step.expected, f"{where}\n--- documented\n{step.expected}\n--- got\n{got}"


def test_the_rules_the_document_points_at_exist() -> None:
    text = DOC.read_text(encoding="utf-8")
    for link in re.findall(r"\]\(([\w./-]+\.md)(?:#[\w-]+)?\)", text):
        assert (DOC.parent / link).exists(), link
    assert "RULES.md" not in text


def update_document() -> None:
    """Write what every command gives now into the document (after a deliberate change;
    read the difference before committing it)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        results = run_document(Path(tmp))
    lines = DOC.read_text(encoding="utf-8").splitlines()
    for step, _rc, got in reversed(results):
        first = step.line  # the line after the command
        last = first
        while not lines[last].startswith(("$ ", "```")):
            last += 1
        gap = [""] if lines[last].startswith("$ ") else []
        lines[first:last] = (got.splitlines() if got else []) + gap
    DOC.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update_document()
    else:
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            for step, rc, got in run_document(Path(tmp)):
                mark = "" if got == step.expected else "   <-- differs"
                sys.stdout.write(f"@@ {step.line} $ {step.text} [exit {rc}]{mark}\n{got}\n")
