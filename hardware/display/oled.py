"""An SSD1306 or SH1106 driver that sends only what changed since the last frame.

luma.oled's ``display()`` sends all 1,024 bytes of every frame: about 90 ms at the Pi's
default 100 kHz I2C. :class:`PagedOled` keeps the pages it last sent and, for each new frame,
sends only the changed column span of each changed page through the luma device's own
``command()``/``data()``, and nothing at all for an unchanged frame. luma still does the
controller's init sequence and rotation; the daemon builds the device with
:func:`hardware.display.factory.open_oled`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

import luma.core.error
from PIL import Image

from hardware.display.pages import Window, pack_rows, plan_windows, window_data
from hardware.display.protocol import check_frame
from hardware.errors import DeviceMissingError

SSD1306_SET_COLUMNS = 0x21
SSD1306_SET_PAGES = 0x22
SH1106_SET_PAGE = 0xB0
SH1106_SET_LOW_COLUMN = 0x00
SH1106_SET_HIGH_COLUMN = 0x10
SH1106_COLUMN_OFFSET = 2
"""The SH1106 has 132 columns of RAM; a 128-pixel panel shows columns 2 to 129."""


class LumaDevice(Protocol):
    """The part of a luma.oled device the driver uses."""

    def command(self, *cmd: int) -> None: ...

    def data(self, data: Sequence[int]) -> None: ...

    def preprocess(self, image: Image.Image) -> Image.Image: ...

    def cleanup(self) -> None: ...


class Addressing(Protocol):
    """How a controller is told where the next data bytes go."""

    window_cost: int
    """Command bytes one window costs."""
    multi_page: bool
    """Whether one window may span several pages."""

    def commands(self, window: Window) -> tuple[int, ...]: ...


class SSD1306Addressing:
    """Horizontal addressing (luma sets it at init): a column range and a page range."""

    window_cost = 6
    multi_page = True

    def commands(self, window: Window) -> tuple[int, ...]:
        return (
            SSD1306_SET_COLUMNS, window.first_col, window.last_col,
            SSD1306_SET_PAGES, window.first_page, window.last_page,
        )


class SH1106Addressing:
    """Page addressing only: a page and a start column, each page on its own."""

    window_cost = 3
    multi_page = False

    def commands(self, window: Window) -> tuple[int, ...]:
        column = window.first_col + SH1106_COLUMN_OFFSET
        return (
            SH1106_SET_PAGE | window.first_page,
            SH1106_SET_LOW_COLUMN | (column & 0x0F),
            SH1106_SET_HIGH_COLUMN | (column >> 4),
        )


Send = Callable[[], None]
"""Sends a prepared frame."""


class PagedOled:
    """A :class:`~hardware.display.protocol.Display` over a luma device that sends only changes.

    The first frame is sent whole, since what the panel shows is not known; after a failed
    transfer the next frame is sent whole again. A failed transfer raises
    :class:`~hardware.errors.DeviceMissingError` naming the panel (``name``).
    :meth:`prepare` does the packing and diffing apart from the sending, so
    ``bench/daemon.py`` can time the two apart.
    """

    def __init__(self, device: LumaDevice, addressing: Addressing, name: str = "OLED") -> None:
        self._device = device
        self._addressing = addressing
        self._name = name
        self._sent: list[bytes] | None = None
        self._packed: tuple[bytes, list[bytes]] | None = None  # the last frame prepared

    def prepare(self, image: Image.Image) -> Send:
        """Pack ``image`` into pages and find what differs from the panel's; the call
        returned sends that. Nothing goes on the bus until it is called."""
        check_frame(image)
        rows = self._device.preprocess(image).tobytes()
        pages = pack_rows(rows, self._packed)
        self._packed = (rows, pages)
        base = self._sent
        windows = self._plan(base, pages)
        return partial(self._send, pages, base, windows)

    def show(self, image: Image.Image) -> None:
        self.prepare(image)()

    def _plan(self, base: list[bytes] | None, pages: list[bytes]) -> list[Window]:
        return plan_windows(base, pages, self._addressing.window_cost,
                            self._addressing.multi_page)

    def _send(self, pages: list[bytes], base: list[bytes] | None,
              windows: list[Window]) -> None:
        if self._sent is not base:  # another frame went out since the diff: diff again
            windows = self._plan(self._sent, pages)
        if not windows:
            return
        self._sent = None  # if a transfer fails half-way the panel holds an unknown mix
        try:
            for window in windows:
                self._device.command(*self._addressing.commands(window))
                self._device.data(list(window_data(pages, window)))
        except (luma.core.error.Error, OSError) as err:
            raise DeviceMissingError(
                f"{self._name} stopped answering ({err}); check its wiring and power"
            ) from err
        self._sent = pages

    def close(self) -> None:
        """Release the bus; the panel keeps showing the last frame (the device persists)."""
        self._device.cleanup()
