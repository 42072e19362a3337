"""A card as a player reads it at the table: its lines by section, each with its pattern,
points, a sample way in tiles and whether it must be played concealed. The card is public:
every page may show it (the table's card panel, the lobby and the card editor).
"""

from __future__ import annotations

from typing import Any

from twinrack.card.model import Card, Hand
from twinrack.tiles import CANONICAL


def line_dict(hand: Hand) -> dict[str, Any]:
    """One line: its id, pattern, points, marks and its first way as groups of tiles."""
    return {"id": hand.id, "pattern": hand.pattern, "value": hand.value,
            "concealed": hand.concealed, "star": hand.star, "declared": hand.declared,
            "note": hand.note, "ways": len(hand.ways),
            "sample": [[CANONICAL[g.tile]] * g.size for g in hand.ways[0].groups]}


def sheet(card: Card) -> dict[str, Any]:
    """The card by section, the sections in the order the card first names them."""
    sections: dict[str, list[dict[str, Any]]] = {}
    for hand in card.hands:
        sections.setdefault(hand.section, []).append(line_dict(hand))
    return {"name": card.name, "edition": card.edition, "lines": len(card.hands),
            "sections": [{"name": name, "lines": lines} for name, lines in sections.items()]}
