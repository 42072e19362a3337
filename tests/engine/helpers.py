"""Scenario helpers: rig the wall from tile strings, play actions written in notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from twinrack.engine import (
    GameState,
    RuleSet,
    apply,
    deal_plan,
    legal_actions,
    new_game,
    parse_action,
    rigged_stack,
    score,
)
from twinrack.engine.actions import decisions
from twinrack.engine.events import Event
from twinrack.tiles import JOKER, format_tiles, parse_tiles

# filler tiles: honours and terminals spread out, so that filler rarely makes groups
FILLER = ("1C 9C 1D 9D 2C 8D 3C 7D 4C 6D 5C 5D 6C 4D 7C 3D 8C 2D 1B 9B 2B 8B 3B 7B 4B 6B 5B "
          "N E W S R G 0 F")


def R(variant: str = "siamese", players: int | None = None, **options: object) -> RuleSet:
    """Rules for a scenario: no die cut and no declaration round unless asked."""
    options.setdefault("dice_cut", False)
    options.setdefault("declared_hands", False)
    return RuleSet.for_variant(variant, players, **options)


def deal_counts(rules: RuleSet) -> list[int]:
    need = [0] * rules.players
    for s, k in deal_plan(rules):
        need[s] += k
    return need


def rig(rules: RuleSet | None = None, hands: Sequence[str] = (), picks: str = "",
        filler: str = FILLER, seed: int = 7, avoid: str = "") -> GameState:
    """A game whose deal gives each seat the tiles of ``hands[s]`` (padded with filler
    tiles to the deal count) and whose wall then yields ``picks`` in order."""
    rules = rules or R()
    need = deal_counts(rules)
    stock = Counter(rules.tiles.wall())
    given = [parse_tiles(h) for h in hands] + [[] for _ in range(rules.players - len(hands))]
    wall_picks = parse_tiles(picks)
    for t in [*[t for h in given for t in h], *wall_picks]:
        assert stock[t] > 0, f"more copies than the set holds: {format_tiles([t])}"
        stock[t] -= 1
    avoid_set = set(parse_tiles(avoid)) | {t for h in given for t in h} | set(wall_picks)
    order = [t for t in parse_tiles(filler) if t not in avoid_set and t != JOKER]
    k = 0
    for s in range(rules.players):
        while len(given[s]) < need[s]:
            for _ in range(len(order)):
                t = order[k % len(order)]
                k += 1
                if stock[t] > 0:
                    stock[t] -= 1
                    given[s].append(t)
                    break
            else:
                raise AssertionError("filler ran out")
    return new_game(rules, seed=seed, stack=rigged_stack(rules, given, wall_picks))


def play(game: GameState, *texts: str) -> list[str]:
    """Apply actions written in notation; return the events' text forms."""
    out: list[str] = []
    for text in texts:
        out.extend(str(e) for e in apply(game, parse_action(text)))
    return out


def texts(events: Sequence[Event]) -> list[str]:
    return [str(e) for e in events]


def lines(game: GameState) -> list[str]:
    return [str(line) for line in score(game).lines]


def legal_texts(game: GameState, seat: int) -> list[str]:
    """The seat's choices now: its legal actions less the moves between its own racks
    listed outside an ordinary turn of its own (they answer nothing; see
    :func:`all_legal_texts`)."""
    arranging = (game.phase == "turn" and game.current == seat
                 and game.obligation is None)
    return [str(a) for a in decisions(legal_actions(game, seat), arranging)]


def all_legal_texts(game: GameState, seat: int) -> list[str]:
    """Every legal action of the seat, moves out of turn included."""
    return [str(a) for a in legal_actions(game, seat)]


def discard_out(game: GameState, max_turns: int = 1000) -> None:
    """Play the game to its end: everyone passes and discards what it just picked (or its
    first tile)."""
    for _ in range(max_turns * 4):
        if game.over:
            return
        seat = game.to_act()[0]
        acts = legal_actions(game, seat)
        chosen = None
        for a in acts:
            if str(a).endswith(": pass"):
                chosen = a
                break
        if chosen is None:
            if game.acquired is not None:
                for a in acts:
                    if str(a) == f"{seat}: discard {format_tiles([game.acquired])}":
                        chosen = a
                        break
            if chosen is None:
                chosen = next(a for a in acts if str(a).split(": ")[1].startswith("discard"))
        apply(game, chosen)
    raise AssertionError("the game did not end")
