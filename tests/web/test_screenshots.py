"""The picture script (tools/screenshots.py) runs its whole path for one picture: its own
server on a free port, Debian's chromium, a PNG of the page's size in a palette of colours,
the server stopped."""

from __future__ import annotations

import struct
import urllib.request
from pathlib import Path

import pytest
from tools.screenshots import PICTURES, ShotError, main, make_screenshots, running_server

from tests.web.test_browser import pytestmark  # noqa: F401  (the browser marks)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_header(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type (3: a palette) from a PNG's header chunk."""
    head = path.read_bytes()[:26]
    assert head[:8] == PNG_SIGNATURE and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height, head[25]


def test_one_picture_is_taken_into_the_folder_given(tmp_path: Path) -> None:
    written = make_screenshots(tmp_path, ["lobby"])
    assert written == [tmp_path / "lobby.png"]
    assert png_header(written[0]) == (1280, 800, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lobby.png"]


def test_an_unknown_picture_is_refused_before_anything_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ShotError) as err:
        make_screenshots(tmp_path / "out", ["lobby", "kitchen"])
    assert str(err.value) == f"no picture called kitchen (there are {', '.join(PICTURES)})"
    assert main(["--out", str(tmp_path / "out"), "kitchen"]) == 1
    assert capsys.readouterr().err == (f"screenshots: no picture called kitchen (there are "
                                       f"{', '.join(PICTURES)})\n")
    assert not (tmp_path / "out").exists()


def test_the_scripts_server_is_stopped_when_it_is_done(tmp_path: Path) -> None:
    with running_server(tmp_path) as base, \
            urllib.request.urlopen(f"{base}/healthz", timeout=10) as resp:
        assert resp.status == 200
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{base}/healthz", timeout=10)
    assert (tmp_path / "screenshots.db").exists()
