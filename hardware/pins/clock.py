"""A clock that moves only when told: the ``ticks`` for tests, benchmarks and mock runs."""

from __future__ import annotations


class ManualClock:
    """Call it for the time in seconds; :meth:`advance` moves it on."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self.now += seconds
        return self.now
