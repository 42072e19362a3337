"""Why an action is refused: the stable codes (docs/rules.md, section 14), the gate every
kind of action passes first, and the reason for an action of a kind the gate lets through
that is not among the legal ones.

The gate is shared: :mod:`twinrack.engine.legality` lists a kind of action only when its
gate lets the seat through, and refuses with the gate's reason otherwise, so listing and
refusing cannot disagree about who may act, in which phase, or what a granted claim
requires first. The reasons of this module's second part are asked for only about actions
that are not listed; each finds the first condition the action fails.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import NamedTuple

from twinrack.engine.actions import (
    CHARLESTON_VERBS,
    Action,
    CharlestonPass,
    Claim,
    Courtesy,
    Declare,
    Discard,
    Exchange,
    Expose,
    MahJongg,
    Move,
    Offer,
    Undeclare,
    Withdraw,
)
from twinrack.engine.charleston_plan import COURTESY, OFFER, PASS, VOTE
from twinrack.engine.state import (
    BY_CLAIM,
    CHARLESTON,
    DECLARE,
    DECLARING,
    MUST_ERROR,
    MUST_EXPOSE,
    OVER,
    TURN,
    WINDOW,
    GameState,
    Obligation,
    Phase,
)
from twinrack.errors import IllegalActionError
from twinrack.tiles import CANONICAL, JOKER


class Code(StrEnum):
    """Every code an :class:`~twinrack.errors.IllegalActionError` of the engine carries."""

    GAME_OVER = "game_over"
    NO_SUCH_SEAT = "no_such_seat"
    NOT_YOUR_TURN = "not_your_turn"
    DECLARE_PHASE = "declare_phase"
    CANNOT_DECLARE = "cannot_declare"
    DECLARE_WINDOW_CLOSED = "declare_window_closed"
    OWN_DISCARD = "own_discard"
    ALREADY_ANSWERED = "already_answered"
    MAHJONGG_ONLY = "mahjongg_only"
    CANNOT_EXPOSE = "cannot_expose"
    NO_DOUBLE = "no_double"
    NO_MAHJONGG = "no_mahjongg"
    CLAIM_WINDOW_OPEN = "claim_window_open"
    CLAIM_WINDOW_CLOSED = "claim_window_closed"
    MUST_EXPOSE = "must_expose"
    MUST_DECLARE = "must_declare"
    TILE_NOT_HELD = "tile_not_held"
    TILE_FIXED = "tile_fixed"
    JOKER_IN_PAIR = "joker_in_pair"
    GROUP_TOO_SMALL = "group_too_small"
    BAD_EXPOSURE = "bad_exposure"
    NO_SUCH_RACK = "no_such_rack"
    RACK_FINISHED = "rack_finished"
    MUST_EXPOSE_CLAIMED = "must_expose_claimed"
    EXPOSURE_NEEDS_CLAIM = "exposure_needs_claim"
    ILLEGAL_EXPOSURE = "illegal_exposure"
    NO_SUCH_EXPOSURE = "no_such_exposure"
    EXCHANGE_FROM_MAHJONGG = "exchange_from_mahjongg"
    EXCHANGE_FROM_DEAD = "exchange_from_dead"
    NO_JOKER = "no_joker"
    WRONG_TILE = "wrong_tile"
    EXCHANGE_NOT_NOW = "exchange_not_now"
    ARRANGED_DECLARATION = "arranged_declaration"
    DECLARED_HAND_FIXED = "declared_hand_fixed"
    ILLEGAL_MOVE = "illegal_move"
    NOT_DECLARED = "not_declared"
    CANNOT_WITHDRAW = "cannot_withdraw"
    CHARLESTON_PHASE = "charleston_phase"
    NO_CHARLESTON = "no_charleston"
    NOT_THIS_STAGE = "not_this_stage"
    ALREADY_CHOSEN = "already_chosen"
    JOKER_NOT_PASSED = "joker_not_passed"
    PASS_THREE = "pass_three"
    NO_BLIND_PASS = "no_blind_pass"
    BAD_OFFER = "bad_offer"
    COURTESY_COUNT = "courtesy_count"
    ILLEGAL_ACTION = "illegal_action"


class Refusal(NamedTuple):
    """A reason for refusing: its code, a message for people and the rule section."""

    code: Code
    message: str
    rule: str

    def error(self) -> IllegalActionError:
        return IllegalActionError(self.code, self.message, self.rule)


# the reasons that depend on nothing but the phase (built once: the gate runs while listing)
_OVER = Refusal(Code.GAME_OVER, "the game is over", "9")
_DECLARE_PHASE = Refusal(Code.DECLARE_PHASE, "right after the deal, each seat declares a "
                         "hand or passes", "7")
_NOT_GRANTED = Refusal(Code.CANNOT_WITHDRAW, "no claim has been granted yet (a claim, once "
                       "made, is withdrawn after it is granted)", "4")
_WINDOW_OPEN = Refusal(Code.CLAIM_WINDOW_OPEN, "every seat must first claim or pass on the "
                       "discard", "4")
_WINDOW_CLOSED = Refusal(Code.CLAIM_WINDOW_CLOSED, "there is no discard to claim now", "4")
_DECLARE_CLOSED = Refusal(Code.DECLARE_WINDOW_CLOSED, "hands are declared right after the "
                          "deal", "7")
_MUST_EXPOSE = Refusal(Code.MUST_EXPOSE, "a discard claimed for an exposure goes into an "
                       "exposure first", "4")
_MUST_DECLARE = Refusal(Code.MUST_DECLARE, "a discard claimed for Mah Jongg must be "
                        "declared", "7")
_MUST_EXPOSE_ERROR = Refusal(Code.MUST_EXPOSE, "after a Mah Jongg claim in error, expose "
                             "the group the discard completes", "7")
_CHARLESTON_PHASE = Refusal(Code.CHARLESTON_PHASE, "play begins after the Charleston: now "
                            "each seat chooses what it passes", "3")
_NO_CHARLESTON = Refusal(Code.NO_CHARLESTON, "there is no Charleston now (it comes right "
                         "after the deal of the American game)", "3")
#: what each stage of the Charleston asks for, by its kind
_ASKED = {PASS: "each seat passes three tiles", VOTE: "each seat votes on the second "
          "Charleston ('vote again' or 'vote stop')", OFFER: "each seat offers 0 to 3 tiles "
          "for the courtesy pass ('offer N')", COURTESY: "the partners pass the tiles they "
          "agreed on ('courtesy TILES')"}


# ---------------------------------------------------------------------- the gate


def acting(st: GameState, seat: int) -> bool:
    """``seat`` is one of those who must act now (see GameState.to_act)."""
    if st.phase == TURN:
        return seat == st.current
    if st.phase == WINDOW:
        return st.window is not None and seat in st.window.pending
    if st.phase == CHARLESTON:
        return st.charleston is not None and seat in st.charleston.pending
    return st.phase == DECLARE and seat in st.declaring


def charleston_gate(st: GameState, seat: int, verb: str) -> Refusal | None:
    """:func:`gate` during the Charleston: only the stage's verb, from a seat that has not
    chosen yet (section 3)."""
    ch = st.charleston
    assert ch is not None
    if verb not in CHARLESTON_VERBS:
        return _CHARLESTON_PHASE
    if not 0 <= seat < st.rules.players:
        return Refusal(Code.NO_SUCH_SEAT, f"there is no seat {seat}", "2")
    stage = ch.stage
    if verb != stage.kind:
        return Refusal(Code.NOT_THIS_STAGE, f"not now: {_ASKED[stage.kind]}", "3")
    if seat in ch.pending:
        return None
    if stage.kind == COURTESY and seat not in ch.choices:
        return Refusal(Code.ALREADY_CHOSEN, f"seat {seat} passes nothing in the courtesy "
                       "pass (it and its partner agreed on none)", "3")
    return Refusal(Code.ALREADY_CHOSEN, f"seat {seat} has chosen already; the others are "
                   "still choosing", "3")


def charleston_kinds(st: GameState, seat: int) -> tuple[str, ...]:
    """The kind of action a seat may take in the Charleston now: the stage's, if it is
    still to choose."""
    ch = st.charleston
    return (ch.stage.kind,) if ch is not None and seat in ch.pending else ()


#: the kinds of action each phase may let through, in the order they are listed
PHASE_VERBS: dict[Phase, tuple[str, ...]] = {
    DECLARE: ("pass", "declare"),
    CHARLESTON: CHARLESTON_VERBS,
    WINDOW: ("pass", "claim", "move"),
    TURN: ("mahjongg", "discard", "expose", "exchange", "move", "undeclare", "withdraw"),
    OVER: (),
}

#: the phases of play, in which a seat may move its concealed tiles between its racks at
#: any time, on its turn or not (section 5)
MOVING = (TURN, WINDOW)


def gate(st: GameState, seat: int, verb: str) -> Refusal | None:
    """Why ``seat`` may take no action of kind ``verb`` now (the phase, whose turn it is,
    what a granted claim requires first), or None. Every kind is refused to a seat that
    is not :func:`acting`, and every kind not among the phase's :data:`PHASE_VERBS`,
    except a move between one's own racks, which any seat may make during play."""
    if verb == "move" and st.phase in MOVING and 0 <= seat < st.rules.players:
        return None
    if st.phase == CHARLESTON:
        return charleston_gate(st, seat, verb)
    if not acting(st, seat):
        return _idle(st, seat, verb)
    return acting_gate(st.phase, st.obligation, verb)


