"""``twinrack play``: a full-screen game against bots (Textual).

The screen shows the opponents (how many tiles they conceal, their racks' exposures, Mah
Jonggs and dead marks), the discard pool (the latest discard, then every discard by tile and
by player), the player's racks with a cursor, a status line, a log and, on ``h`` (or from
the start with ``--hints``), hints; ``g`` puts the cursor on the discard they suggest. At
the end the score dialog saves the game's record (by itself with ``--record``, else on
``w``) and says where, so that ``twinrack replay --verify`` can check it; ``r`` reviews
the player's game with the master (:mod:`twinrack.tui.review`).

Every key turns into an engine action that is looked up in ``legal_actions`` before it is
applied; a key whose action is not legal changes nothing and the status line says why, in
the engine's words (``why_illegal``). Bots play their seats by themselves after a short,
configurable delay.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, RichLog, Static

from twinrack.bots.review import Review
from twinrack.card import Card
from twinrack.engine import (
    Action,
    Claim,
    Declare,
    Discard,
    Exchange,
    Expose,
    GameState,
    MahJongg,
    Move,
    Pass,
    RuleSet,
    Undeclare,
    Withdraw,
)
from twinrack.engine.events import Event, Granted, Picked
from twinrack.tiles import INDEX
from twinrack.tui import render, status
from twinrack.tui.arrangement import Arrangement
from twinrack.tui.charleston import CharlestonKeys, marked_line
from twinrack.tui.dialogs import ChoiceScreen, ConfirmScreen, HelpScreen, ScoreScreen
from twinrack.tui.ending import EndOfGame
from twinrack.tui.review import ReviewScreen
from twinrack.tui.table import TerminalTable


def load_hints() -> Callable[..., Any] | None:
    """``twinrack.bots.hints.hints`` when that module is installed (imported lazily)."""
    try:
        from twinrack.bots.hints import hints  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    fn: Callable[..., Any] = hints
    return fn


# ---------------------------------------------------------------------------- the table


class Board(CharlestonKeys, EndOfGame, Screen[None]):
    """The game table of one player against bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor('left')", "Left", show=False),
        Binding("right", "cursor('right')", "Right", show=False),
        Binding("up", "cursor('up')", "Up", show=False),
        Binding("down", "cursor('down')", "Down", show=False),
        Binding("shift+left", "slide(-1)", "Slide left", show=False),
        Binding("shift+right", "slide(1)", "Slide right", show=False),
        Binding("d", "discard", "Discard"),
        Binding("enter", "discard", "Discard", show=False),
        Binding("m", "move", "Move"),
        Binding("c", "claim_expose", "Claim", show=False),
        Binding("M", "claim_mahjongg", "Claim MJ", show=False),
        Binding("p", "pass_discard", "Pass", show=False),
        Binding("space", "pass_discard", "Pass", show=False),
        Binding("e", "expose", "Expose", show=False),
        Binding("x", "exchange", "Exchange"),
        Binding("j", "mahjongg", "Mah Jongg"),
        Binding("a", "declare", "Atomic", show=False),
        Binding("u", "undeclare", "Undeclare", show=False),
        Binding("s", "sort", "Sort"),
        Binding("t", "mark", "Mark to pass", show=False),
        Binding("b", "blind", "Blind pass", show=False),
        Binding("h", "hints", "Hints"),
        Binding("g", "suggested", "Suggested discard", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("n", "new_game", "New", show=False),
        Binding("r", "review", "Review my game"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, table: TerminalTable, *, delay: float = 0.4, call_time: float = 0.0,
                 auto_pass: bool = True, hints: bool = False,
                 record_dir: Path | None = None, card_path: str | None = None) -> None:
        super().__init__()
        self.table = table
        self.delay = delay
        self.call_time = call_time
        self.auto_pass = auto_pass
        self.record_dir = record_dir  # where records go (None: asked for with w, saved here)
        self.card_path = card_path  # the card file, for the replay command shown at the end
        self.saved: Path | None = None  # this game's record, once saved
        self.save_problem = ""
        self.names = table.names()
        hand = table.view().hand or ()
        self.arrangement = Arrangement(hand)
        self.message = Text()
        self.hints_on = hints
        self.hints_cache: tuple[int, dict[str, Any] | None, str] | None = None
        self.fresh: tuple[int, int] | None = None
        self.seen_turn = -1
        self.prompted: tuple[int, int] | None = None  # (version, turn) a dialog was opened for
        self.generation = 0  # bumped for a new game: stale bot timers do nothing
        self.bot_timer: Timer | None = None
        self.call_timer: Timer | None = None
        self.call_left = 0
        self.score_shown = False
        self.reviewed: Review | None = None  # this game's review, once made
        self.log_lines: list[str] = []  # everything written to the log (tests read it)
        self.clear_marks()

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="")
        with Horizontal(id="body"):
            with VerticalScroll(id="main"):
                yield Static(id="opponents")
                yield Static(id="discards")
                yield Static(id="hand")
            with Vertical(id="side"):
                yield Static(id="hints")
                yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#opponents").border_title = "Opponents"
        self.query_one("#discards").border_title = "Discard pool"
        self.query_one("#hand").border_title = "Your racks"
        self.query_one("#log").border_title = "Log"
        self.query_one("#hints").display = self.hints_on
        self.start(self.table)

    def start(self, table: TerminalTable) -> None:
        """Seat the player at a new table."""
        self.generation += 1
        self._stop_timers()
        self.table = table
        self.names = table.names()
        self.arrangement = Arrangement(table.view().hand or ())
        self.message = Text()
        self.hints_cache = None
        self.fresh = None
        self.seen_turn = -1
        self.prompted = None
        self.score_shown = False
        self.reviewed = None
        self.clear_marks()
        self.refresh_bindings()
        self.saved = None
        self.save_problem = ""
        app = self.app
        app.title = "TwinRack"
        app.sub_title = (f"{table.rules.variant.title()} · {table.rules.players} players · "
                         f"{table.rules.revision} rules · seed {table.seed} · "
                         f"bots: {table.bot_name}")
        self.query_one("#hand").border_title = (
            f"Your rack{'s' * (table.rules.racks > 1)} "
            f"({render.seat_words(table.seat, table.rules.players)})")
        log = self.query_one("#log", RichLog)
        log.clear()
        self.log_lines = []
        self._log(table.opening_events())
        self.advance()

    # ------------------------------------------------------------------ the flow of play

    def advance(self) -> None:
        """Let bots play until the player must act (or the game ends), then redraw."""
        t = self.table
        while not t.over:
            seat = t.bot_to_act()
            if seat is not None:
                if self.delay > 0 and t.in_turn():
                    self._follow()
                    self.redraw()
                    self.bot_timer = self.set_timer(
                        self.delay, partial(self._bot_tick, self.generation))
                    return
                declaring = t.declaring()
                _, events = t.bot_step()
                self._log(events, declaring)
                continue
            legal = t.legal()
            if legal == [Pass(t.seat)] and (t.declaring() or (t.in_window() and self.auto_pass)):
                declaring = t.declaring()
                self._log(t.play(legal[0]), declaring)
                continue
            break
        self._follow()
        self.redraw()
        if t.over:
            self.show_score()
        else:
            self.prompt()

    def _bot_tick(self, generation: int) -> None:
        if generation != self.generation or self.table.over:
            return
        self.bot_timer = None
        if self.table.bot_to_act() is None:
            self.advance()
            return
        declaring = self.table.declaring()
        _, events = self.table.bot_step()
        self._log(events, declaring)
        self.advance()

    def _stop_timers(self) -> None:
        for timer in (self.bot_timer, self.call_timer):
            if timer is not None:
                timer.stop()
        self.bot_timer = None
        self.call_timer = None

    def _follow(self, gone: tuple[int, int] | None = None) -> None:
        """Match the arrangement to the engine's racks; put the cursor on a new tile."""
        v = self.table.view()
        a = self.arrangement
        landed = a.follow(v.hand or (), gone)
        if v.phase == "turn" and v.current == self.table.seat and v.turn != self.seen_turn:
            self.seen_turn = v.turn
            if v.acquired is not None:
                spot = next(((r, i) for r, i in landed if a.racks[r][i] == v.acquired), None)
                if spot is not None:
                    a.rack, a.index = spot
                else:
                    a.go_to(v.acquired)
                self.fresh = (a.rack, a.index)

    def prompt(self) -> None:
        """The player must act: open the list a claimed discard requires, or time a call."""
        t = self.table
        v = t.view()
        if not t.player_to_act() or self.charleston_prompt():
            return
        if t.in_window() and self.call_time > 0 and self.call_timer is None:
            self.call_left = int(self.call_time)
            self.call_timer = self.set_interval(
                1.0, partial(self._call_tick, self.generation))
        key = (v.version, v.turn)
        if v.must is not None and self.prompted != key and self.app.screen is self:
            self.prompted = key
            if v.must == "expose":
                self.action_expose()
            elif v.must in status.MJ_KINDS:
                self.action_mahjongg()
            elif v.must == "error":
                self.choose_from(t.find(lambda a: isinstance(a, Expose | Withdraw)),
                                 "You claimed for Mah Jongg but have none: choose")

    def _call_tick(self, generation: int) -> None:
        if generation != self.generation or not self.table.in_window() \
                or not self.table.player_to_act():
            if self.call_timer is not None:
                self.call_timer.stop()
                self.call_timer = None
            return
        self.call_left -= 1
        if self.call_left <= 0:
            if self.call_timer is not None:
                self.call_timer.stop()
                self.call_timer = None
            if self.app.screen is not self:
                self.app.pop_screen()
            self.say("Time is up: you pass.")
            self.act(Pass(self.table.seat))
        else:
            self.redraw_status()

    def act(self, action: Action, gone: tuple[int, int] | None = None) -> bool:
        """Apply one of the player's actions if the engine lists it; else say why not."""
        t = self.table
        if t.over:
            self.say("The game is over: n for a new game, q to quit.")
            return False
        if not t.is_legal(action):
            self.say(f"Not now: {t.why(action)}.", style="bold red")
            return False
        if self.call_timer is not None:
            self.call_timer.stop()
            self.call_timer = None
        if isinstance(action, Move):
            self.arrangement.moved(action.src, action.dst)
        declaring = t.declaring()
        events = t.play(action)
        self.fresh = None
        self.message = Text()
        self._log(events, declaring)
        if isinstance(action, Declare | Undeclare):
            self.arrangement.follow(t.view().hand or ())
            self.arrangement.sort()  # the engine laid the racks out afresh
        self._follow(gone)
        self.advance()
        return True

    # ------------------------------------------------------------------ drawing

    def redraw(self) -> None:
        t = self.table
        v = t.view()
        self.query_one("#opponents", Static).update(render.opponents_text(v, self.names))
        self.query_one("#discards", Static).update(render.discards_text(v, self.names))
        a = self.arrangement
        cursor = (a.rack, a.index) if a.tile is not None else None
        hand = render.hand_text(v, a.racks, cursor, self.fresh, tuple(self.marked))
        if v.charleston is not None:
            hand = Text("\n").join([hand, marked_line(v, self.marked_tiles())])
        self.query_one("#hand", Static).update(hand)
        self.redraw_status()
        if self.hints_on:
            self.query_one("#hints", Static).update(self._hints_text())
        log = self.query_one("#log", RichLog)
        self.call_after_refresh(log.scroll_end, animate=False)

    def redraw_status(self) -> None:
        self.query_one("#status", Static).update(self.status_text())

    def status_text(self) -> Text:
        call_left = self.call_left if self.call_timer is not None else None
        return status.status_text(self.table, self.names, self.message, call_left,
                                  (len(self.marked), self.blind))

    def say(self, text: str, style: str = "yellow") -> None:
        self.message = Text(text, style=style)
        self.redraw_status()

    def _log(self, events: Sequence[Event], declaring: bool = False) -> None:
        log = self.query_one("#log", RichLog)
        for e in events:
            line = render.narrate(e, self.names, declaring=declaring)
            self.log_lines.append(line)
            mine = getattr(e, "seat", None) == self.table.seat
            style = "bold" if "MAH JONGG" in line or "DEAD" in line or "GAME OVER" in line \
                else ("cyan" if mine else "")
            log.write(Text(line, style=style))
            if isinstance(e, Picked | Granted) and getattr(e, "seat", None) == self.table.seat:
                self.message = Text()

    def _hints(self) -> tuple[dict[str, Any] | None, str]:
        """The hints for the player's view now (once per game version), or why there are
        none."""
        t = self.table
        v = t.view()
        if self.hints_cache is not None and self.hints_cache[0] == v.version:
            return self.hints_cache[1], self.hints_cache[2]
        fn = load_hints()
        found: dict[str, Any] | None = None
        note = ""
        if fn is None:
            note = "Hints need twinrack.bots.hints, which is not installed yet."
        else:
            try:
                found = fn(v, t.card, top=3).to_dict()
            except Exception as err:  # the hints must never take the game down
                note = f"No hints now: {err}"
        self.hints_cache = (v.version, found, note)
        return found, note

    def _hints_text(self) -> Text:
        found, note = self._hints()
        return render.hints_text(found, note, self.table.rules.players)

    # ------------------------------------------------------------------ choices

    def choose_from(self, actions: list[Action], title: str) -> None:
        """Show legal actions in a list, with what each would do; apply the one chosen
        (asking first when it would kill a rack)."""
        choices = self.table.choices(actions, self.names)

        def chosen(index: int | None) -> None:
            if index is None:
                self.say("Cancelled.", style="dim")
                return
            choice = choices[index]
            if not choice.kills:
                self.act(choice.action)
                return

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.act(choice.action)
                else:
                    self.say("Not exposed.", style="dim")
                    self.prompted = None

            racks = ", ".join(str(r + 1) for r in choice.kills)
            self.app.push_screen(ConfirmScreen(
                f"{choice.plain}\n\nThis exposure fits no line of the card: rack {racks} "
                "will be DEAD. Expose anyway?"), confirmed)

        self.app.push_screen(ChoiceScreen(title, [c.label for c in choices],
                                          warn=[bool(c.kills) for c in choices]), chosen)

    # ------------------------------------------------------------------ keys

    def action_cursor(self, where: str) -> None:
        a = self.arrangement
        {"left": a.left, "right": a.right, "up": a.up, "down": a.down}[where]()
        self.redraw()

    def action_slide(self, step: int) -> None:
        self.arrangement.shift(step)
        self.fresh = None
        self.redraw()

    def action_sort(self) -> None:
        self.arrangement.sort()
        self.fresh = None
        self.say("Racks sorted.", style="dim")
        self.redraw()

    def _cursor_tile(self) -> int | None:
        tile = self.arrangement.tile
        if tile is None:
            self.say("You hold no concealed tile.", style="bold red")
        return tile

    def action_discard(self) -> None:
        if self.in_charleston():
            if not self.charleston_prompt():
                self.pass_marked()
            return
        tile = self._cursor_tile()
        if tile is None:
            return
        a = self.arrangement
        self.act(Discard(self.table.seat, tile), gone=(a.rack, a.index))

    def action_move(self) -> None:
        tile = self._cursor_tile()
        if tile is None:
            return
        t = self.table
        src = self.arrangement.rack
        n = t.rules.racks
        legal = t.find(lambda x: isinstance(x, Move) and x.tile == tile and x.src == src)
        for k in range(1, n):
            action = Move(t.seat, tile, src, (src + k) % n)
            if action in legal:
                self.act(action)
                return
        self.act(Move(t.seat, tile, src, (src + 1) % n))  # refused: says why

    def action_claim_expose(self) -> None:
        self.act(Claim(self.table.seat, "expose"))

    def action_claim_mahjongg(self) -> None:
        t = self.table
        double = Claim(t.seat, "double")
        self.act(double if t.is_legal(double) else Claim(t.seat, "mahjongg"))

    def action_pass_discard(self) -> None:
        self.act(Pass(self.table.seat))

    def action_expose(self) -> None:
        t = self.table
        options = t.find(lambda a: isinstance(a, Expose | Withdraw))
        if options:
            self.choose_from(options, "Expose which group? (!! = kills a rack)")
            return
        tile = self.arrangement.tile
        self.act(Expose(t.seat, self.arrangement.rack, (tile if tile is not None else 0,) * 3))

    def action_exchange(self) -> None:
        t = self.table
        options = t.find(lambda a: isinstance(a, Exchange))
        if options:
            self.choose_from(options, "Exchange which Joker?")
            return
        v = t.view()
        for seat in v.seats:
            for r, rack in enumerate(seat.racks):
                for i, x in enumerate(rack.exposures):
                    if x.jokers:
                        self.act(Exchange(t.seat, x.tile, seat.seat, r, i))
                        return
        self.act(Exchange(t.seat, self.arrangement.tile or 0, t.seat, 0, 0))

    def action_mahjongg(self) -> None:
        t = self.table
        options = t.find(lambda a: isinstance(a, MahJongg | Withdraw))
        if options:
            self.choose_from(options, "Declare Mah Jongg: which rack and tiles?")
            return
        a = self.arrangement
        self.act(MahJongg(t.seat, a.rack, tuple(sorted(a.racks[a.rack]))))

    def action_declare(self) -> None:
        t = self.table
        options = t.find(lambda a: isinstance(a, Declare))
        if options:
            self.choose_from(options, "Declare which Atomic-style hand?")
            return
        hand = next((h.id for h in t.card.hands if h.declared), "?")
        tiles = tuple(sorted(self.arrangement.racks[0]))[:13]
        self.act(Declare(t.seat, hand, tiles))

    def action_undeclare(self) -> None:
        t = self.table
        action = Undeclare(t.seat)
        if not t.is_legal(action):
            self.act(action)
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.act(action)

        self.app.push_screen(ConfirmScreen("Go off your declared hand for good?"), confirmed)

    def action_hints(self) -> None:
        self.hints_on = not self.hints_on
        panel = self.query_one("#hints", Static)
        panel.display = self.hints_on
        if self.hints_on:
            panel.update(self._hints_text())

    def action_suggested(self) -> None:
        """Put the cursor on the discard the hints suggest (d then discards it)."""
        found, note = self._hints()
        d = (found or {}).get("discard")
        tile = INDEX.get(str(d.get("tile"))) if d else None
        if d is None or tile is None:
            self.say(note or "No discard to suggest now.", style="dim")
            return
        if not self.arrangement.go_to(tile):
            self.say(f"The suggested discard {d['tile']} is not among your concealed tiles.")
            return
        self.fresh = None
        reason = f" ({d['reason']})" if d.get("reason") else ""
        self.say(f"Suggested discard: {d['tile']}{reason}: d discards it.", style="bold")
        self.redraw()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_new_game(self) -> None:
        play = self.app
        assert isinstance(play, PlayApp)
        if self.table.over:
            play.new_game()
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                play.new_game()

        self.app.push_screen(ConfirmScreen("Abandon this game and deal a new one?"), confirmed)

    def action_quit_game(self) -> None:
        if self.table.over:
            self.app.exit()
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(ConfirmScreen("Quit this game?"), confirmed)

    # ------------------------------------------------------------------ the end

    def show_score(self) -> None:
        if self.score_shown:
            return
        self.score_shown = True
        self._stop_timers()
        if self.record_dir is not None:
            self.save_record()
        self.refresh_bindings()  # r (review) shows in the footer
        self.say("Game over: n new game · r review your game · q quit.", style="bold")

        def done(what: str | None) -> None:
            play = self.app
            if what == "new" and isinstance(play, PlayApp):
                play.new_game()
            elif what == "quit":
                self.app.exit()

        self.app.push_screen(ScoreScreen(self.score_text(), self.save_record,
                                         self.action_review), done)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``r`` (the review) is offered, in the footer too, once the game is over."""
        return self.table.over if action == "review" else True

    def action_review(self) -> None:
        """Review the player's game with the master (made once a game, then kept)."""
        generation = self.generation

        def keep(found: Review) -> None:
            if generation == self.generation:
                self.reviewed = found

        if self.table.over:
            self.app.push_screen(ReviewScreen.of_game(self.table.state, self.table.seat,
                                                      self.reviewed, keep))


