"""Commands and the server take their rules from engine/rules.py: a bad combination of
variant, players and revision gets exactly the message of its one ``RulesError`` code
(the codes themselves: tests/engine/test_rules.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape

from tests.server.helpers import make_client
from twinrack.cli import main
from twinrack.engine.rules import RulesError, rules_from

#: (variant, players, revision, code, what ``twinrack play`` says)
BAD = [
    ("mahjong", 2, "2024", "unknown_variant",
     "--variant: unknown variant 'mahjong' (expected siamese, royale, imperial, american)"),
    ("siamese", 3, "2024", "bad_player_count", "Siamese is played by 2 players"),
    ("royale", 2, "2024", "bad_player_count", "Royale is played by 3 or 4 players"),
    ("imperial", 5, "2024", "bad_player_count", "Imperial is played by 2, 3 or 4 players"),
    ("siamese", 2, "2020", "unknown_revision",
     "--revision: unknown revision '2020' (expected 2024 or 2019)"),
]


def refusal(variant: str, players: int, revision: str, code: str) -> RulesError:
    with pytest.raises(RulesError) as err:
        rules_from(variant, players, revision)
    assert err.value.code == code
    return err.value


@pytest.mark.parametrize(("variant", "players", "revision", "code", "line"), BAD)
def test_play_gives_the_rules_message(variant: str, players: int, revision: str, code: str,
                                      line: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = refusal(variant, players, revision, code)
    assert line.endswith(err.message)
    assert main(["play", "--variant", variant, "--players", str(players),
                 "--revision", revision]) == 2
    assert capsys.readouterr().err == f"twinrack: {line}\n"


def test_a_tournament_takes_its_revision_from_the_rules(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = refusal("siamese", 2, "2020", "unknown_revision")
    assert main(["tournament", "new", str(tmp_path / "t.json"), "--name", "X",
                 "--revision", "2020"]) == 2
    assert capsys.readouterr().err == f"twinrack: --revision: {err.message}\n"
    assert not (tmp_path / "t.json").exists()


def test_the_table_form_shows_the_rules_message(tmp_path: Path) -> None:
    with make_client(f"sqlite:///{tmp_path / 'twinrack.db'}") as client:
        for variant, players, revision, code, _line in BAD:
            err = refusal(variant, players, revision, code)
            page = client.post("/tables", data={
                "name": "Ann", "variant": variant, "players": str(players),
                "revision": revision, "seat1": "random", "seat2": "random",
                "seat3": "random"})
            assert page.status_code == 400
            errors = re.search(r'<div class="errors" role="alert".*?</div>', page.text, re.S)
            assert errors is not None
            assert "<strong>These settings cannot be played.</strong>" in errors[0]
            shown = re.findall(r'<p class="error-message">(.*?)</p>', errors[0], re.S)
            assert shown == [escape(err.message)]
