"""Server settings: where the data lives, limits, robots offered at tables.

>>> s = Settings(data=Path("/tmp/espadas"))
>>> s.db_url
'sqlite:////tmp/espadas/espadas.db'
>>> s.robot_levels()
('aleatorio', 'normal', 'experto')
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from espadas.robots.registry import LEVELS
from espadas.tables.clock import TURN_LIMIT, Clock, SystemClock


@dataclass
class Settings:
    """Everything ``espadas serve`` can be told (defaults suit one machine)."""

    data: Path = Path("espadas-data")
    db: str | None = None
    """A database URL; by default a SQLite file ``espadas.db`` in ``data``."""
    turn_limit: timedelta = TURN_LIMIT
    drop_wait_s: float = 90.0
    """In live games (turn limit under an hour), how long a seat waits for a person
    whose connection dropped before the absent rule applies (0: it does not wait)."""
    robot_budget_ms: float = 100.0
    """Thinking time of ``experto`` per decision."""
    robot_timeout_s: float = 10.0
    """A robot that has not answered by then is replaced by a legal move."""
    robot_workers: int = 2
    robot_queue: str | None = None
    """A Redis URL: robot decisions go to ``espadas worker`` processes (arq)
    instead of this instance's process pool."""
    robot_queue_name: str = "espadas:robots"
    analysis_budget_ms: float = 40.0
    """Search per decision of a game's analysis at level ``experto`` (``maestro``
    searches 4 times as long); ``espadas analyze`` searches 150 ms."""
    analyses_running: int = 1
    """Analyses this instance runs at once (each one part at a time in the robot
    workers, so robots keep the other workers)."""
    analyses_waiting: int = 20
    """Analyses that may wait for their turn; beyond, a request is refused (503)."""
    external_robots: dict[str, str] = field(default_factory=dict)
    """Extra robot names offered at tables: name -> command line of a program
    speaking ``espadas-robot/1``. Only the administrator sets these."""
    max_body: int = 16 * 1024
    rate: float = 20.0
    """Requests per second a client may keep up."""
    burst: float = 120.0
    """Requests a client may make at once."""
    rate_store: str | None = None
    """A Redis URL where the rate limits are counted, shared by every instance
    given the same one; by default each instance counts in its own memory."""
    sockets_per_player: int = 20
    """Live sockets one player may keep open (per instance)."""
    sockets_per_address: int = 50
    """Live sockets one address may keep open (per instance)."""
    secret: str | None = None
    """The key that signs cookies; by default kept in ``data/secret.key``."""
    clock: Clock = field(default_factory=SystemClock)
    public_url: str | None = None
    """The address people use, for links (default: the request's own)."""
    local_url: str = "http://localhost:8000"
    """Where this server listens, for the links of mails when there is no
    ``public_url`` (mails answer no request whose address they could take)."""
    smtp_host: str | None = None
    """The SMTP server for e-mail notices; none: e-mail is off."""
    smtp_port: int = 587
    smtp_tls: str = "starttls"
    """``starttls``, ``ssl`` or ``none``."""
    smtp_user: str | None = None
    smtp_password: str | None = None
    mail_from: str = "Espadas <espadas@localhost>"
    notices: bool = True
    """Whether this instance sends notices (the outbox is kept either way)."""
    notice_delay: timedelta = timedelta(seconds=60)
    """How long a turn waits before its notice goes out (no notice if the person
    acts, or is looking at the table, in the meantime)."""
    notice_interval: timedelta = timedelta(minutes=15)
    """At most one notice per table and person in this time."""
    notice_poll_s: float = 5.0
    digest_hour: int = 8
    """The hour (UTC) at which daily digests go out."""
    unique_names: bool = True
    """Whether two people may never share a name (in any case). Only the test
    suite turns it off, for its modules that sign in "Ana" once per test."""
    rp_id: str | None = None
    """The WebAuthn relying party id (a host name) for passkeys; by default the
    host of ``public_url``, else of the request."""
    signin_per_address: int = 5
    """Sign-in links one e-mail address may be sent per 15 minutes (and ten
    times that per client address)."""
    push_subject: str = "mailto:espadas@localhost"
    """Who runs this server, for Web Push services (VAPID ``sub``)."""
    challenge_start: str = "00:00"
    """When each day's challenge opens (UTC, ``HH:MM``); the day before closes then."""
    challenge_boards: int = 8
    """The boards of a daily challenge."""
    challenge_preset: str = "estandar"
    """The rule set of the daily challenge (renege is prevented whatever the preset)."""
    challenge_partner: str = "experto"
    """The level of the robot partner (and of the robot in the player's seat for par)."""
    challenge_opponents: str = "experto"
    """The level of the robot opponents."""
    lobby_wait_s: float = 20.0
    """How long quick play waits for people before robots take the free seats
    (each person may choose their own, 1 to 300 s)."""
    lobby_arrival_s: float = 20.0
    """How long a seat quick play gave waits for its person to open the table before
    a robot takes it."""
    lobby_tick_s: float = 0.25
    """How often each instance forms quick-play tables and updates its lobby sockets."""
    push_allow_private: bool = False
    """TEST ONLY: accept and contact Web Push endpoints on loopback, private and
    other non-public addresses, over plain ``http`` too (the suite's own push
    service runs on 127.0.0.1). No command-line flag sets it; never turn it on
    for a server people use: the server would POST wherever a browser says."""

    @property
    def db_url(self) -> str:
        return self.db or f"sqlite:///{self.data / 'espadas.db'}"

    def robot_levels(self) -> tuple[str, ...]:
        """The robot names a table's creator may choose."""
        return (*LEVELS, *self.external_robots)

    def signing_key(self) -> str:
        """The cookie-signing secret, made and kept in ``data/secret.key`` on first use."""
        if self.secret:
            return self.secret
        path = self.data / "secret.key"
        if not path.exists():
            self.data.mkdir(parents=True, exist_ok=True)
            path.touch(mode=0o600)
            path.write_text(secrets.token_urlsafe(32))
        self.secret = path.read_text().strip()
        return self.secret
