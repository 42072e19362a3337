"""Tile art for the web table: one small, original SVG per tile kind.

Every drawing here is made for TwinRack from plain shapes (rectangles, circles,
strokes and a few curves) plus ordinary text in the viewer's own sans-serif font;
no existing tile art and no font glyph outlines are copied.

Files (``src/twinrack/web/static/tiles/<NAME>.svg``):

* the 36 kinds of :mod:`twinrack.tiles`, named exactly by their canonical notation
  (``1B``..``9B``, ``1C``..``9C``, ``1D``..``9D``, ``N E W S``, ``R G 0``, ``F``, ``J``);
* ``F1``..``F8``: eight flower designs (the game treats all flowers as one kind ``F``,
  but a table may show varied art);
* ``back``: a face-down tile.

Each tile is a 60x80 ``viewBox`` with an ivory face, a big corner index at top left
and a picture below it. Suits differ in shape as well as colour (sticks, a seal and
character mark, rings), and so do the Red (round emblem) and Green (diamond emblem)
dragons. Every SVG carries ``role="img"``, an ``aria-label`` and a ``<title>``.

Run ``python -m twinrack.web.tiles_svg`` to write the files; a test checks that the
files on disk equal this module's output.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path

SUITS = ("B", "C", "D")
SUIT_LABELS = {"B": "Bam", "C": "Crak", "D": "Dot"}
#: the 36 canonical tile names of :data:`twinrack.tiles.CANONICAL`, in index order
KINDS: tuple[str, ...] = (
    *(f"{n}{s}" for s in SUITS for n in range(1, 10)),
    *("N", "E", "W", "S", "R", "G", "0", "F", "J"),
)
#: the eight flower designs
FLOWERS: tuple[str, ...] = tuple(f"F{i}" for i in range(1, 9))
#: every tile face that gets a file
FACES: tuple[str, ...] = KINDS + FLOWERS
BACK = "back"
#: every file name (without ``.svg``)
ALL_NAMES: tuple[str, ...] = (*FACES, BACK)

OUT_DIR = Path(__file__).resolve().parent / "static" / "tiles"

# palette
IVORY = "#fdf8ea"
INK = "#1d1d1d"
BAM_DARK = "#14532d"
BAM = "#3d9a4c"
BAM_LIGHT = "#a8dca2"
CRAK = "#c0262d"
DOT_BLUE = "#1f5fbf"
DOT_RED = "#c8312f"
DOT_GREEN = "#26894a"
NAVY = "#1f2a44"
FLOWER_INK = "#8a2c8f"
JOKER_INK = "#5a1f8c"

_WIND_LABELS = {"N": "North wind", "E": "East wind", "W": "West wind", "S": "South wind"}
_OTHER_LABELS = {
    "R": "Red dragon",
    "G": "Green dragon",
    "0": "White dragon (Soap)",
    "F": "Flower",
    "J": "Joker",
    BACK: "Face-down tile",
}


def _n(x: float) -> str:
    """A coordinate, written short: ``12.0`` -> ``12``, ``3.14159`` -> ``3.14``."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def label(name: str) -> str:
    """The screen-reader label of a tile file name (``"3B"`` -> ``"3 Bam"``)."""
    if name in FLOWERS:
        return "Flower"
    if len(name) == 2 and name[0] in "123456789" and name[1] in SUITS:
        return f"{name[0]} {SUIT_LABELS[name[1]]}"
    if name in _WIND_LABELS:
        return _WIND_LABELS[name]
    if name in _OTHER_LABELS:
        return _OTHER_LABELS[name]
    raise ValueError(f"unknown tile name {name!r}: expected one of {', '.join(ALL_NAMES)}")


# ------------------------------------------------------------------ building blocks

_FACE = (
    '<rect x=".5" y=".5" width="59" height="79" rx="7" fill="#d5c59c" stroke="#86795a"/>'
    f'<rect x="2" y="1.5" width="56" height="74.5" rx="6" fill="{IVORY}" stroke="#e6dabb"/>'
)


