"""The database schema (SQLAlchemy Core). Migrations in ``migrations/`` create it.

>>> {"players", "tables", "events", "club_ratings"} <= set(metadata.tables)
True

The lobby's tables are on the same metadata, in :mod:`espadas.store.lobby_schema`.
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
    sa.Column("name_key", sa.String(160)),
    sa.Column("deleted_at", sa.String(40)),
    sa.Column("old_cookies_off", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ux_players_name_key", "name_key", unique=True),
)
"""A person. ``name_key`` (the name casefolded, see
:func:`espadas.store.accounts.name_key`) is unique: two people never share a name
in any case. A deleted account keeps its row (``deleted_at``, no name key) so that
whatever names its id still points somewhere; ``old_cookies_off`` ends the
cookies signed before sessions existed (migration 0007)."""

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("seen_at", sa.String(40), nullable=False),
    sa.Column("browser", sa.String(20), nullable=False),
    sa.Column("system", sa.String(20), nullable=False),
    sa.Column("how", sa.String(12), nullable=False),
    sa.Column("revoked_at", sa.String(40)),
    sa.Index("ix_sessions_player", "player_id"),
)
"""A device signed in: the SHA-256 of its session id (the signed cookie carries
the id), how it signed in (``name``, ``resume``, ``email``, ``passkey``) and
when it was last seen (to the hour). A revoked session signs nobody in."""

signin_links = sa.Table(
    "signin_links",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("expires_at", sa.String(40), nullable=False),
    sa.Column("used_at", sa.String(40)),
    sa.Index("ix_signin_links_player", "player_id"),
)
"""A one-time sign-in link sent by e-mail: the SHA-256 of its token only."""

passkeys = sa.Table(
    "passkeys",
    metadata,
    sa.Column("credential_id", sa.String(700), primary_key=True),
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("public_key", sa.Text, nullable=False),
    sa.Column("sign_count", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("used_at", sa.String(40)),
    sa.Column("label", sa.String(50), nullable=False),
    sa.Index("ix_passkeys_player", "player_id"),
)
"""A WebAuthn credential (base64url id and COSE public key) and its sign count."""

passkey_challenges = sa.Table(
    "passkey_challenges",
    metadata,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("purpose", sa.String(12), nullable=False),
    sa.Column("challenge", sa.String(200), nullable=False),
    sa.Column("player_id", sa.String(64)),
    sa.Column("expires_at", sa.String(40), nullable=False),
)
"""A WebAuthn challenge waiting for its answer, bound to the session (or, before
signing in, to a cookie of its own) whose hash is ``key_hash``; used once."""

resume_links = sa.Table(
    "resume_links",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("revoked_at", sa.String(40)),
    sa.Index("ix_resume_links_player", "player_id"),
)
"""A resume link: the SHA-256 of its token (the token itself is never stored)."""

resume_uses = sa.Table(
    "resume_uses",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("browser", sa.String(20), nullable=False),
    sa.Column("system", sa.String(20), nullable=False),
    sa.Index("ix_resume_uses_player", "player_id", "at"),
)
"""Each use of a resume link: when, and the browser and system it came from."""

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

contacts = sa.Table(
    "contacts",
    metadata,
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("email", sa.String(254)),
    sa.Column("confirmed", sa.Boolean, nullable=False),
    sa.Column("confirm_token", sa.String(64), unique=True),
    sa.Column("unsubscribe_token", sa.String(64), nullable=False, unique=True),
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

push_subscriptions = sa.Table(
    "push_subscriptions",
    metadata,
    sa.Column("endpoint", sa.String(1000), primary_key=True),
    sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Index("ix_push_player", "player_id"),
)

notice_modes = sa.Table(
    "notice_modes",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("mode", sa.String(8), nullable=False),
)

notices = sa.Table(
    "notices",
    metadata,
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
    sa.Index("ix_notices_due", "state", "due_at"),
    sa.Index("ix_notices_player_table", "player_id", "table_id", "sent_at"),
    sa.Index("ix_notices_table", "table_id", "state", "version"),
)

seen = sa.Table(
    "seen",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
)

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("level", sa.String(16), primary_key=True),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("data", sa.Text),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)
"""The analysis of a finished game, one per table and level: ``status``
``queued``, ``running``, ``done`` or ``failed``; ``done`` of ``total`` decisions
judged; ``data`` the ``espadas-analysis/1`` JSON once done; ``owner`` the server
instance running it, which touches ``updated_at`` as it goes."""
# -- the daily challenge (migration 0008) -------------------------------------------
challenges = sa.Table(
    "challenges",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("boards", sa.Text, nullable=False),
    sa.Column("robots", sa.String(200), nullable=False),
    sa.Column("par", sa.Text),
    sa.Column("created_at", sa.String(40), nullable=False),
)
"""One challenge a day (the key: two instances cannot both create it): its boards
file with every deal and salt (kept server-side until the day closes), its set
commitment, the robots' levels (JSON) and par (JSON, once the robots played it)."""

