"""E-mail: the texts of notices (Spanish or English) and sending over SMTP.

Sending is off until the administrator sets an SMTP host. Messages are plain
text and always carry the table's link, the person's resume link and an
unsubscribe link that works without signing in.

>>> message = compose("Ana <a@example.org>", "luis@example.org", "Asunto", ["Hola", "", "Adiós"])
>>> message["To"], message.get_content().splitlines()[0]
('luis@example.org', 'Hola')
"""

from __future__ import annotations

import asyncio
import re
import smtplib
import ssl
from email.message import EmailMessage

from espadas.server.settings import Settings

EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,185}\.[A-Za-z]{2,24}$")


def valid_email(text: str) -> bool:
    """A plausible address (the confirmation link proves it).

    >>> valid_email("ana@example.org"), valid_email("ana@localhost"), valid_email("a b@x.org")
    (True, False, False)
    """
    return len(text) <= 254 and EMAIL.match(text) is not None


def compose(sender: str, to: str, subject: str, lines: list[str]) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message.set_content("\n".join(lines) + "\n")
    return message


def _send(settings: Settings, message: EmailMessage) -> None:
    host = settings.smtp_host
    if host is None:
        raise RuntimeError("no SMTP server is configured")
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.smtp_tls == "ssl":
        smtp = smtplib.SMTP_SSL(host, settings.smtp_port, context=context, timeout=30)
    else:
        smtp = smtplib.SMTP(host, settings.smtp_port, timeout=30)
    with smtp:
        if settings.smtp_tls == "starttls":
            smtp.starttls(context=context)
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password or "")
        smtp.send_message(message)


async def send(settings: Settings, message: EmailMessage) -> None:
    """Sends ``message`` (in a thread: smtplib blocks). Raises on failure."""
    await asyncio.to_thread(_send, settings, message)
