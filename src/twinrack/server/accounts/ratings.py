"""Ratings (docs/accounts.md, "Ratings"): openskill's Weng-Lin Bradley-Terry model with
full pairing (every seat compared with every other), one
rating per variant for games between signed-in people ("people:VARIANT") and one against
the computer ("computer:VARIANT"), where each computer level has a fixed rating.

A rating is kept as openskill's (mu, sigma), mu 25 and sigma 25/3 at the start; it is shown
as 60 * mu (so everyone starts at 1500), and the leaderboard ranks by the conservative
60 * (mu - 3 sigma). The seats of a finished game are ranked by their final totals, the
highest first; equal totals are a tie (the same rank)."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import BradleyTerryFull

#: the model (its defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300). Not openskill's
#: Plackett-Luce: with a tie for first place, it gives the seat placed after the tie the
#: same gain as the tied leaders (the property test in tests/server/test_profiles.py)
MODEL = BradleyTerryFull()
#: a shown rating is this many times mu
SCALE = 60.0
#: a rating is provisional until this many rated games
PROVISIONAL_GAMES = 10
#: the computer levels' fixed ratings (mu; their sigma is FIXED_SIGMA): greedy at a new
#: player's 25, the others where this model's predict_win gives them the win rates
#: against greedy that docs/bots.md reports from the arena (expert 70.1%, intermediate
#: 37%, beginner 33%, random 0.2%); master as expert, which it does not beat yet
BOT_MU: dict[str, float] = {"random": 7.6, "beginner": 22.3, "intermediate": 23.0,
                            "greedy": 25.0, "expert": 28.2, "master": 28.2}
FIXED_SIGMA = 1.0
#: the mu of a computer level missing from BOT_MU
UNKNOWN_BOT_MU = 25.0


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return round(SCALE * self.mu)

    @property
    def conservative(self) -> int:
        return round(SCALE * (self.mu - 3 * self.sigma))


def start() -> Skill:
    r = MODEL.rating()
    return Skill(r.mu, r.sigma)


def bot_skill(level: str) -> Skill:
    return Skill(BOT_MU.get(level, UNKNOWN_BOT_MU), FIXED_SIGMA)


def ranks_of(totals: list[int]) -> list[int]:
    """Each seat's place by its total (1 the best; equal totals share a place)."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def rate(skills: list[Skill], totals: list[int], fixed: set[int] | None = None) -> list[Skill]:
    """Every seat's skill after a game with these final totals; the seats of ``fixed``
    (computer levels) keep theirs."""
    fixed = fixed or set()
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks_of(totals)])
    return [skills[i] if i in fixed else Skill(team[0].mu, team[0].sigma)
            for i, team in enumerate(after)]
