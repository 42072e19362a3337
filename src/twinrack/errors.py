"""Typed errors with stable codes.

Every error the project raises on bad input carries a ``code`` that tests assert and that
programs may rely on, and a ``message`` written for people. User interfaces show the message;
nothing ever shows a traceback for bad input.
"""

from __future__ import annotations

from dataclasses import dataclass


class TwinRackError(Exception):
    """Base of every error raised for bad input or a refused action."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        # errors cross process boundaries (the server's worker pool): rebuild them from
        # their fields, whatever their constructor's signature
        return (_restore, (type(self), dict(self.__dict__)))


def _restore(cls: type[TwinRackError], fields: dict[str, object]) -> TwinRackError:
    err = cls.__new__(cls)
    Exception.__init__(err, fields.get("message", ""))
    err.__dict__.update(fields)
    return err


class NotationError(TwinRackError):
    """Text that does not parse: a tile, an exposure, an action."""

    def __init__(self, code: str, message: str, *, column: int | None = None) -> None:
        super().__init__(code, message)
        self.column = column


@dataclass(frozen=True)
class CardProblem:
    """One problem found in a card file, at a 1-based line and column."""

    file: str
    line: int
    column: int
    message: str
    source: str

    def render(self) -> str:
        caret = " " * (max(self.column, 1) - 1) + "^"
        return f"{self.file}:{self.line}:{self.column}: {self.message}\n{self.source}\n{caret}"


class CardError(TwinRackError):
    """A card file that does not load; holds every problem found, in file order."""

    def __init__(self, problems: list[CardProblem]) -> None:
        self.problems = problems
        first = problems[0] if problems else None
        super().__init__("bad_card", first.message if first else "bad card")

    def render(self) -> str:
        return "\n".join(p.render() for p in self.problems)

    def __str__(self) -> str:
        return self.render()


class IllegalActionError(TwinRackError):
    """An action that the rules do not allow now; ``rule`` names the section it enforces."""

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(code, message)
        self.rule = rule
