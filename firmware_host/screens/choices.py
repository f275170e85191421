"""A list to choose from, a page at a time, the cursor's row drawn inverted.

The controls step a cursor through the legal choices; the screen shows the page holding it.
When the list is longer than a page, a narrow column at the right says ``n/m`` and arrows
show which way more choices lie; a row beside neither takes the whole width. A row may
carry a value at its right (an option's setting), always drawn whole; the label gives way.
A greyed row (it does not apply now) keeps its place, its label whole behind a cross
(dotted or dimmed letters are noise at this size). The highlighted row, when too long for
its room, scrolls a character a tick (``scroll``), pausing at each end, instead of staying
cut.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from firmware_host.screens.canvas import Box, Canvas
from firmware_host.screens.font import SMALL, fit, spelt

ROW = 9  # a 7-pixel glyph with one pixel above and below
PAUSE = 4  # ticks a scrolling line rests at its start and at its end
GREYED = "\N{MULTIPLICATION SIGN}"  # before a row that does not apply now


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
    It scrolls the text as the font spells it ("山田" as "ShanTian"), a cell a character.
    """
    text = spelt(text)
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

    ``values[i]`` (when given) is drawn at the right of row i; ``greyed`` rows are marked.
    """
    left, top, full, height = box
    rows = rows_in(height)
    page, pages = page_of(len(items), cursor, rows)
    side, marked = 0, set()  # the page column's width, the rows it has a mark on
    if pages > 1:
        label = f"{page + 1}/{pages}"
        side = SMALL.width(label) + 2
        canvas.text_right(left + full - 1, top + 1, label)
        marked.add(0)
        if rows >= 2:
            middle = left + full - side + side // 2 + 1
            if page > 0:
                canvas.text(middle - 3, top + ROW + 1, "▲")
                marked.add(1)
            if page < pages - 1:
                canvas.text(middle - 3, top + (rows - 1) * ROW + 1, "▼")
                marked.add(rows - 1)
    for row, index in enumerate(range(page * rows, min(len(items), (page + 1) * rows))):
        y = top + row * ROW
        width = full - side if row in marked else full  # a row beside no mark takes it all
        selected = index == cursor
        if selected:
            canvas.fill(left, y, width, ROW)
        value = values[index] if index < len(values) else ""
        label, room = items[index], width - 3
        if index in greyed:
            label = f"{GREYED} {label}"
        if value:
            value_left = canvas.text_right(left + width - 2, y + 1, value, on=not selected)
            label, room = f"{label}:", value_left - left - 2 - SMALL.advance
        text = scrolled(label, SMALL.chars_in(room), scroll) if selected else \
            fit(label, SMALL, room)
        canvas.text(left + 2, y + 1, text, on=not selected)
