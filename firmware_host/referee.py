"""The referee: turns events from the table into game actions, menus and screens.

It is the daemon's :class:`~firmware_host.loop.Controller`. Every game action goes through
:meth:`firmware_host.journal.Journal.apply`, which checks it against the rules and commits it
before returning, so the next frame never shows an action a power cut could take back. A
refused action (an illegal move, dice of the wrong count, a board change that breaks the
rules) leaves the game as it was and puts the reason on the screen; nothing a player does
raises out of :meth:`Referee.handle`.

Controls, whatever hardware gives them:

- In a game: UP/DOWN (or the knob) move the cursor over the legal moves, SELECT plays the
  highlighted one; in the dice phase SELECT types in physical dice instead. While a refusal
  or notice is shown, the first press only clears it. BACK opens the game menu; so does a
  long press on ROLL unless the config's ``long_press`` makes it undo or type in dice. The
  ROLL button throws as many dice as are due; in Dalmatian the hold buttons keep dice and
  ROLL throws the others (a reroll).
- In a menu: UP/DOWN move, SELECT chooses, BACK leaves.
- Board sensors (Sequence Dice on a grid, Centennial on the 12-box track) play the move the
  players make by hand; while the board and the game disagree the screen lists what to fix.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from PIL import Image

from firmware_host.config import Config
from firmware_host.dice_layout import DiceLayout, replaced
from firmware_host.errors import UsageError
from firmware_host.journal import Journal, JournalError, standings
from firmware_host.menu import DiceEntry, Entry, Menu, confirm, entry
from firmware_host.views import BoardFixView, GameView, NoticeView, View
from games import REGISTRY, game_class
from games.core import GameState, Option, Phase, Roll
from games.dalmatian import Dalmatian
from games.dice_multisets import HAND_SIZE
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
from hardware.sound.buzzer import SOUNDS, Note

log = logging.getLogger(__name__)

NO_PIECE_S = 20.0  # a piece the game expects, unseen this long: a magnet or switch at fault
TUMBLE_FRAME_S = 0.06  # eight faces in about half a second: a roll, not a wait
SCROLL_S = 0.3  # a long menu line moves a character this often: read, not chased
ROW_CHARS = 16  # a menu line longer than this may not fit its row: it may need to scroll
HOLDS = (Control.HOLD1, Control.HOLD2, Control.HOLD3, Control.HOLD4, Control.HOLD5)
Renderer = Callable[[View], Image.Image]
Occupancy = Callable[[], frozenset[tuple[int, int]]]


class DiceRoller(Protocol):
    """The part of :class:`hardware.controls.dice_button.DiceButton` the referee uses: the dice per
    throw it sets, and the faces of the roll animation."""

    count: int

    def tumble(self, final: tuple[int, ...]) -> tuple[tuple[int, ...], ...]: ...


class Sounder(Protocol):
    """The part of :class:`hardware.sound.buzzer.Buzzer` the referee uses."""

    def play(self, notes: Sequence[Note]) -> None: ...


class Sensed(Protocol):
    """What a recogniser reports: :class:`firmware_host.sensing.Outcome`."""

    @property
    def action(self) -> str | None: ...

    @property
    def fixes(self) -> tuple[str, ...]: ...

    @property
    def message(self) -> str | None: ...


class Recogniser(Protocol):
    """What :mod:`firmware_host.sensing` provides for a sensed game."""

    def reset(self, game: Any, occupied: frozenset[tuple[int, int]]) -> Sensed: ...

    def changed(self, game: Any, event: CellChanged) -> Sensed: ...

    def review(self, game: Any) -> Sensed: ...

    def missing(self, game: Any) -> frozenset[tuple[int, int]]: ...


Recognise = Callable[[GameState[Any]], Recogniser | None]


Page = Menu | DiceEntry


class Referee:
    """Referees one game at a time and keeps the menus; see the module docstring.

    ``game`` is the game the journal resumed (None: the new-game menu opens). ``roller`` is
    told how many dice to throw. ``recognise`` gives the board sensors' recogniser for a
    game (None: that game is played with the controls) and ``board`` reads which cells hold
    a piece now, for the check when a game starts or resumes. ``shutdown`` is what the
    menu's "Shut down" runs. ``label`` names a sensor's cell in messages and the log ("B3",
    or "box 7" on a track: the pin map's ``matrix.label``).
    """

    def __init__(self, config: Config, journal: Journal, *, game: GameState[Any] | None = None,
                 roller: DiceRoller | None = None, recognise: Recognise | None = None,
                 board: Occupancy | None = None, shutdown: Callable[[], None] | None = None,
                 render: Renderer | None = None, sound: Sounder | None = None,
                 label: Callable[[int, int], str] = cell_name) -> None:
        if render is None:
            from firmware_host.screens import render as draw_screen
            render = draw_screen
        self.config = config
        self.journal = journal
        self.roller = roller
        self.recognise = recognise
        self.board = board
        self.shutdown = shutdown or (lambda: None)
        self.render = render
        self.sounder = sound
        self.label = label
        self._unseen: dict[tuple[int, int], float | None] = {}  # since when; None: told
        self.hint = config.hint
        self.sound = config.sound == "on"
        self.game: GameState[Any] | None = None
        self.recogniser: Recogniser | None = None
        self.pages: list[Page] = []
        self.notice: NoticeView | None = None
        self.fixes: tuple[str, ...] = ()
        self.message: str | None = None
        self.cursor = 0
        self.scroll = 0  # ticks the highlighted choice has been shown (a long one scrolls)
        self.held: set[int] = set()  # Dalmatian: the places (0-4) the hold buttons keep
        self.layout = DiceLayout()  # Dalmatian: the dice in the places the players see
        self.rolling: tuple[int, ...] | None = None  # the faces shown while dice tumble
        self._tumble: list[tuple[int, ...]] = []  # the animation frames still to show
        # a button's throw whose tumble is still to draw: the row before it, the places the
        # dice land in, the faces; drawn at the tick after the throw's frame, which needs
        # none of it and waits on the journal's commit meanwhile
        self._thrown: tuple[tuple[int, ...], Sequence[int], tuple[int, ...]] | None = None
        self._next_tumble: float | None = None
        self._next_scroll: float | None = None  # when a long menu line moves on
        self._long_line = False  # the highlighted line may need to scroll (found per event)
        self._line_unknown = False  # an event came: find _long_line with the next frame
        self._dirty = True  # the screen has changed since the last frame
        self._notes: list[tuple[str, tuple[object, ...]]] = []  # log lines for the pause
        self._kept_choices: tuple[_Position, list[tuple[str, Callable[[], object]]]] | None = None
        if game is None:
            self.pages.append(self._new_game_menu())
        else:
            self._attach(game)
            self.message = f"resumed after {count(len(game.history), 'move')}"
        self._tell_roller()

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
            self._say(f"internal error ({type(err).__name__}), logged; no accepted move is lost")
        self._tell_roller()
        self._dirty = True
        self._line_unknown = True  # found by the frame

    def tick(self, now: float) -> float | None:
        """Show the next face of a tumbling roll, or scroll a long menu line, when due;
        return when the next of them is due (None: nothing moves on by itself).

        The loop ticks once the frame after an event is shown, before it waits for the next:
        the moment to write the event's log lines (see :meth:`_note`), and to build
        Dalmatian's advisor tables for a starting total just shown (6-14 ms here the first
        time), so the first hint of the round does not wait."""
        for message, args in self._notes:
            log.info(message, *args)
        self._notes.clear()
        if self.hint and isinstance(self.game, Dalmatian):
            self.game.prepare_advice()
        self._scroll_menu(now)
        dues = (self._tumble_on(now), self._next_scroll, self._check_unseen(now))
        return min((due for due in dues if due is not None), default=None)

    def _note(self, message: str, *args: object) -> None:
        """Log an INFO line once the frame is out (at :meth:`tick`): under systemd a line is
        a write to the journal's socket, which the move's frame need not wait for. Warnings
        and errors are logged at once."""
        if log.isEnabledFor(logging.INFO):
            self._notes.append((message, args))

    def _check_unseen(self, now: float) -> float | None:
        """Say once when a piece the game expects has not been sensed for NO_PIECE_S: the
        players put it there, so its magnet or its switch is at fault. When to look next."""
        missing = (self.recogniser.missing(self.game)
                   if self.recogniser is not None and self.game is not None else frozenset())
        self._unseen = {square: self._unseen.get(square, now) for square in missing}
        for square, since in self._unseen.items():
            if since is not None and now >= since + NO_PIECE_S:
                self._unseen[square] = None
                text = f"no piece sensed on {self.label(*square)}: check the magnet or the switch"
                log.warning("%s", text)
                self._say(text)
                self._dirty = True
        return min((since + NO_PIECE_S for since in self._unseen.values() if since is not None),
                   default=None)

    def _tumble_on(self, now: float) -> float | None:
        """The next face of a tumbling roll when due; when the one after is due."""
        if self._thrown is not None:  # the faces are drawn now, the throw's frame being out
            row, places, dice = self._thrown
            self._thrown = None
            assert self.roller is not None
            self._tumble = [replaced(row, places, faces) if places else faces
                            for faces in self.roller.tumble(dice)]
        if self.rolling is None and not self._tumble:
            return None
        if self._next_tumble is not None and now < self._next_tumble:
            return self._next_tumble
        self.rolling = self._tumble.pop(0) if self._tumble else None
        self._next_tumble = now + TUMBLE_FRAME_S
        self._dirty = True
        return self._next_tumble

    def _scroll_menu(self, now: float) -> None:
        """Move a highlighted line too long for its row (a menu entry, a game's choice) on
        by a character. Whether it is too long is found once an event, not every tick."""
        if not self._line_is_long():
            self._next_scroll = None
            return
        if self._next_scroll is None:
            self._next_scroll = now + SCROLL_S
        elif now >= self._next_scroll:
            page = self.pages[-1] if self.pages else None
            if isinstance(page, Menu):
                page.scroll += 1
            else:
                self.scroll += 1
            self._next_scroll = now + SCROLL_S
            self._dirty = True

    def _line_is_long(self) -> bool:
        """Whether the highlighted line is too long for its row, found once an event."""
        if self._line_unknown:
            self._line_unknown = False
            self._long_line = len(self._highlighted() or "") > ROW_CHARS
        return self._long_line

    def _highlighted(self) -> str | None:
        """The highlighted line on screen now, if there is one that could scroll."""
        if self.notice is not None:
            return None
        if self.pages:
            page = self.pages[-1]
            return page.highlighted() if isinstance(page, Menu) and not page.message else None
        if self.game is None or self.message is not None or self.fixes or self.rolling:
            return None
        choices = self.choices()
        return choices[min(self.cursor, len(choices) - 1)] if choices else None

    def frame(self) -> Image.Image | None:
        """The new screen, or None when nothing changed since the last."""
        if not self._dirty:
            return None
        self._dirty = False
        self._line_is_long()
        return self.render(self.view())

    def view(self) -> View:
        """What the screen shows now."""
        if self.notice is not None:
            return self.notice
        if self.pages:
            return self.pages[-1].view()
        assert self.game is not None  # with no game the new-game menu cannot be closed
        if self.fixes:
            return BoardFixView(self.game.TITLE, self.fixes)
        return GameView(self.game, self.choices(), self.cursor, self.message, self.hint,
                        rolling=self.rolling, held=frozenset(self.held),
                        layout=self._laid_out().shown(), scroll=self.scroll)

    def choices(self) -> tuple[str, ...]:
        """The legal actions as the list shows them (a Dalmatian reroll names its places)."""
        return tuple(label for label, _ in self._choices())

    def _choices(self) -> list[tuple[str, Callable[[], object]]]:
        """Each choice's label and what SELECT on it does.

        Kept for the position they were found in: the frame finds them while the journal
        commits, and the press that picks one needs them again on its way to the next
        commit (a Dalmatian list of rerolls takes 0.1 ms to make inside a night)."""
        game = self.game
        if game is None:
            return []
        position = _Position(game, self._laid_out())
        kept = self._kept_choices
        if kept is not None and kept[0] == position:
            return kept[1]
        choices: list[tuple[str, Callable[[], object]]]
        if not (isinstance(game, Dalmatian) and game.phase is Phase.MOVE):
            choices = [(str(a), partial(self._play, a)) for a in game.legal_actions()]
        else:
            choices = [(label, partial(self._reroll_at, places) if places else
                        partial(self._play, "stop"))
                       for label, places in self._laid_out().choices(game)]
        self._kept_choices = (position, choices)
        return choices

    # -- events -------------------------------------------------------------------------

    def _dispatch(self, event: Event) -> None:
        match event:
            case ControlPressed(control=control):
                self._press(control)
            case ControlHeld(control=Control.ROLL):
                if self.game is not None and not self.pages:
                    self._long_press()
                elif self.pages and not self.pages[-1].closable:
                    self.pages.append(self._game_menu())
            case ControlHeld(control=control):
                self._press(control)
            case ControlTurned(steps=steps):
                self._press(Control.DOWN if steps > 0 else Control.UP, abs(steps))
            case DiceRolled(dice=dice, source=source):
                self._dice(dice, source)
            case CellChanged():
                self._sensed(event)
            case CellFault(row=row, col=col, reason=reason):
                log.warning("board sensor %s: %s", self.label(row, col), reason)
                self._say(f"board sensor {self.label(row, col)}: {reason}")
            case DeviceStatus(message=message):
                log.info("%s", message)
                self._say(message)

    def _press(self, control: Control, steps: int = 1) -> None:
        if self.notice is not None:
            if control in (Control.SELECT, Control.BACK):
                self.notice = None
            return
        if self.pages:
            self._press_in_page(self.pages[-1], control, steps)
        else:
            self._press_in_game(control, steps)

    def _press_in_page(self, page: Page, control: Control, steps: int) -> None:
        if control in (Control.UP, Control.DOWN):
            page.move(steps if control is Control.DOWN else -steps)
        elif control is Control.SELECT:
            page.select()
        elif control is Control.BACK:
            if isinstance(page, DiceEntry) and not page.closable:
                page.back()
            elif page.closable:
                self._close(page)
            else:  # the game choice: BACK opens the menu, as it does in a game
                self.pages.append(self._game_menu())

    def _press_in_game(self, control: Control, steps: int) -> None:
        game = self.game
        assert game is not None
        if self.message is not None and control in (Control.UP, Control.DOWN, Control.SELECT):
            self.message = None  # the notice covers the choices: the first press clears it
            return
        choices = self._choices()
        if control in (Control.UP, Control.DOWN) and choices:
            delta = steps if control is Control.DOWN else -steps
            self.cursor = (self.cursor + delta) % len(choices)
            self.scroll = 0
        elif control is Control.BACK:
            self.pages.append(self._game_menu())
        elif control is Control.SELECT:
            if game.is_over:
                self._open_new_game()
            elif game.phase is Phase.ROLL:
                self._open_dice_entry()
            elif choices:
                choices[min(self.cursor, len(choices) - 1)][1]()
        elif control in HOLDS:
            self._toggle_hold(HOLDS.index(control))

    def _toggle_hold(self, die: int) -> None:
        if not isinstance(self.game, Dalmatian) or self.game.phase is not Phase.MOVE:
            self._refuse("the hold buttons keep Dalmatian dice between rerolls")
            return
        self.held ^= {die}

    def _typed_dice(self, dice: tuple[int, ...]) -> None:
        self.pages.pop()
        self._dice(dice, "manual")

    def _dice(self, dice: tuple[int, ...], source: str) -> None:
        game = self.game
        if game is None or self.pages:
            self._say(f"dice {_faces(dice)} ignored: close the menu first")
            return
        self._note("dice %s from %s", _faces(dice), source)
        self._tumble, self.rolling = [], None  # a throw still tumbling has landed by now
        row = self._laid_out().shown()  # the dice as they lay before this throw
        if game.phase is Phase.MOVE and isinstance(game, Dalmatian):
            places = [p for p in range(len(self.layout.places)) if p not in self.held]
            played = self._reroll_at(places, dice)
        else:
            places = self.layout.empty()
            played = self._play(Roll(tuple(dice)))
        if played and source == "button" and self.roller is not None:
            self._thrown = (row, places, dice)  # tumbled from the next tick on
            self._next_tumble = None

    def _laid_out(self) -> DiceLayout:
        """The Dalmatian dice row, agreeing with the game whatever moved it (a commit that
        failed and was taken back, an undo, a resume)."""
        if isinstance(self.game, Dalmatian):
            self.layout.follow(self.game)
        return self.layout

    def _reroll_at(self, places: Sequence[int], dice: tuple[int, ...] | None = None) -> bool:
        """A Dalmatian reroll: pick up the dice in ``places`` (0-4) and, when ``dice`` came
        with the ROLL button, throw them into the same places. A reroll chosen from the list
        comes without dice: the places wait for the next throw."""
        if not places:
            self._refuse("every die is held: choose 'stop' to score them")
            return False
        if dice is not None and len(dice) != len(places):
            self._refuse(f"{count(len(places), 'die')} to reroll, got {len(dice)}")
            return False
        before = list(self.layout.places)
        picked = self.layout.pick_up(places)
        rolled = (Roll(tuple(dice)),) if dice is not None else ()
        if not self._play(f"reroll {_faces(picked)}", *rolled):  # both or neither
            self.layout.places = before
            return False
        return True

    def _sensed(self, event: CellChanged) -> None:
        if self.recogniser is None or self.game is None:
            log.info("board change at %s,%s not used by this game", event.row, event.col)
            return
        outcome = self.recogniser.changed(self.game, event)
        self.fixes = tuple(outcome.fixes)
        if outcome.message:
            self._say(outcome.message)
        if outcome.action is not None:
            self._play(outcome.action)

    # -- playing ------------------------------------------------------------------------

    def _play(self, *actions: Any) -> bool:
        """Apply ``actions`` (all or none) and commit them. On refusal, or a write that
        failed (the journal then took them back), the reason goes on the screen."""
        game = self.game
        assert game is not None
        try:
            played = self.journal.apply(game, *actions)
        except JournalError as err:
            log.error("%s", err)
            self._refuse(str(err))
            return False
        except (GameError, UsageError) as err:
            self._refuse(str(err))
            return False
        self._note("%s: %s", game.TITLE, ", ".join(map(str, played)))
        if isinstance(game, Dalmatian):
            for action in actions:
                if isinstance(action, Roll):
                    self.layout.put_down(action.dice)
        self.message = None
        self.cursor = self.scroll = 0
        self.held.clear()
        if self.recogniser is not None:  # a move made with the controls: what must follow
            self.fixes = tuple(self.recogniser.review(game).fixes)
        self._sound("game over" if game.is_over else "accepted")
        return True

    def _attach(self, game: GameState[Any]) -> None:
        self.game = game
        self.cursor = self.scroll = 0
        self.held.clear()
        self.layout = DiceLayout()
        self.message = None
        self.recogniser = self.recognise(game) if self.recognise is not None else None
        self.fixes = ()
        if self.recogniser is not None and self.board is not None:
            self.fixes = tuple(self.recogniser.reset(game, self.board()).fixes)

    def _say(self, text: str) -> None:
        if self.pages and isinstance(self.pages[-1], Menu):
            self.pages[-1].message = text
        else:
            self.message = text

    def _refuse(self, text: str) -> None:
        """A refused action: the reason on the screen, a low double buzz."""
        self._say(text)
        self._sound("refused")

    def _sound(self, name: str) -> None:
        """Play one of :data:`hardware.sound.buzzer.SOUNDS` if there is a buzzer and the
        table has not turned the sound off."""
        if self.sounder is not None and self.sound:
            self.sounder.play(SOUNDS[name])

    def _tell_roller(self) -> None:
        if self.roller is None or self.game is None:
            return
        game = self.game
        if game.phase is Phase.MOVE and isinstance(game, Dalmatian):
            self.roller.count = max(1, HAND_SIZE - len(self.held))
        elif game.dice_wanted:
            self.roller.count = game.dice_wanted

    # -- menus --------------------------------------------------------------------------

    def _close(self, page: Page) -> None:
        if page in self.pages:
            self.pages.remove(page)

    def _new_game_menu(self) -> Menu:
        default = self.config.game.name if self.config.game.name in REGISTRY else None
        entries = []
        for name in REGISTRY:
            cls = game_class(name)
            span = f"{cls.MIN_PLAYERS}" if cls.MIN_PLAYERS == cls.MAX_PLAYERS else \
                f"{cls.MIN_PLAYERS}-{cls.MAX_PLAYERS}"
            entries.append(entry(f"{cls.TITLE} ({span})", partial(self._open_players, name)))
        cursor = list(REGISTRY).index(default) if default else 0
        return Menu("New game", entries, cursor, closable=self.game is not None)

    def _players_menu(self, name: str) -> Menu:
        cls = game_class(name)
        counts = range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1)
        wanted = min(max(len(self.config.players), cls.MIN_PLAYERS), cls.MAX_PLAYERS)
        entries = [entry(f"{n} players", partial(self._open_options, name, n)) for n in counts]
        return Menu(f"{cls.TITLE}: players", entries, counts.index(wanted))

    def _options_menu(self, name: str, players: int) -> Menu:
        cls = game_class(name)
        values = dict(self.config.setup(name, players).options)
        recommended = getattr(cls, "recommended_options", None)
        if recommended is not None and name != self.config.game.name:
            values.update(recommended(players))
        entries = [entry("Start", lambda: self._start(name, players, values))]
        for key, option in cls.OPTIONS.items():
            steps = _option_values(option)
            if len(steps) > 1:
                entries.append(Entry(partial(lambda text: text, option.label or key),
                                     partial(_cycle, values, key, steps),
                                     partial(lambda o, k: o.spoken(values[k]), option, key)))
        return Menu(f"{cls.TITLE}: options", entries)

    def _start(self, name: str, players: int, values: Mapping[str, Any]) -> None:
        cls = game_class(name)
        game = cls.new(players, self.config.names_for(players), **values)
        self.journal.start(game)
        self.pages.clear()
        self._attach(game)
        log.info("started %s for %s", cls.TITLE, ", ".join(game.setup.names))

    def _game_menu(self) -> Menu:
        """The menu: the same entries in the same places from every screen, the game choice
        included; an entry that does not apply now is greyed and says why."""
        menu = Menu("Menu", [])

        def back() -> None:
            self._close(menu)

        def ask(question: str, then: Callable[[], None]) -> Callable[[], None]:
            return partial(self._ask, question, then)

        def over() -> bool:
            return self.game is not None and self.game.is_over

        def end_game() -> None:
            """A game that is over leads to the next; one in play is abandoned, if confirmed."""
            if over():
                back()
                self._open_new_game()
            else:
                self._ask("Abandon this game?", self._abandon)

        menu.entries = [
            Entry(lambda: "Back to the game" if self.game else "Back to the game choice", back),
            entry("Undo last action", self._ask_undo, self._why_no_undo),
            entry("Enter dice by hand", _chain(back, self._open_dice_entry), self._why_no_dice),
            entry("Standings", self._show_standings),
            entry("Settings", self._open_settings),
            Entry(lambda: "Next game" if over() else "Abandon game", end_game,
                  unavailable=lambda: None if self.game else "no game is being played"),
            entry("Shut down", ask("Shut down?", self._shut_down)),
        ]
        return menu

    def _settings_menu(self) -> Menu:
        """What a table may change during the evening; each shows its setting."""
        return Menu("Settings", [
            Entry(lambda: "Hint", self._toggle_hint, lambda: "on" if self.hint else "off"),
            Entry(lambda: "Sound", self._toggle_sound, lambda: "on" if self.sound else "off"),
        ])

    def _open_settings(self) -> None:
        self.pages.append(self._settings_menu())

    def _why_no_undo(self) -> str | None:
        if self.game is None:
            return "no game is being played"
        return None if self.game.history else "nothing to undo yet"

    def _why_no_dice(self) -> str | None:
        if self.game is None:
            return "no game is being played"
        return None if self.game.phase is Phase.ROLL else "no dice are due now"

    def _ask(self, question: str, then: Callable[[], None]) -> None:
        question_menu = confirm(question, then, lambda: self._close(question_menu))
        self.pages.append(question_menu)

    def _ask_undo(self) -> None:
        reason = self._why_no_undo()
        if reason is not None:
            self._say(reason)
        else:
            assert self.game is not None
            self._ask(f"Undo {self.game.history[-1]}?", self._undo)

    def _long_press(self) -> None:
        """A long press on ROLL, as the config's ``long_press`` says."""
        assert self.game is not None
        if self.config.long_press == "undo":
            self._ask_undo()
        elif self.config.long_press == "dice" and self.game.phase is Phase.ROLL:
            self._open_dice_entry()
        elif self.config.long_press == "dice":
            self._say("no dice are due now")
        else:
            self.pages.append(self._game_menu())

    def _shut_down(self) -> None:
        """Leave a last screen that tells the table it may pull the plug, then stop."""
        self.pages.clear()
        self.notice = NoticeView("Stopped", ("Every move is saved.", "Safe to unplug."))
        self.shutdown()

    def _open_players(self, name: str) -> None:
        self.pages.append(self._players_menu(name))

    def _open_options(self, name: str, players: int) -> None:
        self.pages.append(self._options_menu(name, players))

    def _open_new_game(self) -> None:
        self.pages.append(self._new_game_menu())

    def _open_dice_entry(self) -> None:
        assert self.game is not None
        self.pages.append(DiceEntry(self.game.dice_wanted, self._typed_dice))

    def _toggle_hint(self) -> None:
        self.hint = not self.hint

    def _toggle_sound(self) -> None:
        self.sound = not self.sound

    def _undo(self) -> None:
        game = self.game
        assert game is not None
        undone = self.journal.undo(game)
        self.pages.clear()  # back to the game, whichever way the question came
        self._attach(game)
        self.message = f"took back {undone}"

    def _abandon(self) -> None:
        self.journal.abandon()
        self.game = None
        self.recogniser = None
        self.fixes = ()
        self.pages = [self._new_game_menu()]

    def _show_standings(self) -> None:
        nights = self.journal.nights()
        games = self.journal.finished_games(nights[-1]) if nights else []
        rows = standings(games)
        night = self.config.night
        if night is None:
            lines = tuple(f"{s.name}: {s.wins} won of {s.played}" for s in rows)
            self.notice = NoticeView("Tonight", lines or ("no game finished yet",))
            return
        # beside the QR code of the night's page a line has half the width
        lines = tuple(f"{s.name} {s.wins} of {s.played}" for s in rows)
        self.notice = NoticeView("Won tonight", lines or ("no game yet",), qr=night.page_url)


class _Position:
    """Where a game stands, to keep what was found from it: its game, its actions so far
    (the game replays from them: their number and the last, as the very object, which
    nothing else can be while it is kept) and, for Dalmatian, the places its dice lie in."""

    def __init__(self, game: GameState[Any], layout: DiceLayout) -> None:
        history = game.history
        self._game = game
        self._last = history[-1] if history else None
        self._count = len(history)
        self._places = tuple(layout.places)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _Position) and self._game is other._game
                and self._last is other._last and self._count == other._count
                and self._places == other._places)

    __hash__ = None  # type: ignore[assignment]  # compared, never looked up


def _faces(dice: tuple[int, ...]) -> str:
    return "-".join(str(d) for d in dice)


def _option_values(option: Option) -> tuple[Any, ...]:
    """The values SELECT steps through; free-form options stay as the config sets them."""
    if option.choices is not None:
        return option.choices
    if isinstance(option.default, bool):
        return (False, True)
    if isinstance(option.default, int):
        return tuple(sorted({option.default, max(1, option.default // 2),
                             max(1, option.default // 4), option.default * 2}))
    return ()


def _chain(*steps: Callable[[], None]) -> Callable[[], None]:
    """One menu action that runs ``steps`` in order (close the menu, then act)."""

    def run() -> None:
        for step in steps:
            step()

    return run


def _cycle(values: dict[str, Any], key: str, steps: tuple[Any, ...]) -> None:
    current = values[key]
    index = steps.index(current) if current in steps else -1
    values[key] = steps[(index + 1) % len(steps)]
