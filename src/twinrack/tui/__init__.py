"""The terminal client: ``twinrack play``, a full-screen game against bots (Textual)."""

from twinrack.tui.app import PlayApp
from twinrack.tui.table import TerminalTable, default_bot

__all__ = ["PlayApp", "TerminalTable", "default_bot"]
