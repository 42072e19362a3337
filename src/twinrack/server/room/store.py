"""The room's state in the database (room/models.py), so that every worker of a cluster
sees the same room: the tables waiting for players with their free seats, and who is in
the room. Each function runs on the database's threads (``hub.db.run``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, union, update

from twinrack.server.accounts import ratings
from twinrack.server.accounts.models import AccountSeatRow, RatingRow
from twinrack.server.db import Database
from twinrack.server.models import GameRow, SeatRow
from twinrack.server.room.models import RoomPresenceRow, RoomSeatRow, RoomTableRow

#: the most tables the room lists (and holds open) at once: quick match opens no more
MAX_OPEN_TABLES = 200
#: the most people the room page names as online
MAX_ONLINE_SHOWN = 100
#: rows of presence older than this many seconds are deleted when someone comes in
PRESENCE_KEEP = 3600.0


@dataclass(frozen=True)
class Sitter:
    """Who asks for a seat: their browser (its id cookie) and their account (None: a
    guest). One sitter takes one seat of a table."""

    browser: str | None
    account_id: int | None


class AlreadySeated(Exception):
    """The sitter holds a seat of that table already (``seat``)."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


@dataclass(frozen=True)
class NewRoomTable:
    game_id: str
    variant: str
    players: int
    rated: bool
    host_name: str
    host_account_id: int | None
    wait_seconds: float
    #: seat -> its secret token, for each seat the room may give to someone
    free: dict[int, str]


def _open(now: float) -> Any:
    """The room tables still waiting: their wait has not run out and the game is in play."""
    return (select(RoomTableRow).join(GameRow, GameRow.id == RoomTableRow.game_id)
            .where(GameRow.status == "playing", GameRow.waiting.is_(True),
                   RoomTableRow.created_at + RoomTableRow.wait_seconds > now))


def add_table(db: Database, new: NewRoomTable, now: float) -> None:
    with db.unit() as s:
        s.add(RoomTableRow(game_id=new.game_id, variant=new.variant, players=new.players,
                           rated=new.rated, host_name=new.host_name,
                           host_account_id=new.host_account_id,
                           wait_seconds=new.wait_seconds, created_at=now))
        s.flush()
        for seat, token in sorted(new.free.items()):
            s.add(RoomSeatRow(game_id=new.game_id, seat=seat, token=token))


def open_count(db: Database, now: float) -> int:
    with db.reading() as s:
        q = _open(now).with_only_columns(func.count())
        return int(s.scalar(q) or 0)


def _shown_rating(s: Any, account_id: int | None, variant: str) -> str:
    if account_id is None:
        return "guest"
    row = s.get(RatingRow, (account_id, f"people:{variant}"))
    if row is None:
        return f"{ratings.start().shown} (new)"
    return str(ratings.Skill(row.mu, row.sigma).shown)


def open_tables(db: Database, now: float, who: Sitter | None = None,
                limit: int = MAX_OPEN_TABLES) -> list[dict[str, Any]]:
    """The tables waiting for players, oldest first, with their free seats (never their
    tokens), the host's rating for the variant and whether ``who`` sits there."""
    with db.reading() as s:
        rows = s.scalars(_open(now).order_by(RoomTableRow.created_at).limit(limit)).all()
        ids = [r.game_id for r in rows]
        mine: set[str] = set()
        if who is not None:
            held = _seated_games(who).subquery()
            mine = set(s.scalars(select(held.c[0]).where(held.c[0].in_(ids))))
        free: dict[str, list[int]] = {}
        for game_id, seat in s.execute(select(RoomSeatRow.game_id, RoomSeatRow.seat)
                                       .where(RoomSeatRow.game_id.in_(ids))
                                       .order_by(RoomSeatRow.seat)):
            free.setdefault(game_id, []).append(seat)
        out = []
        for r in rows:
            game = s.get(GameRow, r.game_id)
            assert game is not None
            seats = free.get(r.game_id, [])
            if not seats:
                continue  # every seat taken: it starts as soon as they are at the table
            out.append({"id": r.game_id, "variant": r.variant, "players": r.players,
                        "rated": r.rated, "revision": game.revision, "card": game.card_name,
                        "host": r.host_name,
                        "host_rating": _shown_rating(s, r.host_account_id, r.variant),
                        "free": seats, "taken": r.players - len(seats),
                        "mine": r.game_id in mine,
                        "wait_left": max(0, int(r.created_at + r.wait_seconds - now))})
        return out


def _seated_games(who: Sitter) -> Any:
    """The games in which ``who`` holds a seat: by their browser, or their account."""
    held = [select(GameRow.id).where(GameRow.id.is_(None))]  # (none, for a union of one)
    if who.browser is not None:
        held.append(select(SeatRow.game_id).where(SeatRow.owner == who.browser))
    if who.account_id is not None:
        held.append(select(AccountSeatRow.game_id)
                    .where(AccountSeatRow.account_id == who.account_id))
        held.append(select(RoomTableRow.game_id)
                    .where(RoomTableRow.host_account_id == who.account_id))
    return union(*held)