def _svg(title: str, body: Sequence[str]) -> str:
    t = escape(title)
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80" width="60" height="80"'
        f' role="img" aria-label="{t}"'
        ' font-family="DejaVu Sans,Verdana,Arial,Helvetica,sans-serif" font-weight="bold">'
    )
    return "\n".join([head, f"<title>{t}</title>", *body, "</svg>"]) + "\n"


def _index(text: str, colour: str) -> str:
    return f'<text x="4.5" y="23" font-size="24" fill="{colour}">{text}</text>'


def _path(d: str, stroke: str, width: float, extra: str = "") -> str:
    return (
        f'<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{_n(width)}"'
        f' stroke-linecap="round" stroke-linejoin="round"{extra}/>'
    )


def _star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> str:
    pts = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.pi * i / points - math.pi / 2
        pts.append(f"{_n(cx + r * math.cos(a))},{_n(cy + r * math.sin(a))}")
    return " ".join(pts)


def _petals(
    cx: float,
    cy: float,
    count: int,
    dist: float,
    rx: float,
    ry: float,
    start: float = 0,
    spread: float = 360,
) -> list[str]:
    """``count`` ellipses around (cx, cy), long axis pointing out, the first at ``start``
    degrees clockwise from straight up and the others ``spread / count`` degrees apart."""
    out = []
    for i in range(count):
        a = start + spread * i / count
        out.append(
            f'<ellipse cx="{_n(cx)}" cy="{_n(cy - dist)}" rx="{_n(rx)}" ry="{_n(ry)}"'
            f' transform="rotate({_n(a)} {_n(cx)} {_n(cy)})"/>'
        )
    return out


def _blossom(cx: float, cy: float, r: float, fill: str, stroke: str, heart: str) -> str:
    """Five round petals and a centre."""
    petals = "".join(
        f'<circle cx="{_n(cx + r * math.sin(math.radians(72 * i)))}"'
        f' cy="{_n(cy - r * math.cos(math.radians(72 * i)))}" r="{_n(r * 0.78)}"/>'
        for i in range(5)
    )
    return (
        f'<g fill="{fill}" stroke="{stroke}" stroke-width="1">{petals}</g>'
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.45)}" fill="{heart}"/>'
    )


# ------------------------------------------------------------------ suits

_SUIT_MARKS = {
    # a small bamboo stick
    "B": _path("M28.5 10v10", BAM_DARK, 5.2)
    + _path("M28.5 10v10", BAM, 3)
    + f'<path d="M26.4 15h4.2" stroke="{BAM_DARK}" stroke-width="1.3"/>',
    # a small red seal
    "C": f'<rect x="24" y="10" width="9.5" height="10" rx="1.5" fill="{CRAK}"/>'
    + _path("M26.3 12.6h4.9M28.75 12.6v5.2M26.3 17.8h4.9", IVORY, 1.3),
    # a small ring
    "D": f'<circle cx="28.8" cy="15" r="4" fill="{IVORY}" stroke="{DOT_BLUE}" stroke-width="2.4"/>'
    f'<circle cx="28.8" cy="15" r="1.3" fill="{DOT_BLUE}"/>',
}
_SUIT_INK = {"B": BAM_DARK, "C": CRAK, "D": DOT_BLUE}

_BAM_ROWS: dict[int, tuple[int, ...]] = {
    2: (1, 1),
    3: (1, 2),
    4: (2, 2),
    5: (2, 1, 2),
    6: (3, 3),
    7: (1, 3, 3),
    8: (4, 4),
    9: (3, 3, 3),
}


