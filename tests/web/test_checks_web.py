"""The page checks the browser tests share find what they are there to find: axe-core
(put in a document once, then run again on the document as it has become)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from web_helpers import axe_clean

UNLABELLED = """<!doctype html><html lang="en"><head><title>t</title></head>
<body><main><h1>t</h1><button id="b"></button></main></body></html>"""


def test_axe_finds_a_violation_then_sees_it_mended(browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_content(UNLABELLED)
    with pytest.raises(AssertionError, match="button-name"):
        axe_clean(page, "unlabelled")
    assert page.evaluate("typeof window.axe") == "object"
    # the same document, axe-core already in it: the audit reads the page as it is now
    page.evaluate("document.getElementById('b').textContent = 'Go'")
    axe_clean(page, "labelled")
    page.evaluate("document.getElementById('b').textContent = ''")
    with pytest.raises(AssertionError, match="button-name"):
        axe_clean(page, "unlabelled again")
    context.close()
