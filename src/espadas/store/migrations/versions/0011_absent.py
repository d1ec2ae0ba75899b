"""Replacing an absent player by a robot: nothing to migrate. The table's
``absent`` option is in its ``create`` event and a replacement is a ``replace`` entry
of the log (espadas.tables.absent); the notices table already takes any kind.

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
