"""A refusal or notice in a box over the body, below the band.

The message is what the player must read next ("point 4 is blocked ..."), and refusals
name what is allowed, so it gets the whole body rather than a strip that would cut it short
or leave half-covered rows peeking out. The band above still says whose turn it is.

Nothing of it is ever cut: a refusal too long for the box puts what is allowed first (the
part the player acts on), and one still too long is shown in pages that turn by
themselves, the page's number in the box's top right corner.
"""

from __future__ import annotations

from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, wrap

LINE = 9
ALLOWED = "; allowed: "


def message_pages(text: str, rows: int, pixels: int) -> list[list[str]]:
    """``text`` as pages of at most ``rows`` lines ``pixels`` wide; a refusal's "allowed:"
    part first when the whole does not fit one page. Pages keep their last row for the
    page's number."""
    lines = wrap(text, SMALL, pixels)
    if len(lines) <= rows:
        return [lines]
    if ALLOWED in text:
        why, allowed = text.split(ALLOWED, 1)
        lines = wrap(f"allowed: {allowed}. {why[:1].upper()}{why[1:]}", SMALL, pixels)
        if len(lines) <= rows:
            return [lines]
    per_page = max(1, rows - 1)
    return [lines[start:start + per_page] for start in range(0, len(lines), per_page)]


def draw_message(canvas: Canvas, text: str, top: int, page: int = 0) -> None:
    """``text`` wrapped in a framed box from row ``top`` to the bottom edge; ``page`` counts
    the pages turned since it was shown."""
    height = canvas.height - top
    inner = canvas.width - 4
    rows = max(1, (height - 1) // LINE)  # 2 pixels above the first, 1 below the last
    pages = message_pages(text, rows, inner)
    canvas.fill(0, top, canvas.width, height, on=False)
    canvas.frame(0, top, canvas.width, height)
    shown = page % len(pages)
    for index, line in enumerate(pages[shown]):
        canvas.text(2, top + 2 + index * LINE, line)
    if len(pages) > 1:
        canvas.text_right(canvas.width - 3, top + 2 + (rows - 1) * LINE,
                          f"page {shown + 1}/{len(pages)}")
