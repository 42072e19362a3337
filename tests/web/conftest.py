"""The `browser` marker of the browser tests (`-m browser`, or `-m "not browser"` to skip),
Debian's chromium with the flags this machine needs, and the one `browser` fixture of the
modules that drive it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the real server with Debian's chromium (tests/web)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless chromium per module (never a downloaded browser)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
