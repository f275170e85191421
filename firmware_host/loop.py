"""The daemon's one event loop: hardware events in, one at a time, to one controller.

Everything that happens at the table arrives as a typed :mod:`hardware.events` value on a
single queue. Drivers only put events there (their ``emit`` is :meth:`Loop.emit`), from
whatever thread the GPIO library calls them on; the loop takes them off in order and hands
each to the :class:`Controller`, then shows the controller's new frame. Game state is touched
by the loop's thread alone, so nothing in the rules or the referee needs a lock.

A serial device is not a driver like the others: it can send faster than the table can take
(a broken firmware, a noisy line). Its events wait in a :class:`DeviceLane`, which is bounded
and taken only when no table event waits, and for no more than half the loop's time, so
buttons and board events keep their place and their polls behind a flood; the device's
bridge reads no more than the lane has room for.

Nothing is polled for its own sake. Time comes from an injected monotonic clock and waiting
is ``get(timeout=...)`` on the queue, computed from the next timer something asked for (a
poller's next reading, the controller's next animation frame, the watchdog's ping); with no
timer running the loop sleeps on the queue until an event comes. An input's edge callback
puts :class:`~hardware.events.InputEdge` there, and the loop answers it by running every
poller at once. Tests drive the loop with a fake clock and a scripted queue and never sleep.

The seam for the referee: it is a :class:`Controller`. ``handle`` applies an event (a game
action is on disk once it returns: the journal commits it first), then ``frame`` gives the
new screen, which goes to the display: what it shows is on disk.
"""

from __future__ import annotations

import math
import queue
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from PIL import Image

from firmware_host.notify import Notifier
from hardware.display.protocol import Display
from hardware.events import Event, InputEdge

Clock = Callable[[], float]
Poller = Callable[[float], float | None]
"""Called with the clock's time when it asked to be, and whenever an input's edge wakes the
loop; returns when it must be called next (None: not before the next edge)."""

POLL_INTERVAL = 0.005  # seconds, for a source that cannot wake the loop (a serial port)


def every(interval: float, poll: Callable[[float], None]) -> Poller:
    """``poll`` as a :data:`Poller` called every ``interval`` seconds: for a source that has
    no way to wake the loop."""

    def poller(now: float) -> float:
        poll(now)
        return now + interval

    return poller


class Controller(Protocol):
    """What the loop drives: :class:`firmware_host.referee.Referee`, or a test's recorder."""

    def handle(self, event: Event) -> None:
        """Act on one event; an illegal move is a message on screen, never an exception."""

    def tick(self, now: float) -> float | None:
        """Time passed (called each time the loop wakes): move animations on; return when
        the next change is due (None: nothing is running)."""

    def frame(self) -> Image.Image | None:
        """The screen as it should look now (None: unchanged since the last call).

        Called after every event and each time the loop wakes, so it must be cheap when
        nothing changed."""


class EventQueue(Protocol):
    """The part of :class:`queue.SimpleQueue` the loop uses; tests script their own."""

    def put(self, item: Event | None) -> None: ...

    def get(self, block: bool = True, timeout: float | None = None) -> Event | None: ...


class DeviceLane:
    """A device's events, at most about ``limit`` of them, waiting behind the table's.

    Put and taken in the loop's thread only (the device is polled by the loop), so a plain
    deque serves. ``room`` tells the device's reader how many more lines it may take now;
    a line may make several events (a board snapshot), so the lane can hold a few more than
    ``limit``, never without bound.
    """

    def __init__(self, limit: int = 32) -> None:
        self.limit = limit
        self._events: deque[Event] = deque()

    def put(self, event: Event) -> None:
        self._events.append(event)

    def take(self) -> Event | None:
        return self._events.popleft() if self._events else None

    def room(self) -> int:
        return max(0, self.limit - len(self._events))

    def __len__(self) -> int:
        return len(self._events)


