"""The card: its TOML language, loading, and analysis (Mah Jongg matching, tiles away)."""

from twinrack.card.loader import load_card, parse_card, practice_card
from twinrack.card.model import Card, Group, Hand, Way

__all__ = ["Card", "Group", "Hand", "Way", "load_card", "parse_card", "practice_card"]
