"""Keep the game going when the OLED is missing at start or drops off the bus.

:class:`FallbackDisplay` shows every frame on the OLED while it answers and on a fallback
view (the terminal, or PNG frames on a headless Pi) while it does not. It never waits: the
daemon calls :meth:`FallbackDisplay.tick` from its loop with the time. With a ``probe`` (an
I2C panel: does anything acknowledge its address?) a missing panel is looked for every half
second and opened as soon as it answers, whatever the outage's length; the back-off is kept
for a panel that answers but will not open, and for one that cannot be probed (SPI). No
threads, no sleeps, so tests drive it with plain numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from PIL import Image

from hardware.backoff import Backoff
from hardware.display.protocol import Display, Panel, check_frame
from hardware.errors import HardwareError
from hardware.pins.driver_types import Emit
from hardware.reopen import Reopening
from hardware.status_reporter import StatusReporter

DEVICE = "oled"


class FallbackDisplay:
    """A :class:`~hardware.display.protocol.Display` that opens the OLED with ``open_panel`` when it
    can and reports each change of state as a :class:`~hardware.events.DeviceStatus`.

    ``name`` says which panel in the ready message (``OledConfig.describe()``).
    ``open_panel`` is called only from :meth:`tick`; it raises a
    :class:`~hardware.errors.HardwareError` or ``OSError`` with a one-line message when the
    panel cannot be had. The same message is not reported twice in a row.
    """

    def __init__(
        self,
        open_panel: Callable[[], Panel],
        fallback: Display,
        emit: Emit,
        backoff: Backoff | None = None,
        name: str = "OLED",
        probe: Callable[[], bool] | None = None,
    ) -> None:
        self._open_panel = open_panel
        self._name = name
        self._fallback = fallback
        self._status = StatusReporter(DEVICE, emit)
        self._reopen = Reopening(backoff or Backoff(first=2.0, ceiling=60.0), probe)
        self._panel: Panel | None = None
        self._last_frame: Image.Image | None = None

    @property
    def connected(self) -> bool:
        return self._panel is not None

    def tick(self, now: float) -> None:
        """Try to open the panel if it is missing and its retry time has come."""
        if self._panel is not None or not self._reopen.due(now):
            return
        try:
            panel = self._open_panel()
        except (HardwareError, OSError) as err:
            self._failed(err, now)
            return
        try:
            if self._last_frame is not None:
                panel.show(self._last_frame)
        except (HardwareError, OSError) as err:
            self._close(panel)
            self._failed(err, now)
            return
        self._panel = panel
        self._reopen.opened()
        self._reopen.backoff.reset()
        self._status.report(True, f"{self._name} ready")

    def show(self, image: Image.Image) -> None:
        check_frame(image)
        self._last_frame = image.copy()
        panel = self._panel
        if panel is not None:
            try:
                panel.show(image)
                return
            except (HardwareError, OSError) as err:
                self._close(panel)
                self._panel = None
                self._failed(err, None)  # retried at the next tick
        self._fallback.show(image)

    def _failed(self, err: BaseException, now: float | None) -> None:
        """Report ``err``; an open that failed at ``now`` waits, a panel that dropped off
        while showing (``now`` None) is tried again at the next tick."""
        if now is not None:
            self._reopen.failed(now)
        self._status.report(False, f"{err}; showing the screen elsewhere and retrying")

    @staticmethod
    def _close(panel: Panel) -> None:
        with suppress(HardwareError, OSError):
            panel.close()
