"""``twinrack play`` options: bad ones give one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from twinrack.cli import main


@pytest.mark.parametrize(("args", "message"), [
    (["--variant", "mahjong"],
     "--variant: unknown variant 'mahjong' (expected siamese, royale, imperial, american)"),
    (["--players", "3"], "Siamese is played by 2 players"),
    (["--variant", "royale", "--players", "2"], "Royale is played by 3 or 4 players"),
    (["--bot", "nobody"], "--bot: unknown bot 'nobody' (known: beginner, expert, greedy, "
                          "intermediate, master, random)"),
    (["--revision", "1999"], "--revision: unknown revision '1999' (expected 2024 or 2019)"),
    (["--seed", "three"], "Invalid value for '--seed': Input should be a valid integer, "
                          "unable to parse string as an integer"),
    (["--seed", "-1"], "--seed must not be negative"),
    (["--delay", "-1"], "--delay must not be negative"),
    (["--card", "/no/such/card.toml"],
     "--card: cannot read card /no/such/card.toml: No such file or directory"),
    (["--record", ""], "--record: no folder given (the name is empty)"),
])
def test_bad_options_give_one_line_and_exit_2(args: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *args]) == 2
    assert capsys.readouterr().err == f"twinrack: {message}\n"


def test_play_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "3"]) == 2  # pytest captures stdin/stdout: no terminal
    assert capsys.readouterr().err == ("twinrack: play needs a terminal (run it in a "
                                       "terminal window, not through a pipe)\n")


def test_play_is_listed_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--variant", "--players", "--bot", "--seed", "--revision", "--card",
                   "--hints", "--record"):
        assert option in out


def test_a_record_folder_that_is_a_file(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("x", encoding="utf-8")
    assert main(["play", "--record", str(blocked)]) == 2
    assert capsys.readouterr().err == \
        f"twinrack: --record: {blocked} is a file, not a folder\n"


def test_a_record_folder_is_made_before_the_game(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    folder = tmp_path / "games" / "mine"
    assert main(["play", "--seed", "3", "--record", str(folder)]) == 2  # no terminal here
    assert capsys.readouterr().err == ("twinrack: play needs a terminal (run it in a "
                                       "terminal window, not through a pipe)\n")
    assert folder.is_dir()
