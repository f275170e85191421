"""What keeps one serial device from stalling the table: replies written only as far as the
device takes them, a cap on the lines taken from it, and warnings about its bad lines that
come as counts, not as one log line per line.

A device that never reads would block every write; one that floods would fill the loop's
queue and the log. Each part here is bounded in memory and in time per call, and says what
it dropped once per episode rather than once per line.
"""

from __future__ import annotations

import logging
import select
from collections import deque
from typing import Any

log = logging.getLogger("hardware.serial.bridge")

REPLY_LIMIT = 16
"""Replies waiting for a device that does not read; more are dropped."""


def writable(port: Any) -> bool:
    """Whether the port takes at least one byte now (a port without a file descriptor, such
    as ``loop://``, is taken as writable: its writes do not wait on a device)."""
    try:
        fd = port.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return True
    return bool(select.select([], [fd], [], 0)[1])


class Outgoing:
    """Lines for the device, written without waiting: what its buffer cannot take now stays
    here (a line cut by a partial write is finished first, so framing holds), a line equal
    to one already waiting is not queued twice (one ERR brings one full snapshot), and past
    ``limit`` lines new ones are dropped. A device found full is said so once, and once
    again with the count of dropped replies when it reads again."""

    def __init__(self, url: str, limit: int = REPLY_LIMIT) -> None:
        self.url = url
        self.limit = limit
        self.dropped = 0
        self.full = False
        self._lines: deque[bytes] = deque()
        self._partial = b""

    def send(self, line: bytes) -> None:
        if line in self._lines or len(self._lines) >= self.limit:
            self.dropped += 1
            return
        self._lines.append(line)

    def flush(self, port: Any) -> None:
        """Write what the port takes now; raises ``OSError`` when the device is gone."""
        while self._partial or self._lines:
            if not self._partial:
                self._partial = self._lines.popleft()
            written = port.write(self._partial) if writable(port) else 0
            written = len(self._partial) if written is None else written
            self._partial = self._partial[written:]
            if not written:
                if not self.full:
                    self.full = True
                    log.warning("serial device on %s does not read what the host sends; its "
                                "replies wait, and repeated ones are dropped", self.url)
                return
        if self.full:
            log.info("serial device on %s reads again; %s replies were dropped", self.url,
                     f"{self.dropped:,}")
            self.full = False
            self.dropped = 0


class Throttle:
    """At most ``rate`` lines a second, in bursts of up to a second's worth (a token bucket)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._tokens = rate
        self._at: float | None = None

    def grant(self, now: float, wanted: int) -> int:
        """How many of ``wanted`` lines may be taken now."""
        if self._at is not None:
            self._tokens = min(self.rate, self._tokens + (now - self._at) * self.rate)
        self._at = now
        granted = min(wanted, int(self._tokens))
        self._tokens -= granted
        return granted


class BadLineTally:
    """Warnings about a device's bad lines: the first of a minute in full, then the minute's
    count in one line ("1,204 bad lines from /dev/ttyACM0 in the last minute")."""

    def __init__(self, url: str, period: float = 60.0) -> None:
        self.url = url
        self.period = period
        self.total = 0
        self._count = 0
        self._last = ""
        self._window_end: float | None = None

    def add(self, now: float, shown: bytes, reason: str) -> None:
        self.total += 1
        self.flush(now)
        if self._window_end is None:
            self._window_end = now + self.period
            log.warning("serial device on %s sent a bad line %r: %s", self.url, shown, reason)
        self._count += 1
        self._last = reason

    def flush(self, now: float) -> None:
        """At the end of a minute with more than one bad line, log its count."""
        if self._window_end is None or now < self._window_end:
            return
        if self._count > 1:
            log.warning("%s bad lines from %s in the last minute (the last: %s)",
                        f"{self._count:,}", self.url, self._last)
        self._window_end = None
        self._count = 0
