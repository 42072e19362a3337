"""The bots for tests that compare decisions exactly: the expert without its time budget,
and the master (never timed unless asked) with a small budget of simulations, for speed.

Its sampled futures stop at a deadline (150 ms a decision, far above what a decision takes
on an idle machine); on a loaded machine a decision can run past it and come out
differently. Without the budget the same seeds always give the same decisions, which are
the ones an idle machine makes."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

from twinrack.bots import BOTS, Bot, ExpertBot, MasterBot
from twinrack.card import Card

UNTIMED_BOTS: dict[str, Callable[[Card], Bot]] = {
    **BOTS, "expert": partial(ExpertBot, budget_ms=math.inf),
    "master": partial(MasterBot, simulations=16)}
