"""Accounts (users, sessions), seats bound to accounts, ratings and their history.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("sessions_user", "sessions", ["user_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("user_id", sa.Integer, nullable=True))
    op.create_index("seats_user", "seats", ["user_id"])
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game", "players", "player"),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(40), nullable=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ts", sa.Float, nullable=False),
    )
    op.create_index("rating_history_player", "rating_history", ["player", "game", "players"])


def downgrade() -> None:
    op.drop_index("rating_history_player", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_index("seats_user", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("user_id")
    op.drop_index("sessions_user", "sessions")
    op.drop_table("sessions")
    op.drop_table("users")
