"""The end of a game at the terminal: the score dialog's text and the game's record (a
mixin of :class:`twinrack.tui.app.Board`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from twinrack.engine import settlement
from twinrack.tui import render

if TYPE_CHECKING:
    from twinrack.tui.table import TerminalTable


class EndOfGame:
    """What the Board says when the game is over, and where its record went."""

    table: TerminalTable
    names: list[str]
    record_dir: Path | None
    card_path: str | None
    saved: Path | None
    save_problem: str

    def score_text(self) -> Text:
        t = self.table
        st = t.state
        # a settlement says something with 2 players, or with a pot (section 10)
        pays = settlement(st).payouts if t.rules.players == 2 or t.rules.pot else ()
        return render.score_text(t.score(), self.names, st.end_reason, st.winner, pays,
                                 t.view().seed, record=self.record_words())

    def record_words(self) -> str:
        """What the end dialog says of the game's record: where it was saved, why it could
        not be, or that w saves it."""
        if self.saved is not None:
            card = f" --card {self.card_path}" if self.card_path else ""
            return (f"Record saved to {self.saved}: check it with "
                    f"twinrack replay --verify {self.saved}{card}")
        if self.save_problem:
            return f"Could not save the record: {self.save_problem} (w to try again)"
        return ""

    def save_record(self) -> Text:
        """Save the ended game's record (once) into the record folder, or the current
        folder; the end dialog's text, saying where."""
        if self.saved is None:
            try:
                self.saved = self.table.save_record(self.record_dir or Path.cwd())
                self.save_problem = ""
            except OSError as err:
                self.save_problem = f"{self.record_dir or Path.cwd()}: {err.strerror or err}"
        return self.score_text()