def acting_gate(phase: Phase, obligation: Obligation | None, verb: str) -> Refusal | None:
    """:func:`gate` for a seat that acts now: it depends on the phase and the obligation
    of a granted claim only."""
    if phase == OVER:
        return _OVER
    if phase == DECLARE:
        return None if verb in ("pass", "declare") else _DECLARE_PHASE
    if phase == CHARLESTON:
        return None if verb in CHARLESTON_VERBS else _CHARLESTON_PHASE
    if verb in CHARLESTON_VERBS:
        return _NO_CHARLESTON
    if phase == WINDOW:
        if verb in ("pass", "claim", "move"):
            return None
        return _NOT_GRANTED if verb == "withdraw" else _WINDOW_OPEN
    return _turn_gate(obligation, verb)


@cache
def open_kinds(phase: Phase, obligation: Obligation | None) -> tuple[str, ...]:
    """The kinds of action whose gate lets a seat acting now through, in listing order."""
    return tuple(verb for verb in PHASE_VERBS[phase]
                 if acting_gate(phase, obligation, verb) is None)


def _idle(st: GameState, seat: int, verb: str) -> Refusal:
    """Why a seat that does not act now may do nothing."""
    if st.phase == OVER:
        return _OVER
    if verb in CHARLESTON_VERBS:
        return _NO_CHARLESTON
    if not 0 <= seat < st.rules.players:
        return Refusal(Code.NO_SUCH_SEAT, f"there is no seat {seat}", "2")
    if st.phase == DECLARE:
        return Refusal(Code.NOT_YOUR_TURN, f"seat {seat} has already answered", "7")
    if st.phase == WINDOW:
        assert st.window is not None
        if verb not in ("pass", "claim"):
            return _NOT_GRANTED if verb == "withdraw" else _WINDOW_OPEN
        if seat == st.window.discarder:
            return Refusal(Code.OWN_DISCARD, "a player cannot claim its own discard", "4")
        return Refusal(Code.ALREADY_ANSWERED, f"seat {seat} has already answered or is not "
                       "playing", "4")
    if verb in ("pass", "claim"):
        return _WINDOW_CLOSED
    return Refusal(Code.NOT_YOUR_TURN, f"it is seat {st.current}'s turn", "4")