def fitting(db: Database, variant: str, players: int, rated: bool, now: float,
            who: Sitter, not_game: set[str]) -> list[str]:
    """The open tables quick match may seat ``who`` at, oldest first: never a table at
    which they hold a seat already (one they host, one they took), nor one of
    ``not_game``."""
    with db.reading() as s:
        q = (_open(now).where(RoomTableRow.variant == variant,
                              RoomTableRow.players == players, RoomTableRow.rated == rated,
                              RoomTableRow.game_id.not_in(_seated_games(who)))
             .order_by(RoomTableRow.created_at).limit(20))
        rows = s.scalars(q).all()
        return [r.game_id for r in rows if r.game_id not in not_game]


def _held_seat(s: Any, game_id: str, who: Sitter, host_account_id: int | None) -> int | None:
    """The seat of ``game_id`` that ``who`` holds already, if any."""
    if who.account_id is not None and host_account_id == who.account_id:
        return 0
    if who.browser is not None:
        seat = s.scalar(select(SeatRow.seat).where(SeatRow.game_id == game_id,
                                                   SeatRow.owner == who.browser)
                        .order_by(SeatRow.seat).limit(1))
        if seat is not None:
            return int(seat)
    if who.account_id is not None:
        seat = s.scalar(select(AccountSeatRow.seat).where(
            AccountSeatRow.game_id == game_id, AccountSeatRow.account_id == who.account_id)
            .order_by(AccountSeatRow.seat).limit(1))
        if seat is not None:
            return int(seat)
    return None


def take_seat(db: Database, game_id: str, seat: int | None, now: float,
              who: Sitter) -> tuple[int, str, bool] | None:
    """Take a free seat (``seat`` None: the first one) of an open table for ``who``:
    (seat, token, rated), or None when it is not free any more; :class:`AlreadySeated`
    when ``who`` holds a seat of that table already. The row is deleted by exactly one
    taker (the delete's row count says who), and the seat is marked as the sitter's
    browser's in the same write, so that their next request sees it. Takers of one table
    go one at a time (the table's row is locked on PostgreSQL; SQLite has one writer)."""
    with db.unit() as s:
        table = s.scalars(_open(now).where(RoomTableRow.game_id == game_id)
                          .with_for_update(of=RoomTableRow)).first()
        if table is None:
            return None
        held = _held_seat(s, game_id, who, table.host_account_id)
        if held is not None:
            raise AlreadySeated(held)
        q = select(RoomSeatRow).where(RoomSeatRow.game_id == game_id)
        if seat is not None:
            q = q.where(RoomSeatRow.seat == seat)
        row = s.scalars(q.order_by(RoomSeatRow.seat).limit(1)).first()
        if row is None:
            return None
        got = (row.seat, row.token, table.rated)
        gone = s.execute(delete(RoomSeatRow).where(RoomSeatRow.game_id == game_id,
                                                   RoomSeatRow.seat == row.seat))
        if getattr(gone, "rowcount", 1) != 1:
            return None
        if who.browser is not None:
            s.execute(update(SeatRow).where(SeatRow.game_id == game_id,
                                            SeatRow.seat == row.seat,
                                            SeatRow.owner.is_(None))
                      .values(owner=who.browser))
        return got


def room_table(db: Database, game_id: str) -> dict[str, Any] | None:
    with db.reading() as s:
        r = s.get(RoomTableRow, game_id)
        return None if r is None else {"rated": r.rated, "wait_seconds": r.wait_seconds,
                                       "created_at": r.created_at}


def touch(db: Database, visitor: str, name: str, now: float) -> None:
    """``visitor`` is in the room now (and old rows go)."""
    with db.unit() as s:
        row = s.get(RoomPresenceRow, visitor)
        if row is None:
            s.add(RoomPresenceRow(visitor=visitor, name=name, seen_at=now))
        else:
            row.name, row.seen_at = name, now
        s.execute(delete(RoomPresenceRow).where(RoomPresenceRow.seen_at < now - PRESENCE_KEEP))


def online(db: Database, now: float, within: float) -> tuple[list[str], int]:
    """The names of who was in the room in the last ``within`` seconds (the most recent
    first, at most :data:`MAX_ONLINE_SHOWN`) and how many they are."""
    with db.reading() as s:
        recent = RoomPresenceRow.seen_at >= now - within
        count = int(s.scalar(select(func.count()).select_from(RoomPresenceRow)
                             .where(recent)) or 0)
        names = s.scalars(select(RoomPresenceRow.name).where(recent)
                          .order_by(RoomPresenceRow.seen_at.desc())
                          .limit(MAX_ONLINE_SHOWN)).all()
        return list(names), count


def forget_account(s: Any, account_id: int, former: str) -> None:
    """An account is being deleted (in the same unit of work: accounts/store.py): it is
    no longer named in the room (its presence goes; the tables it opened that still wait
    name their host ``former``)."""
    s.execute(delete(RoomPresenceRow).where(RoomPresenceRow.visitor == f"a:{account_id}"))
    s.execute(update(RoomTableRow).where(RoomTableRow.host_account_id == account_id)
              .values(host_name=former, host_account_id=None))
