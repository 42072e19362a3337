"""Rendering helpers for the terminal game: tiles, racks, the discard pool, the log, the
score. Pure functions from engine data to Rich text, so tests can check them directly.

Colour marks the suits (Bams green, Craks red, Dots blue) but every tile is also written in
the project's notation (``5B``, ``7C``, ``2D``, ``N``, ``R``, ``0``, ``F``, ``J``), and the
cursor and the latest discard are marked with brackets, so the table reads without colour.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from rich.text import Text

from twinrack.card.exposure import Exposure
from twinrack.engine.actions import (
    Action,
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Pass,
    Undeclare,
    Withdraw,
)
from twinrack.engine.events import MahJonggDeclared
from twinrack.engine.rules import seat_wind
from twinrack.engine.scoring import Score
from twinrack.engine.view import RackView, SeatView, View
from twinrack.narration import CLAIM_WORDS, end_words, owner_words
from twinrack.narration import narrate as narrate  # the terminal client's log
from twinrack.tiles import CANONICAL, FLOWER, JOKER, format_tiles

SUIT_STYLES = ("green", "red", "bright_blue")  # Bams, Craks, Dots
HONOUR_STYLES = {"R": "bold red", "G": "bold green", "0": "bold white"}


# ---------------------------------------------------------------------------- tiles


def tile_style(tile: int) -> str:
    """The colour of a tile: its suit's, a dragon's, or a mark for Flowers and Jokers."""
    if tile < 27:
        return SUIT_STYLES[tile // 9]
    if tile == JOKER:
        return "bold yellow"
    if tile == FLOWER:
        return "magenta"
    name = CANONICAL[tile]
    return HONOUR_STYLES.get(name, "bold")


def tile_text(tile: int, extra: str = "") -> Text:
    """One tile in notation and colour (``extra``: more style, e.g. ``reverse``)."""
    style = f"{tile_style(tile)} {extra}".strip()
    return Text(CANONICAL[tile], style=style)


def tiles_text(tiles: Iterable[int], sep: str = " ") -> Text:
    out = Text()
    for i, t in enumerate(tiles):
        if i:
            out.append(sep)
        out.append_text(tile_text(t))
    return out


def rack_line(tiles: Sequence[int], cursor: int | None = None,
              fresh: int | None = None, marked: Sequence[int] = ()) -> Text:
    """Concealed tiles in a row; the tile at ``cursor`` is framed ``[5B]`` (and reversed),
    the tile at ``fresh`` (just picked or claimed) underlined and starred, the ``marked``
    ones (to pass in the Charleston) underlined and followed by ``^``."""
    out = Text()
    if not tiles:
        return Text("(no concealed tile)", style="dim")
    for i, t in enumerate(tiles):
        if i == cursor:
            out.append("[", style="bold")
        elif i and i - 1 == cursor:
            out.append("]", style="bold")
        else:
            out.append(" ")
        extra = "reverse" if i == cursor else ""
        if i == fresh or i in marked:
            extra += " underline"
        out.append_text(tile_text(t, extra))
        if i == fresh:
            out.append("*", style="dim")
        if i in marked:
            out.append("^", style="bold magenta")
    if cursor == len(tiles) - 1:
        out.append("]", style="bold")
    return out


def exposure_text(x: Exposure, killer: bool = False) -> Text:
    """An exposed group in brackets; ``killer``: the exposure that made its rack dead."""
    out = Text("(" if killer else "[", style="bold red" if killer else "dim")
    out.append_text(tiles_text(x.tiles()))
    out.append(")!" if killer else "]", style="bold red" if killer else "dim")
    return out


def public_rack(rack: RackView, number: int) -> Text:
    """One rack as every seat sees it: exposures, a Mah Jongg, a dead mark."""
    out = Text(f"R{number} ", style="bold")
    if rack.mahjongg is not None:
        m = rack.mahjongg
        flags = ", ".join(f for f, on in (("jokerless", m.jokerless), ("closed", m.closed))
                          if on)
        out.append(f"MAH JONGG {m.hand} ({m.value}{', ' + flags if flags else ''}): ",
                   style="bold reverse")
        for x in rack.exposures:
            out.append_text(exposure_text(x))
            out.append(" ")
        out.append_text(tiles_text(m.tiles))
        return out
    if rack.dead is not None:
        why = "exposures fit no line" if rack.dead == "exposure" else "Mah Jongg in error"
        out.append(f"DEAD ({why}) ", style="bold red")
    for i, x in enumerate(rack.exposures):
        out.append_text(exposure_text(x, killer=rack.killer == i))
        out.append(" ")
    if rack.error_tiles:
        out.append("error: ", style="red")
        out.append_text(tiles_text(rack.error_tiles))
    if not rack.exposures and rack.dead is None:
        out.append("no exposure", style="dim")
    return out


def seat_words(seat: int, players: int) -> str:
    """``East, seat 0``; a Siamese table's two seats are East and West (as on the web
    table and the desk), a larger table's East, South, West, North in turn."""
    if 0 <= seat < max(players, 2):
        return f"{seat_wind(seat, players)}, seat {seat}"
    return f"seat {seat}"


