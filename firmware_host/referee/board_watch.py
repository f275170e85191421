"""The board watch: the one owner of failing sensors, beside the referee.

A sensed board (Sequence Dice on a grid, Centennial on the track) plays the moves hands make,
and a reed switch that fails (chattering, stuck closed, stuck open under a chip) makes changes
no hand made. The watch hears every change of the board and every fault the matrix reports,
and keeps what they leave behind: the moves the board made, so a failing switch's can be taken
back and a rival sensed after it offered (:mod:`.board_moves`); which sensors seem to fail and
the question asked about one (:mod:`.blame`); fixes left unmade
(:class:`~.timers.UnmadeFixes`); cells changing by themselves too briefly for a hand; and the
sensors given up on, for every game. The referee hands it the board's events and the presses
that answer it, and moves it on with its timers (:meth:`BoardWatch.on`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

from firmware_host.journal import Journal
from firmware_host.referee.blame import Blame, Verdict, question
from firmware_host.referee.board_moves import BoardMoves, Instead
from firmware_host.referee.parts import Parts, Sensed
from firmware_host.referee.tables import GameTable
from firmware_host.referee.timers import Timers, UnmadeFixes
from games.core import GameState
from hardware.board.matrix import CHECK, SLOW_CHATTER
from hardware.events import CellChanged, Control

log = logging.getLogger("firmware_host.referee.referee")  # the referee's words in the log

Square = tuple[int, int]

CLEARS = (Control.UP, Control.DOWN, Control.SELECT, Control.BACK)
"""The presses that, while a message is shown, close it and do nothing else."""
RESTLESS_LOOK_S = 0.5
"""How often the sensors' changes by themselves are looked at while some went unreported
of late (a piece slid across a cell leaves such a change too, for 8 s): a failing sensor is
named well within 10 s."""


class Host(Protocol):
    """What the watch acts on: :class:`firmware_host.referee.Referee`."""

    @property
    def table(self) -> GameTable | None: ...

    @property
    def game(self) -> GameState[Any] | None: ...

    @property
    def journal(self) -> Journal: ...

    @property
    def parts(self) -> Parts: ...

    @property
    def timers(self) -> Timers: ...

    def play(self, *actions: Any, source: str | None = None) -> bool: ...

    def say(self, text: str) -> None: ...

    def sound(self, name: str) -> None: ...


class BoardWatch:
    """The board's failing sensors and the moves they made; see the module docstring."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.ignored: set[Square] = set()  # sensors given up on, for every game
        self.by_board = BoardMoves()
        self.blame = Blame()  # which sensors seem to fail, and the question asked
        self.unmade = UnmadeFixes()
        self.due: float | None = None

    def attach(self, game: GameState[Any]) -> None:
        """``game`` is the table's now (started, resumed, or an action taken back from the
        menu): the board is looked at afresh."""
        table, board = self.host.table, self.host.parts.board
        self.unmade = UnmadeFixes()
        if table is not None and table.recogniser is not None:
            table.recogniser.ignored = self.ignored
            if board is not None:
                table.fixes = tuple(table.recogniser.reset(game, board()).fixes)

    def moved(self) -> None:
        """The game moved on: the question about a cell is withdrawn."""
        self.blame.asking = None

    # -- moving on ----------------------------------------------------------------------

    def on(self, now: float) -> bool:
        """Name the sensors of fixes left unmade too long, and those whose changes by
        themselves were too brief for a hand; whether the screen changed. :attr:`due` is
        when to look again."""
        table = self.host.table
        disagreeing = table.missing() | table.extra() if table is not None else frozenset()
        changed = False
        if self.unmade.on(now, disagreeing) and table is not None:
            self.by_board.instead = None  # SELECT now plays on without the sensors named
            missing = table.missing()
            table.suspects = tuple(self._suspicion(square, square in missing)
                                   for square in sorted(self.unmade.suspected))
            for text in table.suspects:
                log.warning("%s", text)
            changed = True
        restless = self.host.parts.restless
        seen = restless() if restless is not None \
            and table is not None and table.recogniser is not None else {}
        changed |= self._unheard(seen)
        self.due = self.unmade.due
        if seen:  # a sensor changed by itself of late: look again soon
            self.due = min(self.due, now + RESTLESS_LOOK_S) if self.due is not None \
                else now + RESTLESS_LOOK_S
        return changed

    def _unheard(self, restless: Mapping[Square, int]) -> bool:
        """Name the sensors whose changes by themselves, one a close too brief to be
        reported (no hand makes one), show them failing (:meth:`Blame.brief`); whether there
        were any. A cell that reads closed now had its brief close before the put that
        closed it: a chip put down, not a switch failing since."""
        table = self.host.table
        board = table.recogniser.board if table is not None and table.recogniser else set()
        found = [(square, alone) for square, alone in restless.items()
                 if square not in self.ignored and square not in board
                 and self.blame.brief(square, alone)]
        for square, alone in found:
            self.fault(square, _chattering(alone, "some too brief for a hand"), chattering=True)
        return bool(found)

    def _suspicion(self, square: Square, missing: bool) -> str:
        """The line under the fixes that blames a sensor, and how to play on without it."""
        what = "seems dead (nothing sensed there)" if missing else \
            "seems stuck closed (a piece sensed there)"
        return (f"the sensor at {self.host.parts.label(*square)} {what}: check its magnet and "
                "switch, or SELECT: play on, it will be ignored")

    # -- faults -------------------------------------------------------------------------

    def fault(self, square: Square, reason: str, *, chattering: bool) -> None:
        """A failing sensor, named on the screen and in the log; a chattering one is ignored
        at once, and the moves its latest changes made taken back (and a rival waiting
        behind them played)."""
        label = self.host.parts.label(*square)
        log.warning("board sensor %s: %s", label, reason)
        taken = self._take_back(square) if chattering else ()
        if chattering:
            self._ignore(square)
        self.blame.forget(square)
        rival, self.by_board.instead = self.by_board.instead, None
        played = [self._play_rival(rival)] if rival is not None \
            and rival.taken in map(str, taken) else []
        text = (f"board sensor {label}: {reason}"
                + "".join(f"; took back {action}" for action in taken)
                + "".join(f"; {done}" for done in played))
        table = self.host.table
        if taken and not played and table is not None:  # the fix that restores it
            restore = str(taken[-1])
            table.message = None
            table.offer(restore, f"{text}; if the chip there is yours, SELECT plays "
                                 f"{restore} again")
        else:
            self.host.say(text)

    def _take_back(self, square: Square) -> tuple[Any, ...]:
        """Take back the actions the latest changes at ``square`` made, while they are the
        game's last: a chattering switch's phantoms. What was taken back."""
        game = self.host.game
        taken = []
        while game is not None and self.by_board.last_made_at(game, square):
            self.by_board.taken_back()
            taken.append(self.host.journal.undo(game))
        return tuple(taken)

    def _ignore(self, square: Square) -> None:
        """Give up on the sensor at ``square`` until it agrees with the game again. The
        recogniser reviews the board it has heard: the matrix may already hold changes
        still on their way to the referee, so it is not scanned afresh."""
        self.ignored.add(square)
        log.warning("board sensor %s ignored until it agrees with the game; its moves are "
                    "made from the list", self.host.parts.label(*square))
        table = self.host.table
        if table is not None and table.recogniser is not None:
            table.fixes = tuple(table.recogniser.review(table.game).fixes)

    # -- presses ------------------------------------------------------------------------

    def press(self, control: Control) -> bool:
        """A press in the game that may be the watch's: an answer to its question, or one
        on a rival offered (a message over it is closed first; SELECT plays it). Whether
        the press was spent here. Any press withdraws the offer otherwise."""
        table = self.host.table
        assert table is not None
        if self._answer(control):
            return True
        instead, self.by_board.instead = self.by_board.instead, None
        if instead is not None and table.message is not None and control in CLEARS:
            table.message, table.told, self.by_board.instead = None, instead.text(), instead
            return True  # read: the offer under it shows again
        if control is Control.SELECT and instead is not None:
            table.told = None
            self._play_instead(instead)
            return True
        return False

    def play_on(self) -> None:
        """SELECT under the fixes that name sensors: those sensors are ignored, their cells'
        moves made from the list."""
        for square in sorted(self.unmade.suspected):
            self._ignore(square)
        self.host.say("ignored: " + ", ".join(self.host.parts.label(*square)
                                              for square in sorted(self.ignored))
                      + "; make their moves from the list")

    def _answer(self, control: Control) -> bool:
        """A press while the players are asked whether a hand is on a cell: SELECT says
        yes (the cell is trusted afresh), BACK no (its sensor is named); another press
        withdraws the question. Whether the press answered it."""
        table, square = self.host.table, self.blame.asking
        if square is None or table is None:
            return False
        if table.message != question(self.host.parts.label(*square)) \
                or control not in (Control.SELECT, Control.BACK):
            self.blame.asking = None  # covered by another message, or passed over
            return False
        table.message = None
        self.blame.answered(control is Control.SELECT)
        if control is Control.BACK:
            self.fault(square, f"changes by itself, no hand on it; ignored until still; "
                               f"{CHECK}", chattering=True)
        return True

    def _play_instead(self, instead: Instead) -> None:
        """SELECT on a rival: the board's move taken back, the one sensed after it played."""
        game = self.host.game
        if game is None or not self.by_board.still_due(game, instead):
            return  # the game moved on since it was offered
        square = self.by_board.taken_back()
        self.host.say(f"took back {self.host.journal.undo(game)}; {self._play_rival(instead)}")
        table = self.host.table
        if self.blame.taken_back(square) is Verdict.ASK and table is not None:
            table.message = question(self.host.parts.label(*square))

    def _play_rival(self, instead: Instead) -> str:
        """Play ``instead`` once the board's move before it is taken back; what came of it.
        The fixes it leaves (the sensor that made the other move) are timed from now."""
        game = self.host.game
        assert game is not None
        self.unmade.worked()
        if not self.host.play(instead.action):
            return f"{instead.action} refused"
        self.by_board.made(game, instead.square)
        return f"played {instead.action}"

    # -- the board's changes ------------------------------------------------------------

    def changed(self, event: CellChanged) -> None:
        """A change the sensors saw: a move, an offer, a fix, or a failing sensor's."""
        before = self._disagrees(event)
        self._sensed(event)
        self.unmade.worked(fixing=before or self._disagrees(event))

    def _sensed(self, event: CellChanged) -> None:
        square = (event.row, event.col)
        self._taken_away(square)
        was_ignored = square in self.ignored
        astray = self._disagrees(event)
        table = self.host.table
        outcome = table.sensed(event) if table is not None else None
        if table is None or outcome is None:
            log.info("board change at %s,%s not used by this game", event.row, event.col)
            return
        if was_ignored and square not in self.ignored:
            log.warning("board sensor %s agrees with the game again: heard again",
                        self.host.parts.label(*square))
        action, rival = self._shown(table, square, outcome)
        game = self.host.game
        if action is not None and self.host.play(action):
            assert game is not None
            self.by_board.made(game, square, lifted=not event.occupied)
        elif event.occupied and game is not None and self.by_board.put_back(game, square):
            self._put_back(square)
            return
        if square in self.ignored:
            table.ignored_changed(self.host.parts.label(*square), event.occupied)
            return
        verdict = self.blame.seen(square, event.alone,
                                  made=action is not None or outcome.offer is not None,
                                  stray=event.occupied and square in table.extra()
                                  and not astray
                                  and (outcome.refused or outcome.message) is not None,
                                  offered=rival is not None,
                                  lifted=not event.occupied and square in table.missing())
        if verdict is Verdict.FAILING:
            self.fault(square, _chattering(event.alone, "chips the rules refuse"),
                       chattering=True)
        elif verdict is Verdict.ASK:
            table.message = question(self.host.parts.label(*square))

    def _taken_away(self, square: Square) -> None:
        """A change at the square of the rival offered: it is taken away again."""
        instead, table = self.by_board.instead, self.host.table
        if instead is not None and instead.square == square:
            if table is not None and table.told == instead.text():
                table.told = None
            self.by_board.instead = None

    def _shown(self, table: GameTable, square: Square,
               outcome: Sensed) -> tuple[str | None, Instead | None]:
        """Show what a change sensed at ``square`` came to: an offer, a rival of the board's
        last move, or a message. The action to play (None: none, or one made while the dice
        still tumble, offered instead), and the rival offered."""
        action = outcome.action
        if action is not None and self.host.timers.tumble.busy:
            self._too_soon(table, square, action)  # no hand aims at dice still tumbling
            return None, None
        if outcome.offer is not None:
            table.message = None  # an older notice hid the offer and took its SELECT
            table.offer(outcome.offer, outcome.message)
        elif outcome.refused is not None \
                and (rival := self.by_board.rival(table.game, square, outcome.refused)):
            self.by_board.instead = rival
            table.message, table.told = None, rival.text()
            self.host.sound("refused")
            return action, rival
        elif outcome.message:
            self.host.say(outcome.message)
        return action, None

    def _too_soon(self, table: GameTable, square: Square, action: str) -> None:
        """A change that would make ``action`` while the dice still tumble on the screen:
        no player knows the throw yet, so it is a switch failing as the dice were thrown
        (stuck closed, or open under a chip), not a move. It is offered instead of played,
        and the cell is left disagreeing, its fix asked for (and its sensor named if the
        fix stays unmade)."""
        assert table.recogniser is not None
        table.fixes = tuple(table.recogniser.review(table.game).fixes)
        label = self.host.parts.label(*square)
        table.message = None
        table.offer(action, f"{label} changed before the dice landed: if that was your hand, "
                            f"SELECT plays {action}")

    def _put_back(self, square: Square) -> None:
        """The piece whose lift made the game's last action is back on ``square`` (a touch
        shorter than a hand's lift and move, a chip straightened, a change of mind): that
        action is taken back, as the board shows, and the screen says how to make it."""
        game, table = self.host.game, self.host.table
        assert game is not None and table is not None
        self.by_board.taken_back()
        undone = self.host.journal.undo(game)
        table.played(())
        self.host.say(f"{self.host.parts.label(*square)} is back: took back {undone} (lift "
                      "the chip again to make it)")

    def _disagrees(self, event: CellChanged) -> bool:
        """Whether the board disagrees with the game at ``event``'s square."""
        table = self.host.table
        return table is not None and (event.row, event.col) in table.missing() | table.extra()


def _chattering(alone: int, how: str) -> str:
    """Why a sensor is taken for a failing one: ``how`` it changed by itself."""
    return (f"chattering: {alone} changes by itself within {SLOW_CHATTER[1]:g} s, {how}; "
            f"ignored until still; {CHECK}")
