"""What the lobby offers and how its form is read.

The variants and the computer levels are described here, once: the lobby renders these
tables (a level added to :data:`twinrack.bots.BOTS` needs a line in :data:`LEVEL_TEXT`, and a
test says so). The player counts of each variant are the engine's: whatever
:func:`~twinrack.engine.rules.rules_from` accepts (docs/rules.md, section 2). Every field is
checked whole; a setting the rules refuse is refused in the engine's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from twinrack.bots import BOTS
from twinrack.engine import RuleSet
from twinrack.engine.rules import RulesError, rules_from
from twinrack.server.hub import NewSeat

#: the longest name a player may give (refused whole when longer, never cut)
MAX_NAME_CHARS = 40
#: the call timer a table may be given, in seconds
CALL_SECONDS = (3.0, 120.0)
#: the grace period (how long an absent player has before the computer plays for them) and
#: the turn timer a table may be given, in seconds
GRACE_SECONDS = (3.0, 600.0)
TURN_SECONDS = (3.0, 600.0)

#: the variants, in the order the lobby lists them: (title, what a newcomer needs to know)
VARIANT_TEXT: dict[str, tuple[str, str]] = {
    "siamese": ("Siamese", "Two players. You hold 27 tiles and build two hands from them at "
                "once, one on each of your two racks: both racks draw on the same tiles. "
                "Mah Jongg on both racks wins. One set of tiles."),
    "royale": ("Royale", "Siamese for three or four players, two racks each, played with two "
               "sets of tiles (three players leave out four Jokers and four Flowers)."),
    "imperial": ("Imperial", "Four racks each, all built from one holding of 55 tiles: Mah "
                 "Jongg on all four wins. Two sets of tiles for two players, three sets for "
                 "three or four."),
    "american": ("American", "The standard game for four (or three): one rack each, 13 "
                 "tiles, one set of 152. Before play the Charleston: everyone passes three "
                 "tiles right, across and left (three players: right and left), maybe "
                 "again, then a courtesy pass across. One Mah Jongg ends the game; the "
                 "others pay."),
}

#: the computer levels, from the weakest to the strongest as measured in docs/bots.md
#: (greedy beats random in 99.8% of decisive games and wins about two thirds against the
#: beginner and the intermediate; the expert beats greedy 70% of the time; the master wins
#: 53-55% against the expert): what playing against each is like
LEVEL_TEXT: dict[str, tuple[str, str]] = {
    "random": ("Random", "Plays any legal move: a first opponent, easy to beat."),
    "beginner": ("Beginner", "New to the game: chases one line, misses claims, never thinks "
                 "of defence."),
    "intermediate": ("Intermediate", "Knows the card: plays tiles away, sticks to a plan, "
                     "misses a few claims."),
    "greedy": ("Greedy", "Chases the card lines its tiles are nearest to, one move at a time, "
               "and claims whatever brings them closer. A fair club player."),
    "expert": ("Expert", "Weighs the odds of drawing what each plan still needs from the "
               "tiles it has not seen, keeps its options open and times its Mah Jonggs. A "
               "strong player."),
    "master": ("Master", "The strongest: the expert, playing each close decision out many "
               "times in its head before it commits. It beats the expert in about 54% of "
               "games and takes a little longer to move."),
}
#: the level the set-up form offers first, as "Play the computer" plays
DEFAULT_LEVEL = "expert"

#: the lobby's "Play the computer" button: Siamese against the expert, 2024 rules
QUICK_GAME: dict[str, str] = {"variant": "siamese", "players": "2", "revision": "2024",
                              "seat1": "expert", "card_choice": "practice"}


@dataclass(frozen=True)
class Offer:
    """One choice the lobby offers (a variant or a computer level), with its description."""

    value: str
    title: str
    about: str
    players: tuple[int, ...] = ()

    @property
    def players_text(self) -> str:
        """"2 players", "3 or 4 players", "2, 3 or 4 players"."""
        words = [str(n) for n in self.players]
        if len(words) > 1:
            words = [", ".join(words[:-1]) + " or " + words[-1]]
        return f"{words[0]} players" if words else ""


@cache
def _player_counts(variant: str) -> tuple[int, ...]:
    counts = []
    for n in range(1, 9):
        try:
            rules_from(variant, n)
        except RulesError:
            continue
        counts.append(n)
    return tuple(counts)


def variants() -> list[Offer]:
    """Every variant, with the numbers of players the engine allows for it."""
    return [Offer(v, title, about, _player_counts(v)) for v, (title, about) in
            VARIANT_TEXT.items()]


def levels() -> list[Offer]:
    """Every computer level of :data:`BOTS`, the described ones first, easiest first."""
    known = [name for name in LEVEL_TEXT if name in BOTS]
    rest = [name for name in BOTS if name not in LEVEL_TEXT]
    return [Offer(n, *LEVEL_TEXT.get(n, (n.title(), ""))) for n in known + rest]


class NotCreated(Exception):
    """The lobby form, refused: the lobby again with a heading that says what was wrong
    and the messages under it."""

    def __init__(self, title: str, *errors: str, status: int = 400) -> None:
        super().__init__(title, *errors)
        self.title = title
        self.errors = list(errors)
        self.status = status


RULES_REFUSED = "These settings cannot be played"
FORM_REFUSED = "Please check the form"
CARD_REFUSED = "That card did not load"


def checked_name(text: str, default: str) -> str:
    """A player's name as typed, trimmed; refused whole when too long or not printable."""
    name = text.strip()
    if len(name) > MAX_NAME_CHARS:
        raise NotCreated(FORM_REFUSED, f"a name may have at most {MAX_NAME_CHARS} characters "
                                       f"(that one has {len(name)})")
    if not name.isprintable():
        raise NotCreated(FORM_REFUSED, "a name may hold only printable characters")
    return name or default