def seat_block(seat: SeatView, name: str, current: bool, players: int) -> Text:
    """An opponent: name, how many tiles it conceals, each rack's public side; ``>`` marks
    the seat whose turn it is."""
    head = Text()
    head.append("> " if current else "  ", style="bold yellow")
    head.append(f"{name}", style="bold")
    head.append(f" ({seat_words(seat.seat, players)}) · {seat.concealed} concealed",
                style="dim")
    if seat.declared:
        head.append(f" · declared {seat.declared}", style="magenta")
    if seat.stopped:
        head.append(" · stopped", style="dim")
    lines = [head]
    for r, rack in enumerate(seat.racks):
        line = Text("    ")
        line.append_text(public_rack(rack, r + 1))
        lines.append(line)
    return Text("\n").join(lines)


def opponents_text(v: View, names: Sequence[str]) -> Text:
    blocks = [seat_block(s, names[s.seat], s.seat == v.current and v.phase != "over",
                         v.players)
              for s in v.seats if s.seat != v.seat]
    return Text("\n").join(blocks)


def discards_text(v: View, names: Sequence[str]) -> Text:
    """The discard pool: the latest discard (framed ``>5B<``), then every discard grouped
    by tile (``5B x3``, in tile order) and by player (in the order each threw them)."""
    out = Text("Discards ", style="bold")
    out.append(f"({len(v.discards)})", style="dim")
    if not v.discards:
        out.append("  none yet", style="dim")
        return out
    seat, last = v.discards[-1]
    out.append(", latest ", style="dim")
    out.append(">", style="bold yellow")
    out.append_text(tile_text(last, "reverse bold"))
    out.append("<", style="bold yellow")
    out.append(f" by {names[seat]}", style="dim")
    out.append("\nBy tile:   ", style="bold")
    counts = Counter(t for _, t in v.discards)
    for i, t in enumerate(sorted(counts)):
        if i:
            out.append(" · ", style="dim")
        out.append_text(tile_text(t))
        if counts[t] > 1:
            out.append(f" x{counts[t]}", style="bold")
    out.append("\nBy player: ", style="bold")
    for s in range(len(names)):
        if s:
            out.append(" · ", style="dim")
        out.append(names[s], style="bold" if s == seat else "")
        thrown = [t for who, t in v.discards if who == s]
        if thrown:
            out.append(" ")
            out.append_text(tiles_text(thrown))
        else:
            out.append(" none", style="dim")
    return out


def hand_text(v: View, racks: Sequence[Sequence[int]], cursor: tuple[int, int] | None,
              fresh: tuple[int, int] | None, marked: Sequence[int] = ()) -> Text:
    """The player's racks: concealed tiles (cursor framed; ``marked``: places on the first
    rack marked to pass in the Charleston), then that rack's exposures."""
    me = v.seats[v.seat] if v.seat is not None else None
    lines: list[Text] = []
    for r in range(v.racks):
        tiles = racks[r] if r < len(racks) else ()
        public = me.racks[r] if me is not None else None
        head = Text(f"Rack {r + 1} ", style="bold")
        head.append(f"({len(tiles)})", style="dim")
        cur = cursor[1] if cursor is not None and cursor[0] == r else None
        new = fresh[1] if fresh is not None and fresh[0] == r else None
        if public is not None and (public.mahjongg is not None or public.dead is not None) \
                and not tiles:
            lines.append(head)
        else:
            head.append(" ")
            head.append_text(rack_line(tiles, cur, new, marked if r == 0 else ()))
            lines.append(head)
        if public is not None and (public.exposures or public.mahjongg or public.dead
                                   or public.error_tiles):
            line = Text("   ")
            line.append_text(public_rack(public, r + 1))
            lines.append(line)
    if me is not None and me.declared:
        lines.append(Text(f"Declared: {me.declared} (13 tiles fixed on rack 1)",
                          style="magenta"))
    return Text("\n").join(lines)


# ---------------------------------------------------------------------------- the log


# ---------------------------------------------------------------------------- choices


