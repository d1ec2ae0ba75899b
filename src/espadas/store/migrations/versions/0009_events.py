"""Duplicate events (tournaments) among people: ``tournaments`` (the choices,
the boards kept server-side, the public commitment), ``tournament_entrants`` and
``tournament_tables`` (each round's tables). Uses no table of migrations 0005-0008.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("organiser_id", sa.String(64), nullable=False),
        sa.Column("organiser_name", sa.String(80), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("boards", sa.Text, nullable=False),
        sa.Column("token", sa.String(40), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("started_at", sa.String(40)),
        sa.Column("finished_at", sa.String(40)),
    )
    op.create_index("ix_tournaments_created", "tournaments", ["created_at"])
    op.create_table(
        "tournament_entrants",
        sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("joined_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False, unique=True),
        sa.Column("seats", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_created", table_name="tournaments")
    op.drop_table("tournaments")
