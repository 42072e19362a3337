"""A compiled card asked on both of its paths at once: the compiled kernel
(card/kernel.py) and the numpy code. Every answer (or error) must be the same on both;
the tests then check that one answer against the oracle, so both paths are checked
against it on the same holdings at the cost of one oracle run."""

from __future__ import annotations

from typing import Any

import numpy as np

from twinrack.card import kernel
from twinrack.card.compiled import CompiledCard, HandAway, Match, PairPlan
from twinrack.card.tracker import AwayTracker


def _key(x: Any) -> Any:
    """What must be equal on both paths: values, and which way (by identity) a result
    names."""
    if isinstance(x, np.ndarray):
        return ("array", x.dtype.str, x.tolist())
    if isinstance(x, PairPlan):
        return ("pair", x.hands, id(x.ways[0]), id(x.ways[1]), x.away)
    if isinstance(x, (HandAway, Match)):
        return (type(x).__name__, x, id(x.way))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_key(y) for y in x])
    return x


def _call(fn: Any, args: tuple[Any, ...], kw: dict[str, Any]) -> tuple[bool, Any]:
    try:
        return True, fn(*args, **kw)
    except Exception as err:  # compared with the other path's
        return False, err


class Both:
    """A compiled card (or its tracker) on the kernel and on the numpy path; attributes
    are read from the kernel's side, methods run on both and must agree."""

    def __init__(self, fast: Any, plain: Any) -> None:
        self._fast = fast
        self._plain = plain

    @classmethod
    def of(cls, cc: CompiledCard) -> Both:
        fast = cc.with_kernel(True) if kernel.AVAILABLE else cc.with_kernel(False)
        return cls(fast, cc.with_kernel(False))

    @property
    def paths(self) -> tuple[Any, Any]:
        return self._fast, self._plain

    def __getattr__(self, name: str) -> Any:
        fast = getattr(self._fast, name)
        plain = getattr(self._plain, name)
        if isinstance(fast, (CompiledCard, AwayTracker)):
            return Both(fast, plain)
        if not callable(fast):
            return fast

        def both(*args: Any, **kw: Any) -> Any:
            ok, a = _call(fast, args, kw)
            same, b = _call(plain, args, kw)
            if not (ok and same):  # the same error (a way index out of range is told
                # in words of its own: numpy's message names the index, the kernel's not)
                told = (str(a), str(b)) if not isinstance(a, IndexError) else ("", "")
                assert (ok, type(a), told[0]) == (same, type(b), told[1]), name
                raise a
            if isinstance(a, (CompiledCard, AwayTracker)):
                return Both(a, b)
            assert _key(a) == _key(b), (name, args, kw)
            return a

        return both
