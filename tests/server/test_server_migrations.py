"""The schema's Alembic migrations, on SQLite and (with ``CARDTABLE_TEST_PG``) on a
fresh PostgreSQL database: from an empty database, from the previous revision with
data in it, and from a database the store made before there were migrations."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, inspect, text
from sqlalchemy.engine import make_url

from srvkit import BACKENDS

from cardtable.server import migrations
from cardtable.server.store import Store, metadata, normalise_url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each back end (a new PostgreSQL database, dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'm.db'}"
        return
    base = make_url(normalise_url(os.environ["CARDTABLE_TEST_PG"]))
    name = f"cardtable_mig_{secrets.token_hex(4)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def engine_of(url: str) -> Engine:
    return create_engine(normalise_url(url))


def revision_of(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return migrations.current_revision(conn)


def add_old_match(engine: Engine) -> None:
    """A match in the revision-0001 schema (no accounts yet)."""
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO matches (id, game, config, seed, options, host_hash, status, result, "
                          "created, updated) VALUES ('old1', 'lost-cities', '{}', 7, '{}', 'h', 'active', NULL, "
                          "1.0, 1.0)"))
        conn.execute(text("INSERT INTO seats (match_id, seat, kind, name, agent, token_hash, claimed) VALUES "
                          "('old1', 0, 'human', 'Ann', NULL, 't', true), ('old1', 1, 'ai', 'bot', 'random', "
                          "NULL, true)"))


def open_store_and_load(url: str) -> tuple[list[str | None], list[int | None]]:
    """Open a store on ``url`` (which migrates it) and read the old match back."""

    async def go() -> tuple[list[str | None], list[int | None]]:
        store = Store(url)
        try:
            row = await store.load_match("old1")
            assert row is not None
            return [s.name for s in row.seats], [s.user_id for s in row.seats]
        finally:
            await store.close()

    return asyncio.run(go())


def test_an_empty_database_migrates_to_the_schema_of_the_models(db_url: str) -> None:
    engine = engine_of(db_url)
    try:
        migrations.upgrade(engine)
        assert revision_of(engine) == migrations.HEAD
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == [], diff
        migrations.upgrade(engine)  # again: nothing to do
        assert revision_of(engine) == migrations.HEAD
    finally:
        engine.dispose()


def test_the_previous_revision_with_its_data_migrates(db_url: str) -> None:
    engine = engine_of(db_url)
    try:
        migrations.upgrade(engine, "0001")
        assert revision_of(engine) == "0001"
        assert not inspect(engine).has_table("users")
        add_old_match(engine)
    finally:
        engine.dispose()
    assert open_store_and_load(db_url) == (["Ann", "bot"], [None, None])
    engine = engine_of(db_url)
    try:
        assert revision_of(engine) == migrations.HEAD
        assert {"users", "sessions", "ratings", "rating_history"} <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_a_database_from_before_migrations_is_marked_then_migrated(db_url: str) -> None:
    engine = engine_of(db_url)
    try:
        migrations.upgrade(engine, "0001")
        with engine.begin() as conn:
            conn.execute(text("DROP TABLE alembic_version"))  # as the store used to leave it
        add_old_match(engine)
        assert revision_of(engine) is None
    finally:
        engine.dispose()
    assert open_store_and_load(db_url) == (["Ann", "bot"], [None, None])


def test_the_migrations_go_down_and_up_again(db_url: str) -> None:
    from alembic import command

    engine = engine_of(db_url)
    try:
        migrations.upgrade(engine)
        with engine.begin() as conn:
            command.downgrade(migrations.config(conn), "0001")
        assert not inspect(engine).has_table("users")
        assert "user_id" not in {c["name"] for c in inspect(engine).get_columns("seats")}
        migrations.upgrade(engine)
        assert revision_of(engine) == migrations.HEAD
    finally:
        engine.dispose()


def test_a_database_from_a_newer_cardtable_is_refused_with_a_clear_error(db_url: str) -> None:
    """A schema at a revision this code does not know (another server, upgraded) is not
    touched, and ``cardtable serve`` says why in one line instead of an Alembic traceback."""
    engine = engine_of(db_url)
    migrations.upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(migrations.SchemaTooNew, match=r"revision 9999, which this cardtable does not know"):
        Store(db_url)
    from cardtable.server import main

    with pytest.raises(SystemExit) as stop:
        main(["--db", db_url, "--port", "0"])
    assert "cardtable serve: the database's schema is at revision 9999" in str(stop.value)
    assert revision_of(engine) == "9999"
    engine.dispose()
