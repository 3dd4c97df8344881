"""Fixtures of the server tests: a real uvicorn server on loopback (in a thread)
over SQLite — and over PostgreSQL too when ``CARDTABLE_TEST_PG`` is a URL
(``scripts/ci-postgres.sh`` starts one and prints it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from srvkit import BACKENDS, ServerThread, db_url_for, drop_test_databases  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _drop_the_runs_databases() -> Iterator[None]:
    yield
    drop_test_databases()


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    value: str = request.param
    return value


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = db_url_for(backend, tmp_path_factory.mktemp(f"db-{backend}"))
    with ServerThread(url, rate_per_second=5000.0) as srv:
        yield srv