# ---------------------------------------------------------------------------- the app


class PlayApp(App[None]):
    """``twinrack play``: one player (seat 0) against bots."""

    ENABLE_COMMAND_PALETTE = False

    CSS = """
    #body { height: 1fr; }
    #main { width: 1fr; }
    #side { width: 34%; min-width: 28; max-width: 50; }
    #opponents, #discards, #hand { height: auto; border: round $primary-darken-2;
                                   padding: 0 1; }
    #hand { border: round $success; }
    #hints { height: auto; max-height: 60%; border: round $warning; padding: 0 1; }
    #log { height: 1fr; border: round $primary-darken-2; }
    #status { height: 2; padding: 0 1; background: $panel; }
    ConfirmScreen, HelpScreen, ScoreScreen, ReviewScreen { align: center middle; }
    ChoiceScreen { align: center bottom; }
    #dialog { width: 90%; max-width: 100; height: auto; max-height: 90%;
              border: thick $accent; background: $surface; padding: 0 1; }
    #choices { height: auto; max-height: 20; }
    """

    def __init__(self, rules: RuleSet | None = None, *, seed: int | None = None,
                 card: Card | None = None, bot: str | None = None, delay: float = 0.4,
                 call_time: float = 0.0, auto_pass: bool = True,
                 bots: dict[int, Any] | None = None, stack: Sequence[int] | None = None,
                 state: GameState | None = None, hints: bool = False,
                 record_dir: Path | None = None, card_path: str | None = None) -> None:
        super().__init__()
        if state is not None:
            rules, card = state.rules, state.card
        self.rules = rules or RuleSet()
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        self.card = card
        self.bot = bot
        self.delay = delay
        self.call_time = call_time
        self.auto_pass = auto_pass
        self.table = TerminalTable(self.rules, seed=self.seed, card=card, bot=bot,
                                   bots=bots, stack=stack, state=state)
        self.board = Board(self.table, delay=delay, call_time=call_time, auto_pass=auto_pass,
                           hints=hints, record_dir=record_dir, card_path=card_path)

    def get_default_screen(self) -> Screen[Any]:
        return self.board

    def new_game(self) -> None:
        """Deal the next game: the next seed, the same rules and bots."""
        while self.screen is not self.board:
            self.pop_screen()
        self.seed = self.table.seed + 1
        self.table = TerminalTable(self.rules, seed=self.seed, card=self.card, bot=self.bot)
        self.board.start(self.table)
