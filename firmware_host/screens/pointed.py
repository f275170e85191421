"""A list inside a game screen, the cursor's row marked by a pointer instead of inverted.

A game screen redraws its list after every roll and every move, so what the list costs on
the wire matters: an inverted row lights (and later darkens) its whole width, while a
pointer moving from row to row rewrites a few columns. Menus keep the inverted rows of
:mod:`firmware_host.screens.choices`; the banner already says whose turn it is in big letters.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.screens.canvas import Box, Canvas
from firmware_host.screens.choices import ROW, page_of, rows_in, scrolled
from firmware_host.screens.font import SMALL, fit

POINTER = "▶"
INDENT = SMALL.advance  # the pointer's column
MARK = 3  # the width of the small pointer at the player to move, beside a name or a chip


def draw_mark(canvas: Canvas, x: int, y: int) -> None:
    """A small triangle pointing right, :data:`MARK` pixels wide, on the rows ``y+1`` to
    ``y+5`` of a line of text at ``y``: the player to move, where a name or a chip would
    otherwise be inverted (a turn then moves three columns, not a lit row)."""
    for column in range(MARK):
        canvas.fill(x + column, y + 1 + column, 1, 5 - 2 * column)


def draw_pointed(canvas: Canvas, box: Box, items: Sequence[str], cursor: int,
                 scroll: int = 0) -> None:
    """``items`` in ``box`` (left, top, width, height), a page at a time, ``▶`` at ``cursor``;
    ``n/m`` at the top right when there is more than one page. The item at ``cursor``, when
    too long for its row, scrolls by ``scroll`` ticks (:func:`~.choices.scrolled`)."""
    left, top, width, height = box
    rows = rows_in(height)
    page, pages = page_of(len(items), cursor, rows)
    label = f"{page + 1}/{pages}" if pages > 1 else ""
    if label:
        canvas.text_right(left + width - 1, top + 1, label)
    for row, index in enumerate(range(page * rows, min(len(items), (page + 1) * rows))):
        y = top + row * ROW + 1
        if index == cursor:
            canvas.text(left, y, POINTER)
        room = width - INDENT - (SMALL.width(label) + 2 if row == 0 and label else 0)
        text = scrolled(items[index], SMALL.chars_in(room), scroll) if index == cursor else \
            fit(items[index], SMALL, room)
        canvas.text(left + INDENT, y, text)