def _turn_gate(obligation: Obligation | None, verb: str) -> Refusal | None:
    """The seat on turn: no claim nor declaration now, and a granted claim's obligation
    comes first (section 4)."""
    if verb in ("pass", "claim"):
        return _WINDOW_CLOSED
    if verb == "declare":
        return _DECLARE_CLOSED
    if verb in ("withdraw", "move") or obligation is None:
        return None
    if obligation == MUST_EXPOSE and verb != "expose":
        return _MUST_EXPOSE
    if obligation in DECLARING and verb != "mahjongg":
        return _MUST_DECLARE
    if obligation == MUST_ERROR and verb == "discard":
        return _MUST_EXPOSE_ERROR
    return None


# ---------------------------------------------------------------------- reasons


def reason(st: GameState, a: Action) -> Refusal:
    """Why ``a``, of a kind its gate lets through now, is not among the legal actions."""
    if isinstance(a, Claim):
        return _claim(st, a)
    if isinstance(a, Declare):
        return _declare(a)
    if isinstance(a, Discard):
        return _discard(st, a)
    if isinstance(a, Expose):
        return _expose(st, a)
    if isinstance(a, Exchange):
        return _exchange(st, a)
    if isinstance(a, MahJongg):
        return _mahjongg(st, a)
    if isinstance(a, Move):
        return _move(st, a)
    if isinstance(a, Undeclare):
        return Refusal(Code.NOT_DECLARED, f"seat {a.seat} has no declared hand", "7")
    if isinstance(a, Withdraw):
        return _withdraw(st)
    if isinstance(a, (CharlestonPass, Courtesy, Offer)):
        return _charleston(st, a)
    return Refusal(Code.ILLEGAL_ACTION, f"'{a}' is not allowed now", "4")


