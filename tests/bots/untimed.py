"""The bots for tests that compare decisions exactly: the expert without its time budget,
and the master (never timed unless asked) with a small budget of simulations, for speed.

Its sampled futures stop at a deadline (150 ms a decision, far above what a decision takes
on an idle machine); on a loaded machine a decision can run past it and come out
differently. Without the budget the same seeds always give the same decisions, which are
the ones an idle machine makes."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from twinrack.bots import BOTS, Bot, ExpertBot, MasterBot
from twinrack.card import Card

T = TypeVar("T")

UNTIMED_BOTS: dict[str, Callable[[Card], Bot]] = {
    **BOTS, "expert": partial(ExpertBot, budget_ms=math.inf),
    "master": partial(MasterBot, simulations=16)}


def bot_copy(bots: T) -> T:
    """A copy of a bot, or of a list of bots, with their memory, for comparing decisions
    exactly. Their cards and compiled plans are shared, not copied: they never change, and
    copying them took most of those tests' time."""
    many = bots if isinstance(bots, list) else [bots]
    shared = [x for b in many for x in (getattr(b, "card", None), getattr(b, "plans", None))
              if x is not None]
    return copy.deepcopy(bots, {id(x): x for x in shared})
