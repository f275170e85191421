"""The journal's clock: local wall-clock time with its offset, what players read on a watch.

Every action is stamped on the way to its write to disk, so the stamp is on the path from a
press to the screen. ``datetime.now().astimezone()`` looks the local offset up afresh each
time, which costs more than the rest of a stamp (bench/journal.py: ``stamp``); the offset
only changes on a minute (daylight saving, or a zone's own change), so it is looked up
once a minute.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from datetime import datetime, tzinfo


def local_zone(timestamp: float) -> tzinfo:
    """The local offset at ``timestamp``, as ``astimezone`` finds it."""
    zone = datetime.fromtimestamp(timestamp).astimezone().tzinfo
    assert zone is not None
    return zone


class LocalClock:
    """A :data:`~firmware_host.journal.Clock` of local time; its offset is found once a
    minute, at the first reading in it."""

    def __init__(self, seconds: Callable[[], float] = time.time,
                 zone_at: Callable[[float], tzinfo] = local_zone) -> None:
        self._seconds = seconds
        self._zone_at = zone_at
        self._until = -math.inf  # when the offset found must be looked up again
        self._zone: tzinfo | None = None

    def __call__(self) -> datetime:
        now = self._seconds()
        if now >= self._until or self._zone is None:
            self._zone = self._zone_at(now)
            self._until = now - now % 60 + 60
        return datetime.fromtimestamp(now, self._zone)


system_clock = LocalClock()