class Loop:
    """Runs ``controller`` until :meth:`stop`; pings the watchdog while it is healthy.

    The queue is a :class:`queue.SimpleQueue` because its ``put`` may be called from a
    signal handler (``queue.Queue.put`` could deadlock there); ``None`` on it only wakes the
    loop.
    """

    def __init__(
        self,
        controller: Controller,
        display: Display,
        notifier: Notifier,
        *,
        events: EventQueue | None = None,
        clock: Clock = time.monotonic,
        pollers: Sequence[Poller] = (),
        lanes: Sequence[DeviceLane] = (),
    ) -> None:
        self.controller = controller
        self.display = display
        self.notifier = notifier
        self.events: EventQueue = events if events is not None else queue.SimpleQueue()
        self.clock = clock
        self.pollers = tuple(pollers)
        self.lanes = tuple(lanes)
        self.handled = 0
        self._stopping = False
        self._due: list[float | None] = [-math.inf] * len(self.pollers)
        self._next_tick: float | None = -math.inf
        self._next_ping = 0.0
        self._lanes_free = 0.0  # when a device's event may be handled next

    def emit(self, event: Event) -> None:
        """Queue an event: the function every driver is handed. Safe from any thread."""
        self.events.put(event)

    def stop(self) -> None:
        """Finish the event in hand, then leave :meth:`run`. Safe from a signal handler."""
        self._stopping = True
        self.events.put(None)

    def run(self) -> None:
        """Poll once, show the first frame, report READY, then take events until stopped."""
        now = self.clock()
        self._wake(now)
        self._show()
        self.notifier.ready()
        self._next_ping = now
        try:
            while not self._stopping:
                self._step()
        finally:
            self.notifier.stopping()

    def _step(self) -> None:
        now = self.clock()
        if self._wake(now):
            self._show()  # a poller or the controller's timer may have changed the screen
        interval = self.notifier.watchdog_interval
        if interval is not None and now >= self._next_ping:
            self.notifier.watchdog()
            self._next_ping = now + interval
        deadlines = [due for due in (*self._due, self._next_tick) if due is not None]
        if interval is not None:
            deadlines.append(self._next_ping)
        if any(self.lanes):  # a device's event waits, behind any table event
            deadlines.append(self._lanes_free)
        timeout = max(0.0, min(deadlines) - now) if deadlines else None
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            self._take_from_lanes()
            return
        if event is None or self._stopping:
            return
        if isinstance(event, InputEdge):
            self._due = [-math.inf] * len(self.pollers)  # read the inputs at the next step
            return
        self._handle(event)

    def _take_from_lanes(self) -> None:
        """Handle one device event, if one waits and the devices' share of time allows."""
        if not any(self.lanes):
            return
        start = self.clock()
        poll_due = any(due is not None and start >= due for due in self._due)  # buttons first
        if poll_due or start < self._lanes_free or self._stopping:
            return
        event = next((e for lane in self.lanes if (e := lane.take()) is not None), None)
        if event is not None:
            self._handle(event)
            end = self.clock()
            # devices get at most half the loop's time: as long again goes to the table
            self._lanes_free = end + (end - start)

    def _handle(self, event: Event) -> None:
        self.controller.handle(event)
        self.handled += 1
        self._show()
        # after the frame is out: the event may have started an animation, and the
        # controller may use the pause for work the next event would otherwise wait for
        self._next_tick = self.controller.tick(self.clock())
        self._show()

    def _wake(self, now: float) -> bool:
        """Run the pollers and the controller's timer that are due; whether any ran."""
        ran = False
        for index, (poll, due) in enumerate(zip(self.pollers, self._due, strict=True)):
            if due is not None and now >= due:
                self._due[index] = poll(now)
                ran = True
        if self._next_tick is not None and now >= self._next_tick:
            self._next_tick = self.controller.tick(now)
            ran = True
        return ran

    def _show(self) -> None:
        image = self.controller.frame()
        if image is not None:
            self.display.show(image)
