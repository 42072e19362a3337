"""The Charleston at the terminal (the American game, right after the deal).

The player marks the tiles to pass with ``t`` (the cursor's tile; again to unmark), sets
how many to pass on unseen with ``b`` (the last pass of each Charleston), and passes with
``enter`` (or ``d``). The vote on the second Charleston and the courtesy offer are asked
in a list. Every choice is looked up in the legal actions before it is sent, and a refused
one is explained in the engine's words, like every other key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from twinrack.engine import Action, View
from twinrack.engine.actions import CharlestonPass, Courtesy, Offer, Vote
from twinrack.tui import render
from twinrack.tui.dialogs import ChoiceScreen

if TYPE_CHECKING:
    from twinrack.tui.arrangement import Arrangement
    from twinrack.tui.table import TerminalTable

#: the words of each pass's direction, for the status line and the log
TO_WORDS = {"right": "RIGHT", "across": "ACROSS", "left": "LEFT"}


class CharlestonKeys:
    """The Board's keys and prompts for the Charleston (a mixin of
    :class:`twinrack.tui.app.Board`, which supplies ``table``, ``arrangement``, ``act``,
    ``say``, ``redraw``, ``app`` and ``names``)."""

    table: TerminalTable
    arrangement: Arrangement
    names: list[str]
    app: Any
    marked: list[int]  # positions on the (one) rack, in the order marked
    blind: int

    def act(self, action: Action, gone: tuple[int, int] | None = None) -> bool:
        raise NotImplementedError

    def say(self, text: str, style: str = "yellow") -> None:
        raise NotImplementedError

    def redraw(self) -> None:
        raise NotImplementedError

    def in_charleston(self) -> bool:
        return self.table.view().charleston is not None

    def clear_marks(self) -> None:
        self.marked = []
        self.blind = 0

    def marked_tiles(self) -> tuple[int, ...]:
        rack = self.arrangement.racks[0]
        return tuple(sorted(rack[i] for i in self.marked if i < len(rack)))

    def action_mark(self) -> None:
        """Mark the cursor's tile to pass (or unmark it)."""
        if not self.in_charleston():
            self.say("Tiles are marked for the Charleston only.", style="dim")
            return
        a = self.arrangement
        if a.rack != 0 or a.tile is None:
            return
        if a.index in self.marked:
            self.marked.remove(a.index)
        else:
            self.marked.append(a.index)
        self.redraw()

    def action_blind(self) -> None:
        """How many tiles to pass on unseen: 0, 1, 2, 3, then 0 again."""
        v = self.table.view()
        if v.charleston is None or not v.charleston.blind:
            self.say("A blind pass is made only in the last pass of each Charleston.",
                     style="dim")
            return
        self.blind = (self.blind + 1) % 4
        self.redraw()

    def pass_marked(self) -> None:
        """Pass the marked tiles (and the blind ones), or the courtesy pass's tiles."""
        v = self.table.view()
        assert v.charleston is not None and v.seat is not None
        tiles = self.marked_tiles()
        action: Action = (Courtesy(v.seat, tiles) if v.charleston.kind == "courtesy"
                          else CharlestonPass(v.seat, tiles, self.blind))
        if self.act(action):
            self.clear_marks()
            self.redraw()

    def charleston_prompt(self) -> bool:
        """The vote and the courtesy offer are asked in a list; True when one was."""
        v = self.table.view()
        ch = v.charleston
        if ch is None or ch.kind not in ("vote", "offer") or self.app.screen is not self:
            return False
        seat = self.table.seat
        if ch.kind == "vote":
            options: list[Action] = [Vote(seat, True), Vote(seat, False)]
            labels = ["again: the second Charleston (left, across, right)",
                      "stop: no second Charleston (one stop is enough)"]
            title = "The first Charleston is over. A second one?"
        else:
            options = [Offer(seat, n) for n in range(4)]
            labels = [f"offer {n} tile{'s' * (n != 1)}" for n in range(4)]
            title = (f"Courtesy pass with {self.names[(seat + 2) % 4]} (across): you pass "
                     "the lower of your two offers")

        def chosen(index: int | None) -> None:
            if index is not None:
                self.act(options[index])

        self.app.push_screen(ChoiceScreen(title, labels), chosen)
        return True


def charleston_status(table: TerminalTable, v: View, names: list[str],
                      marked: int, blind: int) -> Text:
    """What the player is asked in the Charleston, and the keys."""
    ch = v.charleston
    assert ch is not None
    if not table.player_to_act():
        waiting = ", ".join(names[s] for s in v.to_act)
        return Text(f"Charleston: waiting for {waiting} to choose...", style="italic")
    if ch.kind == "vote":
        return Text("Second Charleston? choose in the list", style="bold yellow")
    if ch.kind == "offer":
        return Text("Courtesy pass: how many tiles do you offer across?", style="bold yellow")
    to = names[ch.to] if ch.to is not None else "?"
    if ch.kind == "courtesy":
        out = Text(f"Courtesy: pass {ch.owed} tile{'s' * (ch.owed != 1)} ACROSS to {to}: ",
                   style="bold yellow")
        out.append(f"t marks ({marked} marked) · enter passes", style="bold")
        return out
    which = ch.stage.split("-")[0]
    out = Text(f"{which.title()} Charleston: pass 3 tiles "
               f"{TO_WORDS.get(ch.direction or '', '?')} to {to}: ", style="bold yellow")
    out.append(f"t marks ({marked} marked)", style="bold")
    if ch.blind:
        out.append(f" · b blind ({blind} of those you receive, unseen)", style="bold")
    out.append(" · enter passes (never a Joker)", style="bold")
    return out


def marked_line(v: View, tiles: tuple[int, ...]) -> Text:
    """The tiles marked to pass, under the player's rack."""
    out = Text("To pass: ", style="dim")
    out.append_text(render.tiles_text(tiles) if tiles else Text("none yet", style="dim"))
    return out
