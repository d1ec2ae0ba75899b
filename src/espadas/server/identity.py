"""Who is asking: a signed cookie holds the player's id; no passwords.

A visitor picks a display name and gets two cookies: ``espadas_player`` (the
signed player id, HttpOnly) and ``espadas_csrf`` (a random token the page
sends back in the ``X-CSRF-Token`` header of every change: double-submit CSRF
protection).

>>> ids = Identity("k" * 32)
>>> ids.read(ids.sign("p1")), ids.read("p1.forged"), ids.read(None)
('p1', None, None)
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
        self._checked: dict[str, str] = {}
        """Cookies already verified (a signature is checked once per cookie)."""

    def sign(self, player_id: str) -> str:
        return str(self._serializer.dumps(player_id))

    def read(self, cookie: str | None) -> str | None:
        """The player id in ``cookie``, or ``None`` if absent or forged."""
        if not cookie or len(cookie) > 512:
            return None
        known = self._checked.get(cookie)
        if known is not None:
            return known
        try:
            value = self._serializer.loads(cookie)
        except BadSignature:
            return None
        if not isinstance(value, str):
            return None
        if len(self._checked) >= 100_000:
            self._checked.clear()
        self._checked[cookie] = value
        return value