challenge_attempts = sa.Table(
    "challenge_attempts",
    metadata,
    sa.Column("day", sa.String(10), sa.ForeignKey("challenges.day"), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("table_id", sa.String(64), nullable=False, unique=True),
    sa.Column("started_at", sa.String(40), nullable=False),
    sa.Column("left_at", sa.String(40)),
    sa.Column("left_board", sa.Integer),
    sa.Column("finished_at", sa.String(40)),
)
"""A player's one attempt at a day's challenge (the key: one per player and day).
``left_board``: the boards from this number on were played by the robot."""

challenge_results = sa.Table(
    "challenge_results",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("robot", sa.Boolean, nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.ForeignKeyConstraint(
        ["day", "player_id"], ["challenge_attempts.day", "challenge_attempts.player_id"]
    ),
)
"""Each finished board of an attempt: the deal score of the player's side, and
whether the robot in their seat played it (after they left)."""
# -- duplicate events among people (migration 0009) --------------------------------
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("organiser_id", sa.String(64), nullable=False),
    sa.Column("organiser_name", sa.String(80), nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("boards", sa.Text, nullable=False),
    sa.Column("token", sa.String(40), nullable=False),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("started_at", sa.String(40)),
    sa.Column("finished_at", sa.String(40)),
    sa.Index("ix_tournaments_created", "created_at"),
)
"""A duplicate event (``espadas.tables.tournament``): its choices (``spec``, JSON),
its boards file with every deal and salt (kept server-side until it ends), the set
commitment (public), the join link's token, ``status`` ``open``, ``playing`` or
``finished`` and the round being played (0 before the start)."""

tournament_entrants = sa.Table(
    "tournament_entrants",
    metadata,
    sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("joined_at", sa.String(40), nullable=False),
)
"""Who joined an event (the key: once each)."""

tournament_tables = sa.Table(
    "tournament_tables",
    metadata,
    sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False, unique=True),
    sa.Column("seats", sa.Text, nullable=False),
)
"""Each table of each round: its table id and the player id at each seat (JSON,
null for a robot)."""

# -- the challenge rating (migration 0010) -------------------------------------------
challenge_ratings = sa.Table(
    "challenge_ratings",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("days", sa.Integer, nullable=False),
    sa.Column("boards", sa.Integer, nullable=False),
    sa.Column("above", sa.Float, nullable=False),
    sa.Column("last_day", sa.String(10), nullable=False),
)
"""Each player's challenge rating (espadas.tables.challenge_rating): OpenSkill's
``mu`` and ``sigma``, the days rated, and the points above the field summed over
their ``boards``."""

challenge_rated_days = sa.Table(
    "challenge_rated_days",
    metadata,
    sa.Column("day", sa.String(10), sa.ForeignKey("challenges.day"), primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rated_at", sa.String(40), nullable=False),
)
"""The days already counted in the challenge ratings (the key: once each, written
in the same transaction as the ratings it moved)."""
# -- the club: ratings and statistics (see espadas.store.club) -----------
STAT_COLUMNS = (
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
"""The statistics kept per seat and per subject (espadas.tables.statistics)."""


def _stat_columns() -> list[sa.Column[int]]:
    return [sa.Column(name, sa.Integer, nullable=False) for name in STAT_COLUMNS]


club_games = sa.Table(
    "club_games",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), nullable=False, unique=True),
    sa.Column("finished_at", sa.String(40), nullable=False),
    sa.Column("preset", sa.String(20), nullable=False),
    sa.Column("kind", sa.String(12), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("reason", sa.String(20), nullable=False),
)
"""Each finished game counted once (``table_id`` unique: a retried end counts once);
``n`` is the order in which games were counted (and are counted again by a rebuild)."""

club_seats = sa.Table(
    "club_seats",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("subject", sa.String(64), nullable=False),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("side", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    *_stat_columns(),
    sa.Index("ix_club_seats_subject", "subject", "n", "seat"),
)
"""Each seat of each finished game: who sat there, its result and its statistics
(``name``: a robot's; a person's name is read from ``players``, never kept here)."""

club_ratings = sa.Table(
    "club_ratings",
    metadata,
    sa.Column("subject", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(12), primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),
    sa.Column("uncertainty", sa.Integer, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("won", sa.Integer, nullable=False),
    sa.Index("ix_club_ratings_board", "kind", "rating", "subject"),
)
"""Each subject's rating of each kind (``partnership``, ``individual``)."""

club_history = sa.Table(
    "club_history",
    metadata,
    sa.Column("subject", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(12), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),
    sa.Column("uncertainty", sa.Integer, nullable=False),
)
"""A subject's rating after each rated game."""

club_stats = sa.Table(
    "club_stats",
    metadata,
    sa.Column("subject", sa.String(64), primary_key=True),
    *_stat_columns(),
)
"""Each subject's statistics summed over every game (rated or not)."""

club_partners = sa.Table(
    "club_partners",
    metadata,
    sa.Column("subject", sa.String(64), primary_key=True),
    sa.Column("partner", sa.String(64), primary_key=True),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("won", sa.Integer, nullable=False),
    sa.Index("ix_club_partners_games", "subject", "games"),
)
"""Partnership games of each subject with each partner (both ways), rated or not."""

club_buckets = sa.Table(
    "club_buckets",
    metadata,
    sa.Column("kind", sa.String(12), primary_key=True),
    sa.Column("preset", sa.String(20), primary_key=True),
    sa.Column("period", sa.String(12), primary_key=True),
    sa.Column("subject", sa.String(64), primary_key=True),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("won", sa.Integer, nullable=False),
)
"""Rated games and wins per subject by preset (``*``: any) and period (``all``,
``y2026``, ``m2026-12``, ``w2026-49``): what the filtered leaderboards count."""

club_pairs = sa.Table(
    "club_pairs",
    metadata,
    sa.Column("preset", sa.String(20), primary_key=True),
    sa.Column("period", sa.String(12), primary_key=True),
    sa.Column("first", sa.String(64), primary_key=True),
    sa.Column("second", sa.String(64), primary_key=True),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("won", sa.Integer, nullable=False),
    sa.Column("share", sa.Double, nullable=False),
    sa.Index("ix_club_pairs_board", "preset", "period", "share", "games"),
)
"""Rated partnership games of each pair (``first < second``) by preset and period;
``share`` is won / games from 3 games on, else -1 (not ranked yet)."""

club_hidden = sa.Table(
    "club_hidden",
    metadata,
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("at", sa.String(40), nullable=False),
)
"""Players who chose to be left out of the leaderboards."""
