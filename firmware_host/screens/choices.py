"""A list to choose from, a page at a time, the cursor's row drawn inverted.

The controls step a cursor through the legal choices; the screen shows the page holding it.
When the list is longer than a page, a narrow column at the right says ``n/m`` and arrows
show which way more choices lie. A row may carry a value at its right (an option's
setting), always drawn whole; the label gives way. A greyed row (it does not apply now)
keeps its place, drawn in dotted letters. The highlighted row, when too long for its room,
scrolls a character a tick (``scroll``), pausing at each end, instead of staying cut.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from firmware_host.screens.canvas import Box, Canvas
from firmware_host.screens.font import SMALL, fit, text_rows

ROW = 9  # a 7-pixel glyph with one pixel above and below
PAUSE = 4  # ticks a scrolling line rests at its start and at its end
_DOTS = int("10" * 64, 2)  # every other column: a greyed row's letters


def rows_in(height: int) -> int:
    return max(1, height // ROW)


def page_of(count: int, cursor: int, rows: int) -> tuple[int, int]:
    """(page index, page count) for the page that holds ``cursor``."""
    pages = max(1, -(-count // rows))
    return min(max(cursor, 0), max(count - 1, 0)) // rows, pages


def scrolled(text: str, room: int, scroll: int) -> str:
    """The part of ``text`` shown in ``room`` characters after ``scroll`` ticks.

    A text that fits is shown whole. A longer one starts cut (ending in ``…``), rests
    :data:`PAUSE` ticks, moves a character a tick until its end shows, rests, and starts over.
    """
    if len(text) <= room or room < 2:
        return fit(text, SMALL, room * SMALL.advance)
    overflow = len(text) - room + 1  # the last shown cell keeps room for "…" until the end
    step = scroll % (overflow + 2 * PAUSE)
    offset = min(max(step - PAUSE, 0), overflow)
    if offset >= overflow:
        return text[-room:]
    return text[offset: offset + room - 1] + "…"


def draw_choices(canvas: Canvas, box: Box, items: Sequence[str], cursor: int,
                 values: Sequence[str] = (), greyed: Collection[int] = (),
                 scroll: int = 0) -> None:
    """``items`` in ``box`` (left, top, width, height); the one at ``cursor`` inverted.

    ``values[i]`` (when given) is drawn at the right of row i; ``greyed`` rows are dotted.
    """
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
        value = values[index] if index < len(values) else ""
        label, room = items[index], width - 3
        if value:
            value_left = canvas.text_right(left + width - 2, y + 1, value, on=not selected)
            label, room = f"{label}:", value_left - left - 2 - SMALL.advance
        text = scrolled(label, SMALL.chars_in(room), scroll) if selected else \
            fit(label, SMALL, room)
        _label(canvas, left + 2, y + 1, text, not selected, index in greyed)


def _label(canvas: Canvas, x: int, y: int, text: str, on: bool, greyed: bool) -> None:
    """A row's label; a greyed one has every other pixel of its odd rows taken out (a
    lighter grey reads as noise at this size)."""
    if not greyed:
        canvas.text(x, y, text, on=on)
        return
    width, rows = text_rows(text, SMALL.scale)
    mask = (1 << width) - 1
    dotted = [bits if r % 2 == 0 else bits & (_DOTS >> (128 - width + (x + r) % 2)) & mask
              for r, bits in enumerate(rows)]
    canvas.stamp(x, y, width, dotted, on=on)
