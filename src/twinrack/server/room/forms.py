"""The room's forms, read and checked whole (a refusal says what was wrong)."""

from __future__ import annotations

from dataclasses import dataclass

from twinrack.engine import RuleSet
from twinrack.engine.rules import RulesError, rules_from
from twinrack.server.lobby.forms import VARIANT_TEXT, NotCreated, checked_name

#: the host's wait before the computer takes the seats nobody took (seconds): the default
#: and the bounds a quick-match form may choose
WAIT_SECONDS = 60.0
WAIT_BOUNDS = (5.0, 600.0)
#: the turn timer of every room table (on by default there: strangers wait for nobody)
ROOM_TURN_SECONDS = 45.0
#: the longest text a room form field may have
MAX_FIELD = 100
REFUSED = "Quick match could not start"
SEAT_REFUSED = "That seat is not free any more"


class AlreadySeated(NotCreated):
    """A seat refused because its asker holds a seat of that table already (a typed
    error: ``code`` says which, for a page's script or a test)."""

    code = "already_seated"

    def __init__(self, seat: int) -> None:
        super().__init__(SEAT_REFUSED, f"you already have seat {seat + 1} at this table: "
                                       "one person takes one seat (to play the other seats, "
                                       "leave them to other players or to the computer)",
                         status=409)
        self.seat = seat


@dataclass
class QuickForm:
    """Quick match, as sent: the variant, the number of players, rated or not, the
    name a guest plays under, and the host's wait."""

    variant: str = "siamese"
    players: str = "2"
    rated: str = ""
    name: str = ""
    wait_seconds: str = ""

    def check_sizes(self) -> None:
        if any(len(f) > MAX_FIELD for f in (self.variant, self.players, self.rated,
                                             self.name, self.wait_seconds)):
            raise NotCreated(REFUSED, f"a field of this form has at most {MAX_FIELD} "
                                      "characters")

    @property
    def is_rated(self) -> bool:
        return self.rated.strip().lower() in ("on", "1", "yes", "true")

    def rules(self) -> RuleSet:
        """The variant's rules (2024 revision); refused in the engine's words."""
        self.check_sizes()
        if self.variant not in VARIANT_TEXT:
            raise NotCreated(REFUSED, f"there is no variant {self.variant[:20]!r}: choose "
                                      + ", ".join(VARIANT_TEXT))
        if not self.players.strip().isdigit() or len(self.players.strip()) > 1:
            raise NotCreated(REFUSED, "the number of players is a whole number from 1 to 4")
        try:
            return rules_from(self.variant, int(self.players))
        except RulesError as err:
            raise NotCreated(REFUSED, err.message) from None

    def people_rules(self) -> RuleSet:
        rules = self.rules()
        if rules.players < 2:
            raise NotCreated(REFUSED, "quick match seats two or more people: to play alone, "
                                      "play the computer from the lobby")
        return rules

    def wait(self) -> float:
        text = self.wait_seconds.strip()
        if not text:
            return WAIT_SECONDS
        low, high = WAIT_BOUNDS
        try:
            got = float(text)
        except ValueError:
            got = -1.0
        if not low <= got <= high:
            raise NotCreated(REFUSED, f"the wait for players is between {low:.0f} and "
                                      f"{high:.0f} seconds")
        return got

    def player_name(self, account_name: str | None) -> str:
        """A signed-in player plays under their user name; a guest under the name typed."""
        if account_name is not None:
            return account_name
        return checked_name(self.name, "Guest")
