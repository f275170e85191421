"""The menu controls: a rotary encoder with push, or four buttons, plus Dalmatian's holds.

Any mix of buttons is allowed (``UP``, ``DOWN``, ``SELECT``, ``BACK``, ``HOLD1``..``HOLD5``), with
or without an encoder; the pin map decides. Buttons are :class:`DebouncedButton` s read by
:meth:`Controls.poll` when their edges wake the loop, so a full set costs no thread. The
encoder is gpiozero's ``RotaryEncoder``: quadrature must be followed edge by edge, so it
runs on the GPIO library's edge callbacks (one thread for all pins on a Pi, none on the
mock) and emits from there; its state machine ignores contact bounce by itself.

A button with a hold time emits ``ControlPressed`` on a click and ``ControlHeld`` on a long
press; one without emits ``ControlPressed`` on the press. Either acts at the first read of
the change that acts, once the button has been quiet for the debounce (see
:mod:`~hardware.controls.push_button`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import partial

from gpiozero import RotaryEncoder

from hardware.controls.push_button import DEBOUNCE_S, DebouncedButton
from hardware.errors import building
from hardware.events import Control, ControlHeld, ControlPressed, ControlTurned
from hardware.pins.driver_types import Emit, PinFactory, Ticks
from hardware.pins.edges import earliest


class Controls:
    """Buttons on ``buttons`` (control -> BCM pin) and an optional encoder on pins (A, B)."""

    def __init__(self, buttons: Mapping[Control, int], factory: PinFactory, emit: Emit, *,
                 encoder: tuple[int, int] | None = None, ticks: Ticks = time.monotonic,
                 hold_times: Mapping[Control, float] | None = None,
                 debounce: float = DEBOUNCE_S, waker: Callable[[], None] | None = None) -> None:
        if Control.ROLL in buttons:
            raise ValueError(
                "ROLL is the dice button's; build it with hardware.controls.dice_button")
        holds = dict(hold_times or {})
        self._ticks = ticks
        self._encoder: RotaryEncoder | None = None
        self._buttons: list[DebouncedButton] = []
        try:
            for control, pin in buttons.items():
                self._buttons.append(DebouncedButton(
                    pin, factory, ticks, name=f"{control.name} button",
                    on_press=partial(emit, ControlPressed(control)),
                    on_hold=partial(emit, ControlHeld(control)) if control in holds else None,
                    hold_time=holds.get(control), debounce=debounce, waker=waker))
            if encoder is not None:
                with building("rotary encoder", *encoder):
                    self._encoder = RotaryEncoder(*encoder, max_steps=0, pin_factory=factory)
                self._encoder.when_rotated_clockwise = lambda: emit(ControlTurned(1))
                self._encoder.when_rotated_counter_clockwise = lambda: emit(ControlTurned(-1))
        except BaseException:
            self.close()
            raise

    def poll(self) -> float | None:
        """Read every button once (the encoder reports by itself); when they must be read
        again (None: at the next edge)."""
        now = self._ticks()
        return earliest(button.poll(now) for button in self._buttons)

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        if self._encoder is not None:
            self._encoder.close()
