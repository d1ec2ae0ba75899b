"""The database schema (SQLAlchemy Core). Migrations in ``migrations/`` create it.

>>> sorted(metadata.tables)
['events', 'members', 'players', 'resume_links', 'tables']
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)

resume_links = sa.Table(
    "resume_links",
    metadata,
    sa.Column("token", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("creator", sa.String(64), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Index("ix_tables_status", "status"),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("type", sa.String(32), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
)

members = sa.Table(
    "members",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Index("ix_members_player", "player_id"),
)
