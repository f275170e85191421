"""When to try opening a serial device again.

A USB device that is unplugged has no device node; when it is plugged in again udev makes
the node within a moment, and the table wants it back within a second or two whatever the
outage's length. So while the node is missing the bridge only looks for it, cheaply (one
``stat`` every half second), and tries to open it the moment it appears. The back-off is
kept for a device whose node is there but will not open (permissions, a busy port, a
firmware still booting), where retrying every poll would only spin. A URL with no node
(``loop://``, ``rfc2217://``) is retried on the back-off alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from hardware.backoff import Backoff

NODE_CHECK_S = 0.5
"""How often a missing device node is looked for: reopened within this of reappearing."""


class Reopening:
    """Says when an open is due; ``exists`` is ``os.path.exists`` or a test's stand-in."""

    def __init__(self, url: str, backoff: Backoff,
                 exists: Callable[[str], bool] = os.path.exists,
                 check_every: float = NODE_CHECK_S) -> None:
        self.backoff = backoff
        self.node = None if "://" in url else url
        self.missing = False
        self._exists = exists
        self._check_every = check_every
        self._check_at = 0.0
        self._retry_at: float | None = None  # None: open at the next poll

    def due(self, now: float) -> bool:
        """Whether to try opening now; updates :attr:`missing`."""
        if self.node is not None and (self.missing or self._retry_at is not None):
            if now >= self._check_at:
                self._check_at = now + self._check_every
                present = self._exists(self.node)
                if present and self.missing:  # it has just come back: try at once
                    self.backoff.reset()
                    self._retry_at = None
                self.missing = not present
            if self.missing:
                return False
        return self._retry_at is None or now >= self._retry_at

    def failed(self, now: float) -> None:
        """An open failed or the device vanished: wait before trying again."""
        self._retry_at = now + self.backoff.next_delay()
        self._check_at = now  # and look at once whether its node is still there

    def opened(self) -> None:
        self._retry_at = None
        self.missing = False