def action_label(a: Action, names: Sequence[str], v: View,
                 kills: Sequence[int] = (), line: str | None = None) -> str:
    """A choice in a list: says which rack, whether Jokers go in, what it makes or kills."""
    if isinstance(a, Expose):
        jokers = a.tiles.count(JOKER)
        text = f"rack {a.rack + 1}: expose {format_tiles(a.tiles)}"
        text += f" ({jokers} Joker{'s' if jokers > 1 else ''})" if jokers else " (no Joker)"
        if kills:
            text += f"  !! KILLS rack {', '.join(str(r + 1) for r in kills)}"
        return text
    if isinstance(a, Exchange):
        rack = v.seats[a.owner].racks[a.rack]
        x = rack.exposures[a.index] if a.index < len(rack.exposures) else None
        where = f"{owner_words(names[a.owner])} rack {a.rack + 1}"
        group = f" [{x}]" if x is not None else ""
        return f"give {CANONICAL[a.tile]} for the Joker in {where}{group}"
    if isinstance(a, MahJongg):
        full = sum(x.size for x in v.seats[a.seat].racks[a.rack].exposures) == 14
        tiles = format_tiles(a.tiles) if a.tiles else (
            "all exposed" if full else "the tiles as arranged")
        made = f" -> {line}" if line else ""
        return f"rack {a.rack + 1}{made}: {tiles}"
    if isinstance(a, Declare):
        return f"declare {a.hand}: fix {format_tiles(a.tiles)} on rack 1"
    if isinstance(a, Discard):
        return f"discard {CANONICAL[a.tile]}"
    if isinstance(a, Move):
        return f"move {CANONICAL[a.tile]} from rack {a.src + 1} to rack {a.dst + 1}"
    if isinstance(a, Claim):
        return f"claim for {CLAIM_WORDS.get(a.kind, a.kind)}"
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, Undeclare):
        return "go off the declared hand"
    if isinstance(a, Withdraw):
        return "withdraw the claim (the tile goes back)"
    return str(a)


def line_words(e: MahJonggDeclared, value: int | None) -> str:
    flags = [f for f, on in (("jokerless", e.jokerless), ("closed", e.closed)) if on]
    worth = f"value {value}" if value is not None else ""
    extra = ", ".join([worth, *flags]) if worth else ", ".join(flags)
    return f"{e.hand}" + (f" ({extra})" if extra else "")


# ---------------------------------------------------------------------------- the score


def totals_line(totals: Sequence[int], names: Sequence[str]) -> str:
    return "Totals: " + " · ".join(f"{names[s]} {t:+d}" for s, t in enumerate(totals))


def score_text(sc: Score, names: Sequence[str], reason: str | None, winner: int | None,
               payouts: Sequence[Fraction] = (), seed: str | None = None,
               record: str = "") -> Text:
    """The itemized score: one line per reason, then the totals and the settlement, and
    ``record``, what became of the game's record (nothing yet: w saves it)."""
    out = Text(f"GAME OVER: {end_words(reason, winner, names)}\n\n", style="bold")
    if not sc.lines:
        out.append("  no points scored\n", style="dim")
    width = max(len(n) for n in names)
    for line in sc.lines:
        out.append(f"  {names[line.seat]:<{width}} ")
        out.append(f"{line.points:+5d}", style="bold green" if line.points > 0 else
                   "bold red" if line.points < 0 else "dim")
        out.append(f"  {line.reason}  ")
        out.append(f"(rules {line.rule})\n", style="dim")
    out.append("\n")
    out.append(totals_line(sc.totals, names) + "\n", style="bold")
    if payouts:
        out.append("Settlement: " + " · ".join(
            f"{names[s]} {_points(p)}" for s, p in enumerate(payouts)) + "\n")
    if seed:
        out.append(f"Seed (check the wall against its commitment): {seed}\n", style="dim")
    if record:
        out.append(f"\n{record}\n", style="bold")
    saved = record.startswith("Record saved")
    out.append("\nn new game" + ("" if saved else " · w save the record") +
               " · r review your game · q quit · Esc look at the table", style="italic")
    return out


def _points(x: Fraction) -> str:
    if x.denominator == 1:
        return f"{int(x):+d}"
    return f"{float(x):+.2f}"


# ---------------------------------------------------------------------------- hints


def _coach_lines(out: Text, h: dict[str, Any], players: int) -> None:
    """What the coach does now (the web table's words): the summary, a choice that is not
    the discard (a Mah Jongg, a claim, an exchange, an exposure), the warnings of the
    suggested discard."""
    if h.get("summary"):
        out.append(f"{h['summary']}\n", style="bold")
    act = h.get("action") or {}
    if act.get("verb") not in (None, "discard") and act.get("reason") \
            and act.get("reason") != h.get("summary"):
        out.append(f"Coach: {act['reason']}\n", style="bold")
    tile = (h.get("discard") or {}).get("tile")
    for w in h.get("warnings") or []:
        if w.get("tile") == tile:
            who = seat_wind(int(w.get("seat", 0)), players)
            out.append(f"{str(w.get('text', '')).replace('{who}', who)}\n", style="red")


