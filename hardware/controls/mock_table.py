"""Hands for the mock pins of a pin map: press a control, turn the knob, place a piece.

The self-test's automated run and the simulator use it to act as a player would, through
the very pins the drivers read. Build it on the factory *before* the drivers (the board's
column pins must be the simulated kind, see :mod:`hardware.board.mock`).
"""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from hardware.board.mock import MockBoard
from hardware.events import Control
from hardware.wiring.pinmap import PinMap


class MockTable:
    """The controls, the knob and the board of ``pin_map`` on ``factory``'s mock pins."""

    def __init__(self, pin_map: PinMap, factory: MockFactory, *, diodes: bool = True) -> None:
        self.pin_map = pin_map
        self.factory = factory
        self.board = MockBoard(factory, pin_map.matrix.rows, pin_map.matrix.cols,
                               diodes=diodes)

    def press(self, control: Control) -> None:
        """Push the control's button down (it stays down until :meth:`release`)."""
        self.factory.pin(self._pin(control)).drive_low()

    def release(self, control: Control) -> None:
        self.factory.pin(self._pin(control)).drive_high()

    def turn(self, detents: int) -> None:
        """Turn the knob: positive clockwise, one full quadrature cycle per detent."""
        if self.pin_map.encoder is None:
            raise ValueError(f"pin map {self.pin_map.name} has no rotary encoder")
        a, b = (self.factory.pin(gpio) for gpio in self.pin_map.encoder)
        first, second = (a, b) if detents > 0 else (b, a)
        for _ in range(abs(detents)):
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()

    def place(self, row: int, col: int) -> None:
        self.board.place(row, col)

    def lift(self, row: int, col: int) -> None:
        self.board.lift(row, col)

    def _pin(self, control: Control) -> int:
        if control is Control.ROLL:
            return self.pin_map.dice
        if control not in self.pin_map.buttons:
            raise ValueError(f"pin map {self.pin_map.name} has no {control.name} button")
        return self.pin_map.buttons[control]
