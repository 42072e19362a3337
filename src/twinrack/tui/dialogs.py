"""The terminal game's dialogs: a list of actions to choose from, a yes/no question, the
keys' help and the score at the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from twinrack.tui import render


class ChoiceScreen(ModalScreen[int | None]):
    """Pick one of several actions from a list (Enter), or Esc to cancel."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, labels: Sequence[str], note: str = "",
                 warn: Sequence[bool] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.labels = list(labels)
        self.note = note
        self.warn = list(warn)

    def compose(self) -> ComposeResult:
        options = []
        for i, label in enumerate(self.labels):
            danger = i < len(self.warn) and self.warn[i]
            options.append(Option(Text(label, style="bold red" if danger else "")))
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            yield OptionList(*options, id="choices", markup=False)
            yield Static(Text(self.note or "Enter choose · Esc cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.query_one(OptionList).highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.question, style="bold"))
            yield Static(Text("y yes · n no", style="dim"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text.from_markup(render.HELP), id="help")

    def action_close(self) -> None:
        self.dismiss(None)


class ScoreScreen(ModalScreen[str | None]):
    """The itemized score at the end: ``n`` new game, ``w`` save the game's record, ``r``
    review the player's game, ``q`` quit, Esc back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "done('new')", "New game"),
        Binding("w", "save", "Save record"),
        Binding("r", "review", "Review my game"),
        Binding("q", "done('quit')", "Quit"),
        Binding("escape", "done(None)", "Table"),
    ]

    def __init__(self, text: Text, save: Callable[[], Text] | None = None,
                 review: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.text = text
        self.save = save
        self.review = review

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(self.text, id="score")

    def action_save(self) -> None:
        """Save the record; the dialog then says where."""
        if self.save is not None:
            self.text = self.save()
            self.query_one("#score", Static).update(self.text)

    def action_review(self) -> None:
        """Open the review of the player's game over this dialog."""
        if self.review is not None:
            self.review()

    def action_done(self, what: str | None) -> None:
        self.dismiss(what)
