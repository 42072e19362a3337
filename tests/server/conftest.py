"""Fixtures for the table service: a fresh database per test, SQLite always and PostgreSQL
when TWINRACK_TEST_DATABASE_URL is set (CI starts one)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

PG_URL = os.environ.get("TWINRACK_TEST_DATABASE_URL")


def _reset_postgres(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


REDIS_URL = os.environ.get("TWINRACK_TEST_REDIS_URL")


def database_urls() -> list[object]:
    urls: list[object] = ["sqlite"]
    if PG_URL:
        urls.append(pytest.param("postgresql", marks=pytest.mark.postgres))
    return urls


def service_urls() -> list[object]:
    """The databases, and the cluster (two workers on PostgreSQL and Redis) where CI has
    started both: for the tests that every way of serving must pass."""
    urls = database_urls()
    if PG_URL and REDIS_URL:
        urls.append(pytest.param("cluster", marks=pytest.mark.postgres))
    return urls


def on_services(services: list[object], cases: list[tuple[object, ...]],
                also: set[tuple[object, ...]]) -> list[object]:
    """Parameters (service, *case) for a test parametrized indirectly on its ``database_url``
    or ``service_url``: every case on SQLite, and the cases in ``also`` on the other
    services too. For the long whole-game tests: what PostgreSQL and the cluster add
    (storage, routing between workers) does not depend on the variant, which SQLite
    covers in full; this keeps a quarter of an hour of CI from growing by the product."""
    out: list[object] = []
    for service in services:
        name = service if isinstance(service, str) else service.values[0]  # type: ignore[attr-defined]
        marks = () if isinstance(service, str) else service.marks  # type: ignore[attr-defined]
        for case in cases:
            if name == "sqlite" or case in also:
                out.append(pytest.param(name, *case, marks=marks,
                                        id="-".join(map(str, (name, *case)))))
    return out


@pytest.fixture(params=database_urls())
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'twinrack.db'}"
    else:
        assert PG_URL is not None
        _reset_postgres(PG_URL)
        yield PG_URL


@pytest.fixture(params=service_urls())
def service_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Like ``database_url``, and ``"cluster:" + URL`` for a cluster (see make_client)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'twinrack.db'}"
    elif request.param == "postgresql":
        assert PG_URL is not None
        _reset_postgres(PG_URL)
        yield PG_URL
    else:
        assert PG_URL is not None
        yield f"cluster:{PG_URL}"
