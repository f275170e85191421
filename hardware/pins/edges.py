"""Edge callbacks that only wake the loop: one :class:`~hardware.events.InputEdge` per burst.

A bouncing contact fires its pin's callback many times before the loop gets round to reading
it; one queued wake-up is enough, so the callback queues one only when none is waiting.
:meth:`Waker.take` (on the loop's thread, before the pins are read) re-arms it: an edge that
comes after the take queues a new wake-up, and one that came before is seen by the reads.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from hardware.events import InputEdge
from hardware.pins.driver_types import Emit, PinFactory, Ticks

WAKE = InputEdge()


class Waker:
    """Call it from any edge callback; it puts :data:`WAKE` on ``emit`` once per burst."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._pending = False

    def __call__(self) -> None:
        if not self._pending:
            self._pending = True
            self._emit(WAKE)

    def take(self) -> bool:
        """Whether a wake-up was pending; the next edge queues a new one."""
        pending, self._pending = self._pending, False
        return pending


def earliest(deadlines: Iterable[float | None]) -> float | None:
    """The first of the times drivers asked to be read again; None when none asked."""
    return min((d for d in deadlines if d is not None), default=None)


def edge_clock(factory: PinFactory, ticks: Ticks) -> Callable[[Any], float]:
    """Converts the ticks an edge callback is given (the pin library's time of the edge) to
    the daemon's clock ``ticks``, by how long ago the edge was: called in the callback, it
    gives the edge's own time however late the callback ran. Only a clock that runs in real
    time (``time.monotonic``, the daemon's) moves on while a callback is late; on any other
    (a test's manual clock) the edge is at the clock's time of its callback, which the mock
    pins call as they are driven."""

    def convert(edge_ticks: Any) -> float:
        now = ticks()
        if edge_ticks is None or ticks is not time.monotonic:
            return now
        lag: float = factory.ticks_diff(factory.ticks(), edge_ticks)
        return now - max(0.0, lag)

    return convert
