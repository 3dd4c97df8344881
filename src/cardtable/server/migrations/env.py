"""Alembic's environment: migrations run on the connection that
:func:`cardtable.server.migrations.upgrade` hands over (importing this module
outside Alembic, as doctest collection does, runs nothing)."""

from __future__ import annotations

from alembic import context


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run the migrations through cardtable.server.migrations.upgrade(engine)")
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:
    run_migrations()