def _bams(number: int) -> list[str]:
    if number == 1:
        # one big stalk with two leaves
        leaves = "M31 45c5-7 13-10 20-8c-5 6-12 8-20 8zM29 59c-5-6-12-9-19-7c5 5 11 8 19 7z"
        return [
            f'<path d="{leaves}" fill="{BAM}" stroke="{BAM_DARK}" stroke-width="1.2"/>',
            _path("M30 32V69", BAM_DARK, 11),
            _path("M30 32V69", BAM, 8),
            _path("M27.6 34V43M27.6 47V56", BAM_LIGHT, 1.5),
            f'<path d="M24.5 45h11M24.5 58h11" stroke="{BAM_DARK}" stroke-width="2"/>',
        ]
    rows = _BAM_ROWS[number]
    top, bottom = 27.0, 73.0
    height = (bottom - top) / len(rows)
    body: list[str] = []
    nodes: list[str] = []
    shine: list[str] = []
    for r, count in enumerate(rows):
        y1 = top + r * height + 4.5
        y2 = top + (r + 1) * height - 4.5
        # two knots on a tall stick, one on a short one
        knots = [(2 * y1 + y2) / 3, (y1 + 2 * y2) / 3] if len(rows) == 2 else [(y1 + y2) / 2]
        for i in range(count):
            x = 30 + (i - (count - 1) / 2) * 12
            body.append(f"M{_n(x)} {_n(y1)}V{_n(y2)}")
            nodes.extend(f"M{_n(x - 3.3)} {_n(k)}h6.6" for k in knots)
            shine.append(f"M{_n(x - 1.1)} {_n(y1)}V{_n(knots[0] - 1.6)}")
    d = "".join(body)
    return [
        _path(d, BAM_DARK, 7),
        _path(d, BAM, 4.6),
        _path("".join(shine), BAM_LIGHT, 1),
        f'<path d="{"".join(nodes)}" stroke="{BAM_DARK}" stroke-width="1.5"/>',
    ]


_CRAK_MARK = (
    "M17 57H43M23.5 54.5v5M36.5 54.5v5"  # top bar with two ticks
    "M21.5 61h17v5.5h-17zM30 61v5.5"  # a boxed field
    "M19 74v-5h22v3.5q0 1.8-2.2 1.5M31 69.5l-4.5 4h7.5"  # a hooked frame with a loop
)


def _craks(number: int) -> list[str]:
    return [
        f'<text x="30" y="51" font-size="30" text-anchor="middle" fill="{CRAK}"'
        f' font-family="DejaVu Serif,Georgia,Times New Roman,serif">{number}</text>',
        _path(_CRAK_MARK, INK, 2.5),
    ]


_DOT_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((19, 36), (41, 64)),
    3: ((16, 34), (30, 50), (44, 66)),
    4: ((19, 36), (41, 36), (19, 64), (41, 64)),
    5: ((18, 35), (42, 35), (30, 50), (18, 65), (42, 65)),
    6: ((19, 33), (41, 33), (19, 50), (41, 50), (19, 67), (41, 67)),
    7: ((15, 33), (30, 33), (45, 33), (30, 50), (15, 67), (30, 67), (45, 67)),
    8: ((15, 33), (30, 33), (45, 33), (15, 50), (45, 50), (15, 67), (30, 67), (45, 67)),
    9: tuple((x, y) for y in (33, 50, 67) for x in (15, 30, 45)),
}
_DOT_COLOURS = (DOT_BLUE, DOT_RED, DOT_GREEN)


def _dot_colour(number: int, i: int, x: float, y: float) -> str:
    if number <= 3:
        return _DOT_COLOURS[i % 3]
    if number in (4, 5):  # blue on one diagonal, green on the other, red in the middle
        if x == 30:
            return DOT_RED
        return DOT_BLUE if (x < 30) == (y < 50) else DOT_GREEN
    return _DOT_COLOURS[0 if y < 45 else 1 if y < 55 else 2]  # one colour a row


