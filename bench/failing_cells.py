"""Failing reed switches in whole Sequence Dice games, as JSON: what reaches the journal.

A Sequence Dice game for 2-4 players, refereed from the daemon's own
:class:`~hardware.board.matrix.ReedMatrix` on a :class:`~hardware.board.mock.MockBoard`
(gpiozero's ``MockFactory``), the real :class:`~firmware_host.referee.Referee` and a journal
in a temporary file, on a manual clock stepped 1 ms at a time. The players move chips by
hand (a replacement confirmed with SELECT, as the screen offers it) and throw the dice;
the player who threw makes the move they chose on seeing the dice, whatever the screen
shows meanwhile (a failing switch may have made a move first: when the screen offers
theirs instead, they SELECT it). When the screen asks for a fix they cannot make they wait;
once it names a sensor they play on (SELECT) and make that cell's moves from the list.
Players who play on (the ``_playing_on`` figures) go on throwing and moving whatever fix the
screen shows, choosing a cell no fix names when they can (else the move is made from the
list).
After 6-30 of their turns one cell fails, ``TRIALS`` times for each way:

- ``chattering``: a free cell flips every 100-1,000 ms for 3-15 s;
- ``stuck_closed``: a free cell reads a piece from then on;
- ``stuck_open``: a cell under a chip no longer reads it.

Per way: ``phantom_actions`` in the journal that no player made; ``missed_actions`` the
players made that it does not hold; ``wrong_games``: games left stuck on a fix for good;
``healthy_cells_named``: cells other than the failing one the players were told to play on
without; ``never_showed``: failures that never made the cell read otherwise than the game
has it for a second (stuck closed under the chip its player put there as it failed, or stuck
open under the chip its player lifted), which nothing can name; ``reported``: faults named
on the screen (a ``CellFault``, or the sensor named under the fixes) within 10 s of the
failure, ``reported_late`` after that, and the slowest.
"""

from __future__ import annotations

import json
import logging
import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from PIL import Image

from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.sensing import recogniser_for
from firmware_host.views import BoardFixView
from games import new_game
from games.core import Phase
from games.sequence import Cell as ChipCell
from games.sequence import ChipMove, Verb
from hardware.board.matrix import ReedMatrix
from hardware.board.mock import MockBoard
from hardware.display.protocol import new_frame
from hardware.events import (
    CellFault,
    Control,
    ControlPressed,
    ControlTurned,
    DiceRolled,
    Event,
)
from hardware.pins.clock import ManualClock

ROWS = (7, 8, 9, 10, 11, 12)
COLS = (20, 21, 22, 23, 24, 25)
FAULT_KINDS = ("chattering", "stuck_closed", "stuck_open")
TRIALS = 60
REPORT_GOAL_S = 10.0
QUESTION = "is a hand on it?"
STEP_S = 0.001
TICK_S = 0.05
Cell = tuple[int, int]


class Board:
    """The magnets, the matrix over them and the clock; :meth:`run` lets time pass."""

    def __init__(self) -> None:
        factory = MockFactory()
        self.magnets = MockBoard(factory, ROWS, COLS)
        self.clock = ManualClock()
        self.events: list[Event] = []
        self._woken = False
        self.matrix = ReedMatrix(ROWS, COLS, factory, self.events.append, ticks=self.clock,
                                 waker=self._wake)
        self._due: float | None = self.matrix.poll()

    def _wake(self) -> None:
        self._woken = True

    def step(self) -> None:
        self.clock.advance(STEP_S)
        self.service()

    def service(self) -> None:
        if self._woken or (self._due is not None and self.clock() >= self._due):
            self._woken = False
            self._due = self.matrix.poll()

    def set(self, cell: Cell, closed: bool) -> None:
        (self.magnets.place if closed else self.magnets.lift)(*cell)
        self.service()


