"""The app's bitmap icons, drawn again from ``src/espadas/web/static/icon.svg``.

Renders the SVG in Debian's chromium (Playwright) and writes, beside it:

- ``icon-192.png`` and ``icon-512.png``: the icon as it is (rounded corners,
  transparent outside them), the manifest's ``any`` icons;
- ``icon-maskable-512.png``: the felt square to the edges and the spade inside
  the central circle a launcher may keep (80 % of the side), the ``maskable`` icon;
- ``apple-touch-icon.png`` (180 px): the felt square to the edges, for iOS,
  which fills transparent corners with black;
- ``favicon.ico``: 16, 32 and 48 px PNG images in one ICO file, served at
  ``/favicon.ico``.

Run it after a change to ``icon.svg``: ``.venv/bin/python scripts/icons.py``;
the files it writes are committed (the server only reads them).
"""

from __future__ import annotations

import re
import shutil
import struct
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "espadas" / "web" / "static"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def full_bleed(svg: str, font_size: int) -> str:
    """``svg`` with square corners and the spade drawn at ``font_size`` (of 32),
    its middle at the middle of the square."""
    square = svg.replace(' rx="6"', "")
    baseline = 16 + font_size * 0.3  # the glyph's middle sits 0.3 em above its baseline
    return re.sub(
        r'y="24" font-size="22"',
        f'y="{baseline:.2f}" font-size="{font_size}"',
        square,
    )


def render(page: Page, svg: str, size: int) -> bytes:
    """The PNG of ``svg`` drawn ``size`` pixels square, transparent where it draws nothing."""
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
        f"svg{{display:block;width:{size}px;height:{size}px}}</style></head>"
        f"<body>{svg}</body></html>"
    )
    return page.screenshot(omit_background=True)


def ico(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO file holding each ``(size, png)`` as a PNG image (read since Windows Vista
    and by every browser)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, data = b"", b""
    for size, png in images:
        side = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(data))
        data += png
    return header + entries + data


def main() -> None:
    """Writes the icons beside ``icon.svg``."""
    svg = (STATIC / "icon.svg").read_text("utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        outputs = {
            "icon-192.png": render(page, svg, 192),
            "icon-512.png": render(page, svg, 512),
            "icon-maskable-512.png": render(page, full_bleed(svg, 22), 512),
            "apple-touch-icon.png": render(page, full_bleed(svg, 22), 180),
            "favicon.ico": ico([(size, render(page, svg, size)) for size in (16, 32, 48)]),
        }
        browser.close()
    for name, content in outputs.items():
        (STATIC / name).write_bytes(content)
        print(f"{name}: {len(content)} bytes")


if __name__ == "__main__":
    main()
