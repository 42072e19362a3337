"""The post-game review at the terminal: ``r`` on the score at the end goes through the
player's decisions with the master (:func:`twinrack.bots.review.review`, a few seconds of
CPU, so it runs in a worker thread, never on the UI's) and shows the three biggest mistakes
in words and a one-line chart of the chance of finishing over the game.

The review reads the game's record as the engine writes it once the game is over
(:func:`twinrack.engine.record.record_for`), so it sees what ``twinrack review RECORD``
sees: the same record, seat, card and parameters give the same review.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from twinrack.bots import review as reviewer
from twinrack.bots.review import Review
from twinrack.card import Card
from twinrack.engine import GameState
from twinrack.engine.record import record_for
from twinrack.errors import TwinRackError

#: decisions the master plays out, and imagined games per choice (``None``: the review's
#: own defaults, those of ``twinrack review``); tests set small ones
SEARCHED: int | None = None
SIMULATIONS: int | None = None

#: the chart's marks, from a chance of 0 to a chance of 1
MARKS = "▁▂▃▄▅▆▇█"

WAITING = "Reviewing your game… (the master replays each of your decisions; a few seconds)"


def judge_game(record: dict[str, Any], seat: int, card: Card) -> Review:
    """The review of ``seat``'s game, with the parameters set here."""
    searched = reviewer.SEARCHED if SEARCHED is None else SEARCHED
    simulations = reviewer.SIMULATIONS if SIMULATIONS is None else SIMULATIONS
    return reviewer.review(record, seat, card, searched=searched, simulations=simulations)


def chance_chart(chances: Sequence[tuple[int, float]]) -> str:
    """One mark per decision, its height the chance of finishing after it, between the
    first and the last chance in percent."""
    if not chances:
        return "no decision with a choice"
    marks = "".join(MARKS[min(len(MARKS) - 1, max(0, int(c * len(MARKS))))]
                    for _turn, c in chances)
    return f"{chances[0][1]:.0%} {marks} {chances[-1][1]:.0%}"


def review_text(found: Review) -> Text:
    """The review in words: how many choices differed from the best, the chart, then each
    of the biggest mistakes (turn, what was played, what was best, why)."""
    wrong = sum(r.played != r.best for r in found.ratings)
    out = Text("Your game reviewed by the master\n\n", style="bold")
    out.append(f"{len(found.ratings)} decisions with a choice, {wrong} differ from the "
               "best choice.\n\n")
    span = (f" (turns {found.chances[0][0]} to {found.chances[-1][0]})"
            if found.chances else "")
    out.append(f"Chance of finishing after each decision{span}:\n")
    out.append(f"  {chance_chart(found.chances)}\n\n", style="bold cyan")
    if not found.mistakes:
        out.append("No mistake found: every choice was as good as the best one.\n")
    else:
        out.append("The biggest mistakes:\n", style="bold")
    for k, m in enumerate(found.mistakes, start=1):
        margin = "" if m.margin_lost is None else f", game margin lost {m.margin_lost:+.1f}"
        out.append(f"{k}. Turn {m.turn} ({m.kind}): you played '{m.played}', "
                   f"the best was '{m.best}'\n", style="bold")
        out.append(f"   finish {m.chance_played:.0%} vs {m.chance_best:.0%}, expected "
                   f"points {m.points_played:.1f} vs {m.points_best:.1f}{margin}\n",
                   style="dim")
        out.append(f"   Why: {m.why}\n")
    out.append("\nEsc back to the score", style="italic")
    return out


class ReviewScreen(ModalScreen[None]):
    """The review of the finished game, computed in a worker thread once per game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("q", "close", "Back", show=False),
        Binding("r", "close", "Back", show=False),
    ]

    def __init__(self, judge: Callable[[], Review], found: Review | None = None,
                 keep: Callable[[Review], None] | None = None) -> None:
        super().__init__()
        self.judge = judge
        self.found = found
        self.keep = keep
        self.problem = ""  # why there is no review, once the worker failed

    @classmethod
    def of_game(cls, state: GameState, seat: int, found: Review | None = None,
                keep: Callable[[Review], None] | None = None) -> ReviewScreen:
        """The review of ``seat``'s part in the finished game ``state``."""
        record = record_for(state, seat)
        card = state.card
        return cls(lambda: judge_game(record, seat, card), found, keep)

    @property
    def done(self) -> bool:
        return self.found is not None or bool(self.problem)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(self.text(), id="review")

    def on_mount(self) -> None:
        if self.found is None:
            self.run_worker(self.judge, name="review", thread=True, exit_on_error=False)

    def text(self) -> Text:
        if self.found is not None:
            return review_text(self.found)
        if self.problem:
            return Text.assemble((f"The review could not be made: {self.problem}\n\n",
                                  "bold red"), ("Esc back to the score", "italic"))
        return Text(WAITING, style="bold yellow")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.name != "review":
            return
        if event.state == WorkerState.SUCCESS:
            self.found = worker.result
            if self.keep is not None and self.found is not None:
                self.keep(self.found)
        elif event.state == WorkerState.ERROR:
            err = worker.error
            self.problem = (err.message if isinstance(err, TwinRackError)
                            else f"{type(err).__name__}: {err}")
        else:
            return
        self.query_one("#review", Static).update(self.text())

    def action_close(self) -> None:
        self.dismiss(None)
