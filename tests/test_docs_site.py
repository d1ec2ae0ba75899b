"""The documentation site builds with MkDocs, warnings as errors: a broken link, a
page missing from the navigation or a navigation entry without its page fails the
suite. ``docs/index.md`` is the README with its links made relative to ``docs/``
(``scripts/docs`` writes it), and must not drift from it.
"""

from __future__ import annotations

import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def nav_pages() -> list[str]:
    lines = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("nav:")
    pages = []
    for line in lines[start + 1 :]:
        if not line.startswith("  - "):
            break
        pages.append(line.rsplit(":", 1)[1].strip())
    return pages


def test_the_site_builds_strict_with_every_page(tmp_path: Path) -> None:
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    pages = nav_pages()
    assert len(pages) >= 10
    assert sorted(pages) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    for page in pages:
        html = "index.html" if page == "index.md" else f"{page[:-3]}/index.html"
        assert (tmp_path / "site" / html).stat().st_size > 1000, page


def test_the_api_reference_is_written_from_the_engine(tmp_path: Path) -> None:
    """The reference page holds every public name of the engine, its examples as
    code blocks and no raw cross-reference role."""
    from espadas import engine

    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    html = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    shown = []
    for name in engine.__all__:
        value = getattr(engine, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            shown.append(f'id="{value.__module__}.{name}"')
    assert len(shown) > 30
    assert [anchor for anchor in shown if anchor not in html] == []
    assert ":class:`" not in html and ":meth:`" not in html
    assert html.count("&gt;&gt;&gt;") > 20  # the doctest examples, shown as code


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    for needed in ("src", "scripts"):  # the API reference reads the code
        (copy / needed).symlink_to(ROOT / needed)
    page = copy / "docs" / "rules.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stdout + done.stderr


def test_the_index_is_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    want = readme.replace("[`docs/`](docs/)", "these pages").replace("](docs/", "](")
    if (ROOT / "docs" / "index.md").read_text(encoding="utf-8") != want:
        pytest.fail("docs/index.md differs from README.md: run scripts/docs")