def _claim(st: GameState, a: Claim) -> Refusal:
    w = st.window
    assert w is not None
    tile = CANONICAL[w.tile]
    if a.kind == "expose" and w.mahjongg_only:
        return Refusal(Code.MAHJONGG_ONLY, "the last discard may be claimed only for Mah "
                       "Jongg", "9")
    if a.kind == "expose":
        return Refusal(Code.CANNOT_EXPOSE, f"seat {a.seat} cannot make a group of 3 or more "
                       f"with {tile}", "4")
    if a.kind == "double":
        return Refusal(Code.NO_DOUBLE, f"{tile} does not give seat {a.seat} a Double Mah "
                       "Jongg", "7")
    return Refusal(Code.NO_MAHJONGG, f"{tile} does not give seat {a.seat} a Mah Jongg", "7")


def _declare(a: Declare) -> Refusal:
    return Refusal(Code.CANNOT_DECLARE, f"seat {a.seat} cannot declare {a.hand} with those "
                   "13 tiles", "7")


def _discard(st: GameState, a: Discard) -> Refusal:
    if not st.players[a.seat].pool[a.tile]:
        return Refusal(Code.TILE_NOT_HELD, f"seat {a.seat} holds no {CANONICAL[a.tile]}",
                       "4")
    return Refusal(Code.TILE_FIXED, f"{CANONICAL[a.tile]} is fixed by the declared hand", "7")


def _open_rack(st: GameState, seat: int, rack: int) -> Refusal | None:
    p = st.players[seat]
    if not 0 <= rack < len(p.racks):
        return Refusal(Code.NO_SUCH_RACK, f"there is no rack {rack + 1}", "5")
    if p.racks[rack].finished:
        return Refusal(Code.RACK_FINISHED, f"rack {rack + 1} is dead or has a Mah Jongg", "5")
    return None


def _group_shape(a: Expose) -> Refusal | None:
    naturals = {t for t in a.tiles if t != JOKER}
    if len(a.tiles) < 3 and JOKER in a.tiles:
        return Refusal(Code.JOKER_IN_PAIR, "Jokers stand only in groups of 3 or more", "6")
    if len(a.tiles) < 3:
        return Refusal(Code.GROUP_TOO_SMALL, "an exposure is a group of 3 or more", "4")
    if len(naturals) != 1:
        return Refusal(Code.BAD_EXPOSURE, "an exposure holds one kind of tile and Jokers", "4")
    return None


def _expose(st: GameState, a: Expose) -> Refusal:
    found = _group_shape(a) or _open_rack(st, a.seat, a.rack)
    if found is not None:
        return found
    must = st.obligation
    if (must in (MUST_EXPOSE, MUST_ERROR)
            and {t for t in a.tiles if t != JOKER} != {st.claim_tile}):
        return Refusal(Code.MUST_EXPOSE_CLAIMED, "the exposure must hold the claimed tile",
                       "4")
    if must is None and not st.rules.expose_any_time:
        return Refusal(Code.EXPOSURE_NEEDS_CLAIM, "groups are exposed with a claimed "
                       "discard", "4")
    free = st.players[a.seat].free()
    for t in set(a.tiles):
        if free[t] < a.tiles.count(t):
            return Refusal(Code.TILE_NOT_HELD, f"seat {a.seat} does not hold "
                           f"{a.tiles.count(t)} {CANONICAL[t]}", "4")
    return Refusal(Code.ILLEGAL_EXPOSURE, "that exposure is not allowed now (it must leave "
                   "a tile to discard and fit on the rack)", "4")


