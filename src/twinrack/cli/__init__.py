"""The ``twinrack`` command line. Thin: every rule lives in the library."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Annotated, Any, NoReturn

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from twinrack.card import Card, kernel, load_card
from twinrack.card.compiled import CompiledCard, PairPlan, compiled
from twinrack.card.exposure import Exposure
from twinrack.errors import CardError, NotationError, TwinRackError
from twinrack.tiles import JOKER, NUM_KINDS, counts_of, format_tiles, parse_tiles

try:  # typer >= 0.20 carries its own copy of click
    from typer._click.exceptions import ClickException as UsageProblem
except ImportError:  # pragma: no cover - older typer on top of click
    from click.exceptions import ClickException as UsageProblem  # type: ignore[assignment]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="TwinRack: Siamese Mah Jongg. Cards, tiles away, games and scores.",
)
card_app = typer.Typer(no_args_is_help=True, help="Check, show and analyse a card.")
app.add_typer(card_app, name="card")


@card_app.callback()
def _card_commands() -> None:
    kernel.for_few_questions()  # a card command asks a question or two

out = Console(highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr and a non-zero exit."""
    print(f"twinrack: {message}", file=sys.stderr)
    raise typer.Exit(code)


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=None, separators=(", ", ": ")) + "\n")


def open_card(path: str | None) -> Card:
    try:
        return load_card(path)
    except CardError as err:
        print(err.render(), file=sys.stderr)
        raise typer.Exit(2) from None


def parse_option_tiles(option: str, text: str) -> list[int]:
    try:
        return parse_tiles(text)
    except NotationError as err:
        fail(f"{option}: {err.message}")


def parse_exposures(option: str, texts: list[str] | None) -> list[Exposure]:
    """Exposed groups: one kind of tile (Jokers aside), 3 tiles or more."""
    out_list: list[Exposure] = []
    for text in texts or []:
        try:
            x = Exposure.parse(text)
        except NotationError as err:
            fail(f"{option} '{text}': {err.message}")
        if x.size < 3:
            fail(f"{option} '{text}': an exposure is a group of 3 or more tiles (pung, kong, "
                 f"quint, sextet), this one has {x.size}")
        out_list.append(x)
    return out_list


def unfit(cc: CompiledCard, exposures: list[Exposure]) -> str | None:
    """Why no line of the card can hold these exposures on one rack, or None when one can."""
    if cc.rack_alive(exposures):
        return None
    hidden = (" but a concealed one (--open plays those open)"
              if cc.open_lines.rack_alive(exposures) else "")
    alone = next((x for x in exposures if not cc.rack_alive([x])), None)
    if alone is not None:
        return f"the exposure {alone} fits no line of the card{hidden}"
    return (f"the exposures {' and '.join(str(x) for x in exposures)} fit no line of the "
            f"card together{hidden}")


