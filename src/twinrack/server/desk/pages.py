"""The desk's pages for one request (docs/score-keeper.md): the director's page, a table's
score-entry page and the correction form, each with what it was based on (``seen``), and
the guard that opens a tournament by the key of its link or form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse

from twinrack.desk.tournament import GAMES_PER_ROUND, DeskError
from twinrack.server.deps import DeskDep, Pages, PagesDep, Refused
from twinrack.server.desk.forms import Prefill, result_prefill
from twinrack.server.desk.store import DeskStore, StoredTournament, table_key_for
from twinrack.server.desk.views import (
    director_seen,
    form_choices,
    game_seen,
    game_view,
    movement_note,
    player_rows,
    round_info,
    seats_at,
    sheet_view,
    table_seen,
    table_status,
    url,
    when,
)


@dataclass
class DeskPages:
    """Renders the desk's pages for one request, on the desk's store."""

    request: Request
    store: DeskStore
    page: Pages

    @property
    def base(self) -> str:
        return str(self.request.base_url).rstrip("/")

    def no_tournament(self, message: str = "There is no tournament at this address.") -> Refused:
        return self.page.refuse(404, "No such tournament", message, "/desk")

    async def opened(self, tid: str, key: str | None, roles: tuple[str, ...],
                     table: int | None = None) -> StoredTournament:
        """The tournament, when ``key`` opens it in one of ``roles`` (else a refusal page:
        no such tournament, or a wrong key)."""
        stored = await self.store.load(tid)
        if stored is None:
            raise self.no_tournament()
        if stored.role(key, table) not in roles:
            what = ("the director's link is needed here" if roles == ("director",)
                    else f"the director's link or table {table}'s own entry link is needed "
                         "here (each table has its own key)")
            raise self.page.refuse(403, "Wrong key", f"This link's key is not valid here: "
                                   f"{what}. Nothing was changed.", f"/desk/{tid}/standings")
        return stored

    async def opened_table(self, tid: str, key: str | None, table: int) -> StoredTournament:
        """A table's page or form: the table must be one of the tournament's."""
        stored = await self.store.load(tid)
        if stored is not None:
            try:
                stored.tournament.check_table(table)
            except DeskError as err:
                raise self.page.refuse(404, "No such table", err.message) from None
        return await self.opened(tid, key, ("director", "table"), table)

    def director(self, stored: StoredTournament, key: str, *, status: int = 200,
                 errors: list[str] | None = None, f: Prefill | None = None,
                 done: str | None = None) -> HTMLResponse:
        t = stored.tournament
        cur = t.current()
        in_play = cur is not None and not cur.locked
        rounds = [{"number": r.number, "locked": r.locked,
                   "sheets": [sheet_view(t, r, n) for n in sorted(t.seating(r.number))]}
                  for r in reversed(t.rounds)]
        return self.page(
            "desk/director.html", status=status, t=t, tid=stored.id, key=key,
            errors=errors or [], f=f or Prefill(), done=done,
            info=round_info(t, self.store.clock()), seen=director_seen(t),
            can_start=(cur is None or cur.locked) and len(t.rounds) < t.rounds_planned,
            tables=table_status(t, cur) if in_play and cur is not None else [],
            problems=t.round_problems() if in_play else [],
            movement=movement_note(t), players=player_rows(t), rounds=rounds,
            table_links=self._table_links(stored.id, key, t.tables),
            director_url=f"{self.base}{url(f'/desk/{stored.id}', key=key)}",
            standings_url=f"{self.base}/desk/{stored.id}/standings",
            seats_url=f"{self.base}/desk/{stored.id}/seats",
            audit=[{"when": when(a.at), "who": a.who, "action": a.action, "detail": a.detail}
                   for a in reversed(t.audit)],
            sheet_rounds=list(range(1, t.rounds_planned + 1)))

    def _table_links(self, tid: str, key: str, tables: int) -> list[dict[str, Any]]:
        """Each table's score-entry link (its key is derived from the director's)."""
        return [{"table": n, "key": table_key_for(key, n),
                 "url": self.base + url(f"/desk/{tid}/table/{n}", key=table_key_for(key, n))}
                for n in range(1, tables + 1)]

    def table(self, stored: StoredTournament, key: str, table: int, *,
              f: Prefill | None = None, errors: list[str] | None = None, status: int = 200,
              done: str | None = None) -> HTMLResponse:
        t = stored.tournament
        cur = t.current()
        sheet = sheet_view(t, cur, table) if cur is not None else None
        can_enter = (cur is not None and not cur.locked and t.plays(cur.number, table)
                     and len(cur.sheets.get(table, [])) < GAMES_PER_ROUND)
        return self.page(
            "desk/table.html", status=status, t=t, tid=stored.id, key=key, table=table,
            sheet=sheet, info=round_info(t, self.store.clock()), can_enter=can_enter,
            f=f or Prefill({"end": ["mahjongg"]}), errors=errors or [], done=done,
            seen=table_seen(t, table),
            next_game=len(cur.sheets.get(table, [])) + 1 if cur else 1,
            plays=t.plays(cur.number, table) if cur else True,
            seats=sheet["seats"] if sheet else [], **form_choices(t))

    def correction(self, stored: StoredTournament, key: str, round_no: int, table: int,
                   game: int, *, f: Prefill | None = None, errors: list[str] | None = None,
                   status: int = 200) -> HTMLResponse:
        t = stored.tournament
        try:
            r = t.round(round_no)
            t.check_table(table)
            sheet = r.sheets.get(table, [])
            if not 1 <= game <= len(sheet):
                raise DeskError("unknown_game", f"table {table} has no game {game} in round "
                                                f"{round_no}")
        except DeskError as err:
            return self.page.message(404, "No such game", err.message,
                                     url(f"/desk/{stored.id}", key=key))
        g = sheet[game - 1]
        seats = seats_at(t, round_no, table)
        return self.page(
            "desk/correct.html", status=status, t=t, tid=stored.id, key=key,
            round_no=round_no, table=table, game=game, seats=seats,
            f=f if f is not None else result_prefill(t, g.result), errors=errors or [],
            entry=game_view(t, r, table, g, seats), seen=game_seen(t, round_no, table, game),
            **form_choices(t))


def _desk_pages(request: Request, store: DeskDep, page: PagesDep) -> DeskPages:
    return DeskPages(request, store, page)


DeskPagesDep = Annotated[DeskPages, Depends(_desk_pages)]
