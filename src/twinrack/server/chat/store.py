"""Chat's lines, reports, mutes and settings in the database (server/chat/models.py), each
read or written on the database's threads (never the event loop)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from twinrack.server.chat.models import ChatLineRow, ChatMuteRow, ChatReportRow, ChatSettingRow
from twinrack.server.db import Database

#: the lines a page is sent when it loads (the most recent)
RECENT = 50
#: the reports the operator's listing shows at most
REPORTS_SHOWN = 500
#: who said (or reported) a line, once their account is deleted (as their seats are named)
FORMER = ("former", "a former player")


def line_object(row: ChatLineRow) -> dict[str, Any]:
    """A line as the protocol sends it (docs/protocol.md, "Chat")."""
    return {"id": row.id, "channel": row.channel, "at": int(row.at * 1000),
            "from": row.sender_name, "seat": row.seat, "key": row.sender_key,
            "audience": row.audience, "text": row.text}


class ChatStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, channel: str, *, sender_key: str, sender_name: str,
                  seat: int | None, audience: str, text: str) -> dict[str, Any]:
        """Store one line (already checked: server/chat/rules.py); the line as sent."""
        return await self.db.run(self._add, channel, sender_key, sender_name, seat,
                                 audience, text)

    def _add(self, channel: str, sender_key: str, sender_name: str, seat: int | None,
             audience: str, text: str) -> dict[str, Any]:
        game_id = channel[2:] if channel.startswith("t:") else None
        with self.db.unit() as s:
            row = ChatLineRow(channel=channel, game_id=game_id, at=time.time(),
                              sender_key=sender_key, sender_name=sender_name[:40], seat=seat,
                              audience=audience, text=text)
            s.add(row)
            s.flush()
            return line_object(row)

    async def lines(self, channel: str, audiences: set[str], after: int = 0,
                    limit: int = RECENT) -> list[dict[str, Any]]:
        """The most recent lines of ``channel`` for these audiences, after line ``after``,
        oldest first."""
        return await self.db.run(self._lines, channel, audiences, after, limit)

    def _lines(self, channel: str, audiences: set[str], after: int,
               limit: int) -> list[dict[str, Any]]:
        with self.db.reading() as s:
            rows = s.scalars(select(ChatLineRow).where(
                ChatLineRow.channel == channel, ChatLineRow.id > after,
                ChatLineRow.audience.in_(sorted(audiences)))
                .order_by(ChatLineRow.id.desc()).limit(limit)).all()
            return [line_object(r) for r in reversed(rows)]

    async def line(self, line_id: int) -> dict[str, Any] | None:
        return await self.db.run(self._line, line_id)

    def _line(self, line_id: int) -> dict[str, Any] | None:
        with self.db.reading() as s:
            row = s.get(ChatLineRow, line_id)
            return line_object(row) if row is not None else None

    # ------------------------------------------------------------------ settings

    async def quiet(self, channel: str) -> bool:
        return await self.db.run(self._quiet, channel)

    def _quiet(self, channel: str) -> bool:
        with self.db.reading() as s:
            row = s.get(ChatSettingRow, channel)
            return bool(row is not None and row.quiet)

    async def set_quiet(self, channel: str, on: bool) -> None:
        await self.db.run(self._set_quiet, channel, on)

    def _set_quiet(self, channel: str, on: bool) -> None:
        with self.db.unit() as s:
            row = s.get(ChatSettingRow, channel)
            if row is None:
                s.add(ChatSettingRow(channel=channel, quiet=on))
            else:
                row.quiet = on

    # ------------------------------------------------------------------ reports

    async def report(self, line: dict[str, Any], reporter_key: str, reporter_name: str,
                     client: str) -> bool:
        """Store a report of ``line``; False when this reporter reported it already."""
        return await self.db.run(self._report, line, reporter_key, reporter_name, client)

    def _report(self, line: dict[str, Any], reporter_key: str, reporter_name: str,
                client: str) -> bool:
        with self.db.unit() as s:
            known = s.scalar(select(ChatReportRow.id).where(
                ChatReportRow.line_id == line["id"],
                ChatReportRow.reporter_key == reporter_key))
            if known is not None:
                return False
            channel = line["channel"]
            s.add(ChatReportRow(line_id=line["id"], channel=channel,
                                game_id=channel[2:] if channel.startswith("t:") else None,
                                at=time.time(), reporter_key=reporter_key,
                                reporter_name=reporter_name[:40], client=client[:64]))
            return True

    def reports(self, limit: int = REPORTS_SHOWN) -> list[dict[str, Any]]:
        """The reports, newest first, each with its line (for the operator's command:
        called on the command's own thread)."""
        with self.db.reading() as s:
            rows = s.execute(select(ChatReportRow, ChatLineRow)
                             .join(ChatLineRow, ChatLineRow.id == ChatReportRow.line_id)
                             .order_by(ChatReportRow.id.desc()).limit(limit)).all()
            return [{"id": r.id, "at": r.at, "channel": r.channel, "game_id": r.game_id,
                     "reporter": r.reporter_name, "reporter_key": r.reporter_key,
                     "client": r.client, "line": line_object(ln)} for r, ln in rows]

    # ------------------------------------------------------------------ mutes

    async def mutes(self, account_id: int, channel: str) -> list[str]:
        return await self.db.run(self._mutes, account_id, channel)

    def _mutes(self, account_id: int, channel: str) -> list[str]:
        with self.db.reading() as s:
            return list(s.scalars(select(ChatMuteRow.sender_key).where(
                ChatMuteRow.account_id == account_id, ChatMuteRow.channel == channel)
                .order_by(ChatMuteRow.sender_key)))

    async def set_mute(self, account_id: int, channel: str, key: str, on: bool) -> None:
        await self.db.run(self._set_mute, account_id, channel, key, on)

    def _set_mute(self, account_id: int, channel: str, key: str, on: bool) -> None:
        with self.db.unit() as s:
            s.execute(delete(ChatMuteRow).where(ChatMuteRow.account_id == account_id,
                                                ChatMuteRow.channel == channel,
                                                ChatMuteRow.sender_key == key))
        if on:
            try:
                with self.db.unit() as s:
                    s.add(ChatMuteRow(account_id=account_id, channel=channel, sender_key=key))
            except IntegrityError:  # muted at the same moment elsewhere: muted all the same
                pass


def forget_person(s: Session, account_id: int, name: str, browser: str | None,
                  seats: list[tuple[str, int]]) -> None:
    """An account is being deleted (in the same unit of work: accounts/store.py): the
    lines the person said as themselves (in the room, or watching a table: as the
    account, or as the guest of the browser it is deleted from) are deleted, with the
    reports of them; the lines said from one of its seats at a table stay with that game,
    said by "a former player", as the seat is renamed; reports the person made stay for
    the operator, made by "a former player"; their mutes, and everyone's mutes of them,
    go (a new account of that name is someone else)."""
    from twinrack.server.chat.identity import account_key, guest_key

    keys = [account_key(name)] + ([guest_key(browser)] if browser else [])
    own = select(ChatLineRow.id).where(ChatLineRow.sender_key.in_(keys))
    s.execute(delete(ChatReportRow).where(ChatReportRow.line_id.in_(own)))
    s.execute(delete(ChatLineRow).where(ChatLineRow.sender_key.in_(keys)))
    for game_id, seat in seats:
        s.execute(update(ChatLineRow).where(ChatLineRow.channel == f"t:{game_id}",
                                            ChatLineRow.sender_key == f"s{seat}")
                  .values(sender_name=FORMER[1]))
    s.execute(update(ChatReportRow).where(ChatReportRow.reporter_key.in_(keys))
              .values(reporter_key=FORMER[0], reporter_name=FORMER[1], client=""))
    s.execute(delete(ChatMuteRow).where(or_(ChatMuteRow.account_id == account_id,
                                            ChatMuteRow.sender_key.in_(keys))))