class Table:
    """A Sequence Dice game on a :class:`Board`, its referee and journal, and the players."""

    def __init__(self, folder: Path, rng: random.Random, *, play_on: bool = False) -> None:
        self.board = Board()
        self.play_on = play_on  # the players go on with the game while a fix is unmade
        self.rng = rng
        self.journal = Journal.open(folder / "faults.sqlite3")
        self.journal.start(new_game("sequence", rng.choice([2, 3, 4])))
        self.referee = Referee(Config(game=GameConfig("sequence")), self.journal,
                               game=self.journal.resume(), render=_blank,
                               recognise=lambda game: recogniser_for(game, "grid"),
                               board=self.board.matrix.occupied,
                               restless=self.board.matrix.changes_by_itself)
        self.handed = 0  # matrix events handed to the referee so far
        self.next_tick = 0.0
        self.made: list[str] = []  # the players' own actions
        self.due: ChipMove | None = None  # the move of the player who just threw
        self.fault: tuple[str, Cell, float] | None = None  # how, where, since
        self.flips: list[float] = []  # when a chattering cell flips
        self.reported_at: float | None = None
        self.disagreed_since: float | None = None  # the failing cell against the game
        self.shown_at: float | None = None  # when the failure first showed
        self.asked = 0  # questions whether a hand is on a cell, answered

    def run(self, seconds: float) -> None:
        """Let ``seconds`` pass: the failing cell flips, the matrix reads, the referee
        hears and ticks, as in the daemon."""
        board = self.board
        end = board.clock() + seconds
        while board.clock() < end - 1e-9:
            board.step()
            if self.flips and self.flips[0] <= board.clock() and self.fault is not None:
                self.flips.pop(0)
                cell = self.fault[1]
                board.set(cell, cell not in board.magnets.magnets)
            self._hand_over()

    def _hand_over(self) -> None:
        events = self.board.events
        while self.handed < len(events):
            event = events[self.handed]
            self.handed += 1
            if isinstance(event, CellFault):
                self._reported()
            self.referee.handle(event)
            self._named()
            self._answer()
        now = self.board.clock()
        if now >= self.next_tick:
            self.referee.tick(now)
            self._look_at_the_fault(now)
            self._named()
            self._answer()
            self.next_tick = now + TICK_S

    def _answer(self) -> None:
        """Answer the screen's question whether a hand is on a cell: no for the failing
        one (they see no hand there), yes for any other."""
        square, table = self.referee.watch.blame.asking, self.referee.table
        if square is None or table is None or QUESTION not in (table.shown_message() or ""):
            return
        self.asked += 1
        hand = self.fault is None or self.fault[1] != square
        self.press(Control.SELECT if hand else Control.BACK)

    def _named(self) -> None:
        """Note a sensor named under the fixes, or named by the referee and ignored at
        once (a chattering one)."""
        table = self.referee.table
        if (table is not None and table.suspects) \
                or (self.fault is not None and self.fault[1] in self.referee.watch.ignored):
            self._reported()

    def _look_at_the_fault(self, now: float) -> None:
        """Note whether a stuck cell has shown: read otherwise than the game has it for a
        second (a switch stuck closed under the chip the player put there, or stuck open
        as the player lifts that chip, shows nothing, and cannot be named; here a switch
        stuck open closes again under a magnet put on it later)."""
        game = self.referee.game
        if self.fault is None or self.shown_at is not None or game is None:
            return
        kind, cell, _since = self.fault
        chip = any((taken.row, taken.col) == cell for taken in game.taken)
        if kind == "chattering" or chip != (cell in self.board.matrix.occupied()):
            self.disagreed_since = now if self.disagreed_since is None else self.disagreed_since
            if now - self.disagreed_since >= 1.0:
                self.shown_at = self.disagreed_since
        else:
            self.disagreed_since = None

    def _reported(self) -> None:
        if self.fault is not None and self.reported_at is None:
            self.reported_at = self.board.clock()

    def press(self, control: Control) -> None:
        self.referee.handle(ControlPressed(control))

    def choose(self, text: str) -> None:
        """Play ``text`` from the list: turn the knob to it, SELECT."""
        table = self.referee.table
        assert table is not None
        table.message = table.told = None
        labels = [choice.label for choice in table.choices()]
        if text in labels:
            self.referee.handle(ControlTurned(labels.index(text) - table.cursor))
            self.press(Control.SELECT)

    def turn(self) -> bool:
        """What the players do next; False once the game is over or stuck on a fix."""
        game = self.referee.game
        assert game is not None
        if game.is_over:
            return False
        if self.due is None and isinstance(self.referee.view(), BoardFixView):
            if not self.play_on:
                return self._wait_on_the_fix()
            table = self.referee.table
            if table is not None and table.suspects:  # play on without the sensor named
                table.message = None
                self.press(Control.SELECT)
        move, self.due = self.due, None
        if move is None and game.phase is Phase.ROLL:
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            self.referee.handle(DiceRolled(dice, "button"))
            self.made.append(f"roll {dice[0]}-{dice[1]}")
            legal = game.legal_actions()  # the thrower's move, chosen on seeing the dice
            self.due = self.rng.choice(legal) if legal else None
            self.run(self.rng.uniform(0.3, 1.5))
            return True
        if move is None:
            legal = game.legal_actions()
            again = [action for action in legal if [str(action)] == self.made[-1:]]
            move = again[0] if again else self.rng.choice(legal)  # a move taken back (its
            # switch was failing) is made again, from the list if it is ignored
        elsewhere = [action for action in game.legal_actions()
                     if not self._in_a_fix((action.cell.row, action.cell.col))]
        if self.play_on and self._in_a_fix((move.cell.row, move.cell.col)) and elsewhere:
            move = self.rng.choice(elsewhere)  # not on a cell the screen says is wrong
        cell = (move.cell.row, move.cell.col)
        if self.made[-1:] != [str(move)]:  # not the same move tried again
            self.made.append(str(move))
        if cell in self.referee.watch.ignored or self._in_a_fix(cell):
            self.choose(str(move))
        elif move.verb is Verb.REPLACE:  # theirs off, one's own on, SELECT on the offer
            self.board.set(cell, False)
            self.run(0.3)
            self.board.set(cell, True)
            self.run(0.4)
            self.confirm()
        else:
            self.board.set(cell, move.verb is Verb.PLACE)
            self.run(0.4)
            instead = self.referee.watch.by_board.instead
            if instead is not None and instead.action == str(move):
                self.confirm()  # another change came first: this one is theirs
        self.run(self.rng.uniform(0.6, 2.5))
        return True

    def _in_a_fix(self, cell: Cell) -> bool:
        """Whether the screen's fixes name ``cell`` (a chip put there would not show)."""
        table = self.referee.table
        name = str(ChipCell(*cell))
        return table is not None and any(fix.split()[-1] == name for fix in table.fixes)

    def confirm(self) -> None:
        """SELECT on what the screen offers, a message over it read first."""
        table = self.referee.table
        if table is not None and table.message is not None:
            self.press(Control.SELECT)
        self.press(Control.SELECT)

    def _wait_on_the_fix(self) -> bool:
        """A fix the players cannot make (their chip is there; there is none to lift):
        they wait up to 15 s, and play on once a sensor is named."""
        waited = 0.0
        while isinstance(self.referee.view(), BoardFixView) and waited < 15.0:
            table = self.referee.table
            if table is not None and table.suspects:
                table.message = None
                self.press(Control.SELECT)
                continue
            self.run(0.1)
            waited += 0.1
        return not isinstance(self.referee.view(), BoardFixView)

    def fail(self, kind: str) -> None:
        """One cell starts failing now, as ``kind`` says."""
        magnets = self.board.magnets.magnets
        now = self.board.clock()
        if kind == "stuck_open":
            if not magnets:
                return
            cell = self.rng.choice(sorted(magnets))
            self.board.set(cell, False)  # the chip stays; its switch no longer closes
        else:
            cell = self.rng.choice([(r, c) for r in range(6) for c in range(6)
                                    if (r, c) not in magnets])
            if kind == "stuck_closed":
                self.board.set(cell, True)
            else:
                at, lasting = now, self.rng.uniform(3.0, 15.0)
                while at < now + lasting:
                    self.flips.append(at)
                    at += self.rng.uniform(0.1, 1.0)
        self.fault = (kind, cell, now)