@dataclass
class TableForm:
    """The lobby's form, as sent (the lobby shows it again when it is refused)."""

    name: str = "Player"
    variant: str = "siamese"
    players: str = "2"
    revision: str = "2024"
    call_seconds: str = ""
    card_choice: str = "practice"
    saved_card: str = ""
    seat1: str = DEFAULT_LEVEL
    seat2: str = DEFAULT_LEVEL
    seat3: str = DEFAULT_LEVEL
    grace_seconds: str = ""
    turn_seconds: str = ""
    listed: str = ""
    #: the American game's score: ``nmjl`` or ``tournament`` (other variants ignore it)
    scoring: str = "nmjl"

    def rules(self) -> RuleSet:
        """The rule set, or the engine's refusal of it."""
        if not self.players.strip().isdigit() or len(self.players) > 2:
            raise NotCreated(FORM_REFUSED, "the number of players is a whole number")
        try:
            return rules_from(self.variant, int(self.players), self.revision,
                              american_scoring=self.scoring)
        except RulesError as err:
            raise NotCreated(RULES_REFUSED, err.message) from None

    def call_timer(self, default: float) -> float:
        got = _seconds(self.call_seconds, CALL_SECONDS, "the call timer")
        return default if got is None else got

    def grace_period(self, default: float) -> float:
        got = _seconds(self.grace_seconds, GRACE_SECONDS, "the time a table waits for an "
                                                           "absent player")
        return default if got is None else got

    def turn_timer(self) -> float | None:
        """The turn timer's seconds (None: off, the default)."""
        if self.turn_seconds.strip().lower() in ("", "off", "0"):
            return None
        return _seconds(self.turn_seconds, TURN_SECONDS, "the turn timer")

    @property
    def open_to_watch(self) -> bool:
        return self.listed.strip().lower() in ("on", "1", "yes", "true")

    def seats(self, owner: str | None) -> list[NewSeat]:
        """Seat 1 is the creator's; the others are friends (invited by link) or computers."""
        players = int(self.players)
        kinds = ["human", self.seat1, self.seat2, self.seat3][:players]
        for k in kinds[1:]:
            if k != "human" and k not in BOTS:
                raise NotCreated(FORM_REFUSED, f"there is no computer level {k[:20]!r}")
        seats = [NewSeat(checked_name(self.name, "Player"), "human", owner)]
        for i, k in enumerate(kinds[1:], start=1):
            seats.append(NewSeat(friend_name(i) if k == "human" else
                                 computer_name(k, kinds[1:i].count(k) + 1,
                                               kinds.count(k) > 1), k))
        return seats


def _seconds(text: str, bounds: tuple[float, float], what: str) -> float | None:
    """Seconds as typed in a form (None: left empty), refused whole out of ``bounds``."""
    if not text.strip():
        return None
    low, high = bounds
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if len(text) > 12 or not low <= seconds <= high:
        raise NotCreated(FORM_REFUSED, f"{what} is between {low:.0f} and {high:.0f} seconds")
    return seconds


def friend_name(seat: int) -> str:
    """The name of an invited seat until its player chooses one."""
    return f"Friend {seat + 1}"


def computer_name(level: str, nth: int = 1, numbered: bool = False) -> str:
    """A computer seat's name: "Computer (Expert)", numbered when a table has several of
    the same level ("Computer 2 (Expert)")."""
    title = LEVEL_TEXT.get(level, (level.title(), ""))[0]
    return f"Computer {nth} ({title})" if numbered else f"Computer ({title})"
