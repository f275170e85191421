"""What every screen backend offers: ``show(image)`` of one 128x64 one-bit frame.

The screens are drawn with Pillow on a mode ``"1"`` image of :data:`FRAME_SIZE`; the real OLED
driver (:mod:`hardware.display.oled`), the emulators (:mod:`hardware.display.emulators`) and the
fallback wrapper (:mod:`hardware.display.fallback`) all take such a frame, so the daemon and
the tests do not care which one they hold.

A backend with work to do on a frame before any byte goes (the OLED driver packs and diffs
it) may also offer :class:`Prepares`: ``prepare(image)`` does that work and returns the call
that sends, so a frame can be readied and sent later, or dropped; :func:`preparer` gives
every display that shape, a plain one's send being its whole ``show``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol, cast

from PIL import Image

WIDTH = 128
HEIGHT = 64
FRAME_SIZE = (WIDTH, HEIGHT)
FRAME_MODE = "1"


class Display(Protocol):
    """A screen that shows whole frames; backends decide how much of a frame to send."""

    def show(self, image: Image.Image) -> None: ...


Send = Callable[[], None]
"""Sends a prepared frame."""


class Prepares(Protocol):
    """A display that can ready a frame before it may be sent; ``show(image)`` must equal
    ``prepare(image)()``. Preparing sends nothing and leaves the display as it was, so a
    prepared frame may also be dropped."""

    def prepare(self, image: Image.Image) -> Send: ...


def preparer(display: Display) -> Callable[[Image.Image], Send]:
    """``display``'s own prepare, or one that leaves all the work to the send. (Looked up
    by name: ``isinstance`` against a protocol costs microseconds a frame.)"""
    if hasattr(display, "prepare"):
        return cast(Prepares, display).prepare

    def prepare(image: Image.Image) -> Send:
        return partial(display.show, image)

    return prepare


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
