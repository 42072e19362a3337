"""``twinrack review RECORD``: one player's decisions rated by the master, the three
biggest mistakes in words (the analysis is :mod:`twinrack.bots.review`)."""

from __future__ import annotations

import json
import sys
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from twinrack.bots.review import SEARCHED, SIMULATIONS, Review, ReviewError, review
from twinrack.cli.game import _card, _fail, _load_record


def review_command(
    path: Annotated[str, typer.Argument(help="a finished game's record (JSON)")],
    seat: Annotated[int, typer.Option("--seat", help="the player to review (from 0)")] = 0,
    card: Annotated[str | None, typer.Option("--card", help="card file")] = None,
    simulations: Annotated[int, typer.Option(
        "--simulations", help="imagined games per choice for the decisions played out")]
    = SIMULATIONS,
    searched: Annotated[int, typer.Option(
        "--searched", help="how many of the costliest decisions the master plays out")]
    = SEARCHED,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Rate one player's discards, claims, passes and exposures against the best choice,
    by the chance of finishing and the expected points, and explain the three biggest
    mistakes."""
    if simulations < 1:
        _fail("--simulations must be at least 1")
    if searched < 0:
        _fail("--searched must not be negative")
    rec = _load_record(path)
    the_card = _card(card)
    start = time.perf_counter()
    try:
        found = review(rec, seat, the_card, searched=searched, simulations=simulations)
    except ReviewError as err:
        _fail(f"{path}: {err.message}")
    seconds = time.perf_counter() - start
    if as_json:
        sys.stdout.write(json.dumps({**found.to_dict(), "seconds": round(seconds, 3)}) + "\n")
        return
    _print_review(found, seconds)


def _print_review(found: Review, seconds: float) -> None:
    out = Console(highlight=False, soft_wrap=True)
    wrong = sum(r.played != r.best for r in found.ratings)
    out.print(f"seat {found.seat}: {len(found.ratings)} decisions with a choice, "
              f"{wrong} differ from the best choice")
    table = Table(title="the biggest mistakes")
    for col in ("action", "turn", "played", "best", "finish %", "exp. points",
                "margin lost"):
        table.add_column(col, justify="right" if col in ("action", "turn") else "left")
    for m in found.mistakes:
        table.add_row(str(m.number), str(m.turn), m.played_words or m.played,
                      m.best_words or m.best,
                      f"{m.chance_played:.0%} vs {m.chance_best:.0%}",
                      f"{m.points_played:.1f} vs {m.points_best:.1f}",
                      "-" if m.margin_lost is None else f"{m.margin_lost:+.1f}")
    out.print(table)
    for k, m in enumerate(found.mistakes, start=1):
        out.print(f"{k}. action {m.number} (turn {m.turn}): {m.why}")
    if not found.mistakes:
        out.print("no mistake found: every choice was as good as the best one")
    out.print(f"reviewed in {seconds:.1f} s")


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)
