"""The compiled kernel: the card analysis the bots call most, as loops compiled by numba.

The compiled card (card/compiled.py) keeps its numpy code as the fallback; this module
computes the same numbers from the same arrays, one loop per question instead of a chain of
numpy calls, each of which costs about a microsecond before it does any work:

* tiles away of a rack from every way (``way_aways``, ``hand_aways``, ``ways_away``) and
  the ``U``/``V`` sums behind them (``uv``): per held kind, one row of the card's table
  added into the running sums, the kinds the rack's exposures changed read from its demand;
* tiles away of given way pairs of two racks sharing one holding (``pair_aways``);
* the best pairs and every discard of a two-rack holding: card/kernel_pairs.py;
* the bots' race (bots/race.py) and plan odds (bots/odds.py) compile their own loops
  with :func:`jit` and follow :data:`ACTIVE` too.

**Which path runs.** :data:`ACTIVE` is true when numba is installed and ``TWINRACK_KERNEL``
is not ``numpy`` (the package root reads that setting, twinrack/__init__.py). A compiled
card can be switched either way (:meth:`CompiledCard.with_kernel`), which is how the tests
check the two paths against each other and against the oracle (tests/card/oracle.py).

**Compile cost.** numba is imported when the kernel is first asked something (a command
that never asks the card does not wait for its fifth of a second). Each function is then
compiled at its first call, for the one set of argument types the card layer passes (int64
holdings and indices, the card's own arrays: tests/card/test_kernel.py checks that nothing
is compiled twice), and the machine code is kept on disk (numba's ``cache=True``:
``__pycache__`` next to each module, or numba's cache folder when that is read-only): a
later process loads it (about 0.35 s with numba's start) instead of compiling it (about
13 s for the card's and the bots' kernels, once after an install or an edit). ``make``
compiles it after installing; :meth:`CompiledCard.warm_up` and
:func:`twinrack.bots.kernels.warm_up` ask every function once, so that the server's worker
processes (server/jobs.py) load it when they start, not during a bot's decision; a
command asking only a question or two takes the numpy path (:func:`for_few_questions`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.util import find_spec
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

import twinrack
from twinrack.tiles import JOKER, NUM_KINDS

IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int16]
TinyArray = npt.NDArray[np.int8]
BoolArray = npt.NDArray[np.bool_]

#: numba is installed (the kernel can run); it is imported only when first needed
AVAILABLE: bool = find_spec("numba") is not None


def choose(setting: str, available: bool) -> bool:
    """Whether the kernel runs for this ``TWINRACK_KERNEL`` setting: unless it says
    ``numpy``, whenever numba is installed."""
    return available and setting != "numpy"


#: the path the compiled cards of this process take unless told otherwise
ACTIVE: bool = choose(twinrack.KERNEL_SETTING, AVAILABLE)


def for_few_questions() -> None:
    """Take the numpy path in a process that asks the card only a few questions (a
    command such as ``twinrack card match``): starting the kernel (importing numba and
    loading its compiled code: about a third of a second) would cost more than it saves.
    ``TWINRACK_KERNEL=numba`` keeps the kernel all the same."""
    global ACTIVE
    if twinrack.KERNEL_SETTING != "numba":
        ACTIVE = False

_F = TypeVar("_F", bound=Callable[..., Any])


class _Waiting:
    """A kernel function before numba is imported (which takes a fifth of a second, so a
    command that never asks the card for tiles away does not wait for it). Its first call
    compiles every kernel function (:func:`build`) and from then on the modules hold the
    compiled functions themselves."""

    def __init__(self, fn: Callable[..., Any], options: dict[str, Any]) -> None:
        self.fn = fn
        self.options = options
        self.compiled: Any = None
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__

    def __call__(self, *args: Any) -> Any:
        build()
        return self.compiled(*args)


_WAITING: list[_Waiting] = []
_numba: Any = None


def build() -> None:
    """Import numba and make every kernel function a compiled one, in each module that
    holds it (its own, and those that imported it by name): numba compiles a function at
    its first call, and then needs the functions it calls compiled too."""
    global _numba
    if _numba is not None:
        return
    import numba

    _numba = numba
    for waiting in _WAITING:
        waiting.compiled = numba.njit(**waiting.options)(waiting.fn)
    for waiting in _WAITING:
        names = waiting.fn.__globals__
        for name, value in list(names.items()):
            if isinstance(value, _Waiting):
                names[name] = value.compiled


def _compiled(fn: _F, options: dict[str, Any]) -> _F:
    if _numba is not None:
        return cast(_F, _numba.njit(**options)(fn))
    waiting = _Waiting(fn, options)
    _WAITING.append(waiting)
    return cast(_F, waiting)


def jit(fn: _F) -> _F:
    """``fn`` compiled by numba at its first call (the machine code kept on disk), with
    its own type. Without numba it is never called (:data:`ACTIVE` is false)."""
    return _compiled(fn, {"cache": True, "nogil": True})


HAND_SIZE = 14
IMPOSSIBLE = 99
COLS = NUM_KINDS + 1
NEGATIVE = "a holding cannot hold a negative number of tiles"


@jit
def check(counts: IntArray) -> int:
    """The Jokers of a 36-long holding, after checking that no count is negative."""
    for t in range(NUM_KINDS):
        if counts[t] < 0:
            raise ValueError(NEGATIVE)
    return int(counts[JOKER])


@jit
def sums(counts: IntArray, table: TinyArray, most: int, touched: IntArray,
         bank: TinyArray) -> SmallArray:
    """``U`` then ``V`` less the big groups' size, per way (2 x ways): for every held kind
    the exposures left as on the card, its table row (``min(k, tot)``, ``min(k, nat)``);
    for the others, the same minima from the rack's own demand."""
    n = bank.shape[0]
    acc = np.zeros(2 * n, dtype=np.int16)
    for t in range(NUM_KINDS):
        k = counts[t]
        if k <= 0 or t == JOKER:
            continue
        skip = False
        for s in touched:
            skip = skip or s == t
        if skip:
            continue
        row = table[t * (most + 1) + min(k, most)]
        for i in range(2 * n):
            acc[i] += row[i]
    for t in touched:
        k = counts[t]
        if k > 0:
            for w in range(n):
                acc[w] += min(k, bank[w, t])
                acc[n + w] += min(k, bank[w, COLS + t])
    return acc


