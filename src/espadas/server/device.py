"""A short description of a device from its User-Agent: the browser and the
system, each from a fixed list of names (or ``""`` when the User-Agent does not
say), for the list of uses of a person's resume links. Nothing else of the
User-Agent is kept.

>>> describe("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
...          "(KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36")
('Chrome', 'Android')
>>> describe("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
...          "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
('Safari', 'iPhone')
>>> describe("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0")
('Firefox', 'Windows')
>>> describe(None), describe("curl/8.5.0")
(('', ''), ('', ''))
"""

from __future__ import annotations

BROWSERS = (
    ("Edg", "Edge"),
    ("OPR/", "Opera"),
    ("OPiOS", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
"""Marks found in User-Agents, in the order they are tried (Edge and Opera also
say Chrome, Chrome also says Safari), and the browser each names."""

SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)
"""The same for systems (iPhones say "like Mac OS X", Android says Linux)."""

NAMES = frozenset(name for _, name in BROWSERS + SYSTEMS)
"""Every name :func:`describe` may answer, besides ``""``."""


def describe(user_agent: str | None) -> tuple[str, str]:
    """``(browser, system)`` named by ``user_agent``, each ``""`` when unknown."""
    text = (user_agent or "")[:1000]
    browser = next((name for mark, name in BROWSERS if mark in text), "")
    system = next((name for mark, name in SYSTEMS if mark in text), "")
    return browser, system
