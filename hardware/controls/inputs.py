"""Every GPIO input of a pin map, built on one pin factory: what the daemon and the
self-test read.

The buttons' and the matrix's edge callbacks share one :class:`~hardware.pins.edges.Waker`,
which puts an :class:`~hardware.events.InputEdge` on the queue; the loop answers with
:meth:`InputSet.poll`, which reads what is needed and says when it must be called again
(a debounce or hold time running, a change settling on the board). With nothing touched
and no piece on the board, no pin is read at all. The encoder reports by itself from its
edge callbacks.

A throw (or a long press of ROLL) made while a piece is settling on the board waits for
the piece: the game then hears the move before the dice, as the players made them, instead
of refusing dice that are not due yet and losing the throw. So does a button pressed then:
SELECT pressed 20 ms after a chip lands for a replacement plays the replacement the put
offers, not the one the list highlighted before the chip settled (the knob's turns, which
come from its own edge callbacks, are not held).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from contextlib import ExitStack

from hardware.board.matrix import ReedMatrix
from hardware.controls.dice_button import HOLD_S, DiceButton
from hardware.controls.menu_controls import Controls
from hardware.events import Control, ControlTurned, Event
from hardware.pins.driver_types import Emit, PinFactory, Ticks
from hardware.pins.edges import Waker, earliest
from hardware.wiring.pinmap import PinMap


class InputSet:
    """The dice button, the controls and the reed matrix of ``pin_map``."""

    def __init__(self, pin_map: PinMap, factory: PinFactory, emit: Emit, *,
                 ticks: Ticks = time.monotonic, rng: random.Random | None = None,
                 dice_hold_time: float | None = HOLD_S,
                 hold_times: Mapping[Control, float] | None = None,
                 start_empty: bool = True) -> None:
        self.pin_map = pin_map
        self.waker = Waker(emit)
        self._ticks = ticks
        self._buttons_due: float | None = -math.inf  # when the buttons must be read next
        self._hands_seen = False  # the controls spoke since the last poll (the knob needs no poll)
        self._emit = emit
        self._waiting: list[Event] = []  # thrown or pressed while a piece settles
        self._board = True  # the matrix reads the board (no serial device does)

        def controls_emit(event: Event) -> None:
            self._hands_seen = True
            if isinstance(event, ControlTurned):
                emit(event)
            else:
                self._held(event)

        with ExitStack() as undo:  # a failure closes what was already built
            self.dice = DiceButton(pin_map.dice, factory, self._held, ticks=ticks, rng=rng,
                                   hold_time=dice_hold_time, waker=self.waker)
            undo.callback(self.dice.close)
            self.controls = Controls(pin_map.buttons, factory, controls_emit,
                                     encoder=pin_map.encoder,
                                     ticks=ticks, hold_times=hold_times, waker=self.waker)
            undo.callback(self.controls.close)
            self.matrix = ReedMatrix(pin_map.matrix.rows, pin_map.matrix.cols, factory, emit,
                                     ticks=ticks, start_empty=start_empty,
                                     debounce=pin_map.matrix.debounce,
                                     waker=self.waker)
            undo.pop_all()

    def poll(self, *, board: bool = True) -> float | None:
        """Read what an edge or a deadline asks for: the buttons, the matrix (unless
        ``board`` is False: another device reads the board); when to call again (None: at
        the next edge). Each driver reads its pins only for its own edge or time, so the
        matrix's patrol leaves the buttons unread; any edge or turn of the knob tells the
        matrix hands are at the table."""
        hands = self.waker.take() or self._hands_seen
        self._hands_seen = False
        self._board = board
        board_due = self.matrix.poll(hands_seen=hands) if board else None  # first: a piece
        # landing holds the dice. Without an edge, a wake-up before the buttons' time is the
        # board's alone: each button would only say again when it is due
        if hands or ((due := self._buttons_due) is not None and self._ticks() >= due):
            self._buttons_due = earliest((self.dice.poll(), self.controls.poll()))
        due = earliest((board_due, self._buttons_due))
        if self._waiting and not (board and self.matrix.settling):
            waiting, self._waiting = self._waiting, []
            for event in waiting:
                self._emit(event)
        return due

    def _held(self, event: Event) -> None:
        """The dice button's and the buttons' events (read in :meth:`poll`), held back
        while a piece settles on the board."""
        if self._board and self.matrix.settling:
            self._waiting.append(event)
        else:
            self._emit(event)

    def close(self) -> None:
        self.dice.close()
        self.controls.close()
        self.matrix.close()
