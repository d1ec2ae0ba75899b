"""Seeks and the completion rate in quick play.

New table ``lobby_seeks`` (a table opened in the lobby with conditions: rule set,
live or by days, rated or not, the ratings accepted); new columns of
``lobby_queue``: ``completion`` (the person's completion rate) and
``min_completion`` (the least completion rate they accept at their table).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobby_seeks",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("creator", sa.String(64), nullable=False, unique=True),
        sa.Column("rules", sa.String(80), nullable=False),
        sa.Column("turns", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("min_rating", sa.Integer, nullable=False),
        sa.Column("max_rating", sa.Integer, nullable=False),
        sa.Column("posted_at", sa.String(40), nullable=False),
        sa.Column("seen_at", sa.String(40), nullable=False),
        sa.Column("accepted", sa.Boolean, nullable=False),
    )
    with op.batch_alter_table("lobby_queue") as batch:
        batch.add_column(sa.Column("completion", sa.Float))
        batch.add_column(sa.Column("min_completion", sa.Float))


def downgrade() -> None:
    with op.batch_alter_table("lobby_queue") as batch:
        batch.drop_column("min_completion")
        batch.drop_column("completion")
    op.drop_table("lobby_seeks")
