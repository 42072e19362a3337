"""``twinrack serve``: bad options give one line and exit 2 before anything is started or
announced; good ones reach the server's entry point."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from twinrack.cli import main


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Stand in for the server: record that it was started, start nothing; the settings
    the command passes on through the environment are undone after the test."""
    calls: list[str] = []
    monkeypatch.setattr("twinrack.server.app.main", lambda: calls.append("started"))
    for name in ("TWINRACK_HOST", "TWINRACK_PORT", "TWINRACK_DATABASE_URL"):
        monkeypatch.setenv(name, "")  # remembers the value before, to put it back
        monkeypatch.delenv(name)
    return calls


def free_port() -> str:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return str(free.getsockname()[1])


def refused(capsys: pytest.CaptureFixture[str], started: list[str], *args: str) -> str:
    assert main(["serve", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not started
    assert captured.err.count("\n") == 1 and captured.err.startswith("twinrack: ")
    assert "Traceback" not in captured.err
    return captured.err.removeprefix("twinrack: ").rstrip("\n")


@pytest.mark.parametrize("port", ["-1", "0", "99999", "65536"])
def test_a_port_out_of_range(capsys: pytest.CaptureFixture[str], started: list[str],
                             port: str) -> None:
    assert refused(capsys, started, "--port", port) == \
        f"--port must be a port number from 1 to 65535, not {port}"


def test_a_port_in_use(capsys: pytest.CaptureFixture[str], started: list[str],
                       tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        message = refused(capsys, started, "--port", str(port), "--database-url",
                          f"sqlite:///{tmp_path / 'x.db'}")
    assert message.startswith(f"--port: cannot listen on 127.0.0.1:{port}: ")


def test_an_empty_host(capsys: pytest.CaptureFixture[str], started: list[str]) -> None:
    assert refused(capsys, started, "--host", " ") == \
        "--host: no address given (the name is empty)"


def test_an_unknown_host(capsys: pytest.CaptureFixture[str], started: list[str],
                         tmp_path: Path) -> None:
    message = refused(capsys, started, "--host", "no-such-host.invalid", "--database-url",
                      f"sqlite:///{tmp_path / 'x.db'}")
    assert message.startswith("--host: cannot listen on no-such-host.invalid:8000: ")


@pytest.mark.parametrize(("url", "message"), [
    ("nonsense", "--database-url: 'nonsense' is not a database URL (expected one like "
                 "sqlite:///twinrack.db or postgresql+psycopg://user:pass@host/db)"),
    ("", "--database-url: '' is not a database URL (expected one like "
         "sqlite:///twinrack.db or postgresql+psycopg://user:pass@host/db)"),
    ("mysql://user@localhost/db", "--database-url: unsupported database driver "
                                  "'mysql' (use sqlite or postgresql+psycopg)"),
    ("postgresql://user@localhost/db", "--database-url: unsupported database driver "
                                       "'postgresql' (use sqlite or postgresql+psycopg)"),
])
def test_a_bad_database_url(capsys: pytest.CaptureFixture[str], started: list[str], url: str,
                            message: str) -> None:
    assert refused(capsys, started, "--database-url", url) == message


def test_a_database_that_does_not_answer(capsys: pytest.CaptureFixture[str],
                                         started: list[str]) -> None:
    with socket.socket() as closed:  # a free port with nobody listening
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    url = f"postgresql+psycopg://ann:secret@127.0.0.1:{port}/twinrack"
    message = refused(capsys, started, "--port", free_port(), "--database-url", url)
    assert message.startswith(f"--database-url: cannot connect to postgresql+psycopg://ann:***"
                              f"@127.0.0.1:{port}/twinrack: ")
    assert "secret" not in message


def test_a_sqlite_file_that_cannot_be_made(capsys: pytest.CaptureFixture[str],
                                           started: list[str], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/no/such/folder/x.db"
    message = refused(capsys, started, "--port", free_port(), "--database-url", url)
    assert message == f"--database-url: cannot connect to {url}: unable to open database file"


def test_the_environment_variable_is_checked_too(capsys: pytest.CaptureFixture[str],
                                                 started: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TWINRACK_DATABASE_URL", "mysql://x/y")
    assert refused(capsys, started) == ("TWINRACK_DATABASE_URL: unsupported database driver "
                                        "'mysql' (use sqlite or postgresql+psycopg)")


def test_good_options_start_the_server(capsys: pytest.CaptureFixture[str], started: list[str],
                                       tmp_path: Path) -> None:
    assert main(["serve", "--port", free_port(), "--database-url",
                 f"sqlite:///{tmp_path / 'ok.db'}"]) == 0
    assert started == ["started"]
