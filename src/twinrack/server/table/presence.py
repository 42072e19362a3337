"""Who plays each seat of a live table, and when: tables nobody can block (issue 26).

The rules, each kept by the table's task (server/table/live.py), every change of a stored fact
written first (docs/architecture.md, step 4):

- **The waiting room.** A table with invited friends is created waiting: the tiles are
  dealt and the shuffle committed, but nothing is played (no legal actions, no bot, no
  timer) until the host (seat 0) presses Start, or every person's seat is at the table
  (has a connection open) or handed to the computer. Leaving the waiting room is stored
  (``games.waiting``).
- **Absent seats.** A person's seat with no connection open is absent since its last one
  closed, or since play started (or the table was loaded) without one. Once absent for
  the table's grace period (the host's choice, 60 s by default) the computer plays it;
  every page shows the countdown (``takeover_ms``). The host may hand an absent seat to
  the computer at once. Both are stored (``seats.away``), so they outlive a restart.
- **Coming back.** A connection of an away seat stops the computer at once (it plays only
  seats with no connection); the stored flag is cleared after.
- **Abandoned.** A table of people none of whom has a connection open stands still: no
  bot (for a person or a computer seat) plays, no timer runs, until one comes back. Bots
  never play on for nobody.
- **The turn timer** (the host's choice, off by default): a person who has not made their
  move (a discard, an exposure, a declaration) within it has that one move made for them
  by the computer (stored with ``by = "timer"``); claim windows keep their call timer.
- **Three in a row.** A person whose turn timer ran out three turns in a row (their own
  move in between starts the count again) has the seat handed to the computer, stored as
  an absent seat's is; the computer plays it although the page is open, until the person
  makes a move of their own.
- **Pass unless the claim helps.** A seat with that setting (on by default with 3 or 4
  players) is not asked about a discard whose claim the hints say does not help its plan:
  the page says so and lets it claim anyway, and the call timer passes for it when the
  window's time is up. The window is not closed early for that: it lasts as long as it
  would had the person been asked and not answered, so the others learn nothing from it.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from twinrack.engine import GameState, legal_actions
from twinrack.engine.actions import decisions
from twinrack.server.table.seats import LiveSeat, TableCommand, TableSettings

log = logging.getLogger("twinrack.table")

#: stores settings of a game (seat None) or of one of its seats: (game id, seat, values)
KeepSettings = Callable[[str, int | None, dict[str, Any]], Awaitable[None]]

#: the seat of the host: the person who created the table (the lobby's seat 1)
HOST = 0
#: seconds before trying again a takeover the database would not store
RETRY_SECONDS = 2.0
#: turns in a row a person may let the turn timer play before the computer takes the seat
TIMED_OUT_TURNS = 3


class Presence:
    """The part of :class:`~twinrack.server.table.live.LiveTable` that decides who plays each
    seat: the waiting room, absent seats and the computer playing for them, the turn
    timer, and "pass unless the claim helps my plan" (see the module's docstring)."""

    id: str
    state: GameState
    seats: list[LiveSeat]
    settings: TableSettings
    keep: KeepSettings | None
    waiting: bool
    paused: bool
    closed: bool
    #: seat -> (what its turn is, when the turn timer runs out)
    turn_clock: dict[int, tuple[tuple[Any, ...], float]]
    #: seat -> (public version of the window, "checking" | "ask" | "pass", reason)
    claim_checks: dict[int, tuple[int, str, str]]
    #: (seat's version, seat) -> its hints (None: they failed)
    hint_cache: dict[tuple[int, int], dict[str, Any] | None]

    # the table's own (server/table/live.py)
    _later: Callable[..., None]
    _schedule: Callable[..., None]
    _announce: Callable[[], None]
    _broadcast: Callable[..., None]
    _broadcast_players: Callable[[], None]
    _evaluate: Callable[..., None]
    _silent: Callable[..., list[int]]
    _auto_pass: Callable[[], Awaitable[None]]
    _refuse: Callable[..., None]

    # ------------------------------------------------------------------ facts

    @property
    def has_people(self) -> bool:
        return any(not s.is_bot for s in self.seats)

    @property
    def abandoned(self) -> bool:
        """A table of people none of whom is at it: it stands still."""
        return self.has_people and not any(s.connected for s in self.seats if not s.is_bot)

    def _absent(self, s: LiveSeat) -> bool:
        return not s.is_bot and s.connected == 0

    def _bot_should_play(self, seat: int) -> bool:
        """Whether the computer plays ``seat`` now: a computer's seat, or an absent person's
        seat handed to the computer; never in the waiting room or at an abandoned table."""
        s = self.seats[seat]
        if self.waiting or self.abandoned:
            return False
        return s.is_bot or (s.away and (s.connected == 0 or s.idle))

    def _everyone_here(self) -> bool:
        return all(s.is_bot or s.connected or s.away for s in self.seats)

    async def _keep(self, seat: int | None, **values: Any) -> bool:
        """Store settings of the game (``seat`` None) or of a seat; False when the
        database would not."""
        if self.keep is None:
            return True
        try:
            await self.keep(self.id, seat, values)
        except Exception as err:
            log.warning("table %s: storing %r of seat %s failed (%r)", self.id, values,
                        seat, err)
            return False
        return True

    # ------------------------------------------------------------------ arrivals

    def _arrived(self, s: LiveSeat) -> None:
        """A connection of a person's seat came (:meth:`LiveTable.add`)."""
        s.absent_since = None
        if s.away:
            self._later(0, TableCommand("back", seat=s.seat))
        if self.waiting and self._everyone_here():
            self._later(0, TableCommand("start"))

    def _departed(self, s: LiveSeat) -> None:
        if s.connected == 0 and not s.is_bot:
            s.absent_since = time.monotonic()

    def _absent_from_now(self) -> None:
        """Play starts (or the table was loaded here): every absent person's grace period
        starts now."""
        now = time.monotonic()
        for s in self.seats:
            if self._absent(s):
                s.absent_since = now

    # ------------------------------------------------------------------ commands

    async def _presence_command(self, cmd: TableCommand) -> bool:
        """Handle the commands of this module; False for any other."""
        if cmd.kind == "start":
            await self._start(cmd)
        elif cmd.kind == "hand_over":
            await self._hand_over(cmd)
        elif cmd.kind == "takeover":
            await self._takeover(cmd)
        elif cmd.kind == "back":
            await self._back(cmd)
        elif cmd.kind == "turn_timer":
            self._turn_timer(cmd)
        elif cmd.kind == "idle":
            await self._idle(cmd)
        elif cmd.kind == "wait_over":
            await self._wait_over()
        else:
            return False
        return True

    async def _start(self, cmd: TableCommand) -> None:
        """Leave the waiting room: the host asked, or everyone is here."""
        conn = cmd.conn
        if conn is not None and conn.seat != HOST:
            self._refuse(conn, "not_host", "only the host (who created the table) can "
                         "start it", cmd.msg_id)
            return
        if not self.waiting or (conn is None and not self._everyone_here()):
            return
        if not await self._keep(None, waiting=False):
            if conn is not None:
                self._refuse(conn, "storage_unavailable", "the table could not be started: "
                             "try again", cmd.msg_id, retryable=True)
            return
        self.waiting = False
        self._absent_from_now()
        log.info("table %s: play starts", self.id)
        if self._silent():  # passes owed at once are made before anyone looks
            await self._auto_pass()
        self._announce()

    def _resume_wait(self) -> None:
        """The open room's wait (server/room), from the table's stored settings
        (games.wait_until): once it has run out, the seats nobody took go to the computer
        and play starts (:meth:`_wait_over`). Whichever worker starts the table (the one
        that created it, one that took it over, the same one after a restart) schedules
        it; one that has run out already is acted on at once."""
        until = self.settings.wait_until
        if until is not None and self.waiting and not self.state.over:
            self._later(max(0.0, until - time.time()), TableCommand("wait_over"),
                        key="wait_over")

    async def _wait_over(self) -> None:
        """The host's wait ran out: every person's seat with nobody at it is handed to the
        computer (stored first, as the host's hand-over is), then play starts."""
        if not self.waiting or self.state.over:
            return
        for s in self.seats:
            if self._absent(s) and not s.away:
                if not await self._keep(s.seat, away=True):
                    self._later(RETRY_SECONDS, TableCommand("wait_over"), key="wait_over")
                    return
                s.away = True
        self._broadcast_players()
        await self._start(TableCommand("start"))
        self._schedule()

    async def _hand_over(self, cmd: TableCommand) -> None:
        """The host hands an absent person's seat to the computer at once."""
        conn = cmd.conn
        assert conn is not None
        seat = cmd.seat
        if conn.seat != HOST:
            self._refuse(conn, "not_host", "only the host (who created the table) can hand "
                         "a seat to the computer", cmd.msg_id)
            return
        if seat is None or not 0 <= seat < len(self.seats) or self.seats[seat].is_bot:
            self._refuse(conn, "bad_seat", "that is not a person's seat at this table",
                         cmd.msg_id)
            return
        s = self.seats[seat]
        if s.connected or s.away or self.state.over:
            self._refuse(conn, "not_absent", "only a seat whose player is not at the table "
                         "can be handed to the computer", cmd.msg_id)
            return
        if not await self._keep(seat, away=True):
            self._refuse(conn, "storage_unavailable", "that could not be saved: try again",
                         cmd.msg_id, retryable=True)
            return
        s.away = True
        log.info("table %s: the host hands seat %d to the computer", self.id, seat)
        if self.waiting and self._everyone_here():
            self._later(0, TableCommand("start"))
        self._broadcast_players()
        self._schedule()

    async def _takeover(self, cmd: TableCommand) -> None:
        """A person's grace period ran out: the computer plays the seat from now on."""
        seat = cmd.seat
        if seat is None:
            return
        s = self.seats[seat]
        if (not self._absent(s) or s.away or self.waiting or self.state.over
                or self._grace_left(s) > 0):
            return
        if not await self._keep(seat, away=True):
            self._later(RETRY_SECONDS, TableCommand("wake"), key=f"retry{seat}")
            return
        s.away = True
        log.info("table %s: the computer plays seat %d until its player is back", self.id,
                 seat)
        self._broadcast_players()
        self._schedule()

    async def _idle(self, cmd: TableCommand) -> None:
        """The turn timer ran out three turns in a row: the computer plays the seat."""
        seat = cmd.seat
        if seat is None or self.state.over:
            return
        s = self.seats[seat]
        if s.is_bot or s.idle or s.timed_out < TIMED_OUT_TURNS:
            return
        if not await self._keep(seat, away=True):
            self._later(RETRY_SECONDS, TableCommand("idle", seat=seat))
            return
        s.away = s.idle = True
        log.info("table %s: seat %d let the turn timer run out %d times in a row: the "
                 "computer plays it", self.id, seat, s.timed_out)
        self._broadcast_players()
        self._schedule()

    def _timed_move_made(self, seat: int) -> None:
        """The computer made a move the turn timer asked for (from the table's bot move):
        after the third in a row, it takes the seat. Waiting for the move itself keeps the
        order a player sees: three timed moves, then the hand-over."""
        if self.seats[seat].timed_out >= TIMED_OUT_TURNS:
            self._later(0, TableCommand("idle", seat=seat))

    def _moved_by_person(self, seat: int) -> None:
        """A person made a move of their own (from the table's human action)."""
        s = self.seats[seat]
        s.timed_out = 0
        if s.idle:
            s.idle = False
            self._later(0, TableCommand("back", seat=seat))

    async def _back(self, cmd: TableCommand) -> None:
        """The player of an away seat is back: clear the stored flag (the computer stopped
        playing the seat as soon as it had a connection)."""
        seat = cmd.seat
        if seat is None:
            return
        s = self.seats[seat]
        if s.away and s.connected and await self._keep(seat, away=False):
            s.away = False
            self._broadcast_players()

    # ------------------------------------------------------------------ clocks

    def _grace_left(self, s: LiveSeat) -> float:
        if s.absent_since is None:
            return math.inf
        return s.absent_since + self.settings.grace_seconds - time.monotonic()

    def _watch_absent(self) -> None:
        """Wake for each absent person whose grace period is running (from _schedule)."""
        for s in self.seats:
            if self._absent(s) and not s.away:
                left = self._grace_left(s)
                if left < math.inf:
                    self._later(max(0.0, left) + 0.01, TableCommand("takeover", seat=s.seat))

    @staticmethod
    def _turn_of(st: GameState, seat: int) -> tuple[Any, ...]:
        """What a turn timer is timing: the seat's move at this point of the game (a move
        between its own racks is not one)."""
        return (st.phase, st.public_version if st.phase != "declare" else -1, seat)

    def _run_turn_clocks(self, now: float) -> None:
        """Start or keep the turn timer of each person to move (from _schedule)."""
        st = self.state
        limit = self.settings.turn_seconds
        if limit is None or st.phase == "window":
            self.turn_clock.clear()
            return
        acting = set()
        for seat in st.to_act():
            if self.seats[seat].is_bot or self._bot_should_play(seat):
                continue
            acting.add(seat)
            turn = self._turn_of(st, seat)
            clock = self.turn_clock.get(seat)
            if clock is None or clock[0] != turn:
                clock = self.turn_clock[seat] = (turn, now + limit)
            if clock[1] < math.inf:
                self._later(max(0.0, clock[1] - now) + 0.01,
                            TableCommand("turn_timer", seat=seat))
        for seat in set(self.turn_clock) - acting:
            del self.turn_clock[seat]

    def _turn_timer(self, cmd: TableCommand) -> None:
        """A turn timer ran out: the computer makes that one move for the person."""
        st = self.state
        seat = cmd.seat
        clock = self.turn_clock.get(seat) if seat is not None else None
        if (seat is None or clock is None or self.paused or self.waiting or st.over
                or clock[0] != self._turn_of(st, seat) or seat not in st.to_act()):
            return
        if time.monotonic() < clock[1] - 0.01:
            self._schedule()
            return
        self.turn_clock[seat] = (clock[0], math.inf)  # once: the move is on its way
        s = self.seats[seat]
        s.timed_out += 1
        log.info("table %s: the turn timer plays for seat %d", self.id, seat)
        self._later(0, TableCommand("bot", seat=seat, version=st.seen_version(seat),
                                    by="timer"), key=f"timerbot{seat}")

    # ------------------------------------------------------------------ pass unless it helps

    def _check_claims(self) -> None:
        """In a claim window: ask the hints whether the discard helps each person who
        passes unless it does (from _schedule; the answer comes back to _claim_checked)."""
        st = self.state
        if st.phase != "window" or self.waiting:
            self.claim_checks.clear()
            return
        silent = set(self._silent())
        for seat in st.to_act():
            s = self.seats[seat]
            if (s.is_bot or not s.auto_pass or s.always_ask or not s.connected
                    or seat in silent):
                continue
            got = self.claim_checks.get(seat)
            if got is not None and got[0] == st.public_version:
                continue
            if len(decisions(legal_actions(st, seat), False)) <= 1:
                continue
            self.claim_checks[seat] = (st.public_version, "checking", "")
            key = (st.seen_version(seat), seat)
            if key in self.hint_cache:
                self._claim_checked(seat, st.public_version, self.hint_cache[key])
            else:
                self._evaluate(seat)

    def _checking(self, seat: int, version: int) -> bool:
        got = self.claim_checks.get(seat)
        return got is not None and got[0] == version and got[1] == "checking"

    def _claim_checked(self, seat: int, version: int, hints: dict[str, Any] | None) -> None:
        """The hints for ``seat`` came (None: they failed): pass for it, or ask it."""
        if not self._checking(seat, version):
            return
        claim = hints.get("claim") if hints is not None else None
        if hints is None or hints.get("mahjongg") or claim is None or claim.get("helps"):
            self.claim_checks[seat] = (version, "ask", "")
        else:
            self.claim_checks[seat] = (version, "pass", str(claim.get("reason", "")))
        self._broadcast(only=seat)

    def claim_check(self, seat: int | None) -> dict[str, Any] | None:
        """For the seat's own state message: what "pass unless the claim helps" does
        with the discard on offer (None: nothing; the seat is asked as usual)."""
        if seat is None:
            return None
        got = self.claim_checks.get(seat)
        if got is None or got[0] != self.state.public_version:
            return None
        return {"result": got[1], "reason": got[2]}

    # ------------------------------------------------------------------ what pages see

    def players(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        return [{"seat": s.seat, "name": s.name, "kind": s.kind, "connected": s.connected > 0,
                 "bot_playing": not s.is_bot and s.away and (s.connected == 0 or s.idle),
                 "takeover_ms": self._takeover_ms(s), "turn_ms": self._turn_ms(s, now)}
                for s in self.seats]

    def _takeover_ms(self, s: LiveSeat) -> int | None:
        """For an absent person: the time left before the computer plays for them (the
        grace period), while it runs."""
        if s.is_bot or s.connected or s.away or self.waiting or self.state.over:
            return None
        left = self._grace_left(s)
        return int(left * 1000) if 0 < left < math.inf else None

    def _turn_ms(self, s: LiveSeat, now: float) -> int | None:
        """The time left on the seat's turn timer, while it runs."""
        clock = self.turn_clock.get(s.seat)
        if clock is None or clock[1] == math.inf or self.state.over:
            return None
        return max(0, int((clock[1] - now) * 1000))
