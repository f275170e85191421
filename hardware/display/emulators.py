"""Screens off the Pi: PNG frames in a folder, an animated GIF, and a live terminal view.

Each is a :class:`~hardware.display.protocol.Display`: ``show(image)`` of a 128x64 one-bit
frame. They use Pillow alone (luma.emulator would pull in pygame, heavy on a Pi Zero 2 W),
and like the OLED driver they do nothing for a frame equal to the last one, so a recording
holds one image per visible change.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, TextIO

from PIL import Image

from hardware.display.protocol import HEIGHT, WIDTH, check_frame
from hardware.pins.driver_types import Ticks

LOOP_FOREVER = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
"""The GIF application extension that makes viewers loop the animation."""
HALF_BLOCKS = (" ", "▄", "▀", "█")
"""Indexed by ``top * 2 + bottom``: one character shows two pixel rows."""


class _ChangedFrames:
    """Remembers the last frame so each emulator can skip repeats."""

    def __init__(self) -> None:
        self._last: bytes | None = None

    def is_new(self, image: Image.Image) -> bool:
        check_frame(image)
        pixels = image.tobytes()
        if pixels == self._last:
            return False
        self._last = pixels
        return True


class PngFrames:
    """Writes each new frame to ``folder/frame-00001.png``, ``frame-00002.png``, ..."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        self._frames = _ChangedFrames()

    def show(self, image: Image.Image) -> None:
        if not self._frames.is_new(image):
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count += 1
        image.save(self.folder / f"frame-{self.count:05d}.png")


class GifRecorder:
    """Writes new frames into one looping GIF as they come, so a recording of any length
    holds one frame in memory; :meth:`save` writes the last frame and closes the file.

    With ``ticks`` each frame lasts until the next one came, so the GIF plays at the speed
    the screens were shown; without, every frame lasts ``frame_ms``. A frame is written when
    the next one comes (only then is its duration known).
    """

    def __init__(self, path: Path, frame_ms: int = 100, ticks: Ticks | None = None) -> None:
        self.path = path
        self.frame_ms = frame_ms
        self.frames = 0
        self._ticks = ticks
        self._held: tuple[Image.Image, float] | None = None  # shown, its duration not known
        self._file: BinaryIO | None = None
        self._frames = _ChangedFrames()

    def show(self, image: Image.Image) -> None:
        if not self._frames.is_new(image):
            return
        shown_at = self._ticks() if self._ticks else 0.0
        if self._held is not None:
            held, held_at = self._held
            gap = round((shown_at - held_at) * 1000) if self._ticks else self.frame_ms
            # viewers play frames shorter than 20 ms slower, so none is recorded shorter
            self._write(held, max(gap, 20))
        self._held = (image.convert("L"), shown_at)
        self.frames += 1

    def save(self) -> None:
        """Write the last frame and end the GIF; with no frame shown there is no file."""
        if self._held is not None:
            self._write(self._held[0], self.frame_ms)
            self._held = None
        if self._file is not None:
            self._file.write(b";")  # the GIF trailer
            self._file.close()
            self._file = None

    def _write(self, image: Image.Image, duration_ms: int) -> None:
        from PIL import GifImagePlugin  # 25 ms of imports that only a GIF needs

        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("wb")
            header, _ = GifImagePlugin.getheader(image)
            self._file.writelines(header)
            self._file.write(LOOP_FOREVER)
        self._file.writelines(GifImagePlugin.getdata(image, duration=duration_ms))
        self._file.flush()


def half_block_lines(image: Image.Image) -> list[str]:
    """The frame as ``HEIGHT // 2`` lines of ``WIDTH`` half-block characters."""
    check_frame(image)
    lit = image.convert("L").tobytes()
    lines = []
    for top_row in range(0, HEIGHT, 2):
        top = lit[top_row * WIDTH : (top_row + 1) * WIDTH]
        bottom = lit[(top_row + 1) * WIDTH : (top_row + 2) * WIDTH]
        pairs = zip(top, bottom, strict=True)
        lines.append("".join(HALF_BLOCKS[(t > 0) * 2 + (b > 0)] for t, b in pairs))
    return lines


class TerminalView:
    """Draws each new frame in a box on ``stream``, in place of the last one when
    ``in_place`` (for the simulator's live view), or one below the other (for logs and tests).
    """

    LINES = HEIGHT // 2 + 2  # the frame and its top and bottom border

    def __init__(self, stream: TextIO, in_place: bool = True) -> None:
        self._stream = stream
        self._in_place = in_place
        self._drawn = False
        self._frames = _ChangedFrames()

    def show(self, image: Image.Image) -> None:
        if not self._frames.is_new(image):
            return
        rows = [f"│{line}│" for line in half_block_lines(image)]
        text = "\n".join([f"┌{'─' * WIDTH}┐", *rows, f"└{'─' * WIDTH}┘"]) + "\n"
        if self._in_place and self._drawn:
            text = f"\x1b[{self.LINES}F" + text  # back to the first line of the last frame
        self._stream.write(text)
        self._stream.flush()
        self._drawn = True
