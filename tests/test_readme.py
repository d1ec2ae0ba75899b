"""The README is a landing page: at most 200 lines, what Espadas is in Spanish and
English, the two commands, the terminal game, links into the documentation, and
three pictures (the table on a phone and on a desktop, the analysis of a hand)
that live in ``docs/images`` and that ``scripts/screenshots`` takes again."""

from __future__ import annotations

import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PICTURES = {"table-phone.png": (360, 640), "table-desktop.png": (1280, 800)}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_readme_is_short() -> None:
    lines = README.splitlines()
    assert len(lines) <= 200, len(lines)


def test_it_says_what_espadas_is_and_how_to_start() -> None:
    assert "es un club de Spades" in README
    assert "is a self-hosted Spades club" in README
    assert "scripts/run " in README and "scripts/test " in README
    assert "## Play in the terminal in one minute" in README
    assert "scripts/run play" in README


def test_every_picture_is_in_the_repository_and_shown() -> None:
    shown = re.findall(r"!\[([^\]]+)\]\((docs/images/[^)]+\.png)\)", README)
    names = {Path(path).name for _, path in shown}
    assert names == {"table-phone.png", "table-desktop.png", "analysis.png"}
    for alt, path in shown:
        picture = ROOT / path
        assert picture.is_file(), path
        assert len(alt) > 20, path  # a description a screen reader can read
        assert picture.stat().st_size < 400 * 1024, path
    for name, size in PICTURES.items():
        assert png_size(ROOT / "docs" / "images" / name) == size, name
    assert (ROOT / "scripts" / "screenshots").is_file()
    assert "scripts/screenshots" in README


def test_every_link_leads_to_a_page_of_the_documentation() -> None:
    links = re.findall(r"(?<!!)\[[^\]]+\]\((docs/[^)#]*)", README)
    assert len(links) >= 8
    for link in links:
        assert (ROOT / link).exists(), link