def pair_needs(cc: CompiledCard, counts: Any, plan: PairPlan,
               exposures1: Sequence[Exposure] = (),
               exposures2: Sequence[Exposure] = ()) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tiles each rack of a pair of lines still lacks, from one shared holding.

    The holding is split between the two ways so that together they lack exactly the pair's
    tiles away: of each tile, natural copies go first to the singles and pairs of rack 1,
    then of rack 2 (only natural tiles can fill them), what is left to the groups of 3 or
    more of rack 1, then of rack 2; Jokers then fill the groups of 3 or more still short,
    rack 1 first. Each rack's share then gets the card's own ``needs``.
    """
    held = np.asarray(counts, dtype=np.int64)
    racks = (cc.rack(exposures1), cc.rack(exposures2))
    ways = [int(cc.hand_start[h.number]) + h.ways.index(w)
            for h, w in zip(plan.hands, plan.ways, strict=True)]
    nat = [r.nat[w, :NUM_KINDS].astype(np.int64) for r, w in zip(racks, ways, strict=True)]
    big = [r.tot[w, :NUM_KINDS].astype(np.int64) - n
           for r, w, n in zip(racks, ways, nat, strict=True)]
    left = held.copy()
    left[JOKER] = 0
    share = [np.zeros(NUM_KINDS, dtype=np.int64) for _ in racks]
    for demand in (nat, big):
        for r in (0, 1):
            took = np.minimum(left, demand[r])
            share[r] += took
            left -= took
    jokers = int(held[JOKER])
    for r in (0, 1):
        in_big = share[r] - np.minimum(share[r], nat[r])
        share[r][JOKER] = min(jokers, int((big[r] - in_big).sum()))
        jokers -= int(share[r][JOKER])
    one, two = (cc.needs(w, s, x) for w, s, x in
                zip(ways, share, (exposures1, exposures2), strict=True))
    return one, two


# ---------------------------------------------------------------------------- card


CardArg = Annotated[str | None, typer.Argument(help="card file (default: the practice card)")]
CardOpt = Annotated[str | None, typer.Option("--card", help="card file (default: practice)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]
OpenOpt = Annotated[bool, typer.Option(
    "--open", help="concealed (C) lines may take exposures too, as the 2024 Siamese revision "
                   "plays them (by default a C line admits no exposure)")]


@card_app.command("check")
def card_check(card: CardArg = None) -> None:
    """Load a card and list its sections, lines and concrete ways."""
    c = open_card(card)
    table = Table(title=f"{c.name} {c.edition}".strip())
    for col in ("section", "id", "pattern", "value", "ways"):
        table.add_column(col)
    for h in c.hands:
        table.add_row(h.section, h.id, h.pattern, str(h.value), str(len(h.ways)))
    out.print(table)
    out.print(f"{len(c.sections)} sections, {len(c.hands)} lines, {c.way_count} concrete ways: "
              "the card is good.")


def _flags(h: Any) -> str:
    marks = []
    if h.concealed:
        marks.append("C")
    if h.star:
        marks.append("*")
    if h.declared:
        marks.append("declared")
    return " ".join(marks)


@card_app.command("show")
def card_show(card: CardArg = None) -> None:
    """Print the card laid out as a player reads it."""
    c = open_card(card)
    out.rule(f"[bold]{c.name}[/bold] {c.edition}")
    for section in c.sections:
        out.print(f"\n[bold underline]{section}[/bold underline]")
        for h in c.hands:
            if h.section != section:
                continue
            note = f"  [dim]{h.note}[/dim]" if h.note else ""
            flags = _flags(h)
            out.print(f"  {h.pattern:<36} {flags:>10} {h.value:>4}   [cyan]{h.id}[/cyan]{note}")
    out.print("\n[dim]C = concealed (no exposure before Mah Jongg; the 2024 Siamese revision "
              "lets any line be played open, without the closed +10); * = +25 when "
              "jokerless with two or more sets; declared = announce right after the "
              "deal.[/dim]")


@card_app.command("match")
def card_match(
    rack: Annotated[str, typer.Option("--rack", help="all 14 tiles of the rack")],
    card: CardOpt = None,
    exposed: Annotated[list[str] | None, typer.Option(
        "--exposed", help="one exposed group among the rack's tiles (repeatable)")] = None,
    all_open: OpenOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Which card lines a 14-tile rack makes (exit 0 when one does, 1 when none)."""
    tiles = parse_option_tiles("--rack", rack)
    if len(tiles) != 14:
        fail(f"--rack: a rack for Mah Jongg has 14 tiles, this one has {len(tiles)}")
    exposures = parse_exposures("--exposed", exposed)
    concealed = list(tiles)
    for x in exposures:
        for t in x.tiles():
            if t not in concealed:
                fail(f"--exposed '{x}' is not among the tiles of --rack")
            concealed.remove(t)
    c = open_card(card)
    cc = compiled(c, open_lines=all_open)
    problem = unfit(cc, exposures)
    matches = cc.matches(counts_of(concealed), exposures)
    if as_json:
        found: dict[str, Any] = {"matches": [
            {"id": m.hand.id, "section": m.hand.section, "value": m.hand.value,
             "jokerless": m.jokerless, "concealed": m.hand.concealed, "closed": m.closed,
             "way": str(m.way)} for m in matches]}
        if problem:
            found["problem"] = problem
        emit_json(found)
    elif matches:
        for m in matches:
            extra = ", ".join(x for x in (("jokerless" if m.jokerless else ""),
                                          ("closed" if m.closed else "")) if x)
            out.print(f"Mah Jongg: [bold]{m.hand.id}[/bold] ({m.hand.section}) "
                      f"{m.hand.value} points{'; ' + extra if extra else ''}: {m.way}")
    else:
        out.print("No line of the card matches this rack" + (f": {problem}." if problem else "."))
    raise typer.Exit(0 if matches else 1)


