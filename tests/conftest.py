"""The whole suite: `make test` runs it on two processes (pytest-xdist, ``--dist
loadgroup``). Tests that share one outside service (the PostgreSQL and Redis that .ci/run
starts, which they empty and restart) run one after another in a single group; the
browser tests of one module stay together, so they share its server and browser."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

#: the xdist group of every test marked ``postgres``
SERVICES = "services"


@pytest.fixture(autouse=True)
def _kernel_path_kept() -> Iterator[None]:
    """A command run in the test's own process may switch it to the numpy path
    (``kernel.for_few_questions``, as ``twinrack card ...`` does): switched back after each
    test, so that the next one runs on the path the suite was started with."""
    from twinrack.card import kernel

    active = kernel.ACTIVE
    yield
    kernel.ACTIVE = active


def pytest_itemcollected(item: pytest.Item) -> None:
    """(As each test is collected: xdist reads the groups into the test ids afterwards.)"""
    if item.get_closest_marker("postgres") is not None:
        item.add_marker(pytest.mark.xdist_group(SERVICES))
    elif item.get_closest_marker("browser") is not None:
        module = getattr(item, "module", None)
        item.add_marker(pytest.mark.xdist_group(module.__name__ if module else "browser"))
