"""The recent chat lines of each match (the server keeps the last 50).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("chat_lines")
