"""More for the daily challenge: the challenge rating,
``challenge_ratings`` (one row per player) and ``challenge_rated_days`` (the days
counted). Uses no table of migrations 0009 and 0011.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_ratings",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("days", sa.Integer, nullable=False),
        sa.Column("boards", sa.Integer, nullable=False),
        sa.Column("above", sa.Float, nullable=False),
        sa.Column("last_day", sa.String(10), nullable=False),
    )
    op.create_table(
        "challenge_rated_days",
        sa.Column("day", sa.String(10), sa.ForeignKey("challenges.day"), primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("challenge_rated_days")
    op.drop_table("challenge_ratings")
