"""The database schema's history as Alembic migrations, and :func:`upgrade`, which
brings a database (empty, from before Alembic, or at any earlier revision) to the
newest schema.  The store calls it when it opens.

``versions/`` holds one module per revision: ``0001`` is the schema the store used
to create itself (matches, seats, events), ``0002`` adds accounts and ratings, ``0003`` the
``ending`` of a match that was resigned, agreed drawn or aborted, ``0004`` the recent chat lines,
``0005`` the match clocks and their deadlines.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

HERE = Path(__file__).resolve().parent
HEAD = "0005"
"""The newest revision."""
BEFORE_ALEMBIC = "0001"
"""The revision of a database whose tables the store made before there were migrations."""


def config(connection: Connection | None = None) -> Config:
    """The Alembic configuration of these migrations, bound to ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer cardtable to a revision this one does not know."""


def known_revisions() -> frozenset[str]:
    """Every revision in ``versions/``."""
    return frozenset(script.revision for script in ScriptDirectory.from_config(config()).walk_revisions())


def current_revision(connection: Connection) -> str | None:
    """The revision ``connection``'s database is at (``None``: empty or unversioned)."""
    rev: str | None = MigrationContext.configure(connection).get_current_revision()
    return rev


def check_known(engine: Engine) -> None:
    """Raise :class:`SchemaTooNew` if ``engine``'s database is at a revision not in ``versions/``."""
    with engine.connect() as conn:
        current = current_revision(conn)
    if current is not None and current not in known_revisions():
        raise SchemaTooNew(
            f"the database's schema is at revision {current}, which this cardtable does not know "
            f"(it knows up to {HEAD}): a newer cardtable migrated it — run that version, or give "
            f"this one another database")


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database of ``engine`` to ``revision``, in one transaction.  A
    database that has the tables of revision 0001 but no version mark (made by the
    store before migrations existed) is marked 0001 first."""
    check_known(engine)
    with engine.begin() as conn:
        cfg = config(conn)
        if current_revision(conn) is None and inspect(conn).has_table("matches"):
            command.stamp(cfg, BEFORE_ALEMBIC)
        command.upgrade(cfg, revision)
