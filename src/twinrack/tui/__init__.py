"""The terminal client: ``twinrack play``, a full-screen game against bots (Textual)."""

from twinrack.tui.app import PlayApp
from twinrack.tui.table import Table, default_bot

__all__ = ["PlayApp", "Table", "default_bot"]
