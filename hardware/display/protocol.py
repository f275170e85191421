"""What every screen backend offers: ``show(image)`` of one 128x64 one-bit frame.

The screens are drawn with Pillow on a mode ``"1"`` image of :data:`FRAME_SIZE`; the real OLED
driver (:mod:`hardware.display.oled`), the emulators (:mod:`hardware.display.emulators`) and the
fallback wrapper (:mod:`hardware.display.fallback`) all take such a frame, so the daemon and
the tests do not care which one they hold.

A backend with work to do on a frame before any byte goes (the OLED driver packs and diffs
it) may also offer :class:`Prepares`: ``prepare(image)`` does that work and returns the call
that sends. The daemon's loop prepares a frame while the journal is still writing what the
frame shows, and sends only once it is on disk; :func:`preparer` gives every display that
shape, a plain one's send being its whole ``show``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, cast

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


class _RowsFrame(Image.Image):
    """A frame made from its pixel rows, whose Pillow pixels are made from them only when
    something reads them (a PNG, an emulator, a test); the OLED driver packs the rows.

    Pillow's frombytes costs about 15 µs here and lets go of the GIL twice; a frame is drawn
    while the journal commits on the loop's thread, and each time the GIL is let go the loop
    may take it, only to wait for the frame and hand it back: two thread wakes. Pillow reads
    pixels through ``im`` (after ``load``), which this class makes on first use; a change
    to them (drawing on the frame, which is read-only, makes Pillow replace ``im`` with a
    copy) sets the rows aside."""

    rows: bytes | None

    @classmethod
    def made(cls, rows: bytes) -> _RowsFrame:
        frame = cls()
        frame.__dict__.update(_BLANK.__dict__)  # mode, size, info as the Pillow in use keeps them
        frame.__dict__.update(_pixels=None, rows=rows, info={})
        if "_im" in frame.__dict__:  # newer Pillows read it as "no pixels yet"
            frame.__dict__["_im"] = None
        frame.readonly = 1
        return frame

    @property
    def im(self) -> Any:
        pixels = self.__dict__.get("_pixels")
        rows = self.__dict__.get("rows")
        if pixels is None and rows is not None:
            pixels = Image.frombytes(FRAME_MODE, FRAME_SIZE, rows).im
            self._keep(pixels)
        return pixels

    @im.setter
    def im(self, pixels: Any) -> None:
        self.rows = None  # Pillow replaced the pixels: the rows are not them any more
        self._keep(pixels)

    def _keep(self, pixels: Any) -> None:
        self.__dict__["_pixels"] = pixels
        if "_im" in self.__dict__:
            self.__dict__["_im"] = pixels

    def load(self) -> Any:
        self.im  # noqa: B018  # the pixels, made before Pillow looks for them
        return super().load()


_BLANK = Image.new(FRAME_MODE, FRAME_SIZE)


def frame_from_rows(rows: bytes) -> Image.Image:
    """A frame from its pixel rows in Pillow's own layout of mode ``"1"`` (:data:`ROW_BYTES`
    a row, the left pixel in the top bit), which keeps the rows for :func:`frame_rows`.

    The frame is read-only: drawing on it makes Pillow copy its pixels first, so the rows
    kept are never taken for pixels that changed after."""
    return _RowsFrame.made(rows)


def frame_rows(image: Image.Image) -> bytes:
    """``image.tobytes()``: the rows a frame was made from while they are still its pixels,
    else read from Pillow (which takes longer than packing a page)."""
    rows = image.__dict__.get("rows") if isinstance(image, _RowsFrame) else None
    return rows if rows is not None else image.tobytes()


def check_frame(image: Image.Image) -> None:
    """Refuse a frame of the wrong size or mode before any backend sends a byte of it."""
    if image.mode != FRAME_MODE or image.size != FRAME_SIZE:
        raise ValueError(
            f"a frame must be a mode {FRAME_MODE!r} image of {WIDTH}x{HEIGHT} pixels, "
            f"got mode {image.mode!r} of {image.size[0]}x{image.size[1]}; "
            "draw on hardware.display.protocol.new_frame()"
        )