def hints_text(h: dict[str, Any] | None, note: str = "", players: int = 2) -> Text:
    """The hints panel, from ``Hints.to_dict()``: the nearest lines per rack (tiles away,
    what they need and how many of each are unseen), a discard to consider, plans."""
    out = Text("Hints", style="bold underline")
    out.append("  (h to hide)\n", style="dim")
    if note:
        out.append(note + "\n", style="dim")
    if not h:
        return out
    _coach_lines(out, h, players)
    for rack in h.get("racks", []):
        out.append(f"Rack {rack.get('rack')}\n", style="bold")
        for line in rack.get("lines", []):
            away = line.get("away")
            out.append(f" {line.get('id')} ", style="cyan")
            out.append(f"{away} away" if away is not None else "", style="bold")
            if line.get("value") is not None:
                out.append(f" · {line.get('value')} pts", style="dim")
            if line.get("concealed"):
                out.append(" · C", style="dim")
            out.append("\n")
            needs = line.get("needs") or []
            if needs:
                out.append("   needs ")
                for i, n in enumerate(needs):
                    if i:
                        out.append("; ", style="dim")
                    out.append_text(need_text(n))
                out.append("\n")
    d = h.get("discard")
    if d:
        out.append("Discard: ", style="bold")
        tile = str(d.get("tile"))
        try:
            out.append_text(tile_text(CANONICAL.index(tile)))
        except ValueError:
            out.append(tile)
        if d.get("reason"):
            out.append(f"  {d.get('reason')}", style="dim")
        out.append("  (g selects it)\n", style="dim")
    plans = h.get("plans") or []
    if plans:
        out.append("Plans\n", style="bold")
        for p in plans:
            out.append(f" {_plan(p)}\n")
    return out


def need_text(n: dict[str, Any]) -> Text:
    """One tile a line needs: ``S x2, 7 unseen`` (copies still needed; copies the player
    has not seen, in the wall or other hands)."""
    tile = str(n.get("tile"))
    try:
        out = tile_text(CANONICAL.index(tile))
    except ValueError:
        out = Text(tile)
    if n.get("count") is not None:
        out.append(f" x{n['count']}", style="bold")
    if n.get("unseen") is not None:
        out.append(f", {n['unseen']} unseen", style="dim" if n["unseen"] else "bold red")
    return out


def _plan(p: Any) -> str:
    if isinstance(p, dict):
        ids = p.get("ids") or p.get("lines") or p.get("hands")
        bits = []
        if ids:
            bits.append(" + ".join(str(i) for i in ids))
        for key in ("away", "value"):
            if p.get(key) is not None:
                bits.append(f"{key} {p[key]}")
        return ", ".join(bits) if bits else str(p)
    return str(p)


# ---------------------------------------------------------------------------- help


HELP = """\
[b]TwinRack at the terminal[/b]

[b]Your racks[/b]
  ← →        move the cursor along your tiles (on to the next rack)
  ↑ ↓        move the cursor to the rack above or below
  shift ← →  slide the tile within its rack (display only)
  s          sort your racks
  m          move the tile under the cursor to your other rack

[b]Your turn[/b]
  d / Enter  discard the tile under the cursor
  j          declare Mah Jongg (a list: each choice shows the line it makes)
  x          exchange a natural tile for an exposed Joker (a list)
  e          expose a group (after claiming a discard; a list)
  a          declare an Atomic-style hand (right after the deal, when offered)
  u          go off a declared hand

[b]The Charleston (the American game)[/b]
  t          mark the tile under the cursor to pass (again: unmark)
  b          how many tiles to pass on unseen (blind), in the last pass of each Charleston
  d / Enter  pass the marked tiles; the vote and the courtesy offer are asked in a list

[b]A discard you can claim[/b]
  c          claim it for an exposure
  M          claim it for Mah Jongg (a Double when that is what it gives)
  p / space  pass

[b]Anywhere[/b]
  h          show or hide hints      ?  this help
  g          put the cursor on the discard the hints suggest
  n          new game                q  quit

[b]At the end[/b]
  w          save the game's record (twinrack replay --verify checks it)
  r          review your game: the three biggest mistakes and your chance of finishing

Exposures that would make a rack dead are marked !! KILLS and ask you to confirm.
Tiles: 1B-9B Bams (green), 1C-9C Craks (red), 1D-9D Dots (blue), N E W S winds,
R G 0 dragons (0 = White, Soap), F Flower, J Joker. [5B] is the cursor, >5B< the latest
discard, 5B* the tile you just picked or claimed.

Press Esc or ? to close."""
