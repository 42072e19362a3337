"""The score of the standard American game, both ways (docs/rules.md, section 10): the
League's payments (:func:`score_nmjl`) and the tournament sheet's points
(:func:`score_tournament_game`, rules section 11 of the tournament rules).

One code path for every user: the engine scores its American games here
(:func:`american_score`, from the facts of a finished state gathered by
:func:`tournament_game`), and the tournament desk scores the four-seat tables played with
real tiles here too, from the fields of their score sheets. The Siamese score (section 10)
is :func:`twinrack.engine.scoring.score_game`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from twinrack.engine.events import MahJonggError
from twinrack.engine.scoring import Penalty, Score, ScoreLine

if TYPE_CHECKING:
    from twinrack.engine.state import GameState


@dataclass(frozen=True)
class TournamentGame:
    """One game of the American game, as a score sheet records it: what both ways of
    scoring it read (the League's payments read the winner, value, self-picked, Singles
    and Pairs, jokerless and discarder; the tournament sheet all of it)."""

    players: int
    winner: int | None = None  # seat of the Mah Jongg, None for a wall game or no result
    value: int = 0  # card value of the winning hand
    self_picked: bool = False
    singles_and_pairs: bool = False
    jokerless: bool = False
    wall_game: bool = False
    discarder: int | None = None  # seat that threw the Mah Jongg tile
    winner_exposures: int = 0  # exposures the winner had before the Mah Jongg tile
    quint_two_exposures: bool = False  # two quint exposures, only one group still needed
    dead: tuple[int, ...] = ()  # seats whose hands were dead
    misnamed: bool = False  # the discarder mis-named the Mah Jongg tile it threw
    in_error: int | None = None  # seat that declared Mah Jongg in error (game over)
    wall_destroyed_by: tuple[int, ...] = ()  # seats that destroyed the rest of the wall
    exposed: tuple[int, ...] = ()  # seats that exposed (threw in) their hands believing it
    penalties: tuple[Penalty, ...] = ()


#: throwing the Mah Jongg tile to an exposed hand (rules section 11); none to a concealed
#: hand or a hand with one exposure
THROW_PENALTIES: dict[str, tuple[int, str]] = {
    "threw_to_two_exposures": (-10, "threw the Mah Jongg tile to a hand with two exposures"),
    "threw_to_three_exposures": (-25, "threw the Mah Jongg tile to a hand with three "
                                      "exposures (or two quints needing one group)"),
}


def play_goes_on(game: TournamentGame) -> bool:
    """After a Mah Jongg in error, play goes on while two or more hands are intact and
    nobody destroyed the wall (section 11): such a game has no result yet."""
    if game.in_error is None:
        return False
    intact = [s for s in range(game.players) if s != game.in_error and s not in game.dead
              and s not in game.wall_destroyed_by and s not in game.exposed]
    return not game.wall_destroyed_by and len(intact) >= 2


def score_tournament_game(game: TournamentGame) -> Score:
    """Itemized tournament score of one game on a standard table (rules section 11)."""
    lines: list[ScoreLine] = []
    if game.winner is not None and game.in_error is None:
        winner = game.winner
        lines.append(ScoreLine(winner, game.value, f"Mah Jongg: card value {game.value}", "11"))
        if game.self_picked:
            lines.append(ScoreLine(winner, 15, "self-picked Mah Jongg tile", "11"))
        if game.singles_and_pairs:
            lines.append(ScoreLine(winner, 15, "Singles and Pairs hand", "11"))
        elif game.jokerless:
            lines.append(ScoreLine(winner, 20, "jokerless Mah Jongg", "11"))
        if game.discarder is not None and not game.self_picked:
            if game.winner_exposures >= 3 or (game.winner_exposures == 2
                                              and game.quint_two_exposures):
                points, reason = THROW_PENALTIES["threw_to_three_exposures"]
                lines.append(ScoreLine(game.discarder, points, reason, "11"))
            elif game.winner_exposures == 2:
                points, reason = THROW_PENALTIES["threw_to_two_exposures"]
                lines.append(ScoreLine(game.discarder, points, reason, "11"))
            if game.misnamed:
                lines.append(ScoreLine(game.discarder, -25, "mis-named the tile claimed for "
                                                            "Mah Jongg", "11"))
    elif game.in_error is not None:
        lines.append(ScoreLine(game.in_error, 0, "Mah Jongg in error", "11"))
        destroyed = set(game.wall_destroyed_by)
        exposed = set(game.exposed)
        # everyone exposed: the others score 10; one hand kept: only it scores 10
        everyone_exposed = bool(exposed) and all(
            s in exposed or s in destroyed or s in game.dead
            for s in range(game.players) if s != game.in_error)
        for seat in range(game.players):
            if seat == game.in_error:
                continue
            if seat in game.dead:
                lines.append(ScoreLine(seat, 0, "dead hand after a Mah Jongg in error", "11"))
            elif seat in destroyed:
                lines.append(ScoreLine(seat, 0, "destroyed the wall after a Mah Jongg in error",
                                       "11"))
            elif seat in exposed and not everyone_exposed:
                lines.append(ScoreLine(seat, 0, "exposed its hand after a Mah Jongg in error",
                                       "11"))
            else:
                why = ("every player exposed after a Mah Jongg in error" if seat in exposed
                       else "intact hand after a Mah Jongg in error")
                lines.append(ScoreLine(seat, 10, why, "11"))
    elif game.wall_game:
        for seat in range(game.players):
            if seat in game.dead:
                lines.append(ScoreLine(seat, 0, "wall game: dead hand scores nothing", "11"))
            else:
                lines.append(ScoreLine(seat, 10, "wall game", "11"))
    for p in game.penalties:
        lines.append(ScoreLine(p.seat, p.points, p.reason, p.rule))
    return Score(game.players, tuple(lines))


#: the points penalties a referee may give (rules sections 10 and 11); the score keeper and
#: the tournament desk name them by these codes
PENALTIES: dict[str, tuple[int, str]] = {
    "not_seated": (-25, "not seated when play began"),
    "stealing_and_looking": (-10, "took a tile out of turn and looked at it"),
    "misnamed_exposure_tile": (-10, "mis-named a tile that was called for an exposure"),
}


# ------------------------------------------------------------------ the League's payments


def hand_payment(game: TournamentGame) -> tuple[int, str]:
    """What one player pays for the winning hand (before the discarder's or a
    self-pick's doubling): its card value, doubled when jokerless unless Singles and
    Pairs; and the words saying so."""
    if game.jokerless and not game.singles_and_pairs:
        return 2 * game.value, f"card value {game.value}, jokerless x2"
    if game.jokerless:
        return game.value, f"card value {game.value}; jokerless Singles and Pairs: not doubled"
    return game.value, f"card value {game.value}"


def score_nmjl(game: TournamentGame) -> Score:
    """Who pays whom under the League's rules, line by line: the discarder of the Mah
    Jongg tile pays the winner twice the hand's value and the others once; a self-picked
    Mah Jongg is paid twice by everyone; dead hands pay like the others. A wall game pays
    nothing, and neither does a game ended by a Mah Jongg in error."""
    lines: list[ScoreLine] = []
    if game.winner is not None and game.in_error is None:
        winner = game.winner
        each, why = hand_payment(game)
        lines.append(ScoreLine(winner, 0, f"Mah Jongg ({why})", "10"))
        for seat in range(game.players):
            if seat == winner:
                continue
            if game.self_picked:
                owed, what = 2 * each, "self-picked Mah Jongg: everyone pays double"
            elif seat == game.discarder:
                owed, what = 2 * each, "threw the Mah Jongg tile: pays double"
            else:
                owed, what = each, "pays the hand's value"
            lines.append(ScoreLine(seat, -owed, f"pays seat {winner} ({what})", "10"))
            lines.append(ScoreLine(winner, owed, f"from seat {seat} ({what})", "10"))
    elif game.in_error is not None:
        lines.append(ScoreLine(game.in_error, 0, "Mah Jongg in error: the game ends with "
                                                 "fewer than two hands intact; nobody pays",
                               "10"))
    elif game.wall_game:
        for seat in range(game.players):
            lines.append(ScoreLine(seat, 0, "wall game: nobody pays", "10"))
    for p in game.penalties:
        lines.append(ScoreLine(p.seat, p.points, p.reason, p.rule))
    return Score(game.players, tuple(lines))


# ------------------------------------------------------------------ from a finished game


def tournament_game(st: GameState) -> TournamentGame:
    """The facts of an American game that its score reads, from the state (of the game
    so far when it has not ended: then it has no result and scores nothing)."""
    players = st.rules.players
    dead = tuple(s for s, p in enumerate(st.players) if any(r.dead for r in p.racks))
    end = st.end_reason
    if end == "mahjongg" and st.winner is not None:
        m = st.players[st.winner].mahjonggs[-1]
        groups = len(m.hand.ways[0].groups)
        return TournamentGame(
            players=players, winner=m.seat, value=m.hand.value, self_picked=m.self_picked,
            singles_and_pairs=m.hand.singles_and_pairs, jokerless=m.jokerless,
            discarder=m.claimed_from, winner_exposures=m.exposed_before,
            quint_two_exposures=m.exposed_before == 2 and m.hand.quint and groups == 3,
            dead=dead)
    if end == "error":
        last = _last_error(st)
        return TournamentGame(players=players, in_error=last,
                              dead=tuple(s for s in dead if s != last))
    return TournamentGame(players=players, wall_game=end in ("wall", "stopped"), dead=dead)


def _last_error(st: GameState) -> int:
    """The seat whose Mah Jongg in error came last (the others in error are dead)."""
    return next(e.seat for e in reversed(st.events)
                if isinstance(e, MahJonggError) and e.rack is not None)


def american_score(st: GameState) -> Score:
    """The score of an American game, the way its rules say (``american_scoring``)."""
    game = tournament_game(st)
    if st.rules.american_scoring == "tournament":
        return score_tournament_game(game)
    return score_nmjl(game)
