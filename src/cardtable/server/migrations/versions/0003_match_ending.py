"""How a match ended when it did not end by its rules: ``matches.ending`` is
``resigned``, ``drawn`` (agreed) or ``aborted``, and null for a match that is
still on or was played out (:mod:`cardtable.server.lifecycle`).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("ending", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("ending")
