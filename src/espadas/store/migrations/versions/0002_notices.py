"""Turn notices: contacts (e-mail), Web Push subscriptions, per-table modes,
the outbox of planned notices, and what each person has seen.

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
        "contacts",
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("email", sa.String(254)),
        sa.Column("confirmed", sa.Boolean, nullable=False),
        sa.Column("confirm_token", sa.String(64), unique=True),
        sa.Column("unsubscribe_token", sa.String(64), nullable=False, unique=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1000), primary_key=True),
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_push_player", "push_subscriptions", ["player_id"])
    op.create_table(
        "notice_modes",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("mode", sa.String(8), nullable=False),
    )
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("due_at", sa.String(40), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("claimed_at", sa.String(40)),
        sa.Column("sent_at", sa.String(40)),
        sa.Column("detail", sa.String(300)),
    )
    op.create_index("ix_notices_due", "notices", ["state", "due_at"])
    op.create_index("ix_notices_player_table", "notices", ["player_id", "table_id", "sent_at"])
    op.create_table(
        "seen",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seen")
    op.drop_index("ix_notices_player_table", "notices")
    op.drop_index("ix_notices_due", "notices")
    op.drop_table("notices")
    op.drop_table("notice_modes")
    op.drop_index("ix_push_player", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("contacts")
