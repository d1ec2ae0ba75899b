"""Resume links kept as hashes, revocable, and their uses (the devices list).

``resume_links.token`` (the token in clear) becomes ``token_hash`` (its SHA-256,
hex): the rows already there are hashed in place, so the links already sent keep
working. ``revoked_at`` marks a revoked link. ``resume_uses`` records each use
of a link: when, and the browser and system named from the User-Agent (no
address, no full User-Agent).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("resume_links") as batch:
        batch.alter_column("token", new_column_name="token_hash", existing_type=sa.String(64))
        batch.add_column(sa.Column("revoked_at", sa.String(40), nullable=True))
        batch.create_index("ix_resume_links_player", ["player_id"])
    links = sa.table("resume_links", sa.column("token_hash", sa.String(64)))
    connection = op.get_bind()
    for (token,) in connection.execute(sa.select(links.c.token_hash)).all():
        connection.execute(
            links.update()
            .where(links.c.token_hash == token)
            .values(token_hash=hashlib.sha256(token.encode()).hexdigest())
        )
    op.create_table(
        "resume_uses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("browser", sa.String(20), nullable=False),
        sa.Column("system", sa.String(20), nullable=False),
    )
    op.create_index("ix_resume_uses_player", "resume_uses", ["player_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_resume_uses_player", "resume_uses")
    op.drop_table("resume_uses")
    # the hashes cannot be turned back into tokens: the links made so far stop working
    op.execute(sa.text("DELETE FROM resume_links"))
    with op.batch_alter_table("resume_links") as batch:
        batch.drop_index("ix_resume_links_player")
        batch.drop_column("revoked_at")
        batch.alter_column("token_hash", new_column_name="token", existing_type=sa.String(64))
