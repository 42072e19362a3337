"""The tile SVGs on disk: complete, well-formed, labelled and in step with the generator."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from twinrack.tiles import CANONICAL
from twinrack.web import tiles_svg
from twinrack.web.tiles_svg import ALL_NAMES, BACK, FACES, FLOWERS, KINDS, label, tile_svg

TILES_DIR = Path(tiles_svg.__file__).resolve().parent / "static" / "tiles"
SVG = "{http://www.w3.org/2000/svg}"

EXPECTED_LABELS = {
    "1B": "1 Bam",
    "3B": "3 Bam",
    "9B": "9 Bam",
    "1C": "1 Crak",
    "6C": "6 Crak",
    "5D": "5 Dot",
    "9D": "9 Dot",
    "N": "North wind",
    "E": "East wind",
    "W": "West wind",
    "S": "South wind",
    "R": "Red dragon",
    "G": "Green dragon",
    "0": "White dragon (Soap)",
    "F": "Flower",
    "F1": "Flower",
    "F8": "Flower",
    "J": "Joker",
    "back": "Face-down tile",
}


def test_names_follow_the_canonical_notation() -> None:
    assert KINDS == CANONICAL
    assert tuple(f"F{i}" for i in range(1, 9)) == FLOWERS
    assert len(FACES) == 36 + 8
    assert (*FACES, BACK) == ALL_NAMES


def test_every_file_exists_and_nothing_else() -> None:
    on_disk = {p.stem for p in TILES_DIR.glob("*.svg")}
    assert on_disk == set(ALL_NAMES)
    assert (TILES_DIR / "0.svg").is_file()
    assert (TILES_DIR / "back.svg").is_file()


@pytest.mark.parametrize("name", ALL_NAMES)
def test_file_is_a_labelled_svg(name: str) -> None:
    path = TILES_DIR / f"{name}.svg"
    text = path.read_text(encoding="utf-8")
    assert len(text.encode()) < 4096
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None
    assert title.text == label(name)
    assert root.get("aria-label") == label(name)
    if name in EXPECTED_LABELS:
        assert label(name) == EXPECTED_LABELS[name]


@pytest.mark.parametrize("name", ALL_NAMES)
def test_generator_output_equals_file(name: str) -> None:
    path = TILES_DIR / f"{name}.svg"
    assert path.read_text(encoding="utf-8") == tile_svg(name), (
        f"{path.name} is stale: run `python -m twinrack.web.tiles_svg`"
    )


def test_labels_of_all_suited_tiles() -> None:
    words = {"B": "Bam", "C": "Crak", "D": "Dot"}
    for name in KINDS[:27]:
        assert label(name) == f"{name[0]} {words[name[1]]}"


def test_unknown_name_is_refused() -> None:
    with pytest.raises(ValueError):
        tile_svg("10B")
    with pytest.raises(ValueError):
        tile_svg("F9")


def test_write_tiles_into_another_folder(tmp_path: Path) -> None:
    written = tiles_svg.write_tiles(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{n}.svg" for n in ALL_NAMES)
    assert (tmp_path / "J.svg").read_text(encoding="utf-8") == tile_svg("J")
