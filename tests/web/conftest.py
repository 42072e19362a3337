"""The `browser` marker of the browser tests (`-m browser`, or `-m "not browser"` to skip)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the real server with Debian's chromium (tests/web)")
