"""Fixtures of the server tests: a real uvicorn server on loopback (in a thread)
over SQLite — and over PostgreSQL too when ``CARDTABLE_TEST_PG`` is a URL
(``scripts/ci-postgres.sh`` starts one and prints it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from srvkit import ServerThread  # noqa: E402

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("CARDTABLE_TEST_PG") else [])


def db_url_for(backend: str, tmp: Path) -> str:
    if backend == "postgresql":
        return os.environ["CARDTABLE_TEST_PG"]
    return f"sqlite:///{tmp / 'cardtable.db'}"


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    value: str = request.param
    return value


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    url = db_url_for(backend, tmp_path_factory.mktemp(f"db-{backend}"))
    with ServerThread(url, takeover_grace=0.3, rate_per_second=5000.0) as srv:
        yield srv
