"""One push button between a GPIO pin and ground, debounced and timed by explicit polls.

gpiozero's ``Button`` starts a hold thread per button that wakes ten times a second, and its
mock ignores ``bounce_time``. This button is a plain ``InputDevice`` (pull-up, no thread) read
by :meth:`DebouncedButton.poll` with the time from the daemon's injected clock. Given a
``waker``, its pin's edge callback calls it (and does nothing else) and :meth:`poll` says when
it must be read again, so an untouched button is never read; an edge since the last poll
restarts the debounce even when the level read is back where it was.

A button without a hold time acts as soon as its press settles. A button with a hold time
must tell a click from a long press, so it acts on release (click) or when the hold time is
reached while still pressed (hold), never both. A button already pressed when it is built
(stuck, or a finger on it) does nothing until it has been released.
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero import InputDevice

from hardware.errors import building
from hardware.pins.driver_types import PinFactory

Action = Callable[[], None]
DEBOUNCE_S = 0.02


class DebouncedButton:
    """A button on ``pin`` that calls ``on_press`` for a press and ``on_hold`` for a long one."""

    def __init__(self, pin: int, factory: PinFactory, now: float, *, name: str, on_press: Action,
                 on_hold: Action | None = None, hold_time: float | None = None,
                 debounce: float = DEBOUNCE_S, waker: Action | None = None) -> None:
        if (on_hold is None) != (hold_time is None):
            raise ValueError(f"{name}: give both on_hold and hold_time, or neither")
        self.name = name
        self.pin = pin
        self._on_press = on_press
        self._on_hold = on_hold
        self._hold_time = hold_time
        self._debounce = debounce
        with building(name, pin):
            self._device = InputDevice(pin, pull_up=True, pin_factory=factory)
        self._level = bool(self._device.is_active)  # the latest reading
        self._level_since = now  # when the latest reading began
        self._pressed = self._level  # the settled state
        self._spent = self._level  # this press has done its action (or began before us)
        self._edged = False  # an edge came since the last poll
        self._waker = waker
        if waker is not None:
            self._device.pin.edges = "both"
            self._device.pin.when_changed = self._edge

    def poll(self, now: float) -> float | None:
        """Read the pin once and act on any change that has been stable for the debounce;
        return when it must be read again (None: not until an edge)."""
        edged, self._edged = self._edged, False
        level = bool(self._device.is_active)
        if edged or level != self._level:
            self._level, self._level_since = level, now
        if level != self._pressed and now >= self._level_since + self._debounce:
            self._pressed = level
            if level:
                self._spent = self._hold_time is None
                if self._spent:
                    self._on_press()
            elif not self._spent:
                self._spent = True
                self._on_press()
        if (self._pressed and not self._spent and self._hold_time is not None
                and self._on_hold is not None and now >= self._level_since + self._hold_time):
            self._spent = True
            self._on_hold()
        if level != self._pressed:
            return self._level_since + self._debounce
        if self._pressed and not self._spent and self._hold_time is not None:
            return self._level_since + self._hold_time
        return None

    def _edge(self, _ticks: object, _level: bool) -> None:
        self._edged = True
        assert self._waker is not None
        self._waker()

    @property
    def is_pressed(self) -> bool:
        """The settled state as of the last poll (no pin is read)."""
        return self._pressed

    def close(self) -> None:
        self._device.close()
