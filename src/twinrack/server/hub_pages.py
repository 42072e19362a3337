"""What the pages read and write beside the games in play (a mixin of
:class:`~twinrack.server.hub.Hub`): the seats a browser took and the names chosen for them,
"my games", the tables in play open to watch, and the cards saved in the card editor."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import func, select

from twinrack.narration import outcome, outcome_words
from twinrack.server.db import Database
from twinrack.server.models import ActionRow, CardRow, GameRow, SeatRow

if TYPE_CHECKING:
    from twinrack.server.table.live import LiveTable

#: a table in play is listed in the lobby when a move was made in the last this many minutes
LIVE_MINUTES = 10


class HubPages:
    """See the module's docstring."""

    db: Database
    tables: dict[str, LiveTable]

    async def seat_taken(self, game_id: str, seat: int) -> bool:
        """Whether a browser has taken the seat (opened it, or chosen its name): an invited
        player is asked for a name only before that."""
        return bool(await self.db.run(self._seat_owner, game_id, seat))

    def _seat_owner(self, game_id: str, seat: int) -> str | None:
        with self.db.reading() as s:
            return s.scalars(select(SeatRow.owner).where(SeatRow.game_id == game_id,
                                                         SeatRow.seat == seat)).one_or_none()

    async def name_seat(self, game_id: str, seat: int, name: str, owner: str | None) -> bool:
        """The name an invited player chose, stored with the seat (which the browser takes)
        and only then shown at the table; False when another browser took the seat."""
        if not await self.db.run(self._name_seat, game_id, seat, name, owner):
            return False
        table = self.tables.get(game_id)
        if table is not None:
            table.rename(seat, name)
        return True

    def _name_seat(self, game_id: str, seat: int, name: str, owner: str | None) -> bool:
        with self.db.unit() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                  SeatRow.seat == seat)).one_or_none()
            if row is None or row.owner not in (None, owner):
                return False
            row.name = name
            row.owner = row.owner or owner
            return True

    async def game_status(self, game_id: str) -> tuple[str, bool] | None:
        """A game's status as stored (``playing`` or ``over``) and whether it waits for its
        players (the waiting room); what a page says of it on any worker of a cluster."""
        return cast(tuple[str, bool] | None, await self.db.run(self._game_status, game_id))

    def _game_status(self, game_id: str) -> tuple[str, bool] | None:
        with self.db.reading() as s:
            row = s.execute(select(GameRow.status, GameRow.waiting)
                            .where(GameRow.id == game_id)).one_or_none()
            return None if row is None else (str(row[0]), bool(row[1]))

    async def games_of(self, owner: str) -> list[dict[str, Any]]:
        return list(await self.db.run(self._games_of, owner))

    def _games_of(self, owner: str) -> list[dict[str, Any]]:
        """The browser's games, newest first; a finished one says how it ended for its
        seat ("won by 80, +130 to +50")."""
        with self.db.reading() as s:
            mine = s.scalars(select(SeatRow).where(SeatRow.owner == owner)).all()
            out = []
            for seat in mine:
                g = seat.game
                names = [x.name for x in g.seats]
                others = ", ".join(n for i, n in enumerate(names) if i != seat.seat)
                totals = [int(t) for t in cast(list[Any], (g.result or {}).get("totals") or [])]
                how = (outcome(totals, seat.seat)[0] if seat.seat < len(totals) else None)
                out.append({"id": g.id, "seat": seat.seat, "status": g.status,
                            "variant": g.variant, "opponents": others,
                            "created": g.created_at.strftime("%Y-%m-%d %H:%M")
                            if g.created_at else "", "result": g.result, "outcome": how,
                            "outcome_words": outcome_words(totals, seat.seat, names)
                            if how else ""})
            out.sort(key=lambda x: str(x["created"]), reverse=True)
            return out

    async def live_games(self, limit: int = 30) -> list[dict[str, Any]]:
        return list(await self.db.run(self._live_games, limit))

    def _live_games(self, limit: int) -> list[dict[str, Any]]:
        """The tables in play that their host opened to watch and that were played in the
        last :data:`LIVE_MINUTES` minutes (a table nobody is at stands still, and leaves
        the list)."""
        since = datetime.now(UTC) - timedelta(minutes=LIVE_MINUTES)
        last = (select(func.max(ActionRow.created_at)).where(ActionRow.game_id == GameRow.id)
                .scalar_subquery())
        with self.db.reading() as s:
            rows = s.scalars(select(GameRow).where(GameRow.status == "playing",
                                                   GameRow.listed.is_(True), last >= since)
                             .order_by(GameRow.created_at.desc()).limit(limit)).all()
            return [{"id": g.id, "variant": g.variant, "players": g.players,
                     "names": ", ".join(x.name for x in g.seats), "waiting": g.waiting}
                    for g in rows]

    # ------------------------------------------------------------------ saved cards

    async def save_card(self, owner: str, source: str, name: str,
                        card_id: str | None = None) -> str | None:
        """Keep a card for its owner (a new one, or a new text of one of theirs); None when
        ``card_id`` is not one of the owner's cards."""
        return cast(str | None, await self.db.run(self._save_card, owner, source, name, card_id))

    def _save_card(self, owner: str, source: str, name: str, card_id: str | None) -> str | None:
        sha = hashlib.sha256(source.encode()).hexdigest()
        with self.db.unit() as s:
            if card_id is None:
                card_id = secrets.token_hex(8)
                s.add(CardRow(id=card_id, owner=owner, name=name[:200], sha256=sha,
                              source=source))
                return card_id
            row = s.get(CardRow, card_id)
            if row is None or row.owner != owner:
                return None
            row.name, row.sha256, row.source = name[:200], sha, source
            row.updated_at = datetime.now(UTC)
            return card_id

    async def saved_card(self, card_id: str, owner: str | None) -> dict[str, Any] | None:
        """One of the owner's saved cards (None for anyone else)."""
        return cast(dict[str, Any] | None, await self.db.run(self._saved_card, card_id, owner))

    def _saved_card(self, card_id: str, owner: str | None) -> dict[str, Any] | None:
        with self.db.reading() as s:
            row = s.get(CardRow, card_id)
            if row is None or owner is None or row.owner != owner:
                return None
            return {"id": row.id, "name": row.name, "source": row.source}

    async def cards_of(self, owner: str | None) -> list[dict[str, Any]]:
        if owner is None:
            return []
        return list(await self.db.run(self._cards_of, owner))

    def _cards_of(self, owner: str) -> list[dict[str, Any]]:
        with self.db.reading() as s:
            rows = s.scalars(select(CardRow).where(CardRow.owner == owner)
                             .order_by(CardRow.updated_at.desc()).limit(100)).all()
            return [{"id": r.id, "name": r.name} for r in rows]
