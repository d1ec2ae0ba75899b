"""Ratings and statistics of the club.

``club_games`` counts each finished game once (its table id is unique), in the
order ``n``; ``club_seats`` keeps each seat's result and statistics;
``club_ratings`` and ``club_history`` the OpenSkill ratings per subject and kind;
``club_stats``, ``club_partners``, ``club_buckets`` and ``club_pairs`` the sums the
profile and the leaderboards read; ``club_hidden`` the players left out of the
leaderboards. Games finished before this revision are counted by
``espadas ratings rebuild``.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

STATS = (
    "games",
    "won",
    "hands",
    "contracts",
    "contracts_made",
    "nil_bid",
    "nil_made",
    "blind_nil_bid",
    "blind_nil_made",
    "bags",
    "tricks_over",
    "tricks_under",
    "bostons",
    "reneges_accused",
    "reneges_proven",
    "points",
)


def _stats() -> list[sa.Column[int]]:
    return [sa.Column(name, sa.Integer, nullable=False) for name in STATS]


def _id(name: str, primary: bool = True) -> sa.Column[str]:
    return sa.Column(name, sa.String(64), primary_key=primary, nullable=False)


def upgrade() -> None:
    op.create_table(
        "club_games",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), nullable=False, unique=True),
        sa.Column("finished_at", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
    )
    op.create_table(
        "club_seats",
        _id("table_id"),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        _id("subject", primary=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        *_stats(),
    )
    op.create_index("ix_club_seats_subject", "club_seats", ["subject", "n", "seat"])
    op.create_table(
        "club_ratings",
        _id("subject"),
        sa.Column("kind", sa.String(12), primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("uncertainty", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
    )
    op.create_index("ix_club_ratings_board", "club_ratings", ["kind", "rating", "subject"])
    op.create_table(
        "club_history",
        _id("subject"),
        sa.Column("kind", sa.String(12), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("uncertainty", sa.Integer, nullable=False),
    )
    op.create_table("club_stats", _id("subject"), *_stats())
    op.create_table(
        "club_partners",
        _id("subject"),
        _id("partner"),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
    )
    op.create_index("ix_club_partners_games", "club_partners", ["subject", "games"])
    op.create_table(
        "club_buckets",
        sa.Column("kind", sa.String(12), primary_key=True),
        sa.Column("preset", sa.String(20), primary_key=True),
        sa.Column("period", sa.String(12), primary_key=True),
        _id("subject"),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
    )
    op.create_table(
        "club_pairs",
        sa.Column("preset", sa.String(20), primary_key=True),
        sa.Column("period", sa.String(12), primary_key=True),
        _id("first"),
        _id("second"),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("share", sa.Double, nullable=False),
    )
    op.create_index("ix_club_pairs_board", "club_pairs", ["preset", "period", "share", "games"])
    op.create_table(
        "club_hidden",
        _id("player_id"),
        sa.Column("at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("club_hidden")
    op.drop_index("ix_club_pairs_board", "club_pairs")
    op.drop_table("club_pairs")
    op.drop_table("club_buckets")
    op.drop_index("ix_club_partners_games", "club_partners")
    op.drop_table("club_partners")
    op.drop_table("club_stats")
    op.drop_table("club_history")
    op.drop_index("ix_club_ratings_board", "club_ratings")
    op.drop_table("club_ratings")
    op.drop_index("ix_club_seats_subject", "club_seats")
    op.drop_table("club_seats")
    op.drop_table("club_games")