def _dots(number: int) -> list[str]:
    if number == 1:
        return [
            f'<circle cx="30" cy="50" r="17" fill="{IVORY}" stroke="{DOT_BLUE}" stroke-width="4"/>',
            f'<circle cx="30" cy="50" r="10.5" fill="none" stroke="{DOT_RED}" stroke-width="3.5"/>',
            f'<circle cx="30" cy="50" r="5" fill="{DOT_GREEN}"/>',
            f'<circle cx="30" cy="50" r="1.6" fill="{IVORY}"/>',
        ]
    pips = _DOT_LAYOUTS[number]
    r = 8.0 if number <= 3 else 7.5 if number <= 6 else 6.6
    w = r * 0.42
    out = []
    for i, (x, y) in enumerate(pips):
        c = _dot_colour(number, i, x, y)
        out.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r - w / 2)}" fill="{IVORY}" stroke="{c}"'
            f' stroke-width="{_n(w)}"/><circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.3)}"'
            f' fill="{c}"/>'
        )
    return out


def _suited(number: int, suit: str) -> list[str]:
    picture = {"B": _bams, "C": _craks, "D": _dots}[suit](number)
    return [_index(str(number), _SUIT_INK[suit]), _SUIT_MARKS[suit], *picture]


# ------------------------------------------------------------------ honours

_DIRECTIONS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _wind(name: str) -> list[str]:
    cx, cy = 30.0, 50.0
    dx, dy = _DIRECTIONS[name]
    ticks = "".join(
        f"M{_n(cx + 17.5 * ex)} {_n(cy + 17.5 * ey)}L{_n(cx + 21 * ex)} {_n(cy + 21 * ey)}"
        for key, (ex, ey) in _DIRECTIONS.items()
        if key != name
    )
    tip = (cx + 24 * dx, cy + 24 * dy)
    left = (cx + 15 * dx - 6 * dy, cy + 15 * dy + 6 * dx)
    right = (cx + 15 * dx + 6 * dy, cy + 15 * dy - 6 * dx)
    arrow = " ".join(f"{_n(x)},{_n(y)}" for x, y in (tip, left, right))
    return [
        _index(name, NAVY),
        f'<circle cx="30" cy="50" r="17" fill="#edf2f9" stroke="{NAVY}" stroke-width="1.6"/>',
        _path(ticks, NAVY, 2),
        f'<polygon points="{arrow}" fill="{DOT_RED}" stroke="{NAVY}" stroke-width="1.2"'
        ' stroke-linejoin="round"/>',
        f'<text x="30" y="58.6" font-size="24" text-anchor="middle" fill="{NAVY}">{name}</text>',
    ]


