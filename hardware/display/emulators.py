"""Screens off the Pi: PNG frames in a folder, an animated GIF, and a live terminal view.

Each is a :class:`~hardware.display.protocol.Display`: ``show(image)`` of a 128x64 one-bit
frame. They use Pillow alone (luma.emulator would pull in pygame, heavy on a Pi Zero 2 W),
and like the OLED driver they do nothing for a frame equal to the last one, so a recording
holds one image per visible change.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import TextIO

from PIL import Image

from hardware.display.protocol import HEIGHT, WIDTH, check_frame
from hardware.pins.driver_types import Ticks

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
        self.written: list[Path] = []
        self._frames = _ChangedFrames()

    def show(self, image: Image.Image) -> None:
        if not self._frames.is_new(image):
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"frame-{len(self.written) + 1:05d}.png"
        image.save(path)
        self.written.append(path)


class GifRecorder:
    """Collects new frames and writes them as one looping GIF on :meth:`save`.

    With ``ticks`` each frame lasts until the next one came, so the GIF plays at the speed
    the screens were shown; without, every frame lasts ``frame_ms``.
    """

    def __init__(self, path: Path, frame_ms: int = 100, ticks: Ticks | None = None) -> None:
        self.path = path
        self.frame_ms = frame_ms
        self._ticks = ticks
        self._shots: list[tuple[Image.Image, float]] = []
        self._frames = _ChangedFrames()

    def show(self, image: Image.Image) -> None:
        if self._frames.is_new(image):
            shown_at = self._ticks() if self._ticks else 0.0
            self._shots.append((image.copy(), shown_at))

    def durations_ms(self) -> list[int]:
        """How long each recorded frame is shown in the GIF."""
        if self._ticks is None:
            return [self.frame_ms] * len(self._shots)
        starts = [shown_at for _, shown_at in self._shots]
        gaps = [round((later - earlier) * 1000) for earlier, later in pairwise(starts)]
        # viewers play frames shorter than 20 ms slower, so none is recorded shorter
        return [max(gap, 20) for gap in gaps] + [self.frame_ms] * bool(starts)

    def save(self) -> None:
        """Write the GIF; with no frame shown yet there is nothing to write."""
        if not self._shots:
            return
        first, *rest = [image.convert("L") for image, _ in self._shots]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        first.save(self.path, save_all=True, append_images=rest, duration=self.durations_ms(),
                   loop=0, optimize=False)


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
