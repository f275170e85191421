"""A refusal or notice in a box over the body, below the band.

The message is what the player must read next ("point 4 is blocked ..."), and refusals
name what is allowed, so it gets the whole body rather than a strip that would cut it short
or leave half-covered rows peeking out. The band above still says whose turn it is.
"""

from __future__ import annotations

from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, wrap

LINE = 9


def draw_message(canvas: Canvas, text: str, top: int) -> None:
    """``text`` wrapped in a framed box from row ``top`` to the bottom edge."""
    height = canvas.height - top
    inner = canvas.width - 4
    room = max(1, (height - 3) // LINE)
    lines = wrap(text, SMALL, inner)
    if len(lines) > room:
        last = lines[room - 1]
        chars = SMALL.chars_in(inner)
        lines = [*lines[: room - 1], (last if len(last) < chars else last[: chars - 1]) + "…"]
    canvas.fill(0, top, canvas.width, height, on=False)
    canvas.frame(0, top, canvas.width, height)
    for index, line in enumerate(lines):
        canvas.text(2, top + 2 + index * LINE, line)
