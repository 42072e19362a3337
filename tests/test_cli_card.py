"""The `twinrack card` command line contract: exit codes 0/1/2, JSON keys, error positions,
and never a traceback for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from twinrack.card.compiled import CompiledCard
from twinrack.cli import main
from twinrack.tiles import counts_of, parse_tiles

CARD = """\
name = "Contract check card"
edition = "public"

[[hand]]
section = "Pairs"
pattern = "NN EE WW SS 11a 22a 33a"
value = 50

[[hand]]
section = "Kongs"
pattern = "FF 1111a 2222a 3333b"
value = 25

[[hand]]
section = "Kongs"
pattern = "FF XXXX0a XXXX1a NNNN"
value = 30
concealed = true
"""
SHARED = "F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C N N E E W W S S 1D 1D 2D 2D 3D"
ROOT = Path(__file__).resolve().parent.parent
#: the installed command, beside the running interpreter or in the project's .venv
TWINRACK = next((p for p in (Path(sys.executable).parent / "twinrack",
                             ROOT / ".venv" / "bin" / "twinrack") if p.exists()),
                ROOT / ".venv" / "bin" / "twinrack")


@pytest.fixture
def card(tmp_path: Path) -> str:
    path = tmp_path / "card.toml"
    path.write_text(CARD, encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# ---------------------------------------------------------------------------- card check


def test_check_the_practice_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "card", "check")
    assert code == 0 and err == ""
    assert "the card is good." in out


def test_check_a_card_file(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "check", card)
    assert code == 0
    assert "2 sections, 3 lines, 33 concrete ways: the card is good." in out


def test_check_a_bad_card_shows_every_problem(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\n\n[[hand]]\nsection = "Kongs"\npattern = "FF 1111a 2222a 333b"'
                    '\nvalue = 0\n', encoding="utf-8")
    code, out, err = run(capsys, "card", "check", str(path))
    assert code == 2 and out == ""
    assert err == (f"{path}:5:12: pattern has 13 tiles, a hand needs 14\n"
                   'pattern = "FF 1111a 2222a 333b"\n'
                   "           ^\n"
                   f"{path}:6:9: value must be a positive whole number\n"
                   "value = 0\n"
                   "        ^\n")


def test_malformed_toml(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x\n', encoding="utf-8")
    code, out, err = run(capsys, "card", "show", str(path))
    assert code == 2 and out == ""
    assert err == f"{path}:1:10: not valid TOML: illegal character '\\n'\nname = \"x\n         ^\n"


@pytest.mark.parametrize("command", ["check", "show"])
def test_unreadable_cards(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                          command: str) -> None:
    missing = tmp_path / "missing.toml"
    code, out, err = run(capsys, "card", command, str(missing))
    assert (code, out) == (2, "")
    assert err == f"twinrack: cannot read card {missing}: No such file or directory\n"
    code, _, err = run(capsys, "card", command, str(tmp_path))
    assert code == 2
    assert err == f"twinrack: cannot read card {tmp_path}: Is a directory\n"
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "Café"\n'.encode("latin-1"))
    code, _, err = run(capsys, "card", command, str(latin))
    assert code == 2
    assert err == f"twinrack: cannot read card {latin}: it is not UTF-8 text\n"


def test_show(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "show", card)
    assert code == 0
    assert "Contract check card" in out and "Kongs-2" in out and "FF XXXX0a XXXX1a NNNN" in out


# ---------------------------------------------------------------------------- card match


def test_match_json(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, err = run(capsys, "card", "match", "--card", card, "--rack",
                         "N N E E W W S S 1D 1D 2D 2D 3D 3D", "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"matches": [{
        "id": "Pairs-1", "section": "Pairs", "value": 50, "jokerless": True,
        "concealed": False, "closed": True, "way": "1D 1D  2D 2D  3D 3D  N N  E E  W W  S S"}]}


def test_match_text_and_exposures(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "match", "--card", card, "--rack",
                       "F F 1B 1B 1B 1B 2B 2B J 2B 3C 3C 3C 3C", "--exposed", "2B 2B J 2B")
    assert code == 0
    assert out == ("Mah Jongg: Kongs-1 (Kongs) 25 points: "
                   "1B 1B 1B 1B  2B 2B 2B 2B  3C 3C 3C 3C  F F\n")


def test_no_match_exits_1(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "match", "--card", card, "--rack",
                       "F F 4C 4C 4C 4C 5C 5C 5C 5C N N N N", "--exposed", "N N N N", "--json")
    assert code == 1  # N N N N fits only Kongs-2, a concealed line
    assert json.loads(out) == {"matches": [], "problem":
                               "the exposure N N N N fits no line of the card but a "
                               "concealed one (--open plays those open)"}
    code, out, _ = run(capsys, "card", "match", "--card", card, "--rack",
                       "F F 4C 4C 4C 4C 5C 5C 5C 5C N N N N", "--exposed", "N N N N", "--json",
                       "--open")
    assert code == 0 and [m["id"] for m in json.loads(out)["matches"]] == ["Kongs-2"]
    assert json.loads(out)["matches"][0]["closed"] is False
    code, out, _ = run(capsys, "card", "match", "--card", card, "--rack",
                       "J F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C")
    assert code == 1
    assert out == "No line of the card matches this rack.\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--rack", "1B 1B QQ"],
     "--rack: unknown tile 'QQ': expected 1B-9B, 1C-9C, 1D-9D, N E W S, R G 0, F or J "
     "(column 7)"),
    (["--rack", "N N E E W W S S 1D 1D 2D 2D 3D"],
     "--rack: a rack for Mah Jongg has 14 tiles, this one has 13"),
    (["--rack", "N N E E W W S S 1D 1D 2D 2D 3D 3D", "--exposed", "1B 1B 1B"],
     "--exposed '1B 1B 1B' is not among the tiles of --rack"),
    (["--rack", "N N E E W W S S 1D 1D 2D 2D 3D 3D", "--exposed", "N N E"],
     "--exposed 'N N E': an exposure holds one kind of tile (Jokers aside), not N E"),
    (["--rack", "N N E E W W S S 1D 1D 2D 2D 3D J", "--exposed", "3D J"],
     "--exposed '3D J': Jokers may stand only in groups of 3 or more, never in a single or "
     "a pair"),
    (["--rack", "N N E E W W S S 1D 1D 2D 2D 3D 3D", "--exposed", "Q Q Q"],
     "--exposed 'Q Q Q': unknown tile 'Q': expected 1B-9B, 1C-9C, 1D-9D, N E W S, R G 0, "
     "F or J (column 1)"),
])
def test_match_bad_input(capsys: pytest.CaptureFixture[str], card: str, args: list[str],
                         message: str) -> None:
    code, out, err = run(capsys, "card", "match", "--card", card, *args)
    assert (code, out, err) == (2, "", f"twinrack: {message}\n")


def test_match_with_a_bad_card(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\n[[hand]]\nsection = "A"\npattern = "FF 2222 4444a 6666a"\n'
                    "value = 5\n", encoding="utf-8")
    code, out, err = run(capsys, "card", "match", "--card", str(path), "--rack",
                         "N N E E W W S S 1D 1D 2D 2D 3D 3D")
    assert (code, out) == (2, "")
    assert err.startswith(f"{path}:4:15: 2 needs a suit letter a, b or c\n")


# ---------------------------------------------------------------------------- card away


def test_away_json(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "away", "--card", card, "--tiles",
                       "F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C", "--json")
    assert code == 0
    assert json.loads(out) == {"hands": [
        {"id": "Kongs-1", "away": 1, "needs": ["3C"], "value": 25},
        {"id": "Kongs-2", "away": 4, "needs": ["N", "N", "N", "N"], "value": 30},
        {"id": "Pairs-1", "away": 10,
         "needs": ["3B", "3B", "N", "N", "E", "E", "W", "W", "S", "S"], "value": 50}]}
    code, out, _ = run(capsys, "card", "away", "--card", card, "--tiles", "F F 2B 2B 3C",
                       "--exposed", "1B 1B 1B 1B", "--json", "--top", "1")
    assert code == 0
    assert json.loads(out) == {"hands": [
        {"id": "Kongs-1", "away": 5, "needs": ["2B", "2B", "3C", "3C", "3C"], "value": 25}]}


def test_away_text(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "away", "--card", card, "--tiles",
                       "F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C J", "--top", "1")
    assert code == 0
    assert "Tiles away: 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C F F J" in out
    assert "Kongs-1" in out and "Pairs-1" not in out
    assert "1 Joker(s) counted toward groups of 3 or more." in out


def test_two_racks_json(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "away", "--card", card, "--racks", "2", "--tiles",
                       SHARED, "--json", "--top", "3")
    assert code == 0
    assert [{k: p[k] for k in ("ids", "away", "value")} for p in json.loads(out)["pairs"]] == [
        {"ids": ["Pairs-1", "Kongs-1"], "away": 1, "value": 75},
        {"ids": ["Pairs-1", "Kongs-2"], "away": 5, "value": 80},
        {"ids": ["Kongs-1", "Kongs-2"], "away": 8, "value": 55}]
    concealed = SHARED.replace("1B 1B 1B 1B ", "")
    code, out, _ = run(capsys, "card", "away", "--card", card, "--racks", "2", "--tiles",
                       concealed, "--exposed2", "1B 1B 1B 1B", "--json", "--top", "2")
    assert code == 0
    assert [{k: p[k] for k in ("ids", "away", "value", "needs")}
            for p in json.loads(out)["pairs"]] == [
        {"ids": ["Pairs-1", "Kongs-1"], "away": 1, "value": 75, "needs": [["3D"], []]},
        {"ids": ["Kongs-2", "Kongs-1"], "away": 8, "value": 55,
         "needs": [["1D", "1D", "2D", "2D", "N", "N"], ["F", "F"]]}]


def test_two_racks_text(capsys: pytest.CaptureFixture[str], card: str) -> None:
    code, out, _ = run(capsys, "card", "away", "--card", card, "--racks", "2", "--tiles",
                       SHARED, "--top", "1")
    assert code == 0
    assert "Best pairs for two racks" in out and "Pairs-1" in out and "Kongs-1" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--tiles", "F F Q"],
     "--tiles: unknown tile 'Q': expected 1B-9B, 1C-9C, 1D-9D, N E W S, R G 0, F or J "
     "(column 5)"),
    (["--tiles", ""], "one rack holds 1 to 14 tiles; --tiles and --exposed give 0"),
    (["--tiles", "F F 1B 1B 1B 1B 2B 2B 2B 2B 3C 3C 3C 3C 3C"],
     "one rack holds 1 to 14 tiles; --tiles and --exposed give 15"),
    (["--tiles", "F F", "--racks", "2"],
     "two racks share 27 or 28 tiles; --tiles and the exposures give 2"),
    (["--tiles", "F F", "--racks", "3"], "--racks must be 1 or 2"),
    (["--tiles", "F F", "--top", "0"], "--top must be at least 1"),
    (["--tiles", "F F", "--exposed2", "N N N"], "--exposed2 needs --racks 2"),
    (["--tiles", "F F", "--exposed", "N N 1B"],
     "--exposed 'N N 1B': an exposure holds one kind of tile (Jokers aside), not 1B N"),
])
def test_away_bad_input(capsys: pytest.CaptureFixture[str], card: str, args: list[str],
                        message: str) -> None:
    code, out, err = run(capsys, "card", "away", "--card", card, *args)
    assert (code, out, err) == (2, "", f"twinrack: {message}\n")


# ---------------------------------------------------------------------------- usage


@pytest.mark.parametrize(("args", "needle"), [
    (["card", "away", "--tiles", "F F", "--bogus"], "No such option: --bogus"),
    (["card", "nothing"], "No such command 'nothing'."),
    (["card", "match"], "Missing option '--rack'."),
    (["card", "away", "--tiles", "F F", "--racks", "two"], "Invalid value for '--racks'"),
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                             needle: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("twinrack: ") and needle in err


# ---------------------------------------------------------------------------- subprocess


def test_the_installed_command(card: str, tmp_path: Path) -> None:
    assert TWINRACK.exists()
    done = subprocess.run([str(TWINRACK), "card", "match", "--card", card, "--rack",
                           "N N E E W W S S 1D 1D 2D 2D 3D 3D", "--json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert [m["id"] for m in json.loads(done.stdout)["matches"]] == ["Pairs-1"]
    missing = tmp_path / "none.toml"
    done = subprocess.run([str(TWINRACK), "card", "check", str(missing)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"twinrack: cannot read card {missing}: No such file or directory\n"


# ---------------------------------------------------------------------------- exposures


@pytest.mark.parametrize(("args", "message"), [
    (["match", "--rack", "N N E E W W S S 1D 1D 2D 2D 3D 3D", "--exposed", "N N"],
     "--exposed 'N N': an exposure is a group of 3 or more tiles (pung, kong, quint, "
     "sextet), this one has 2"),
    (["match", "--rack", "N N E E W W S S 1D 1D 2D 2D 3D 3D", "--exposed", "3D"],
     "--exposed '3D': an exposure is a group of 3 or more tiles (pung, kong, quint, "
     "sextet), this one has 1"),
    (["away", "--tiles", "F F 1B", "--exposed", "2B 2B"],
     "--exposed '2B 2B': an exposure is a group of 3 or more tiles (pung, kong, quint, "
     "sextet), this one has 2"),
    (["away", "--racks", "2", "--tiles", SHARED, "--exposed2", "N N"],
     "--exposed2 'N N': an exposure is a group of 3 or more tiles (pung, kong, quint, "
     "sextet), this one has 2"),
])
def test_exposures_of_fewer_than_3_tiles_are_refused(capsys: pytest.CaptureFixture[str],
                                                     card: str, args: list[str],
                                                     message: str) -> None:
    code, out, err = run(capsys, "card", *args, "--card", card)
    assert (code, out, err) == (2, "", f"twinrack: {message}\n")


def test_match_says_when_an_exposure_fits_no_line(capsys: pytest.CaptureFixture[str],
                                                  card: str) -> None:
    rack = "F F 1B 1B 1B 1B 2B 2B 2B 2B 5D 5D 5D 5D"
    code, out, err = run(capsys, "card", "match", "--card", card, "--rack", rack,
                         "--exposed", "5D 5D 5D 5D")
    assert (code, err) == (1, "")
    assert out == ("No line of the card matches this rack: the exposure 5D 5D 5D 5D fits "
                   "no line of the card but a concealed one (--open plays those open).\n")
    code, out, _ = run(capsys, "card", "match", "--card", card, "--rack", rack,
                       "--exposed", "5D 5D 5D 5D", "--json")
    assert code == 1
    assert json.loads(out) == {"matches": [], "problem":
                               "the exposure 5D 5D 5D 5D fits no line of the card but a "
                               "concealed one (--open plays those open)"}
    # each fits a line alone (1111a in Bams, or in Dots), not both on one rack
    code, out, _ = run(capsys, "card", "match", "--card", card, "--rack",
                       "F F 1B 1B 1B 1B 1D 1D 1D 1D 3C 3C 3C 3C", "--exposed", "1B 1B 1B 1B",
                       "--exposed", "1D 1D 1D 1D")
    assert code == 1
    assert out == ("No line of the card matches this rack: the exposures 1B 1B 1B 1B and "
                   "1D 1D 1D 1D fit no line of the card together.\n")


def test_away_says_when_an_exposure_fits_no_line(capsys: pytest.CaptureFixture[str],
                                                 card: str) -> None:
    # N N N N fits only Kongs-2, a concealed line: no exposure may go there
    code, out, err = run(capsys, "card", "away", "--card", card, "--tiles", "F F 1B",
                         "--exposed", "N N N N")
    assert (code, err) == (1, "")
    assert out == ("No line of the card can be made on this rack: the exposure N N N N fits "
                   "no line of the card but a concealed one (--open plays those open) (the "
                   "rack is dead).\n")
    code, out, _ = run(capsys, "card", "away", "--card", card, "--tiles", "F F 1B",
                       "--exposed", "N N N N", "--json")
    assert code == 1
    assert json.loads(out) == {"hands": [], "problem":
                               "the exposure N N N N fits no line of the card but a "
                               "concealed one (--open plays those open)"}
    code, out, _ = run(capsys, "card", "away", "--card", card, "--tiles", "F F 1B",
                       "--exposed", "N N N N", "--json", "--open")
    assert code == 0 and json.loads(out)["hands"][0]["id"] == "Kongs-2"
    concealed = SHARED.replace("3C 3C 3C 3C ", "")
    code, out, _ = run(capsys, "card", "away", "--card", card, "--racks", "2", "--tiles",
                       concealed, "--exposed2", "5D 5D 5D 5D", "--json")
    assert code == 1
    assert json.loads(out) == {"pairs": [], "problem":
                               "rack 2: the exposure 5D 5D 5D 5D fits no line of the card "
                               "but a concealed one (--open plays those open)"}
    code, out, _ = run(capsys, "card", "away", "--card", card, "--racks", "2", "--tiles",
                       concealed, "--exposed2", "5D 5D 5D 5D")
    assert code == 1
    assert out == ("No pair of lines can be made: rack 2: the exposure 5D 5D 5D 5D fits no "
                   "line of the card but a concealed one (--open plays those open) (the rack "
                   "is dead).\n")


# ---------------------------------------------------------------------------- two racks: needs


def test_two_racks_say_what_each_rack_still_needs(capsys: pytest.CaptureFixture[str],
                                                  card: str) -> None:
    code, out, _ = run(capsys, "card", "away", "--card", card, "--racks", "2", "--tiles",
                       SHARED, "--json", "--top", "3")
    assert code == 0
    pairs = json.loads(out)["pairs"]
    assert [(p["ids"], p["away"], p["value"], p["needs"]) for p in pairs] == [
        (["Pairs-1", "Kongs-1"], 1, 75, [["3D"], []]),
        (["Pairs-1", "Kongs-2"], 5, 80, [["3D"], ["N", "N", "N", "N"]]),
        (["Kongs-1", "Kongs-2"], 8, 55, [[], ["1D", "1D", "2D", "2D", "N", "N", "F", "F"]])]
    assert pairs[0]["ways"] == ["1D 1D  2D 2D  3D 3D  N N  E E  W W  S S",
                                "1B 1B 1B 1B  2B 2B 2B 2B  3C 3C 3C 3C  F F"]
    code, out, _ = run(capsys, "card", "away", "--card", card, "--racks", "2", "--tiles",
                       SHARED, "--top", "2")
    assert code == 0
    assert out.splitlines()[1:] == [
        " 1. Pairs-1 + Kongs-1: 1 away, 75 points",
        "    rack 1  Pairs-1  needs 3D       1D 1D  2D 2D  3D 3D  N N  E E  W W  S S",
        "    rack 2  Kongs-1  needs nothing  1B 1B 1B 1B  2B 2B 2B 2B  3C 3C 3C 3C  F F",
        " 2. Pairs-1 + Kongs-2: 5 away, 80 points",
        "    rack 1  Pairs-1  needs 3D       1D 1D  2D 2D  3D 3D  N N  E E  W W  S S",
        "    rack 2  Kongs-2  needs N N N N  1B 1B 1B 1B  2B 2B 2B 2B  N N N N  F F"]


def test_the_tiles_a_pair_needs_add_up_to_its_tiles_away() -> None:
    """Jokers may go to either rack and a tile held once can serve only one: the split
    of the shared holding must still reach the pair's exact tiles away."""
    import random

    import numpy as np

    from twinrack.card import practice_card
    from twinrack.cli import pair_needs
    from twinrack.tiles import NUM_KINDS, tile_set

    cc = CompiledCard(practice_card())
    wall = tile_set("siamese", 2).wall()
    rng = random.Random(12)
    for _ in range(25):
        held = rng.sample(list(wall), 27)
        counts = np.bincount(held, minlength=NUM_KINDS)
        for plan in cc.best_pairs(counts, top=5):
            one, two = pair_needs(cc, counts, plan)
            assert len(one) + len(two) == plan.away
    # two 1Bs held: the pung of 1B takes the Jokers, the pair of 1B the natural tiles
    from twinrack.card import parse_card

    small = parse_card('name = "t"\n[[hand]]\nsection = "A"\npattern = "111a 2222a 3333a 555a"\n'
                       'value = 25\n[[hand]]\nsection = "B"\npattern = "11a 66a 77a 88a 99a NN'
                       ' SS"\nvalue = 25\n')
    cc = CompiledCard(small)
    tiles = parse_tiles("1B 1B J J J 2B 2B 2B 2B 3B 3B 3B 3B 5B 5B 5B "
                        "6B 6B 7B 7B 8B 8B 9B 9B N N S S")
    counts = counts_of(tiles)
    plan = cc.best_pairs(counts, top=1)[0]
    assert (plan.hands[0].id, plan.hands[1].id, plan.away) == ("A-1", "B-1", 0)
    assert pair_needs(cc, counts, plan) == ((), ())
