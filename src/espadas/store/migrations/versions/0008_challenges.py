"""The daily challenge [reto diario]: ``challenges`` (one a day, its
boards kept server-side, its commitment public), ``challenge_attempts`` (one per
player and day) and ``challenge_results`` (each finished board of an attempt).
Uses no table of migrations 0005-0007.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("boards", sa.Text, nullable=False),
        sa.Column("robots", sa.String(200), nullable=False),
        sa.Column("par", sa.Text),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "challenge_attempts",
        sa.Column("day", sa.String(10), sa.ForeignKey("challenges.day"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False, unique=True),
        sa.Column("started_at", sa.String(40), nullable=False),
        sa.Column("left_at", sa.String(40)),
        sa.Column("left_board", sa.Integer),
        sa.Column("finished_at", sa.String(40)),
    )
    op.create_table(
        "challenge_results",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("robot", sa.Boolean, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(
            ["day", "player_id"], ["challenge_attempts.day", "challenge_attempts.player_id"]
        ),
    )


def downgrade() -> None:
    op.drop_table("challenge_results")
    op.drop_table("challenge_attempts")
    op.drop_table("challenges")