def _blank(view: object) -> Image.Image:
    return new_frame()


def failing_cells(trials: int = TRIALS, seed: int = 6) -> dict[str, Any]:
    """``trials`` games for each way a cell fails, with players who wait on a fix they
    cannot make and with players who play on; see the module docstring."""
    logging.disable(logging.WARNING)  # the referee names every failure: counted here
    rng = random.Random(seed)
    found: dict[str, Any] = {}
    for kind, play_on in [(kind, play_on) for play_on in (False, True) for kind in FAULT_KINDS]:
        phantom = missed = wrong = reported = late = unseen = healthy = 0
        delays: list[float] = []
        for _ in range(trials):
            with tempfile.TemporaryDirectory() as folder:
                table = Table(Path(folder), rng, play_on=play_on)
                fail_at = rng.randint(6, 30)
                for turn in range(300):
                    if turn == fail_at:
                        table.fail(kind)
                    if not table.turn():
                        break
                game = table.referee.game
                assert game is not None
                wrong += not game.is_over and isinstance(table.referee.view(), BoardFixView)
                held = Counter(str(action) for action in game.history)
                phantom += sum((held - Counter(table.made)).values())
                missed += sum((Counter(table.made) - held).values())
                if table.fault is not None and table.reported_at is not None:
                    delays.append(table.reported_at - table.fault[2])
                unseen += table.reported_at is None and table.shown_at is None
                ignored = table.referee.watch.ignored
                healthy += len(ignored - {table.fault[1]} if table.fault else set())
                table.journal.close()
        reported = sum(delay <= REPORT_GOAL_S for delay in delays)
        late = len(delays) - reported
        found[f"{kind}_playing_on" if play_on else kind] = {
            "trials": trials, "phantom_actions": phantom, "missed_actions": missed,
            "wrong_games": wrong, "healthy_cells_named": healthy, "never_showed": unseen,
            "reported": reported, "reported_late": late,
            "slowest_report_s": round(max(delays), 1) if delays else None}
    logging.disable(logging.NOTSET)
    return found


if __name__ == "__main__":
    print(json.dumps({"bench": "failing_cells", **failing_cells()}))
