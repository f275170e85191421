"""gpiozero's mock pin with a short memory, for mock runs that last an evening.

``MockPin`` appends every change of level to its ``states`` list, for ``assert_states`` in
tests, and never forgets one. The reed matrix drives each row pin low and high again on every
scan, so on mock pins a 6x6 board scanned every 5 ms leaves 2,400 records a second: about
13 MB a minute, gigabytes for a long simulator session.
:class:`ShortMemoryPin` keeps the last :data:`HISTORY` changes, which is plenty for
``assert_states`` on a short sequence of presses.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from gpiozero.pins.mock import MockPin

HISTORY = 1000


class ShortMemoryPin(MockPin):  # type: ignore[misc]  # gpiozero is untyped
    """A :class:`MockPin` whose ``states`` holds at most its last :data:`HISTORY` changes."""

    states: deque[Any]

    def clear_states(self) -> None:
        super().clear_states()
        self.states = deque(self.states, maxlen=HISTORY)
