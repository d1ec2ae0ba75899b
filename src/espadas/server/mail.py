"""E-mail: the texts of notices (Spanish or English) and sending over SMTP.

Sending is off until the administrator sets an SMTP host. Messages are plain
text and always carry the table's link, the person's resume link and an
unsubscribe link that works without signing in.

Headers are built from safe text only: whatever goes into ``From`` and
``Subject`` (a subject names the table's creator) has its control and format
characters made spaces first, so a name stored with CR/LF before the name rule
can neither add a header nor stop the message from being built; ``To`` must be
a plausible address or :func:`compose` raises ``ValueError``.

>>> message = compose("Ana <a@example.org>", "luis@example.org", "Asunto", ["Hola", "", "Adiós"])
>>> message["To"], message.get_content().splitlines()[0]
('luis@example.org', 'Hola')
>>> compose("a@example.org", "l@example.org", "Mesa de Evil\\r\\nBcc: x@example.org", [])["Subject"]
'Mesa de Evil Bcc: x@example.org'
"""

from __future__ import annotations

import asyncio
import functools
import re
import smtplib
import ssl
import unicodedata
from email.message import EmailMessage

from espadas.server.settings import Settings

EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,185}\.[A-Za-z]{2,24}$")
UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
"""Categories that never reach a message as they are (the zero-width joiners
of emoji and some scripts excepted)."""
JOINERS = frozenset({"\u200c", "\u200d"})


def valid_email(text: str) -> bool:
    """A plausible address (the confirmation link proves it).

    >>> valid_email("ana@example.org"), valid_email("ana@localhost"), valid_email("a b@x.org")
    (True, False, False)
    >>> valid_email("ana@example.org\\r\\nBcc: x@example.org"), valid_email("a\\x00@example.org")
    (False, False)
    """
    return len(text) <= 254 and text.isprintable() and EMAIL.match(text) is not None


def plain(text: str) -> str:
    """``text`` with every control or format character made a space (line
    breaks, tabs, bidirectional controls, zero-width spaces…).

    >>> plain("Evil\\r\\nBcc:\\u202e x")
    'Evil  Bcc:  x'
    """
    return "".join(
        " " if unicodedata.category(c) in UNSAFE and c not in JOINERS else c for c in text
    )


def header_text(text: str) -> str:
    """``text`` as it may stand in a header: :func:`plain`, runs of spaces one, trimmed."""
    return " ".join(plain(text).split())


def compose(sender: str, to: str, subject: str, lines: list[str]) -> EmailMessage:
    """A plain-text message. Raises ``ValueError`` when ``to`` is not a plausible
    address (an address stored by hand, say); the sender and subject are made
    safe for a header and each line is made :func:`plain`."""
    if not valid_email(to):
        raise ValueError(f"not a valid e-mail address: {to[:80]!r}")
    message = EmailMessage()
    message["From"] = header_text(sender)
    message["To"] = to
    message["Subject"] = header_text(subject)
    message.set_content("\n".join(plain(line) for line in lines) + "\n")
    return message


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS context of every message (made once: loading the system's
    certificates takes some 20 ms of processor time)."""
    return ssl.create_default_context()


def _send(settings: Settings, message: EmailMessage) -> None:
    host = settings.smtp_host
    if host is None:
        raise RuntimeError("no SMTP server is configured")
    smtp: smtplib.SMTP
    if settings.smtp_tls == "ssl":
        smtp = smtplib.SMTP_SSL(host, settings.smtp_port, context=_tls(), timeout=30)
    else:
        smtp = smtplib.SMTP(host, settings.smtp_port, timeout=30)
    with smtp:
        if settings.smtp_tls == "starttls":
            smtp.starttls(context=_tls())
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password or "")
        smtp.send_message(message)


async def send(settings: Settings, message: EmailMessage) -> None:
    """Sends ``message`` (in a thread: smtplib blocks). Raises on failure."""
    await asyncio.to_thread(_send, settings, message)