@jit
def uv(counts: IntArray, table: TinyArray, most: int, touched: IntArray, bank: TinyArray,
       big_sum: SmallArray) -> tuple[SmallArray, SmallArray]:
    """``U`` and ``V`` of every way (as ``CompiledCard.uv``)."""
    check(counts)
    acc = sums(counts, table, most, touched, bank)
    n = bank.shape[0]
    v = acc[n:].copy()
    for w in range(n):
        v[w] += big_sum[w]
    return acc[:n].copy(), v


@jit
def way_aways(counts: IntArray, table: TinyArray, most: int, touched: IntArray,
              bank: TinyArray, big_sum: SmallArray, fit: BoolArray, exposed: int) -> IntArray:
    """Tiles away of a holding (Jokers included) from every way of one rack."""
    jokers = check(counts)
    acc = sums(counts, table, most, touched, bank)
    n = bank.shape[0]
    out = np.empty(n, dtype=np.int64)
    left = HAND_SIZE - exposed
    for w in range(n):
        if fit[w]:
            out[w] = left - min(acc[w] + jokers, acc[n + w] + big_sum[w])
        else:
            out[w] = IMPOSSIBLE
    return out


@jit
def hand_aways(counts: IntArray, table: TinyArray, most: int, touched: IntArray,
               bank: TinyArray, big_sum: SmallArray, fit: BoolArray, exposed: int,
               hand_start: IntArray) -> IntArray:
    """Tiles away from every line: the best of its ways."""
    aways = way_aways(counts, table, most, touched, bank, big_sum, fit, exposed)
    lines = hand_start.shape[0]
    out = np.empty(lines, dtype=np.int64)
    for h in range(lines):
        stop = hand_start[h + 1] if h + 1 < lines else aways.shape[0]
        best = IMPOSSIBLE
        for w in range(hand_start[h], stop):
            best = min(best, aways[w])
        out[h] = best
    return out


@jit
def ways_away(ways: IntArray, counts: IntArray, start: IntArray, entry_tile: IntArray,
              entry_tot: SmallArray, entry_nat: SmallArray, big_sum: SmallArray,
              fit: BoolArray, exposed: int) -> IntArray:
    """Tiles away from some ways only, from the card's sparse entries (a way's kinds)."""
    jokers = check(counts)
    n = big_sum.shape[0]
    out = np.empty(ways.shape[0], dtype=np.int64)
    for i in range(ways.shape[0]):
        w = ways[i] + n if ways[i] < 0 else ways[i]  # as numpy indexes
        if w < 0 or w >= n:
            raise IndexError("a way index is out of range")
        if not fit[w]:
            out[i] = IMPOSSIBLE
            continue
        stop = start[w + 1] if w + 1 < n else entry_tile.shape[0]
        u = 0
        v = 0
        for e in range(start[w], stop):
            k = counts[entry_tile[e]] if entry_tile[e] != JOKER else 0
            u += min(k, entry_tot[e])
            v += min(k, entry_nat[e])
        out[i] = HAND_SIZE - exposed - min(u + jokers, v + big_sum[w])
    return out


@jit
def held(counts: IntArray) -> tuple[IntArray, IntArray]:
    """The natural kinds held, ascending, and how many of each."""
    m = 0
    for t in range(JOKER):
        m += counts[t] > 0
    kinds = np.empty(m, dtype=np.int64)
    many = np.empty(m, dtype=np.int64)
    m = 0
    for t in range(JOKER):
        if counts[t] > 0:
            kinds[m] = t
            many[m] = counts[t]
            m += 1
    return kinds, many


@jit
def pair_aways(counts: IntArray, w1: IntArray, w2: IntArray, bank1: TinyArray,
               bank2: TinyArray, big1: SmallArray, big2: SmallArray, fit1: BoolArray,
               fit2: BoolArray, total: int) -> IntArray:
    """Exact tiles away of the way pairs ``(w1[i], w2[i])`` of two racks sharing one
    holding: the pair fills like one way with the summed demand."""
    jokers = check(counts)
    kinds, many = held(counts)
    n = bank1.shape[0]
    out = np.empty(w1.shape[0], dtype=np.int64)
    for i in range(w1.shape[0]):
        a = w1[i] + n if w1[i] < 0 else w1[i]  # as numpy indexes
        b = w2[i] + n if w2[i] < 0 else w2[i]
        if a < 0 or a >= n or b < 0 or b >= n:
            raise IndexError("a way index is out of range")
        if not (fit1[a] and fit2[b]):
            out[i] = IMPOSSIBLE
            continue
        u = 0
        v = big1[a] + big2[b]
        for j in range(kinds.shape[0]):
            t = kinds[j]
            u += min(many[j], bank1[a, t] + bank2[b, t])
            v += min(many[j], bank1[a, COLS + t] + bank2[b, COLS + t])
        out[i] = total - min(u + jokers, v)
    return out
