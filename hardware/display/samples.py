"""Frames with known content: a typical game screen and an alignment pattern.

Benchmarks and tests measure what a one-line change costs on the typical screen; the
selftest shows the pattern so a builder can see every edge and both page halves of the panel
light up.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from hardware.display.protocol import HEIGHT, WIDTH, new_frame

LINE_HEIGHT = 12


def sample_screen(score: int) -> Image.Image:
    """A title, a rule and four lines of text; only the score line depends on ``score``."""
    frame = new_frame()
    draw = ImageDraw.Draw(frame)
    draw.text((0, 0), "Sequence Dice", fill=1)
    draw.line((0, LINE_HEIGHT - 1, WIDTH - 1, LINE_HEIGHT - 1), fill=1)
    lines = ["Turn: Player 2", "Dice: 3 + 5 = 8", f"Score: {score} to 12", "Place on a free 8"]
    for index, text in enumerate(lines):
        draw.text((0, LINE_HEIGHT + 2 + index * LINE_HEIGHT), text, fill=1)
    return frame


def alignment_pattern() -> Image.Image:
    """A border, both diagonals and a checkerboard in the top-left page."""
    frame = new_frame()
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    draw.line((0, 0, WIDTH - 1, HEIGHT - 1), fill=1)
    draw.line((0, HEIGHT - 1, WIDTH - 1, 0), fill=1)
    for x in range(2, 18):
        for y in range(2, 8):
            if (x + y) % 2:
                frame.putpixel((x, y), 1)
    return frame
