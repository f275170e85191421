"""Edge callbacks that only wake the loop: one :class:`~hardware.events.InputEdge` per burst.

A bouncing contact fires its pin's callback many times before the loop gets round to reading
it; one queued wake-up is enough, so the callback queues one only when none is waiting.
:meth:`Waker.take` (on the loop's thread, before the pins are read) re-arms it: an edge that
comes after the take queues a new wake-up, and one that came before is seen by the reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from hardware.events import InputEdge
from hardware.pins.driver_types import Emit

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
