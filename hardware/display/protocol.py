"""What every screen backend offers: ``show(image)`` of one 128x64 one-bit frame.

The screens are drawn with Pillow on a mode ``"1"`` image of :data:`FRAME_SIZE`; the real OLED
driver (:mod:`hardware.display.oled`), the emulators (:mod:`hardware.display.emulators`) and the
fallback wrapper (:mod:`hardware.display.fallback`) all take such a frame, so the daemon and
the tests do not care which one they hold.
"""

from __future__ import annotations

from typing import Protocol

from PIL import Image

WIDTH = 128
HEIGHT = 64
FRAME_SIZE = (WIDTH, HEIGHT)
FRAME_MODE = "1"


class Display(Protocol):
    """A screen that shows whole frames; backends decide how much of a frame to send."""

    def show(self, image: Image.Image) -> None: ...


class Panel(Display, Protocol):
    """A display on a bus, which holds the bus open until :meth:`close`."""

    def close(self) -> None: ...


def new_frame() -> Image.Image:
    """A blank frame to draw a screen on."""
    return Image.new(FRAME_MODE, FRAME_SIZE)


ROW_BYTES = WIDTH // 8


def frame_from_rows(rows: bytes) -> Image.Image:
    """A frame from its pixel rows in Pillow's own layout of mode ``"1"`` (:data:`ROW_BYTES`
    a row, the left pixel in the top bit)."""
    return Image.frombytes(FRAME_MODE, FRAME_SIZE, rows)


def check_frame(image: Image.Image) -> None:
    """Refuse a frame of the wrong size or mode before any backend sends a byte of it."""
    if image.mode != FRAME_MODE or image.size != FRAME_SIZE:
        raise ValueError(
            f"a frame must be a mode {FRAME_MODE!r} image of {WIDTH}x{HEIGHT} pixels, "
            f"got mode {image.mode!r} of {image.size[0]}x{image.size[1]}; "
            "draw on hardware.display.protocol.new_frame()"
        )
