"""Who is asking: a signed cookie holds the player's id and session; no passwords.

A visitor picks a display name and gets two cookies: ``espadas_player`` (the
signed ``[player id, session id]``, HttpOnly) and ``espadas_csrf`` (a random
token the page sends back in the ``X-CSRF-Token`` header of every change:
double-submit CSRF protection). The session is checked on every request (see
:mod:`espadas.store.sessions`), so signing a device out ends it. A cookie signed
before sessions carries the player id alone (``read_session`` answers no
session for it).

>>> ids = Identity("k" * 32)
>>> ids.read(ids.sign("p1", "s1")), ids.read_session(ids.sign("p1", "s1"))
('p1', ('p1', 's1'))
>>> ids.read(ids.sign_old("p1")), ids.read_session(ids.sign_old("p1"))
('p1', ('p1', None))
>>> ids.read("p1.forged"), ids.read(None)
(None, None)
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeSerializer

PLAYER_COOKIE = "espadas_player"
CSRF_COOKIE = "espadas_csrf"
CSRF_HEADER = "x-csrf-token"
COOKIE_AGE = 400 * 24 * 3600


class Identity:
    """Signs and reads the player cookie."""

    def __init__(self, key: str) -> None:
        self._serializer = URLSafeSerializer(key, salt="espadas-player")
        self._checked: dict[str, tuple[str, str | None]] = {}
        """Cookies already verified (a signature is checked once per cookie)."""

    def sign(self, player_id: str, session_id: str) -> str:
        return str(self._serializer.dumps([player_id, session_id]))

    def sign_old(self, player_id: str) -> str:
        """A cookie as signed before sessions (for tests of the old cookies)."""
        return str(self._serializer.dumps(player_id))

    def read(self, cookie: str | None) -> str | None:
        """The player id in ``cookie``, or ``None`` if absent or forged."""
        found = self.read_session(cookie)
        return None if found is None else found[0]

    def read_session(self, cookie: str | None) -> tuple[str, str | None] | None:
        """``(player id, session id)`` in ``cookie`` (session None for a cookie
        signed before sessions), or ``None`` if absent or forged."""
        if not cookie or len(cookie) > 512:
            return None
        known = self._checked.get(cookie)
        if known is not None:
            return known
        try:
            value = self._serializer.loads(cookie)
        except BadSignature:
            return None
        found: tuple[str, str | None]
        if isinstance(value, str):
            found = (value, None)
        elif isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
            found = (value[0], value[1])
        else:
            return None
        if len(self._checked) >= 100_000:
            self._checked.clear()
        self._checked[cookie] = found
        return found