def _exchange(st: GameState, a: Exchange) -> Refusal:
    if not 0 <= a.owner < st.rules.players or not 0 <= a.rack < st.rules.racks:
        return Refusal(Code.NO_SUCH_EXPOSURE, "there is no such rack", "6")
    rack = st.players[a.owner].racks[a.rack]
    if not 0 <= a.index < len(rack.exposures):
        return Refusal(Code.NO_SUCH_EXPOSURE, "there is no such exposure", "6")
    x = rack.exposures[a.index]
    if rack.mahjongg is not None:
        return Refusal(Code.EXCHANGE_FROM_MAHJONGG, "Jokers of an exposed Mah Jongg are "
                       "frozen", "6")
    if a.index == rack.killer:
        return Refusal(Code.EXCHANGE_FROM_DEAD, "this exposure made its rack dead: its "
                       "Jokers stay", "6")
    if not x.jokers:
        return Refusal(Code.NO_JOKER, "that exposure holds no Joker", "6")
    if x.tile != a.tile:
        return Refusal(Code.WRONG_TILE, f"the Jokers there stand for {CANONICAL[x.tile]}",
                       "6")
    if not st.players[a.seat].free()[a.tile]:
        return Refusal(Code.TILE_NOT_HELD, f"seat {a.seat} holds no {CANONICAL[a.tile]}", "6")
    return Refusal(Code.EXCHANGE_NOT_NOW, "Jokers are exchanged during one's turn", "6")


def _mahjongg(st: GameState, a: MahJongg) -> Refusal:
    found = _open_rack(st, a.seat, a.rack)
    if found is not None:
        return found
    if not a.tiles:
        return Refusal(Code.ARRANGED_DECLARATION, "declaring the tiles as arranged is a "
                       "strict-mode declaration with exactly the rack's missing tiles", "7")
    return Refusal(Code.NO_MAHJONGG, f"those tiles do not make a Mah Jongg on rack "
                   f"{a.rack + 1}", "7")


def _move(st: GameState, a: Move) -> Refusal:
    if st.players[a.seat].declared is not None:
        return Refusal(Code.DECLARED_HAND_FIXED, "no tiles move between racks under a "
                       "declared hand", "7")
    return Refusal(Code.ILLEGAL_MOVE, "move a concealed tile between two open racks", "5")


def side_kinds(st: GameState, seat: int) -> tuple[str, ...]:
    """The kinds of action a seat that does not act now may still take: a move between
    its own racks, during play (section 5)."""
    return ("move",) if st.phase in MOVING and 0 <= seat < st.rules.players else ()


def _charleston(st: GameState, a: CharlestonPass | Courtesy | Offer) -> Refusal:
    """Why a pass, an offer or the tiles of a courtesy pass are not among the choices."""
    ch = st.charleston
    assert ch is not None
    if isinstance(a, Offer):
        return Refusal(Code.BAD_OFFER, "offer 0, 1, 2 or 3 tiles", "3")
    if JOKER in a.tiles:
        return Refusal(Code.JOKER_NOT_PASSED, "Jokers are never passed", "3")
    if isinstance(a, CharlestonPass):
        if a.blind and not ch.stage.blind:
            return Refusal(Code.NO_BLIND_PASS, "tiles are passed on unseen only in the last "
                           "pass of each Charleston", "3")
        if len(a.tiles) + a.blind != 3:
            return Refusal(Code.PASS_THREE, "three tiles are passed, blind ones included",
                           "3")
    else:
        count = ch.counts[a.seat]
        if len(a.tiles) != count:
            return Refusal(Code.COURTESY_COUNT, f"the partners agreed on {count} tile"
                           f"{'s' * (count != 1)}", "3")
    held = st.players[a.seat].pool
    for t in set(a.tiles):
        if held[t] < a.tiles.count(t):
            return Refusal(Code.TILE_NOT_HELD, f"seat {a.seat} does not hold "
                           f"{a.tiles.count(t)} {CANONICAL[t]}", "3")
    return Refusal(Code.ILLEGAL_ACTION, f"'{a}' is not allowed now", "3")


def _withdraw(st: GameState) -> Refusal:
    if st.began != BY_CLAIM or st.obligation is None:
        return Refusal(Code.CANNOT_WITHDRAW, "there is no granted claim to withdraw", "4")
    if st.turn_mahjonggs or st.claim_rack is not None:
        return Refusal(Code.CANNOT_WITHDRAW, "a claim is withdrawn only before anything is "
                       "exposed", "4")
    return Refusal(Code.CANNOT_WITHDRAW, "a discard claimed for a declared hand must be "
                   "declared", "7")
