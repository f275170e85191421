"""A frame with the few drawing operations the screens need, all pixel-exact.

Only axis-aligned rectangles, single pixels and pasted glyph masks are used: Pillow draws
those identically in every release, unlike anti-aliased or curved primitives.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from firmware_host.screens.font import SMALL, Face, glyph
from hardware.display.protocol import HEIGHT, WIDTH, new_frame

Box = tuple[int, int, int, int]  # left, top, width, height
ON, OFF = 255, 0  # what Pillow itself stores for a lit and a dark pixel of a mode "1" image


def ink(on: bool) -> int:
    return ON if on else OFF


class Canvas:
    """One 128x64 frame being drawn; ``image`` is the result."""

    width = WIDTH
    height = HEIGHT

    def __init__(self) -> None:
        self.image = new_frame()
        self._draw = ImageDraw.Draw(self.image)

    def fill(self, x: int, y: int, w: int, h: int, on: bool = True) -> None:
        """Set (or clear) a w x h block."""
        if w > 0 and h > 0:
            self._draw.rectangle((x, y, x + w - 1, y + h - 1), fill=ink(on))

    def frame(self, x: int, y: int, w: int, h: int, on: bool = True) -> None:
        """A one-pixel outline of a w x h block."""
        if w > 0 and h > 0:
            self._draw.rectangle((x, y, x + w - 1, y + h - 1), outline=ink(on))

    def hline(self, x: int, y: int, w: int, on: bool = True) -> None:
        self.fill(x, y, w, 1, on)

    def vline(self, x: int, y: int, h: int, on: bool = True) -> None:
        self.fill(x, y, 1, h, on)

    def dot(self, x: int, y: int, on: bool = True) -> None:
        if 0 <= x < WIDTH and 0 <= y < HEIGHT:
            self.image.putpixel((x, y), ink(on))

    def text(self, x: int, y: int, text: str, face: Face = SMALL, on: bool = True) -> int:
        """Draw ``text`` with its top-left at (x, y); returns the x just after it."""
        colour = ink(on)
        for char in text:
            if char != " ":
                self.image.paste(colour, (x, y), glyph(char, face.scale))
            x += face.advance
        return x

    def text_right(self, right: int, y: int, text: str, face: Face = SMALL, on: bool = True) -> int:
        """Draw ``text`` ending at column ``right`` (inclusive); returns its left edge."""
        left = right + 1 - face.width(text)
        self.text(left, y, text, face, on)
        return left

    def paste(self, image: Image.Image, x: int, y: int) -> None:
        self.image.paste(image, (x, y))
