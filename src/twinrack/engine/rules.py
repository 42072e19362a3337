"""The rule set of one game: variant, players, revision and every Decision of docs/rules.md.

A :class:`RuleSet` is frozen and serialisable (``to_dict``/``from_dict``) so that a game
record carries exactly the rules it was played under. It is the one place where rule
options are checked: every command, the desk and the server build their rules through
:func:`rules_from` (or :meth:`RuleSet.from_dict` for a record), and a bad combination gets
a :class:`RulesError` with one stable code (docs/rules.md section 13).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from twinrack.engine.scoring import ScoringRules
from twinrack.errors import TwinRackError
from twinrack.tiles import TileSet, Variant, racks_for, tile_set

VARIANTS = tuple(v.value for v in Variant)
REVISIONS = ("2024", "2019")
LAST_DISCARD = ("mahjongg", "any")
WALL_DEAD = ("any", "all")
#: how the American game is scored: the League's payments, or the tournament sheet
AMERICAN_SCORING = ("nmjl", "tournament")
#: the winds of the seats in turn; two players sit across the table, East and West
WINDS = ("East", "South", "West", "North")
TWO_SEAT_WINDS = ("East", "West")
#: a value of the wrong kind gets the code of its option
_CODE_OF = {"variant": "unknown_variant", "players": "bad_player_count",
            "revision": "unknown_revision"}


class RulesError(TwinRackError):
    """A rule set that cannot be played. ``code`` says what is wrong (``unknown_variant``,
    ``bad_player_count``, ``unknown_revision``, ``unknown_option``, ``bad_option`` or
    ``bad_rules``) and ``option`` names the option at fault, so that a command can say
    ``--revision: ...`` and a form can mark its field."""

    def __init__(self, code: str, message: str, option: str = "") -> None:
        super().__init__(code, message)
        self.option = option


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
    * ``open_concealed``: a concealed ("C") line may be played with exposures (then earning
      no closed bonus); ``None`` follows the revision (2024: yes, 2019: no; never in the
      American game).
    * ``american_scoring``: the American game's score, ``nmjl`` (who pays whom) or
      ``tournament`` (the tournament sheet's points); other variants ignore it.
    * ``charleston``: the American game begins with the Charleston; off, play begins right
      after the deal (a real table's deal replayed after its own Charleston, scenario
      tests).
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
    open_concealed: bool | None = None
    american_scoring: str = "nmjl"
    charleston: bool = True

    def __post_init__(self) -> None:
        _check_kind("variant", self.variant)
        if self.variant not in VARIANTS:
            raise RulesError("unknown_variant", f"unknown variant '{self.variant}' (expected "
                                                f"{', '.join(VARIANTS)})", "variant")
        _check_kind("players", self.players)
        try:
            tile_set(self.variant, self.players)
        except ValueError as err:
            raise RulesError("bad_player_count", str(err), "players") from None
        _check_kind("revision", self.revision)
        if self.revision not in REVISIONS:
            raise RulesError("unknown_revision", f"unknown revision '{self.revision}' "
                                                 f"(expected {' or '.join(REVISIONS)})",
                             "revision")
        for name in _DEFAULTS:
            _check_kind(name, getattr(self, name))
        if self.wall_dead not in WALL_DEAD:
            raise RulesError("bad_option", "wall_dead must be 'any' or 'all'", "wall_dead")
        if self.last_discard not in LAST_DISCARD:
            raise RulesError("bad_option", "last_discard must be 'mahjongg' or 'any'",
                             "last_discard")
        if self.pot < 0:
            raise RulesError("bad_option", "pot must not be negative", "pot")
        if self.american_scoring not in AMERICAN_SCORING:
            raise RulesError("bad_option", "american_scoring must be 'nmjl' or 'tournament'",
                             "american_scoring")
        if self.american and self.open_concealed:
            raise RulesError("bad_option", "a concealed line stays concealed in the American "
                             "game", "open_concealed")

    # ------------------------------------------------------------------ derived

    @property
    def racks(self) -> int:
        return racks_for(self.variant)

    @property
    def american(self) -> bool:
        """The standard American game: one rack each, the Charleston, its own scoring."""
        return self.variant == "american"

    @property
    def east_discards_first(self) -> bool:
        """East is dealt one tile more and begins by discarding, without a pick: the 2019
        revision, and always in the American game (section 3)."""
        return self.revision == "2019" or self.variant == "american"

    @property
    def declaration_round(self) -> bool:
        """Lines flagged ``declared`` may be declared right after the deal: a Siamese
        rule, never in the American game (section 7)."""
        return self.declared_hands and self.variant != "american"

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
    def open_lines(self) -> bool:
        """Every line may be played with exposures, a concealed ("C") one included, which
        then earns no closed bonus: the 2024 revision; under 2019 a concealed line stays
        concealed until its Mah Jongg (docs/rules.md, section 5). ``open_concealed``
        decides when set."""
        if self.open_concealed is not None:
            return self.open_concealed
        return self.revision == "2024" and self.variant != "american"

    @property
    def royale_bonuses(self) -> bool:
        if self.royale_scoring is not None:
            return self.royale_scoring
        return self.sets > 1

    def scoring_rules(self) -> ScoringRules:
        return ScoringRules(revision=self.revision, players=self.players,
                            royale=self.royale_bonuses, wall_dead=self.wall_dead,
                            closed=not self.american)

    # ------------------------------------------------------------------ records

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> RuleSet:
        """The rules a record carries: every option by name, checked like any other."""
        if not isinstance(raw, dict):
            raise RulesError("bad_rules", "rules must be a table of options")
        _known_options(raw)
        for name, value in raw.items():  # every kind first, in the record's order
            _check_kind(name, value)
        return cls(**raw)

    @classmethod
    def for_variant(cls, variant: str, players: int | None = None, **options: Any) -> RuleSet:
        """The default rules of a variant; players default to 2 (Siamese, Imperial) or 4
        (Royale, American)."""
        return rules_from(variant, players, **options)


def rules_from(variant: str = "siamese", players: int | None = None, revision: str = "2024",
               **options: Any) -> RuleSet:
    """The rules of one game, checked in full: the one way commands, the desk and the
    server turn what they were given into a :class:`RuleSet`. ``players`` defaults to 4 in
    Royale and the American game and 2 otherwise; ``options`` are the other fields of
    :class:`RuleSet` by name."""
    _known_options(options)
    if players is None:
        players = 4 if variant in ("royale", "american") else 2
    return RuleSet(variant=variant, players=players, revision=revision, **options)


def _known_options(options: dict[str, Any]) -> None:
    unknown = sorted(set(options) - {f.name for f in fields(RuleSet)})
    if unknown:
        raise RulesError("unknown_option", f"unknown rule option(s): {', '.join(unknown)}",
                         unknown[0])


def _check_kind(name: str, value: Any) -> None:
    """An option's value is of its default's kind (``None`` defaults take a bool too); a
    wrong one gets the code of its option."""
    default = _DEFAULTS[name]
    if type(value) is type(default):  # the common case, checked first: rules are built often
        return
    if default is None:
        right = value is None or isinstance(value, bool)
    elif isinstance(default, bool):
        right = isinstance(value, bool)
    elif isinstance(default, int):
        right = isinstance(value, int) and not isinstance(value, bool)
    else:
        right = isinstance(value, str)
    if not right:
        raise RulesError(_CODE_OF.get(name, "bad_option"),
                         f"rule option {name} has a value of the wrong kind: {value!r}", name)


_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(RuleSet)}


def seat_wind(seat: int, players: int) -> str:
    """The wind a seat is named by (counted from 0): East, South, West, North in turn, and
    East and West at a two-seat table. Every surface names seats this way."""
    winds = TWO_SEAT_WINDS if players == 2 else WINDS[:players]
    if not 0 <= seat < len(winds):
        raise ValueError(f"seat {seat} is not one of a {players}-seat table's")
    return winds[seat]