@card_app.command("away")
def card_away(
    tiles: Annotated[str, typer.Option("--tiles", help="the concealed holding, Jokers included")],
    card: CardOpt = None,
    exposed: Annotated[list[str] | None, typer.Option(
        "--exposed", help="one exposed group of rack 1 (repeatable)")] = None,
    racks: Annotated[int, typer.Option("--racks", help="1: one rack; 2: two racks share the "
                                       "holding")] = 1,
    exposed2: Annotated[list[str] | None, typer.Option(
        "--exposed2", help="one exposed group of rack 2 (repeatable)")] = None,
    top: Annotated[int | None, typer.Option("--top", help="how many to list")] = None,
    all_open: OpenOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Tiles away from each line, or the best pairs of lines for two racks with what each
    rack still needs (exit 1 when a rack's exposures fit no line of the card)."""
    if racks not in (1, 2):
        fail("--racks must be 1 or 2")
    if top is not None and top < 1:
        fail("--top must be at least 1")
    held = parse_option_tiles("--tiles", tiles)
    exp1 = parse_exposures("--exposed", exposed)
    exp2 = parse_exposures("--exposed2", exposed2)
    if racks == 1 and exp2:
        fail("--exposed2 needs --racks 2")
    total = len(held) + sum(x.size for x in exp1) + sum(x.size for x in exp2)
    if racks == 1 and not 1 <= total <= 14:
        fail(f"one rack holds 1 to 14 tiles; --tiles and --exposed give {total}")
    if racks == 2 and total not in (27, 28):
        fail(f"two racks share 27 or 28 tiles; --tiles and the exposures give {total}")
    cc = compiled(open_card(card), open_lines=all_open)
    if racks == 1:
        away_one(cc, held, exp1, top, as_json)
    else:
        away_two(cc, held, exp1, exp2, top, as_json)


def away_one(cc: CompiledCard, held: list[int], exposures: list[Exposure], top: int | None,
             as_json: bool) -> None:
    """Tiles away from each line for one rack (exit 1 when its exposures fit no line)."""
    counts = counts_of(held)
    problem = unfit(cc, exposures)
    hands = cc.nearest(counts, exposures, top=top)
    if as_json:
        found: dict[str, Any] = {"hands": [
            {"id": h.hand.id, "away": h.away, "needs": [format_tiles([t]) for t in h.needs],
             "value": h.hand.value} for h in hands]}
        if problem:
            found["problem"] = problem
        emit_json(found)
    elif problem:
        out.print(f"No line of the card can be made on this rack: {problem} (the rack is "
                  "dead).")
    else:
        table = Table(title=f"Tiles away: {format_tiles(sorted(held))}")
        for col in ("line", "section", "away", "needs", "value", "pattern"):
            table.add_column(col)
        for h in hands[: top or 15]:
            table.add_row(h.hand.id, h.hand.section, str(h.away), format_tiles(h.needs),
                          str(h.hand.value), h.hand.pattern)
        out.print(table)
        if int(counts[JOKER]):
            out.print(f"[dim]{int(counts[JOKER])} Joker(s) counted toward groups of 3 or more."
                      "[/dim]")
    if problem:
        raise typer.Exit(1)


def away_two(cc: CompiledCard, held: list[int], exp1: list[Exposure], exp2: list[Exposure],
             top: int | None, as_json: bool) -> None:
    """The best pairs of lines for two racks sharing the holding, with what each rack of
    a pair still needs (exit 1 when a rack's exposures fit no line)."""
    counts = counts_of(held)
    problem = next((f"rack {r}: {why}" for r, why in
                    ((1, unfit(cc, exp1)), (2, unfit(cc, exp2))) if why), None)
    pairs = cc.best_pairs(counts, exp1, exp2, top=top or 10)
    needs = [pair_needs(cc, counts, p, exp1, exp2) for p in pairs]
    if as_json:
        found: dict[str, Any] = {"pairs": [
            {"ids": [p.hands[0].id, p.hands[1].id], "away": p.away, "value": p.value,
             "needs": [[format_tiles([t]) for t in rack] for rack in need],
             "ways": [str(w) for w in p.ways]} for p, need in zip(pairs, needs, strict=True)]}
        if problem:
            found["problem"] = problem
        emit_json(found)
    elif problem:
        out.print(f"No pair of lines can be made: {problem} (the rack is dead).")
    else:
        out.print(f"Best pairs for two racks: {format_tiles(sorted(held))}", markup=False)
        ids = max((len(h.id) for p in pairs for h in p.hands), default=0)
        wants = [format_tiles(rack) or "nothing" for need in needs for rack in need]
        width = max((len(w) for w in wants), default=0)
        for n, (p, need) in enumerate(zip(pairs, needs, strict=True), start=1):
            out.print(f"{n:>2}. {p.hands[0].id} + {p.hands[1].id}: {p.away} away, "
                      f"{p.value} points", markup=False)
            for r in (0, 1):
                want = format_tiles(need[r]) or "nothing"
                out.print(f"    rack {r + 1}  {p.hands[r].id:<{ids}}  needs {want:<{width}}"
                          f"  {p.ways[r]}", markup=False)
    if problem:
        raise typer.Exit(1)


from twinrack.cli.desk import register as _register_desk  # noqa: E402

_register_desk(app)

from twinrack.cli.game import register as _register_game  # noqa: E402

_register_game(app)


from twinrack.cli.server import register as _register_server  # noqa: E402

_register_server(app)

from twinrack.cli.play import register as _register_play  # noqa: E402

_register_play(app)

from twinrack.cli.review import register as _register_review  # noqa: E402

_register_review(app)

from twinrack.server.accounts.cli import register as _register_accounts  # noqa: E402

_register_accounts(app)


# ---------------------------------------------------------------------------- entry


def main(argv: list[str] | None = None) -> int:
    """Run the command line; never lets a traceback out for bad input."""
    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv, prog_name="twinrack", standalone_mode=False)
    except typer.Exit as ex:
        return int(ex.exit_code)
    except UsageProblem as ex:
        message = ex.format_message()
        if message:
            print(f"twinrack: {message}", file=sys.stderr)
        return 2
    except typer.Abort:
        print("twinrack: aborted", file=sys.stderr)
        return 130
    except CardError as err:
        print(err.render(), file=sys.stderr)
        return 2
    except TwinRackError as err:
        print(f"twinrack: {err.message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
