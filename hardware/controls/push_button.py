"""One push button between a GPIO pin and ground, debounced and timed by explicit polls.

gpiozero's ``Button`` starts a hold thread per button that wakes ten times a second, and its
mock ignores ``bounce_time``. This button is a plain ``InputDevice`` (pull-up, no thread) read
by :meth:`DebouncedButton.poll` with the time from the daemon's injected clock. Given a
``waker``, its pin's edge callback calls it (and does nothing else) and :meth:`poll` says when
it must be read again, so an untouched button is never read; an edge since the last poll
counts as a change even when the level read is back where it was.

A button without a hold time acts on its press. A button with a hold time must tell a click
from a long press, so it acts on release (click) or when the hold time is reached while still
pressed (hold), never both. A button already pressed when it is built (stuck, or a finger on
it) does nothing until it has been released.

Debounce is eager where it is safe. Waiting for every change to hold for the debounce (20 ms)
would put those 20 ms between a finger and the referee; taking every change at once would
let contact bounce and electrical glitches act. So the transition that acts (a press without
a hold time, a release with one) is taken at the first read that sees it, provided the level
before it had been quiet (no edge, no change) for the debounce, as confirmed by a read at
least that long after its last change: a real press after a rest. Every other change, and
any change while the level is not yet quiet (bounce just after an accepted change), is taken
only once the new level has held for the debounce. Hence bounce after an eager press never
makes a second one (its openings never hold long enough to be a release), and a glitch
shorter than the debounce never clicks a button with a hold time (its press must hold). The
build's own read starts the quiet time, so a change in the first 20 ms is never eager. The
price: a button with a hold time clicks on a contact drop-out while held, as a release would.
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
        self._quiet = False  # a read has found the latest reading held for the debounce
        self._pressed = self._level  # the settled state
        self._spent = self._level  # this press has done its action (or began before us)
        self._edged = False  # an edge came since the last poll
        self._due: float | None = now  # when it must be read next (None: at its next edge)
        self._waker = waker
        if waker is not None:
            self._device.pin.edges = "both"
            self._device.pin.when_changed = self._edge

    def poll(self, now: float) -> float | None:
        """Read the pin once and act on a change: at once if it acts and the level before it
        was quiet, else once it has held for the debounce; return when it must be read again
        (None: not until an edge). With a waker, a poll made for another input's sake (no
        edge here, no time of ours come) reads nothing: the level is the one last read."""
        if self._waker is not None and not self._edged and (
                self._due is None or now < self._due):
            return self._due
        self._due = self._read(now)
        return self._due

    def _read(self, now: float) -> float | None:
        edged, self._edged = self._edged, False
        level = bool(self._device.is_active)
        was_quiet = self._quiet
        if edged or level != self._level:
            self._level, self._level_since, self._quiet = level, now, False
        elif now >= self._level_since + self._debounce:
            self._quiet = True
        # a quiet level is the settled one, so was_quiet with a new level means a fresh change
        acts = level == (self._hold_time is None)
        if level != self._pressed and (self._quiet or (was_quiet and acts)):
            self._settle(level)
        if (self._pressed and not self._spent and self._hold_time is not None
                and self._on_hold is not None and now >= self._level_since + self._hold_time):
            self._spent = True
            self._on_hold()
        if not self._quiet:  # to settle the level, or to know it is quiet for the next change
            return self._level_since + self._debounce
        if self._pressed and not self._spent and self._hold_time is not None:
            return self._level_since + self._hold_time
        return None

    def _settle(self, level: bool) -> None:
        self._pressed = level
        if level:
            self._spent = self._hold_time is None
            if self._spent:
                self._on_press()
        elif not self._spent:
            self._spent = True
            self._on_press()

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
