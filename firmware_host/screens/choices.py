"""A list to choose from, a page at a time, the cursor's row drawn inverted.

The controls step a cursor through the legal choices; the screen shows the page holding it.
When the list is longer than a page, a narrow column at the right says ``n/m`` and arrows
show which way more choices lie.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.screens.canvas import Box, Canvas
from firmware_host.screens.font import SMALL, fit

ROW = 9  # a 7-pixel glyph with one pixel above and below


def rows_in(height: int) -> int:
    return max(1, height // ROW)


def page_of(count: int, cursor: int, rows: int) -> tuple[int, int]:
    """(page index, page count) for the page that holds ``cursor``."""
    pages = max(1, -(-count // rows))
    return min(max(cursor, 0), max(count - 1, 0)) // rows, pages


def draw_choices(canvas: Canvas, box: Box, items: Sequence[str], cursor: int) -> None:
    """``items`` in ``box`` (left, top, width, height); the one at ``cursor`` inverted."""
    left, top, width, height = box
    rows = rows_in(height)
    page, pages = page_of(len(items), cursor, rows)
    if pages > 1:
        label = f"{page + 1}/{pages}"
        side = SMALL.width(label) + 2
        width -= side
        canvas.text_right(left + width + side - 1, top + 1, label)
        if rows >= 2:
            middle = left + width + side // 2 + 1
            arrows = ("▲" if page > 0 else "") , ("▼" if page < pages - 1 else "")
            if arrows[0]:
                canvas.text(middle - 3, top + ROW + 1, arrows[0])
            if arrows[1]:
                canvas.text(middle - 3, top + (rows - 1) * ROW + 1, arrows[1])
    for row, index in enumerate(range(page * rows, min(len(items), (page + 1) * rows))):
        y = top + row * ROW
        selected = index == cursor
        if selected:
            canvas.fill(left, y, width, ROW)
        canvas.text(left + 2, y + 1, fit(items[index], SMALL, width - 3), on=not selected)
