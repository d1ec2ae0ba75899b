"""The lobby's tables, on :data:`espadas.store.schema.metadata` (migrations 0012, 0013).

>>> from espadas.store.schema import metadata
>>> sorted(t for t in metadata.tables if t.startswith("lobby") or t == "blocks")
['blocks', 'lobby_open', 'lobby_queue', 'lobby_seeks']
"""

from __future__ import annotations

import sqlalchemy as sa

from espadas.store.schema import metadata

lobby_queue = sa.Table(
    "lobby_queue",
    metadata,
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
    sa.Column("completion", sa.Float),
    sa.Column("min_completion", sa.Float),
    sa.Index("ix_lobby_queue_pool", "pool", "table_id"),
    sa.Index("ix_lobby_queue_table", "table_id"),
)
"""The quick-play queue (the key: a person is in it once, whatever their tabs and
devices): the rule set's ``pool`` and its ``rules`` (JSON), the rating, since when,
the wait before robots and their level, when a lobby socket last vouched for the
person (``seen_at``), and once seated the table and seat the queue gave them; the
person's ``completion`` rate (``None``: no rated game yet) and the least completion
rate they accept in the people seated with them (``min_completion``)."""

lobby_open = sa.Table(
    "lobby_open",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("creator", sa.String(64), nullable=False),
    sa.Column("listed_at", sa.String(40), nullable=False),
)
"""Tables their creator listed in the lobby as open to everyone."""

lobby_seeks = sa.Table(
    "lobby_seeks",
    metadata,
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
"""Seeks: a table its creator opened in the lobby with conditions (the quick-play
rule set, ``live`` or by ``days``, rated or not, the ratings accepted). One per
person (``creator`` is unique). Until someone accepts it, it lasts while a lobby
socket vouches for its creator (``seen_at``)."""

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("blocked_id", sa.String(64), primary_key=True),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Index("ix_blocks_blocked", "blocked_id"),
)
"""Who blocked whom: never seated together by quick play, no joining the
blocker's open tables."""
