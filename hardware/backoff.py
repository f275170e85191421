"""Retry delays that grow, for devices that may come back (the OLED, the serial board).

A device that is gone stays gone for a while: retrying at a doubling interval keeps a
missing panel or unplugged board from costing a bus transaction every loop, while a device
that comes back is found again within ``ceiling`` seconds. Callers own the clock; this only
says how long to wait.
"""

from __future__ import annotations


class Backoff:
    """Delays ``first``, ``2*first``, ... capped at ``ceiling``; :meth:`reset` after a success."""

    def __init__(self, first: float = 1.0, ceiling: float = 30.0) -> None:
        if not 0 < first <= ceiling:
            raise ValueError(f"back-off needs 0 < first <= ceiling, got {first} and {ceiling}")
        self.first = first
        self.ceiling = ceiling
        self._failures = 0

    def next_delay(self) -> float:
        """The wait before the next attempt; each call counts one more failure."""
        delay = min(self.ceiling, self.first * 2.0 ** min(self._failures, 32))
        self._failures += 1
        return delay

    def reset(self) -> None:
        self._failures = 0
