"""More for the daily challenge (issue 21): filled by the challenge work (or left empty).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
