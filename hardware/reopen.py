"""When to try opening a device again: the serial device, the OLED.

A device that is unplugged or off the bus can often be seen coming back cheaply: a USB
serial device's node reappears, an I2C panel answers its address again. While such a
``present`` check says it is gone, nothing is opened, and the check runs every
``check_every`` seconds, so the device is opened within that of its return, whatever the
outage's length. The back-off is kept for a device that is there but will not open
(permissions, a busy port, a firmware still booting), where retrying every poll would only
spin. A device with no such check (``loop://``, an SPI panel) is retried on the back-off
alone.
"""

from __future__ import annotations

from collections.abc import Callable

from hardware.backoff import Backoff

CHECK_S = 0.5
"""How often a missing device is looked for: it is opened within this of coming back."""


class Reopening:
    """Says when an open is due. ``present`` is cheap and never raises."""

    def __init__(self, backoff: Backoff, present: Callable[[], bool] | None = None,
                 check_every: float = CHECK_S) -> None:
        self.backoff = backoff
        self.missing = False
        self._present = present
        self._check_every = check_every
        self._check_at = 0.0
        self._retry_at: float | None = None  # None: open at the next poll

    def due(self, now: float) -> bool:
        """Whether to try opening now; updates :attr:`missing`."""
        if self._present is not None and (self.missing or self._retry_at is not None):
            if now >= self._check_at:
                self._check_at = now + self._check_every
                present = self._present()
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
        self._check_at = now  # and look at once whether it is still there

    def opened(self) -> None:
        self._retry_at = None
        self.missing = False
