"""What the profile, "my games" and the leaderboard show, read from the database (each
function runs on the database's threads)."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from twinrack.server.accounts import ratings
from twinrack.server.accounts.models import (
    AccountRow,
    AccountSeatRow,
    GameStatRow,
    RatingEventRow,
    RatingRow,
)
from twinrack.server.models import GameRow, SeatRow

#: the recent games a profile lists
RECENT = 10
#: the lines a profile lists, the most made first
TOP_LINES = 5
#: rows of the leaderboard
BOARD_ROWS = 100
#: the games "my games" lists at most
MY_GAMES = 500


def variant_stats(s: Session, account_id: int) -> list[dict[str, Any]]:
    """Per variant: games, won, lost, average points, Mah Jonggs per game, Double Mah
    Jonggs, the share of racks that died, the lines made most often."""
    rows = s.scalars(select(GameStatRow).where(GameStatRow.account_id == account_id)).all()
    by: dict[str, list[GameStatRow]] = defaultdict(list)
    for r in rows:
        by[r.variant].append(r)
    out = []
    for variant, games in sorted(by.items()):
        n, racks = len(games), sum(g.racks for g in games)
        lines = Counter(line for g in games for line in g.lines)
        out.append({"variant": variant, "games": n, "won": sum(g.won for g in games),
                    "lost": sum(not g.won for g in games),
                    "points": round(sum(g.points for g in games) / n, 1),
                    "mahjonggs": round(sum(g.mahjonggs for g in games) / n, 2),
                    "doubles": sum(g.doubles for g in games),
                    "dead": round(100 * sum(g.dead_racks for g in games) / racks) if racks
                    else 0, "lines": lines.most_common(TOP_LINES)})
    return out


def rating_list(s: Session, account_id: int) -> list[dict[str, Any]]:
    rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id)
                     .order_by(RatingRow.pool)).all()
    out = []
    for r in rows:
        skill = ratings.Skill(r.mu, r.sigma)
        history = s.scalars(select(RatingEventRow.rating).where(
            RatingEventRow.account_id == account_id, RatingEventRow.pool == r.pool)
            .order_by(RatingEventRow.id)).all()
        out.append({"pool": r.pool, "title": pool_title(r.pool), "rating": skill.shown,
                    "spread": round(3 * ratings.SCALE * r.sigma), "games": r.games,
                    "provisional": r.games < ratings.PROVISIONAL_GAMES,
                    "history": [ratings.start().shown, *history]})
    return out


def pool_title(pool: str) -> str:
    kind, _, variant = pool.partition(":")
    return f"{variant.title()}, {'against people' if kind == 'people' else 'against the computer'}"


def _day(seconds: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def recent_games(s: Session, account_id: int) -> list[dict[str, Any]]:
    """The last finished games counted for the account (never one in play)."""
    rows = s.execute(select(GameStatRow, GameRow).join(GameRow, GameRow.id ==
                                                       GameStatRow.game_id)
                     .where(GameStatRow.account_id == account_id)
                     .order_by(GameStatRow.at.desc()).limit(RECENT)).all()
    return [{"id": g.id, "variant": g.variant, "points": st.points, "won": st.won,
             "day": _day(st.at), "opponents": _opponents(g, st.seat)} for st, g in rows]


def _opponents(game: GameRow, seat: int) -> str:
    return ", ".join(x.name for x in game.seats if x.seat != seat)


def profile(s: Session, name: str) -> dict[str, Any] | None:
    row = s.scalar(select(AccountRow).where(AccountRow.name_key == name.lower()))
    if row is None:
        return None
    return {"id": row.id, "name": row.name, "private": row.private,
            "since": row.created_at.strftime("%Y-%m-%d") if row.created_at else "",
            "stats": variant_stats(s, row.id), "ratings": rating_list(s, row.id),
            "recent": recent_games(s, row.id)}


def my_games(s: Session, account_id: int) -> list[dict[str, Any]]:
    """Every game of the account, finished or not, the newest first."""
    rows = s.execute(select(AccountSeatRow.seat, GameRow)
                     .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                     .where(AccountSeatRow.account_id == account_id)
                     .order_by(GameRow.created_at.desc()).limit(MY_GAMES)).all()
    out = []
    for seat, g in rows:
        totals: list[int] = list((g.result or {}).get("totals") or [])  # type: ignore[call-overload]
        finished = g.status != "playing"
        mine = totals[seat] if finished and seat < len(totals) else None
        winner = (g.result or {}).get("winner") if finished else None
        outcome = "unfinished" if not finished else "won" if winner == seat else "lost"
        out.append({"id": g.id, "variant": g.variant, "outcome": outcome, "points": mine,
                    "opponents": _opponents(g, seat),
                    "created": g.created_at.strftime("%Y-%m-%d %H:%M") if g.created_at
                    else ""})
    return out


def leaderboard(s: Session, pool: str) -> list[dict[str, Any]]:
    """The public accounts of a pool, by their conservative rating (mu - 3 sigma)."""
    rows = s.execute(select(RatingRow, AccountRow.name)
                     .join(AccountRow, AccountRow.id == RatingRow.account_id)
                     .where(RatingRow.pool == pool, AccountRow.private.is_(False))).all()
    board = sorted(rows, key=lambda x: -(x[0].mu - 3 * x[0].sigma))[:BOARD_ROWS]
    return [{"place": i + 1, "name": name, "rating": ratings.Skill(r.mu, r.sigma).shown,
             "conservative": ratings.Skill(r.mu, r.sigma).conservative, "games": r.games,
             "provisional": r.games < ratings.PROVISIONAL_GAMES}
            for i, (r, name) in enumerate(board)]


def seat_names(s: Session, game_id: str) -> list[str]:
    return list(s.scalars(select(SeatRow.name).where(SeatRow.game_id == game_id)
                          .order_by(SeatRow.seat)).all())
