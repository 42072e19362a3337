"""The status line of the terminal game: the turn, the wall, what is happening and which
keys do something now (read off the view and the legal actions, never off a rule)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from twinrack.engine import Action, Claim, View
from twinrack.tui import render
from twinrack.tui.charleston import charleston_status
from twinrack.tui.table import TerminalTable

MJ_KINDS = ("mahjongg", "double")

#: keys offered on the player's turn, by the kind of action they make (``View.verbs``)
TURN_KEYS = (("move", " · m move", ""), ("mahjongg", " · j MAH JONGG!", "bold reverse green"),
             ("exchange", " · x exchange a Joker", "bold"), ("expose", " · e expose", ""),
             ("undeclare", " · u go off declared hand", ""))


def status_text(table: TerminalTable, names: Sequence[str], message: Text,
                call_left: int | None, marks: tuple[int, int] = (0, 0)) -> Text:
    """Two lines: the turn, the wall and the situation; then the last message (``marks``:
    how many tiles are marked to pass in the Charleston, and how many to pass blind)."""
    v = table.view()
    out = Text()
    out.append(f"Turn {v.turn} · Wall {v.wall_left} left · ", style="dim")
    out.append_text(situation(table, v, names, call_left, marks))
    out.append("\n")
    out.append_text(message)
    return out


def situation(table: TerminalTable, v: View, names: Sequence[str],
              call_left: int | None, marks: tuple[int, int] = (0, 0)) -> Text:
    """What is happening and which keys do something now."""
    if table.over:
        return Text("Game over: n new game · r review your game · q quit", style="bold")
    if v.charleston is not None:
        return charleston_status(table, v, list(names), marks[0], marks[1])
    if not table.player_to_act():
        acting = ", ".join(names[s] for s in v.to_act)
        return Text(f"{acting} to play...", style="italic")
    if table.declaring():
        return Text("Declare an Atomic-style hand? a declare · p pass", style="bold yellow")
    if table.in_window():
        return call_prompt(table.legal(), v, names, call_left)
    if v.must == "expose":
        return Text("Expose a group with the claimed tile: e choose", style="bold yellow")
    if v.must in MJ_KINDS:
        return Text("Declare the Mah Jongg the claimed tile makes: j choose",
                    style="bold yellow")
    if v.must == "error":
        return Text("No Mah Jongg with the claimed tile: e choose (expose or withdraw)",
                    style="bold red")
    return turn_keys(v)


def call_prompt(legal: Sequence[Action], v: View, names: Sequence[str],
                call_left: int | None) -> Text:
    """A discard may be called: the claims the player may make, and the time left."""
    assert v.window is not None and v.seat is not None
    discarder, tile = v.window
    out = Text("CALL? ", style="bold reverse yellow")
    out.append(f" {names[discarder]} discarded ")
    out.append_text(render.tile_text(tile, "bold"))
    out.append(": ")
    keys = []
    if Claim(v.seat, "expose") in legal:
        keys.append("c claim for exposure")
    if Claim(v.seat, "double") in legal:
        keys.append("M claim DOUBLE Mah Jongg")
    elif Claim(v.seat, "mahjongg") in legal:
        keys.append("M claim Mah Jongg")
    keys.append("p pass")
    out.append(" · ".join(keys), style="bold")
    if call_left is not None:
        out.append(f"  [{call_left}s]", style="bold red")
    return out


def turn_keys(v: View) -> Text:
    """The player's turn: the tile just taken, and the keys of the kinds of action it may
    take now."""
    out = Text("Your turn", style="bold green")
    if v.acquired is not None:
        got = "claimed" if v.claim is not None else "picked"
        out.append(f" (you {got} ")
        out.append_text(render.tile_text(v.acquired))
        out.append(")")
    out.append(": d discard")
    for verb, words, style in TURN_KEYS:
        if verb in v.verbs:
            out.append(words, style=style)
    return out
