"""Notices found by table: a turn that passes drops the pending notices of the
turns before it, in the same transaction as the move.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_notices_table", "notices", ["table_id", "state", "version"])


def downgrade() -> None:
    op.drop_index("ix_notices_table", "notices")
