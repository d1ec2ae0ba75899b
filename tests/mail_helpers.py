"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives, for the
notice tests; the ``smtp`` fixture in conftest.py starts one."""

from __future__ import annotations

import email
import time
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from espadas.tables.clock import FakeClock
from server_helpers import settings_for


def until(check: Callable[[], bool], what: str, timeout: float = 15) -> None:
    """Waits until ``check()`` is true, or fails with ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"never: {what}")


class Sink:
    """An SMTP handler that keeps every message with its envelope recipients."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], EmailMessage]] = []

    @property
    def messages(self) -> list[EmailMessage]:
        return [m for _, m in self.received]

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        self.received.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages whose envelope names ``address``."""
        return [m for rcpt, m in self.received if address in rcpt]

    def wait(self, address: str, count: int, timeout: float = 15) -> list[EmailMessage]:
        """Waits for ``count`` messages to ``address``; fails naming what came."""
        try:
            until(lambda: len(self.to(address)) >= count, f"{count} mails to {address}", timeout)
        except AssertionError:
            subjects = [m["Subject"] for m in self.to(address)]
            raise AssertionError(
                f"{address}: {len(subjects)} mails, wanted {count}: {subjects}"
            ) from None
        return self.to(address)


def notice_settings(tmp: Path, port: int, clock: FakeClock, **kw: Any) -> Any:
    """A server's settings for the notice tests: mail to the loopback SMTP server on
    ``port``, time from ``clock``, notices due at once, polled often."""
    values: dict[str, Any] = {
        "clock": clock,
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "smtp_host": "127.0.0.1",
        "smtp_port": port,
        "smtp_tls": "none",
        "notice_poll_s": 0.05,
        "public_url": "http://espadas.test",
    }
    values.update(kw)
    values.setdefault("notice_delay", timedelta(0))
    return settings_for(tmp, **values)
