"""The lobby: its quick-play queue, the tables listed as open to everyone, and
the people each person blocks.

New tables: ``lobby_queue`` (one row per person waiting, or seated by the queue
at ``table_id``), ``lobby_open`` (a table its creator listed in the lobby) and
``blocks`` (who blocked whom).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobby_queue",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("pool", sa.String(80), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("since", sa.String(40), nullable=False),
        sa.Column("wait_s", sa.Float, nullable=False),
        sa.Column("robot", sa.String(40), nullable=False),
        sa.Column("seen_at", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("seat", sa.Integer),
        sa.Column("seated_at", sa.String(40)),
    )
    op.create_index("ix_lobby_queue_pool", "lobby_queue", ["pool", "table_id"])
    op.create_index("ix_lobby_queue_table", "lobby_queue", ["table_id"])
    op.create_table(
        "lobby_open",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("listed_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("blocked_id", sa.String(64), primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])


def downgrade() -> None:
    op.drop_index("ix_blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_table("lobby_open")
    op.drop_index("ix_lobby_queue_table", "lobby_queue")
    op.drop_index("ix_lobby_queue_pool", "lobby_queue")
    op.drop_table("lobby_queue")
