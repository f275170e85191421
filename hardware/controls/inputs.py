"""Every GPIO input of a pin map, built on one pin factory: what the daemon and the
self-test poll.

One :meth:`InputSet.poll` reads the dice button and the control buttons once and scans the
matrix once; call it every few milliseconds (the buttons debounce over 20 ms, the matrix
over three scans). The encoder reports by itself from edge callbacks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from contextlib import ExitStack

from hardware.board.matrix import ReedMatrix
from hardware.controls.dice_button import HOLD_S, DiceButton
from hardware.controls.menu_controls import Controls
from hardware.events import Control
from hardware.pins.driver_types import Emit, PinFactory, Ticks
from hardware.wiring.pinmap import PinMap


class InputSet:
    """The dice button, the controls and the reed matrix of ``pin_map``."""

    def __init__(self, pin_map: PinMap, factory: PinFactory, emit: Emit, *,
                 ticks: Ticks = time.monotonic, rng: random.Random | None = None,
                 dice_hold_time: float | None = HOLD_S,
                 hold_times: Mapping[Control, float] | None = None,
                 start_empty: bool = True) -> None:
        self.pin_map = pin_map
        with ExitStack() as undo:  # a failure closes what was already built
            self.dice = DiceButton(pin_map.dice, factory, emit, ticks=ticks, rng=rng,
                                   hold_time=dice_hold_time)
            undo.callback(self.dice.close)
            self.controls = Controls(pin_map.buttons, factory, emit, encoder=pin_map.encoder,
                                     ticks=ticks, hold_times=hold_times)
            undo.callback(self.controls.close)
            self.matrix = ReedMatrix(pin_map.matrix.rows, pin_map.matrix.cols, factory, emit,
                                     ticks=ticks, start_empty=start_empty)
            undo.pop_all()

    def poll(self) -> None:
        """Read every button once and scan the matrix once."""
        self.dice.poll()
        self.controls.poll()
        self.matrix.scan()

    def close(self) -> None:
        self.dice.close()
        self.controls.close()
        self.matrix.close()
