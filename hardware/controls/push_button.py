"""One push button between a GPIO pin and ground, debounced and timed by explicit polls.

gpiozero's ``Button`` starts a hold thread per button that wakes ten times a second, and its
mock ignores ``bounce_time``. This button is a plain ``InputDevice`` (pull-up, no thread) read
by :meth:`DebouncedButton.poll` with the time from the daemon's injected clock. Given a
``waker``, its pin's edge callback keeps the edge's own level and time (on the daemon's
clock) and wakes the loop; :meth:`poll` then judges the edges in order, each at its own time,
as a reader that never ran late would have, and says when it must be read again, so an
untouched button is never read. A loop held up by a slow write to disk therefore loses no
click and times none wrongly: a click over before the loop reads the pin still counts. A
read that disagrees with the last edge heard (an edge lost) counts as a change at the read.

A button without a hold time acts on its press. A button with a hold time must tell a click
from a long press, so it acts on release (click) or when the hold time is reached while still
pressed (hold), never both. A button already pressed when it is built (stuck, or a finger on
it) does nothing until it has been released.

Debounce is eager where it is safe. Waiting for every change to hold for the debounce (20 ms)
would put those 20 ms between a finger and the referee; taking every change at once would
let contact bounce and electrical glitches act. So the transition that acts (a press without
a hold time, a release with one) is taken at once, provided the level before it had been
quiet (no change) for the debounce and the new level lasted at least :data:`GLITCH_S` (or is
still there at the read): a real press after a rest. Every other change, and any change
while the level is not yet quiet (bounce just after an accepted change), is taken only once
the new level has held for the debounce. Hence bounce after an eager press never makes a
second one (its openings never hold long enough to be a release), and a glitch shorter than
the debounce never clicks a button with a hold time (its press must hold). The build's own
read starts the quiet time, so a change in the first 20 ms is never eager. The price: a
button with a hold time clicks on a contact drop-out of over :data:`GLITCH_S` while held, as
a release would.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from gpiozero import InputDevice

from hardware.errors import building
from hardware.pins.driver_types import PinFactory, Ticks
from hardware.pins.edges import edge_clock

Action = Callable[[], None]
DEBOUNCE_S = 0.02
GLITCH_S = 0.0005
"""A change whose level lasts less than this before the next edge is a glitch, not a press:
an on-time read (the loop answers an edge within about this) would not have seen it."""


class DebouncedButton:
    """A button on ``pin`` that calls ``on_press`` for a press and ``on_hold`` for a long one."""

    def __init__(self, pin: int, factory: PinFactory, ticks: Ticks, *, name: str,
                 on_press: Action, on_hold: Action | None = None,
                 hold_time: float | None = None, debounce: float = DEBOUNCE_S,
                 waker: Action | None = None) -> None:
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
        now = ticks()
        self._level = bool(self._device.is_active)  # the latest level, read or heard
        self._level_since = now  # when the latest level began
        self._eager: bool | None = None  # a change taken at once if it is no glitch
        self._pressed = self._level  # the settled state
        self._spent = self._level  # this press has done its action (or began before us)
        self._judged = now  # the edges are judged up to this time
        self._edges: deque[tuple[float, bool]] = deque()  # heard since the last poll
        self._due: float | None = now  # when it must be read next (None: at its next edge)
        self._waker = waker
        self._edge_time = edge_clock(factory, ticks)
        if waker is not None:
            self._device.pin.edges = "both"
            self._device.pin.when_changed = self._edge

    def poll(self, now: float) -> float | None:
        """Judge the edges heard and read the pin once, acting on what changed (see the
        module's docstring); return when it must be read again (None: not until an edge).
        With a waker, a poll made for another input's sake (no edge here, no time of ours
        come) reads nothing: the level is the one last judged."""
        if self._waker is not None and not self._edges and (
                self._due is None or now < self._due):
            return self._due
        while self._edges:
            at, level = self._edges.popleft()
            self._change(min(max(at, self._judged), now), level)
        level = bool(self._device.is_active)
        if level != self._level:  # a change no edge told of: the old level is known only
            self._change(now, level, heard=False)  # up to the last look
        if self._eager is not None:  # still there at the read: no glitch
            self._take_eager()
        self._advance(now)
        self._due = self._next(now)
        return self._due

    def _change(self, at: float, level: bool, *, heard: bool = True) -> None:
        """A change of level at ``at`` (an edge with the level it had unchanged means the
        contact opened and closed again faster than the edges came)."""
        held_to = at if heard else self._judged
        self._advance(held_to)
        if self._eager is not None and held_to - self._level_since >= GLITCH_S:
            self._take_eager()
        self._eager = None
        quiet = held_to - self._level_since >= self._debounce  # the level before had settled
        self._level, self._level_since = level, at
        if quiet and level != self._pressed and level == (self._hold_time is None):
            self._eager = level

    def _take_eager(self) -> None:
        if self._eager == self._level != self._pressed:
            self._accept(self._level)
        self._eager = None

    def _advance(self, now: float) -> None:
        """What time alone decides up to ``now``: a level that held for the debounce is accepted,
        a press that held for the hold time is a hold."""
        self._judged = max(self._judged, now)
        if self._level != self._pressed and now >= self._level_since + self._debounce:
            self._accept(self._level)
        if (self._pressed and not self._spent and self._hold_time is not None
                and self._on_hold is not None and now >= self._level_since + self._hold_time):
            self._spent = True
            self._on_hold()

    def _next(self, now: float) -> float | None:
        quiet_at = self._level_since + self._debounce
        if self._level != self._pressed or now < quiet_at:
            return quiet_at  # to accept the level, or to know it is quiet for the next change
        if self._pressed and not self._spent and self._hold_time is not None:
            return self._level_since + self._hold_time
        return None

    def _accept(self, level: bool) -> None:
        self._pressed = level
        if level:
            self._spent = self._hold_time is None
            if self._spent:
                self._on_press()
        elif not self._spent:
            self._spent = True
            self._on_press()

    def _edge(self, ticks: Any, level: bool) -> None:
        """The pin's callback (any thread): keep the edge, on the daemon's clock, and wake."""
        self._edges.append((self._edge_time(ticks), not level))  # pulled up: low is pressed
        assert self._waker is not None
        self._waker()

    @property
    def is_pressed(self) -> bool:
        """The settled state as of the last poll (no pin is read)."""
        return self._pressed

    def close(self) -> None:
        self._device.close()
