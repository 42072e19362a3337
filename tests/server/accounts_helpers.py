"""Signing up and in from a test client (tests/server/test_accounts*.py)."""

from __future__ import annotations

import re
from typing import Any

PASSWORD = "correct horse battery"


def csrf_of(client: Any, path: str = "/signin") -> str:
    """The CSRF token of the forms a page shows this client."""
    found = re.search(r'name="csrf" value="(\w+)"', client.get(path).text)
    assert found is not None, path
    return found[1]


def sign_up(client: Any, name: str, password: str = PASSWORD) -> Any:
    r = client.post("/signup", data={"name": name, "password": password,
                                     "csrf": csrf_of(client, "/signup")},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    return r


def sign_in(client: Any, name: str, password: str = PASSWORD) -> Any:
    return client.post("/signin", data={"name": name, "password": password,
                                        "csrf": csrf_of(client)}, follow_redirects=False)


def errors_of(page: str) -> list[str]:
    block = re.search(r'<div class="errors" role="alert">(.*?)</div>', page, re.S)
    return re.findall(r"<p>(.*?)</p>", block[1]) if block else []
