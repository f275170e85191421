"""The referee: turns events from the table into game actions, menus and screens.

It is the daemon's :class:`~firmware_host.loop.Controller`. Every game action goes through
:meth:`firmware_host.journal.Journal.apply`, which checks it against the rules and commits it
before returning, so the next frame never shows an action a power cut could take back. A
refused action (an illegal move, dice of the wrong count, a board change that breaks the
rules) leaves the game as it was and puts the reason on the screen; nothing a player does
raises out of :meth:`Referee.handle`.

The referee wires owners of their own, each a module beside this one: the pages over the
game (:mod:`.page_stack`), the game as the table plays it (:mod:`.tables`, one per game
name), the timers (:mod:`.timers`), the evening's settings (:mod:`.settings`), the board
watch, the one owner of failing sensors (:mod:`.board_watch`), the game choice and a game
night's next round (:mod:`.between`), and the frames drawn (:mod:`.frames`). Whatever moves
on by itself answers the same question, when it is due, so a tick is one loop over them.

Controls, whatever hardware gives them:

- In a game: UP/DOWN (or the knob) move the cursor over the legal moves, SELECT plays the
  highlighted one; in the dice phase SELECT types in physical dice instead. While a refusal
  or notice is shown, the first press (BACK too) only closes it. BACK opens the game menu;
  so does a long press on ROLL unless the config's ``long_press`` says undo, dice or moves. The
  ROLL button throws as many dice as are due; in Dalmatian the hold buttons keep dice and
  ROLL throws the others (a reroll).
- In a menu: UP/DOWN move, SELECT chooses, BACK leaves.
- Board sensors (Sequence Dice on a grid, Centennial on the 12-box track) play the move the
  players make by hand; while the board and the game disagree the screen lists what to fix.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from PIL import Image

from firmware_host import next_round
from firmware_host.config import Config
from firmware_host.errors import UsageError
from firmware_host.journal import Journal, JournalError
from firmware_host.journal.errors import BUSY, Failure
from firmware_host.menu import DiceEntry, Menu, confirm
from firmware_host.next_round import NextRound
from firmware_host.players import Player, read_roster, roster_beside
from firmware_host.referee.between import Between
from firmware_host.referee.board_watch import CLEARS, BoardWatch
from firmware_host.referee.frames import Frames
from firmware_host.referee.game_menu import (
    game_menu,
    long_press,
    standings_notice,
    why_no_undo,
)
from firmware_host.referee.later_log import LaterLog
from firmware_host.referee.new_game import NewGame
from firmware_host.referee.page_stack import Page, PageStack
from firmware_host.referee.parts import (
    DiceRoller,
    Occupancy,
    Parts,
    Recognise,
    Renderer,
    Restless,
    Sounder,
)
from firmware_host.referee.settings import Setting, Settings
from firmware_host.referee.tables import GameTable, table_for
from firmware_host.referee.timers import Timers
from firmware_host.views import NoticeView, View, game_over_notice
from games import game_class
from games.core import GameState, Phase, Roll
from games.errors import GameError
from games.words import count
from hardware.board.matrix import cell_name
from hardware.events import (
    CellChanged,
    CellFault,
    Control,
    ControlHeld,
    ControlPressed,
    ControlTurned,
    DeviceStatus,
    DiceRolled,
    Event,
    describe,
)
from hardware.sound.buzzer import SOUNDS

log = logging.getLogger(__name__)

HOLDS = (Control.HOLD1, Control.HOLD2, Control.HOLD3, Control.HOLD4, Control.HOLD5)


class Referee:
    """Referees one game at a time and keeps the menus; see the module docstring.

    ``game`` is the game the journal resumed (None: the new-game menu opens); the other
    keywords are the table's :class:`~firmware_host.referee.parts.Parts`, and ``render`` draws a
    view (the screens' own, unless a test gives another)."""

    def __init__(self, config: Config, journal: Journal, *, game: GameState[Any] | None = None,
                 roller: DiceRoller | None = None, recognise: Recognise | None = None,
                 board: Occupancy | None = None, shutdown: Callable[[], None] | None = None,
                 render: Renderer | None = None, sound: Sounder | None = None,
                 label: Callable[[int, int], str] = cell_name,
                 restless: Restless | None = None) -> None:
        if render is None:
            from firmware_host.screens import render as draw_screen
            render = draw_screen
        self.config = config
        self.journal = journal
        self.parts = Parts(roller, sound, recognise, board, shutdown or Parts.shutdown, label,
                           restless)
        self.frames = Frames(render)
        self.settings = Settings.of(config).kept(journal.table_settings())
        self.table: GameTable | None = None
        self.pages = PageStack()
        self.watch = BoardWatch(self)  # failing sensors, and the moves the board made
        self._later = LaterLog(log)  # INFO lines, written once the frame is out
        seat = NextRound(next_round.beside(journal.path))  # a game night's next round
        self.between = Between(self, seat, NewGame(
            config, self.open, self.pages.close, self._start, journal.recent_players,
            partial(read_roster, roster_beside(journal.path)), lambda: seat.seat))
        self.timers = Timers(self._highlighted, self._scroll_on, self._shown,
                             lambda: self.pages.turning, self._written)
        timers = self.timers  # moved on in this order at each tick
        timers.owners = (timers.scroll, timers.tumble, timers.unwritten, timers.pager,
                         self.between, timers.turns, self.watch)
        if game is None:
            self.open_game_choice()
        else:
            self._attach(game)
            self.say(f"resumed after {count(len(game.history), 'move')}")
        self._tell_roller()

    @property
    def game(self) -> GameState[Any] | None:
        return self.table.game if self.table is not None else None

    @property
    def has_sound(self) -> bool:
        """Whether the table has a buzzer to turn on and off."""
        return self.parts.sounder is not None

    # -- the Controller interface -----------------------------------------------------------

    def handle(self, event: Event) -> None:
        if log.isEnabledFor(logging.DEBUG):  # describing costs, on the way to the commit
            log.debug("%s", describe(event))
        try:
            self._dispatch(event)
        except (GameError, UsageError) as err:
            self._refuse(str(err))
        except Exception as err:  # a bug must not stop the evening: log it, keep the game
            log.exception("while handling %s", event)
            self.say(f"internal error ({type(err).__name__}), logged; no accepted move is lost")
        self._tell_roller()
        self.frames.changed = True
        self.timers.scroll.line_changed()

    def tick(self, now: float) -> float | None:
        """Move every owner of what moves on by itself on, in turn (a tumbling roll's next
        face, a long line's scroll, the next round's seat, a sensor suspected of missing its
        piece: :attr:`Timers.owners <firmware_host.referee.timers.Timers.owners>`); return
        when the next of them is due (None: nothing moves on by itself). The loop ticks once
        the frame after an event is shown: the moment to write the event's log lines and for
        the table's own pause work."""
        self._later.write()
        if self.table is not None:
            self.table.pause(self.settings)
        self.frames.changed |= self.timers.on(now)
        return self.timers.due()

    def frame(self) -> Image.Image | None:
        """The new screen, or None when nothing changed since the last."""
        return self.frames.frame(self.view)

    def view(self) -> View:
        """What the screen shows now."""
        over_the_game = self.pages.view(self.timers.turns.page_of(self.pages.turning))
        if over_the_game is not None:
            return over_the_game
        assert self.table is not None  # with no game the new-game menu cannot be closed
        table, tumble = self.table, self.timers.tumble
        page = self.timers.pager.page_of(table.shown_message())
        return table.view(self.settings, tumble.rolling, page,
                          tumble.thrower if tumble.busy else None)

    def _scroll_on(self) -> None:
        """The highlighted line moves on a character: a page's, or the game's."""
        if self.pages:
            self.pages.scroll_on()
        elif self.table is not None:
            self.table.scroll += 1

    def _shown(self) -> str | None:
        """The message shown on the game (none under a page), to page."""
        return self.table.shown_message() if self.table is not None and not self.pages else None

    def _written(self, game: object, actions: tuple[Any, ...], source: str | None) -> bool:
        """``actions`` kept from the journal by another program's lock, written once it let
        go, if their game is still the one played; whether they were."""
        if actions and game is self.game and self.play(*actions, source=source):
            self.say(f"the journal is free again: {_listed(actions)} written")
            return True
        return False

    def _highlighted(self) -> str | None:
        """The highlighted line on screen now, if there is one that could scroll."""
        if self.pages.notice is not None or self.pages:
            return self.pages.highlighted()
        if self.table is None or self.timers.tumble.rolling:
            return None
        return self.table.highlighted_line()

    # -- events -------------------------------------------------------------------------

    def _dispatch(self, event: Event) -> None:
        match event:
            case ControlPressed(control=control):
                self._press(control)
            case ControlHeld(control=Control.ROLL):
                if self.table is not None and not self.pages:
                    long_press(self, self.config.long_press)
                elif self.pages.top is not None and not self.pages.top.closable:
                    self.open(game_menu(self))
            case ControlHeld(control=control):
                self._press(control)
            case ControlTurned(steps=steps):
                self._press(Control.DOWN if steps > 0 else Control.UP, abs(steps))
            case DiceRolled(dice=dice, source=source):
                self._dice(dice, source)
            case CellChanged():
                self.watch.changed(event)
            case CellFault(row=row, col=col, reason=reason, chattering=chattering):
                self.watch.fault((row, col), reason, chattering=chattering)
            case DeviceStatus(message=message):
                log.info("%s", message)
                self.say(message)

    def _press(self, control: Control, steps: int = 1) -> None:
        if self.pages.press(control, steps, lambda: self.open(game_menu(self))):
            return
        table = self.table
        assert table is not None
        if self.watch.press(control):
            return
        if control is Control.BACK and table.message is None and table.told is not None:
            table.told = None  # BACK on what a throw did closes it, as on any message
            return
        if table.message is not None and control in CLEARS:
            table.message = None  # the notice covers the choices, and what is told under
            return  # it (an offer's words): the first press clears it alone
        table.told = None  # what the last throw did is read: this press is not spent on it
        if control in (Control.UP, Control.DOWN):
            table.move(steps if control is Control.DOWN else -steps)
        elif control is Control.BACK:
            self.open(game_menu(self))
        elif control is Control.SELECT and table.fixes and self.watch.unmade.suspected:
            self.watch.play_on()
        elif control is Control.SELECT:
            if table.game.is_over:
                self.open_game_choice()
            elif table.game.phase is Phase.ROLL:
                self.open_dice_entry()
            elif (choice := table.highlighted()) is not None:
                table.choose(choice, self.play)
        elif control in HOLDS:
            table.hold(HOLDS.index(control))

    def _dice(self, dice: tuple[int, ...], source: str) -> None:
        faces = "-".join(map(str, dice))
        if self.table is not None and isinstance(self.pages.top, DiceEntry):
            self.pages.clear()  # thrown while they were being typed in: the throw stands
        if self.table is None or self.pages:
            self.say(f"dice {faces} ignored: close the menu first")
            return
        self._later.info("dice %s from %s", faces, source)
        self.timers.tumble.land()
        table = self.table
        before = table.before_throw()
        landed = table.throw(dice, partial(self.play, source=source))
        if landed is None:
            return
        table.told = table.throw_notice(before, dice) or table.hint()
        roller = self.parts.roller
        if source == "button" and roller is not None:
            self.timers.tumble.throw(*landed, dice, roller.tumble, before.thrower)

    # -- playing ------------------------------------------------------------------------

    def play(self, *actions: Any, source: str | None = None) -> bool:
        """Apply ``actions`` (all or none) and commit them, a throw among them noted as from
        ``source``. On refusal, or a write that failed (the journal then took them back),
        the reason goes on the screen."""
        assert self.table is not None
        game = self.table.game
        waiting = self.timers.unwritten.actions
        if waiting:
            self._refuse(f"{BUSY}: {_listed(waiting)} waits to be written first")
            return False
        try:
            played = self.journal.apply(game, *actions, source=source)
        except (GameError, UsageError) as err:
            if isinstance(err, JournalError):  # a write that failed, not a refusal
                log.error("%s", err)
                if err.failure is Failure.BUSY:
                    self._wait_for_the_lock(actions, source)
                    return False
            self._refuse(str(err))
            return False
        self._later.info("%s: %s", game.TITLE, ", ".join(map(str, played)))
        self.watch.moved()  # the question about a cell is withdrawn
        self.table.played(actions)
        self.sound("game over" if game.is_over else "accepted")
        night, game_id = self.config.night, self.journal.game_id
        if game.is_over and night is not None and game_id is not None:
            self.pages.notice = game_over_notice(game, night.game_url(game_id))
        return True

    def _wait_for_the_lock(self, actions: tuple[Any, ...], source: str | None) -> None:
        """Another program holds the journal: ``actions`` are written once it lets go
        (a thread waits for that), and nothing else is played before them."""
        assert self.table is not None
        game = self.table.game  # kept on disk too, till written: a power cut names them
        self.timers.unwritten.hold(game, actions, source, self.journal.hold(game, actions, source))
        self.table.fixes = ()  # the board shows the move that waits to be written
        self.say(f"{BUSY}: {_listed(actions)} will be written once it is closed")
        self.sound("refused")

    def _attach(self, game: GameState[Any]) -> None:
        recognise = self.parts.recognise
        self.table = table_for(game, recognise(game) if recognise is not None else None)
        self.timers.tumble.land()  # a throw still tumbling belongs to the game it was made in
        self.watch.attach(game)

    def say(self, text: str) -> None:
        if not self.pages.say(text) and self.table is not None:
            self.table.message = text

    def _refuse(self, text: str) -> None:
        """A refused action: the reason on the screen, a low double buzz."""
        self.say(text)
        self.sound("refused")

    def sound(self, name: str) -> None:
        """Play one of :data:`hardware.sound.buzzer.SOUNDS` if there is a buzzer and the
        table has not turned the sound off."""
        if self.parts.sounder is not None and self.settings.sound:
            self.parts.sounder.play(SOUNDS[name])

    def _tell_roller(self) -> None:
        due = self.table.dice_to_throw() if self.table is not None else 0
        if self.parts.roller is not None and due:
            self.parts.roller.count = due

    # -- what the menus do --------------------------------------------------------------

    def open(self, page: Page) -> None:
        self.pages.open(page)

    def close(self, page: Menu) -> None:
        self.pages.close(page)

    def open_game_choice(self) -> None:
        self.between.open_game_choice()

    def _start(self, name: str, players: tuple[Player, ...], values: Mapping[str, Any]) -> None:
        cls = game_class(name)
        game = cls.new(len(players), [p.name for p in players], **values)
        self.journal.start(game, [p.id for p in players])
        self.journal.keep_settings(self.settings.to_json())
        self.pages.clear()
        self.watch.by_board.clear()
        self._attach(game)
        log.info("started %s for %s", cls.TITLE, ", ".join(game.setup.names))

    def toggle(self, name: Setting) -> None:
        """Turn setting ``name`` the other way, and keep it with the game."""
        self.settings = self.settings.toggled(name)
        self.journal.keep_settings(self.settings.to_json())

    def ask(self, question: str, then: Callable[[], None]) -> None:
        question_menu = confirm(question, then, lambda: self.pages.close(question_menu))
        self.open(question_menu)

    def ask_undo(self) -> None:
        reason = why_no_undo(self.game)
        if reason is not None:
            self.say(reason)
        else:
            assert self.game is not None
            self.ask(f"Undo {as_shown(self.game.history[-1])}?", self._undo)

    def shut_down(self) -> None:
        """Leave a last screen that tells the table it may pull the plug, then stop."""
        self.pages.clear()
        self.pages.notice = NoticeView("Stopped", ("Every move is saved.", "Safe to unplug."))
        self.parts.shutdown()

    def open_dice_entry(self) -> None:
        assert self.game is not None
        self.open(DiceEntry(self.game.dice_wanted, self._typed_dice))

    def _typed_dice(self, dice: tuple[int, ...]) -> None:
        self.pages.pop()
        self._dice(dice, "manual")

    def _undo(self) -> None:
        game = self.game
        assert game is not None
        undone = self.journal.undo(game)
        self.watch.by_board.clear()
        self.pages.clear()  # back to the game, whichever way the question came
        self._attach(game)
        self.say(f"took back {undone}")

    def abandon(self) -> None:
        self.journal.abandon()
        self.table = None
        self.pages.clear()
        self.open_game_choice()

    def show_standings(self) -> None:
        self.pages.notice = standings_notice(self.journal, self.config.night)


def _listed(actions: tuple[Any, ...]) -> str:
    return ", ".join(map(str, actions))


def as_shown(action: object) -> str:
    """An action as the screen showed it: a throw's dice in order, as they lie on the screen
    (``roll 2-5-6`` for a throw of 5, 2 and 6), anything else in the game's notation."""
    if isinstance(action, Roll):
        return str(Roll(tuple(sorted(action.dice))))
    return str(action)
