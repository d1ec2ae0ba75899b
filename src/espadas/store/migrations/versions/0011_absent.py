"""Replacing an absent player by a robot (issue 21): filled by that work (or left empty).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
