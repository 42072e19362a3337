"""``simulate --ray``: the games played on a local Ray instance give the local run's
results (each game is fixed by its task alone). Skipped without the ray extra."""

from __future__ import annotations

import pytest

from tests.bots.test_arena import stable
from twinrack.bots import arena
from twinrack.bots.arena import Setup
from twinrack.card import practice_card
from twinrack.engine import RuleSet

ray = pytest.importorskip("ray")


def test_a_local_ray_instance_plays_the_local_games() -> None:
    setup = Setup(RuleSet(), practice_card(), ["greedy", "random"], 5, True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = arena.run(setup, 2, ray_address="local")
    finally:
        ray.shutdown()
    here = arena.run(setup, 2, jobs=1)
    assert stable(on_ray) == stable(here)
    assert on_ray["games"] == 4
