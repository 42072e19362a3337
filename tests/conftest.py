"""The whole suite: `make test` runs it on two processes (pytest-xdist, ``--dist
loadgroup``). Tests that share one outside service (the PostgreSQL and Redis that .ci/run
starts, which they empty and restart) run one after another in a single group; the
browser tests of one module stay together, so they share its server and browser."""

from __future__ import annotations

import pytest

#: the xdist group of every test marked ``postgres``
SERVICES = "services"


def pytest_itemcollected(item: pytest.Item) -> None:
    """(As each test is collected: xdist reads the groups into the test ids afterwards.)"""
    if item.get_closest_marker("postgres") is not None:
        item.add_marker(pytest.mark.xdist_group(SERVICES))
    elif item.get_closest_marker("browser") is not None:
        module = getattr(item, "module", None)
        item.add_marker(pytest.mark.xdist_group(module.__name__ if module else "browser"))
