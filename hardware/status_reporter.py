"""One DeviceStatus per change of a device's state, not one per retry.

A device that stays missing is retried again and again; the screen and the log need to hear
about it once, and again only when something new happens (it came back, or failed another
way).
"""

from __future__ import annotations

from hardware.events import DeviceStatus
from hardware.pins.driver_types import Emit


class StatusReporter:
    """Emits a :class:`~hardware.events.DeviceStatus` for ``device`` unless it repeats the
    last one."""

    def __init__(self, device: str, emit: Emit) -> None:
        self.device = device
        self._emit = emit
        self._last: DeviceStatus | None = None

    def report(self, connected: bool, message: str) -> None:
        status = DeviceStatus(self.device, connected, message)
        if status != self._last:
            self._last = status
            self._emit(status)
