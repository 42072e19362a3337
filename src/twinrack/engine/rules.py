"""The rule set of one game: variant, players, revision and every Decision of docs/rules.md.

A :class:`RuleSet` is frozen and serialisable (``to_dict``/``from_dict``) so that a game
record carries exactly the rules it was played under.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from twinrack.engine.scoring import ScoringRules
from twinrack.errors import TwinRackError
from twinrack.tiles import TileSet, Variant, racks_for, tile_set

REVISIONS = ("2024", "2019")
LAST_DISCARD = ("mahjongg", "any")
WALL_DEAD = ("any", "all")


class RulesError(TwinRackError):
    """A rule set that cannot be played (unknown variant, wrong number of players...)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_rules", message)


@dataclass(frozen=True)
class RuleSet:
    """How one game is played. Defaults follow the 2024 revision (docs/rules.md, Decisions).

    * ``dice_cut``: East's die cuts the first wall by that many stacks (section 3).
    * ``strict``: a Mah Jongg declaration or claim that is not valid is accepted and ruled
      a Mah Jongg in error (tournament practice) instead of being refused.
    * ``double_first``: among Mah Jongg claims a Double Mah Jongg goes first (2024); ``None``
      follows the revision (2019: the closest seat only).
    * ``expose_any_time``: exposures may be made from concealed tiles at any time during the
      turn; by default an exposure is made only with a claimed discard.
    * ``declared_hands``: card lines flagged ``declared`` (Atomic-Cat-like) may be declared
      right after the deal.
    * ``royale_scoring``: Royale bonuses (jokerless quints not doubled, (*) hands +25);
      ``None`` turns them on whenever more than one set is in play.
    * ``wall_dead``: wall game +10 withheld from a player with ``any`` dead rack, or only
      when ``all`` its racks are dead.
    * ``last_discard``: with the wall spent, the last discard may be claimed for ``any``
      claim (Mah Jongg or an exposure, the tournament rule), or only for ``mahjongg``.
    * ``pot``: points each player puts in the pot (3-4 players' settlement).
    """

    variant: str = "siamese"
    players: int = 2
    revision: str = "2024"
    dice_cut: bool = True
    strict: bool = False
    double_first: bool | None = None
    expose_any_time: bool = False
    declared_hands: bool = True
    royale_scoring: bool | None = None
    wall_dead: str = "any"
    last_discard: str = "any"
    pot: int = 0

    def __post_init__(self) -> None:
        try:
            v = Variant(self.variant)
        except ValueError:
            raise RulesError(f"unknown variant '{self.variant}': expected siamese, royale or "
                             "imperial") from None
        try:
            tile_set(v, self.players)
        except ValueError as err:
            raise RulesError(str(err)) from None
        if self.revision not in REVISIONS:
            raise RulesError(f"unknown revision '{self.revision}': expected 2024 or 2019")
        if self.wall_dead not in WALL_DEAD:
            raise RulesError("wall_dead must be 'any' or 'all'")
        if self.last_discard not in LAST_DISCARD:
            raise RulesError("last_discard must be 'mahjongg' or 'any'")
        if self.pot < 0:
            raise RulesError("pot must not be negative")

    # ------------------------------------------------------------------ derived

    @property
    def racks(self) -> int:
        return racks_for(self.variant)

    @property
    def tiles(self) -> TileSet:
        return tile_set(self.variant, self.players)

    @property
    def sets(self) -> int:
        return self.tiles.sets

    @property
    def hold(self) -> int:
        """Tiles a player holds between turns: 14R - 1."""
        return 14 * self.racks - 1

    @property
    def double_priority(self) -> bool:
        if self.double_first is not None:
            return self.double_first
        return self.revision == "2024"

    @property
    def royale_bonuses(self) -> bool:
        if self.royale_scoring is not None:
            return self.royale_scoring
        return self.sets > 1

    def scoring_rules(self) -> ScoringRules:
        return ScoringRules(revision=self.revision, players=self.players,
                            royale=self.royale_bonuses, wall_dead=self.wall_dead)

    # ------------------------------------------------------------------ records

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> RuleSet:
        if not isinstance(raw, dict):
            raise RulesError("rules must be a table of options")
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}")
        for name, value in raw.items():
            default = known[name].default
            if default is None:
                ok = value is None or isinstance(value, bool)
            elif isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool)
            else:
                ok = isinstance(value, str)
            if not ok:
                raise RulesError(f"rule option {name} has a value of the wrong kind: {value!r}")
        return cls(**raw)

    @classmethod
    def for_variant(cls, variant: str, players: int | None = None, **options: Any) -> RuleSet:
        """The default rules of a variant; players default to 2 (Siamese, Imperial) or 4."""
        if players is None:
            players = 4 if variant == "royale" else 2
        return cls(variant=variant, players=players, **options)
