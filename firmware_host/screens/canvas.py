"""A frame with the few drawing operations the screens need, all pixel-exact.

Only axis-aligned rectangles, single pixels and bitmaps (glyphs, dice faces) are drawn. The
frame is 64 Python integers, one a pixel row with column 0 in the top bit, so a rectangle
row, a whole line of text or a die row is one ``|=``/``&=`` each; Pillow is used once, to
turn the finished rows into the mode ``"1"`` image every display takes. Per-call Pillow
overhead (a ``paste`` per glyph, a ``putpixel`` per dot) was most of a frame's cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image

from firmware_host.screens.font import GLYPH_W, SMALL, Face, line_rows, spelt, text_rows
from hardware.display.protocol import HEIGHT, ROW_BYTES, WIDTH, frame_from_rows

Box = tuple[int, int, int, int]  # left, top, width, height
_ALL = (1 << WIDTH) - 1


class TextRun(NamedTuple):
    """A line of text as drawn: where, what, how big, lit or dark."""

    x: int
    y: int
    text: str
    scale: int
    on: bool


class Bitmap(tuple[int, ...]):
    """Rows cut from a canvas, with the text runs drawn in them: a piece drawn once, kept
    and stamped again still says what text it holds, so a layout check (no text off the
    frame, none touching its neighbour) sees the text of kept pieces too."""

    texts: tuple[TextRun, ...] = ()


def span(x: int, w: int) -> int:
    """The row bits of columns ``x..x+w-1``, clipped to the frame."""
    left, right = max(x, 0), min(x + w, WIDTH)
    if right <= left:
        return 0
    return ((1 << (right - left)) - 1) << (WIDTH - right)


def place(bits: int, x: int, w: int) -> int:
    """A ``w``-pixel wide bitmap row (its column 0 in its top bit) moved to column ``x``."""
    shift = WIDTH - x - w
    return (bits << shift if shift >= 0 else bits >> -shift) & _ALL


class Canvas:
    """One 128x64 frame being drawn; :meth:`to_image` gives the result."""

    width = WIDTH
    height = HEIGHT

    def __init__(self) -> None:
        self.rows = [0] * HEIGHT
        self.texts: list[TextRun] = []

    def to_image(self) -> Image.Image:
        """The frame as a mode ``"1"`` image (Pillow's raw 1-bit layout is these rows)."""
        return frame_from_rows(b"".join([row.to_bytes(ROW_BYTES, "big") for row in self.rows]))

    def fill(self, x: int, y: int, w: int, h: int, on: bool = True) -> None:
        """Set (or clear) a w x h block."""
        if w <= 0 or h <= 0:
            return
        if self.texts:
            self._forget_texts(x, y, w, h)
        mask = span(x, w)
        rows = self.rows
        if on:
            for r in range(max(y, 0), min(y + h, HEIGHT)):
                rows[r] |= mask
        else:
            mask = ~mask
            for r in range(max(y, 0), min(y + h, HEIGHT)):
                rows[r] &= mask

    def frame(self, x: int, y: int, w: int, h: int, on: bool = True) -> None:
        """A one-pixel outline of a w x h block."""
        if w > 0 and h > 0:
            self.fill(x, y, w, 1, on)
            self.fill(x, y + h - 1, w, 1, on)
            self.fill(x, y, 1, h, on)
            self.fill(x + w - 1, y, 1, h, on)

    def hline(self, x: int, y: int, w: int, on: bool = True) -> None:
        self.fill(x, y, w, 1, on)

    def vline(self, x: int, y: int, h: int, on: bool = True) -> None:
        self.fill(x, y, 1, h, on)

    def dot(self, x: int, y: int, on: bool = True) -> None:
        self.fill(x, y, 1, 1, on)

    def text(self, x: int, y: int, text: str, face: Face = SMALL, on: bool = True) -> int:
        """Draw ``text`` with its top-left at (x, y); returns the x just after it."""
        text = text if text.isascii() else spelt(text)
        width, rows = text_rows(text, face.scale)
        self.stamp(x, y, width, rows, on)
        self.texts.append(TextRun(x, y, text, face.scale, on))
        return x + len(text) * face.advance

    def text_right(self, right: int, y: int, text: str, face: Face = SMALL, on: bool = True) -> int:
        """Draw ``text`` ending at column ``right`` (inclusive); returns its left edge."""
        left = right + 1 - face.width(text)
        self.text(left, y, text, face, on)
        return left

    def stamp(self, x: int, y: int, w: int, bitmap: Sequence[int], on: bool = True) -> None:
        """Set (or clear) the lit pixels of a ``w``-wide bitmap at (x, y); others stay."""
        self._keep_texts(x, y, bitmap)
        rows = self.rows
        if x < 0 or y < 0 or y + len(bitmap) > HEIGHT:  # partly off the frame: clip each row
            for r, bits in enumerate(bitmap, y):
                if 0 <= r < HEIGHT and bits:
                    rows[r] = rows[r] | place(bits, x, w) if on else rows[r] & ~place(bits, x, w)
            return
        shift = WIDTH - x - w  # below 0 when columns past the right edge drop (a text's gap)
        for r, bits in enumerate(bitmap, y):  # the usual case, in a frame's hottest loop
            placed = bits << shift if shift >= 0 else bits >> -shift
            if on:
                rows[r] |= placed
            else:
                rows[r] &= ~placed

    def blit(self, x: int, y: int, w: int, bitmap: Sequence[int]) -> None:
        """Replace a ``w``-wide block at (x, y) with ``bitmap``, dark pixels included."""
        if self.texts:
            self._forget_texts(x, y, w, len(bitmap))
        self._keep_texts(x, y, bitmap)
        if x == 0 and w == WIDTH and 0 <= y <= HEIGHT - len(bitmap):  # whole rows
            self.rows[y : y + len(bitmap)] = bitmap
            return
        mask = ~span(x, w)
        rows = self.rows
        shift = WIDTH - x - w
        if x < 0 or shift < 0 or y < 0 or y + len(bitmap) > HEIGHT:  # partly off the frame
            for r, bits in enumerate(bitmap, y):
                if 0 <= r < HEIGHT:
                    rows[r] = (rows[r] & mask) | place(bits, x, w)
            return
        for r, bits in enumerate(bitmap, y):
            rows[r] = (rows[r] & mask) | bits << shift

    def cut(self, x: int, y: int, w: int, h: int) -> Bitmap:
        """The ``w`` x ``h`` block at (x, y) as a bitmap for :meth:`blit` (inside the frame)."""
        bitmap = Bitmap(
            (row >> (WIDTH - x - w)) & ((1 << w) - 1) for row in self.rows[y : y + h]
        )
        if self.texts:
            bitmap.texts = tuple(run._replace(x=run.x - x, y=run.y - y) for run in self.texts
                                 if x <= run.x < x + w and y <= run.y < y + h)
        return bitmap

    def _forget_texts(self, x: int, y: int, w: int, h: int) -> None:
        """Text drawn over whole is gone (a message box over the body)."""
        self.texts = [run for run in self.texts if not (
            x <= run.x and y <= run.y and run.y + line_rows(run.scale) <= y + h
            and run.x + len(run.text) * (GLYPH_W + 1) * run.scale <= x + w + run.scale)]

    def _keep_texts(self, x: int, y: int, bitmap: Sequence[int]) -> None:
        if isinstance(bitmap, Bitmap) and bitmap.texts:
            self.texts += [run._replace(x=run.x + x, y=run.y + y) for run in bitmap.texts]
