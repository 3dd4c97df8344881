"""Match clocks: ``matches.clock`` keeps a match's clock (whose time runs, each
seat's bank) and ``matches.deadline`` its running deadline, in seconds since the
epoch, indexed so that a starting server finds every running clock
(:mod:`cardtable.server.clocks`).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("clock", sa.Text, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
        batch.create_index("matches_deadline", ["deadline"])


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("matches_deadline")
        batch.drop_column("deadline")
        batch.drop_column("clock")
