"""A mock pin for a button that is already down when its driver is built.

``MockPin`` obeys a pull-up by driving itself high, so a button built on it always starts
released, whatever the test drove before; a finger (or a stuck switch) outweighs the pull-up.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockPin


class HeldDownPin(MockPin):  # type: ignore[misc]  # gpiozero is untyped
    """Low from the start, whatever pull is set, until :meth:`drive_high` lets it go."""

    held = True

    def _set_pull(self, value: str) -> None:
        if self.held:
            self._pull = value
        else:
            super()._set_pull(value)

    def drive_high(self) -> None:
        self.held = False
        super().drive_high()
