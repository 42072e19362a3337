"""The compiled kernel (card/kernel.py, card/kernel_pairs.py): which path runs, that each of
its functions is compiled once (for the one set of argument types the card layer passes),
and that it agrees with the numpy code on cards two and four times the practice card's
size, with exposures, limited to some lines and played open. (On the practice card and the
small cards both paths are checked against the oracle: test_oracle_*.py, test_open_lines.py
and test_away.py ask a compiled card on both, through tests/card/paths.py.)"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

import twinrack
from tests.card import oracle
from tests.card.holdings import grown_card, random_holding, random_rack, two_racks
from tests.card.paths import Both
from twinrack.card import Card, kernel, kernel_pairs, practice_card
from twinrack.card.compiled import IMPOSSIBLE, CompiledCard
from twinrack.card.exposure import Exposure


def test_numba_is_installed_and_the_kernel_runs_unless_told_not_to() -> None:
    assert kernel.AVAILABLE  # numba is a dependency: make test installs it
    assert kernel.ACTIVE is (twinrack.KERNEL_SETTING != "numpy")


def test_the_setting_chooses_the_path() -> None:
    assert kernel.choose("", True) and kernel.choose("numba", True)
    assert not kernel.choose("numpy", True)
    assert not kernel.choose("", False) and not kernel.choose("numba", False)


def test_a_card_follows_the_process_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    cc = CompiledCard(practice_card())
    plain, fast = cc.with_kernel(False), cc.with_kernel(True)
    assert (plain.kernel, fast.kernel) == (False, True)
    assert plain.with_kernel(False) is plain and plain.without_declared.kernel is False
    assert fast.open_lines.kernel is True and fast.only(fast.normal).kernel is True
    for on in (True, False):
        monkeypatch.setattr(kernel, "ACTIVE", on)
        assert cc.kernel is on and plain.kernel is False and fast.kernel is True
    monkeypatch.setattr(kernel, "AVAILABLE", False)
    with pytest.raises(ValueError, match="needs numba"):
        plain.with_kernel(True)


@pytest.mark.parametrize(("setting", "active"), [("", False), ("numpy", False),
                                                 ("numba", True)])
def test_a_command_of_few_questions_takes_the_numpy_path(
        setting: str, active: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(twinrack, "KERNEL_SETTING", setting)
    monkeypatch.setattr(kernel, "ACTIVE", True)
    kernel.for_few_questions()
    assert kernel.ACTIVE is active


def test_each_function_is_compiled_once_whatever_the_holding_is_given_as() -> None:
    """Holdings as lists, tuples and arrays of any integer type, ways as lists: the card
    layer hands the kernel the same types, so nothing is compiled twice (a second
    compilation would cost a second or more in the middle of a game)."""
    cc = CompiledCard(practice_card()).with_kernel(True)
    rng = random.Random(3)
    counts = random_holding(rng, 28)
    x = [Exposure(0, 3)]
    frozen = np.array(counts)
    frozen.setflags(write=False)
    ways = np.arange(6)
    ways.setflags(write=False)
    for given in (counts, tuple(counts), np.array(counts, dtype=np.int16),
                  np.array(counts, dtype=np.int32), np.array(counts * 2)[::2], frozen):
        cc.way_aways(given), cc.hand_aways(given, x), cc.ways_away([1, 2], given)
        cc.ways_away(ways[::2], given), cc.ways_away(ways, given)
        cc.pair_aways(given, [0, 1], np.array([1, 2], dtype=np.int32), x)
        cc.pair_aways(given, ways[::3], ways[1::3], x)
        cc.best_pairs(given, x, top=3), cc.discard_scores(given, (), x)
        cc.matches(given), cc.tracker(given).aways()
    called = [kernel.check, kernel.uv, kernel.way_aways, kernel.hand_aways, kernel.ways_away,
              kernel.pair_aways, kernel_pairs.pairs_kernel, kernel_pairs.discards_kernel]
    assert {f.__name__: len(f.signatures) for f in called} == {f.__name__: 1 for f in called}
    # the functions they call: once each as well (compiled only when no cache had them)
    inner = {f.__name__: len(f.signatures) for module in (kernel, kernel_pairs)
             for f in vars(module).values() if hasattr(f, "signatures")}
    assert {name: n for name, n in inner.items() if n > 1} == {}


@cache
def grown(times: int) -> tuple[Card, Both]:
    card = grown_card(practice_card(), times)
    return card, Both.of(CompiledCard(card))


@pytest.mark.parametrize("times", [2, 4])
def test_a_bigger_card_one_rack(times: int) -> None:
    card, cc = grown(times)
    rng = random.Random(40 + times)
    for k in range(60):
        rack = random_rack(rng, practice_card())
        aways = cc.way_aways(rack.counts, rack.exposures)
        cc.hand_aways(rack.counts, rack.exposures)
        cc.without_declared.way_aways(rack.counts, rack.exposures)
        cc.open_lines.hand_aways(rack.counts, rack.exposures)
        idx = [rng.randrange(-cc.n_ways, cc.n_ways) for _ in range(12)]
        cc.ways_away(idx, rack.counts, rack.exposures)
        if k < 12:  # the oracle's whole card, a few times
            assert aways.tolist() == oracle.card_way_aways(card, rack.counts, rack.exposures)


@pytest.mark.parametrize("times", [2, 4])
def test_a_bigger_card_two_racks(times: int) -> None:
    _card, cc = grown(times)
    rng = random.Random(50 + times)
    shown = 0
    for k in range(24 if times == 2 else 10):
        racks = two_racks(rng, practice_card(), size=27 + k % 2)
        args = (racks.counts, racks.exposures1, racks.exposures2)
        for scoped in (cc, cc.without_declared, cc.open_lines):
            shown += len(scoped.best_pairs(*args, top=rng.choice([1, 10, 40])))
            scoped.discard_scores(*args)
        n = cc.n_ways
        cc.pair_aways(racks.counts, [rng.randrange(-n, n) for _ in range(20)],
                      [rng.randrange(n) for _ in range(20)], racks.exposures1,
                      racks.exposures2)
    assert shown > 100


def test_racks_no_line_can_take_and_other_corners() -> None:
    _card, cc = grown(2)
    rng = random.Random(6)
    counts = random_holding(rng, 28)
    dead = [Exposure(27, 5)]  # five of a kind where no line has one
    assert not cc.rack_alive(dead)
    assert cc.best_pairs(counts, dead, top=5) == []
    assert {d.away for d in cc.discard_scores(counts, (), dead)} == {IMPOSSIBLE}
    assert cc.best_pairs(counts, top=0) == []
    assert cc.discard_scores([0] * 36) == []
    assert len(cc.best_pairs([0] * 35 + [8], top=3)) == 3  # Jokers only
    assert cc.discard_scores([0] * 35 + [8])[0].tile == 35
    for bad in ([1] * 35 + [-1], [0] * 35):
        with pytest.raises(ValueError):
            cc.best_pairs(bad)
    with pytest.raises(IndexError):
        cc.ways_away([cc.n_ways], [0] * 36)
    with pytest.raises(IndexError):
        cc.pair_aways([0] * 36, [0], [-cc.n_ways - 1])
    cc.pair_aways(counts, [5], [0, 1, 2, 3])  # one way against several, as numpy pairs them
    with pytest.raises(ValueError):
        cc.pair_aways(counts, [5, 6], [0, 1, 2])