def _polar(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    """The point at ``r`` from (cx, cy), ``deg`` degrees clockwise from straight up."""
    a = math.radians(deg)
    return cx + r * math.sin(a), cy - r * math.cos(a)


def _red_dragon() -> list[str]:
    red, dark = "#c8262e", "#7d1419"
    cx, cy, r = 30.0, 50.0, 11.5
    head, tail = 35.0, 320.0  # the body curls clockwise from the head round to the tail
    hx, hy = _polar(cx, cy, r, head)
    tx, ty = _polar(cx, cy, r, tail)
    body = f"M{_n(hx)} {_n(hy)}A{_n(r)} {_n(r)} 0 1 1 {_n(tx)} {_n(ty)}"
    spikes = []
    for deg in (80, 125, 170, 215, 260, 300):  # spines along the back
        a = _polar(cx, cy, r + 2.5, deg - 7)
        b = _polar(cx, cy, r + 6.5, deg)
        c = _polar(cx, cy, r + 2.5, deg + 7)
        spikes.append(f"M{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}L{_n(c[0])} {_n(c[1])}")
    ex, ey = _polar(cx, cy, r + 1.2, head + 4)
    return [
        _index("R", red),
        f'<circle cx="30" cy="50" r="22" fill="#fbe9e6" stroke="{red}" stroke-width="2.6"/>',
        f'<path d="{"".join(spikes)}" fill="{red}" stroke="{dark}" stroke-width=".9"'
        ' stroke-linejoin="round"/>',
        _path(body, dark, 7),
        _path(body, red, 4.6),
        f'<circle cx="{_n(hx)}" cy="{_n(hy)}" r="4.6" fill="{red}" stroke="{dark}"'
        ' stroke-width="1.2"/>',
        f'<circle cx="{_n(ex)}" cy="{_n(ey)}" r="1.2" fill="{IVORY}"/>',
        f'<circle cx="30" cy="50" r="3" fill="{red}" stroke="{dark}" stroke-width="1"/>',
    ]


def _green_dragon() -> list[str]:
    green, dark = "#23884a", "#0f4d27"
    body = "M13 56c4-8 8-8 11 0s8 8 11 0 6-9 9-6"
    return [
        _index("G", green),
        f'<path d="M30 25.5L54.5 50 30 74.5 5.5 50z" fill="#e7f4ea" stroke="{green}"'
        ' stroke-width="2.6" stroke-linejoin="round"/>',
        f'<path d="M30 31L49 50 30 69 11 50z" fill="none" stroke="{green}" stroke-width="1"/>',
        _path(body, dark, 6.4),
        _path(body, green, 4),
        _path("M17 49l1.5-3.5 2 3.5M28 59.5l1.5 3.5 1.5-3.5M38 49l2-3.5 1.5 3.5", dark, 1.4),
        f'<circle cx="44" cy="50" r="4.2" fill="{green}" stroke="{dark}" stroke-width="1.2"/>',
        f'<circle cx="45.3" cy="49" r="1.1" fill="{IVORY}"/>',
        _path("M43 46l-.5-4M46 46.5l2-3.5", dark, 1.3),
    ]


def _white_dragon() -> list[str]:
    blue = "#1f5fbf"
    corners = "".join(
        f'<rect x="{_n(x)}" y="{_n(y)}" width="4" height="4"/>'
        for x, y in ((13, 31.5), (43, 31.5), (13, 64.5), (43, 64.5))
    )
    return [
        _index("0", blue),
        f'<rect x="8.5" y="27" width="43" height="45" rx="2.5" fill="none" stroke="{blue}"'
        ' stroke-width="3.2"/>',
        f'<rect x="13" y="31.5" width="34" height="37" fill="none" stroke="{blue}"'
        ' stroke-width="1.2"/>',
        f'<g fill="{blue}">{corners}</g>',
        '<ellipse cx="30" cy="50" rx="6.5" ry="10" fill="none" stroke="#a9c1ea" stroke-width="3"/>',
    ]


def _joker() -> list[str]:
    return [
        _index("J", JOKER_INK),
        f'<polygon points="{_star(30, 43, 15.5, 6.6)}" fill="#f5b800" stroke="#8f5a00"'
        ' stroke-width="1.5" stroke-linejoin="round"/>',
        f'<polygon points="{_star(30, 44.5, 5, 2.2)}" fill="#fff2b8"/>',
        f'<text x="30" y="70.5" font-size="15" text-anchor="middle" textLength="48"'
        f' lengthAdjust="spacingAndGlyphs" fill="{JOKER_INK}">JOKER</text>',
    ]


# ------------------------------------------------------------------ flowers


def _stem(d: str, leaves: str = "") -> list[str]:
    out = [_path(d, "#3c7a35", 2.4)]
    if leaves:
        out.append(f'<path d="{leaves}" fill="#5aa64a" stroke="#2f6a2a" stroke-width="1"/>')
    return out


def _flower_plain() -> list[str]:  # F: the generic flower
    return [
        *_stem(
            "M30 48V73",
            "M30 64c-3-6-10-8-15-6 3 5 9 7 15 6zM30 60c3-6 10-8 15-6-3 5-9 7-15 6z",
        ),
        _blossom(30, 42, 7.5, "#ee86ad", "#a8335f", "#f7c72f"),
    ]


def _flower_plum() -> list[str]:  # F1
    return [
        _path("M9 72C18 64 24 58 30 50S42 36 51 29M30 50c5 1 10 5 12 10", "#6b4a2b", 2.6),
        _blossom(30, 49, 6.5, "#f6b3c8", "#c2567f", "#c2567f"),
        _blossom(47, 32, 4.5, "#f6b3c8", "#c2567f", "#c2567f"),
        _blossom(17, 65, 4.5, "#f6b3c8", "#c2567f", "#c2567f"),
        _blossom(43, 61, 3.5, "#fbe3ea", "#c2567f", "#c2567f"),
    ]


def _flower_orchid() -> list[str]:  # F2
    return [
        *_stem("M30 72C22 62 12 60 7 62M30 72C38 60 48 58 54 62M30 72V52"),
        '<g fill="#b77fd6" stroke="#6d2f91" stroke-width="1">',
        *_petals(30, 43, 3, 7.5, 3.6, 8),  # three sepals
        *_petals(30, 43, 2, 5.5, 2.8, 6, start=-60, spread=240),  # two petals
        "</g>",
        '<path d="M26 45c0 7 8 7 8 0-2-2-6-2-8 0z" fill="#f1d34b" stroke="#6d2f91"'
        ' stroke-width="1"/>',
    ]


def _flower_chrysanthemum() -> list[str]:  # F3
    return [
        *_stem("M30 56V73", "M30 66c4-5 10-6 14-4-3 4-9 5-14 4z"),
        '<g fill="#f6a93b" stroke="#b1601b" stroke-width=".8">',
        *_petals(30, 44, 16, 9, 2.4, 6.5),
        "</g>",
        '<g fill="#fbc85a" stroke="#b1601b" stroke-width=".8">',
        *_petals(30, 44, 10, 5, 2, 4, start=18),
        "</g>",
        '<circle cx="30" cy="44" r="3.2" fill="#b1601b"/>',
    ]


def _flower_lotus() -> list[str]:  # F4
    petal = "M30 62C24 54 25 42 30 33 35 42 36 54 30 62z"
    return [
        _path("M8 67q5.5-3 11 0t11 0 11 0 11 0M12 72q4.5-2.5 9 0t9 0 9 0 9 0", "#3b74c4", 1.6),
        '<g fill="#f4a7bd" stroke="#b0406a" stroke-width="1.1" stroke-linejoin="round">',
        *(f'<path d="{petal}" transform="rotate({a} 30 62)"/>' for a in (-70, 70, -36, 36, 0)),
        "</g>",
    ]


def _flower_tulip() -> list[str]:  # F5
    return [
        *_stem(
            "M30 52V73",
            "M30 70c-2-8-8-13-15-13 1 7 7 12 15 13zM30 66c3-7 8-10 14-10-2 6-7 9-14 10z",
        ),
        '<path d="M20.5 33l5 6 4.5-8 4.5 8 5-6v13a9.5 9.5 0 0 1-19 0z" fill="#d8343d"'
        ' stroke="#8f1f26" stroke-width="1.2" stroke-linejoin="round"/>',
        _path("M30 39v11", "#8f1f26", 1),
    ]


def _flower_daisy() -> list[str]:  # F6
    return [
        *_stem("M30 54V73", "M30 64c-4-5-10-6-14-4 3 4 9 5 14 4z"),
        '<g fill="#ffffff" stroke="#8a8a8a" stroke-width=".9">',
        *_petals(30, 44, 12, 8.5, 2.8, 5.5),
        "</g>",
        '<circle cx="30" cy="44" r="4.6" fill="#f4c20d" stroke="#a37a00" stroke-width="1"/>',
    ]


def _flower_rose() -> list[str]:  # F7
    spiral = (
        "M30 44m-1.5 0a1.5 1.5 0 1 1 3 0a3.5 3.5 0 1 1-7 0a5.5 5.5 0 1 1 11 0a7.5 7.5 0 1 1-15 0"
    )
    return [
        *_stem(
            "M30 55V73M30 63l-2.5-1.5M30 69l2.5-1.5",
            "M30 61c4-5 10-6 15-4-3 5-10 6-15 4zM30 66c-4-4-9-5-13-3 3 4 8 5 13 3z",
        ),
        '<circle cx="30" cy="44" r="11" fill="#d23c57" stroke="#8e1b30" stroke-width="1.3"/>',
        _path(spiral, "#8e1b30", 1.3),
    ]


def _flower_morning_glory() -> list[str]:  # F8
    return [
        _path("M30 56c0 6-6 8-6 12s5 5 8 4", "#3c7a35", 2.2),
        '<path d="M36 62c0-4 6-5 7-1 1-4 7-3 7 1 0 5-7 8-7 8s-7-3-7-8z" fill="#5aa64a"'
        ' stroke="#2f6a2a" stroke-width="1"/>',
        '<circle cx="30" cy="44" r="13" fill="#3f6fd6" stroke="#1d3f8a" stroke-width="1.3"/>',
        f'<polygon points="{_star(30, 44, 11, 3.5)}" fill="#c9d8f7"/>',
        '<circle cx="30" cy="44" r="3.2" fill="#ffffff" stroke="#1d3f8a" stroke-width=".8"/>',
    ]


_FLOWER_ART: dict[str, Callable[[], list[str]]] = {
    "F": _flower_plain,
    "F1": _flower_plum,
    "F2": _flower_orchid,
    "F3": _flower_chrysanthemum,
    "F4": _flower_lotus,
    "F5": _flower_tulip,
    "F6": _flower_daisy,
    "F7": _flower_rose,
    "F8": _flower_morning_glory,
}


def _back() -> list[str]:
    gold = "#e6d49c"
    return [
        '<rect x=".5" y=".5" width="59" height="79" rx="7" fill="#0e4a40" stroke="#082e28"/>',
        '<rect x="2" y="1.5" width="56" height="74.5" rx="6" fill="#1e7664" stroke="#13594c"/>',
        f'<rect x="6" y="5.5" width="48" height="66.5" rx="3.5" fill="none" stroke="{gold}"'
        ' stroke-width="1.2"/>',
        f'<path d="M30 22L45 38.75 30 55.5 15 38.75z" fill="none" stroke="{gold}"'
        ' stroke-width="1.6" stroke-linejoin="round"/>',
        f'<path d="M30 31L37 38.75 30 46.5 23 38.75z" fill="{gold}"/>',
        f'<g fill="{gold}"><circle cx="30" cy="13" r="1.6"/><circle cx="30" cy="64.5" r="1.6"/>'
        '<circle cx="11" cy="38.75" r="1.6"/><circle cx="49" cy="38.75" r="1.6"/></g>',
    ]


# ------------------------------------------------------------------ public API


def tile_svg(name: str) -> str:
    """The SVG document of one tile file name (a canonical kind, ``F1``..``F8`` or ``back``)."""
    title = label(name)  # raises ValueError on an unknown name
    if name == BACK:
        return _svg(title, _back())
    if name[0] in "123456789" and len(name) == 2 and name[1] in SUITS:
        body = _suited(int(name[0]), name[1])
    elif name in _DIRECTIONS:
        body = _wind(name)
    elif name == "R":
        body = _red_dragon()
    elif name == "G":
        body = _green_dragon()
    elif name == "0":
        body = _white_dragon()
    elif name == "J":
        body = _joker()
    else:
        body = [_index("F", FLOWER_INK), *_FLOWER_ART[name]()]
    return _svg(title, [_FACE, *body])


def write_tiles(out_dir: Path = OUT_DIR) -> list[Path]:
    """Write every tile SVG into ``out_dir``; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ALL_NAMES:
        path = out_dir / f"{name}.svg"
        path.write_text(tile_svg(name), encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write TwinRack's tile SVGs.")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help=f"folder (default {OUT_DIR})")
    args = parser.parse_args(argv)
    paths = write_tiles(args.out)
    largest = max(p.stat().st_size for p in paths)
    print(f"wrote {len(paths)} files to {args.out} (largest {largest} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
