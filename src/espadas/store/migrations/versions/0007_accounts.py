"""Lasting identity: unique names, sessions, e-mail sign-in, passkeys.

``players`` gains ``name_key`` (the name in NFKC, casefolded; unique),
``deleted_at`` (a deleted account keeps its row, nameless) and
``old_cookies_off``. New tables: ``sessions`` (each device signed in),
``signin_links`` (one-time e-mail links, hashed), ``passkeys`` and
``passkey_challenges`` (WebAuthn).

Names that were already shared: the oldest player (by ``created_at``, then id)
keeps the name; each later one is renamed ``NAME (2)``, ``NAME (3)``… (the name
cut to fit 40 characters), the first number not taken. Names written in past
games' logs are not changed.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NAME_MAX = 40


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def _unique_names(rows: list[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """``{player_id: (name, key)}`` for rows ``(id, name)`` in age order: the first
    of each key keeps its name, the others get the first free ``NAME (n)``.

    >>> names = _unique_names([("a", "Ana"), ("b", "ANA"), ("c", "Ana (2)"), ("d", "ana")])
    >>> [names[p][0] for p in "abcd"]
    ['Ana', 'ANA (3)', 'Ana (2)', 'ana (4)']
    """
    keys = {_key(name) for _, name in rows}
    taken: set[str] = set()
    out: dict[str, tuple[str, str]] = {}
    for player_id, name in rows:
        key = _key(name)
        if key in taken:
            n = 2
            while True:
                suffix = f" ({n})"
                candidate = name[: NAME_MAX - len(suffix)] + suffix
                if _key(candidate) not in taken and _key(candidate) not in keys:
                    break
                n += 1
            name, key = candidate, _key(candidate)
        taken.add(key)
        out[player_id] = (name, key)
    return out


def upgrade() -> None:
    # plain ADD COLUMN (a batch would rebuild ``players``, which others refer to)
    op.add_column("players", sa.Column("name_key", sa.String(160), nullable=True))
    op.add_column("players", sa.Column("deleted_at", sa.String(40), nullable=True))
    op.add_column(
        "players",
        sa.Column("old_cookies_off", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    players = sa.table(
        "players",
        sa.column("id", sa.String(64)),
        sa.column("name", sa.String(80)),
        sa.column("created_at", sa.String(40)),
        sa.column("name_key", sa.String(160)),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(players.c.id, players.c.name).order_by(players.c.created_at, players.c.id)
    ).all()
    for player_id, (name, key) in _unique_names([(r.id, r.name) for r in rows]).items():
        connection.execute(
            players.update().where(players.c.id == player_id).values(name=name, name_key=key)
        )
    op.create_index("ux_players_name_key", "players", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("seen_at", sa.String(40), nullable=False),
        sa.Column("browser", sa.String(20), nullable=False),
        sa.Column("system", sa.String(20), nullable=False),
        sa.Column("how", sa.String(12), nullable=False),
        sa.Column("revoked_at", sa.String(40)),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.create_table(
        "signin_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("expires_at", sa.String(40), nullable=False),
        sa.Column("used_at", sa.String(40)),
    )
    op.create_index("ix_signin_links_player", "signin_links", ["player_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(700), primary_key=True),
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("used_at", sa.String(40)),
        sa.Column("label", sa.String(50), nullable=False),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(12), nullable=False),
        sa.Column("challenge", sa.String(200), nullable=False),
        sa.Column("player_id", sa.String(64)),
        sa.Column("expires_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_index("ix_passkeys_player", "passkeys")
    op.drop_table("passkeys")
    op.drop_index("ix_signin_links_player", "signin_links")
    op.drop_table("signin_links")
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
    op.drop_index("ux_players_name_key", "players")
    for column in ("old_cookies_off", "deleted_at", "name_key"):
        op.drop_column("players", column)  # SQLite 3.35+ drops a column in place
