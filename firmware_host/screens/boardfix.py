"""The board sensors disagree with the game: what to put right, one line a cell.

Players look at this screen while their hands are on the board, so each fix has a line of
its own, and a count says how many more wait beyond the screen. Why the board was refused
(a chip on a cell the roll does not allow, and what it allows) stands above the fixes,
whole: in pages when it is long. A throw the fixes follow shows its dice in the band, so
no throw goes unseen under the fixes (the companion moving a marker for it, a switch
failing as the players play on).
"""

from __future__ import annotations

from firmware_host.screens.banner import BODY_TOP, draw_banner, draw_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, wrap
from firmware_host.screens.message import message_pages
from firmware_host.views import BoardFixView

LINE = 9
INDENT = 7


def draw_board_fix(canvas: Canvas, view: BoardFixView) -> None:
    """Each fix behind a marker, wrapped; a last line counts the fixes that did not fit.
    Below them, in the rows left (two at least), why the board was refused."""
    if view.dice:
        draw_banner(canvas, view.title, (), view.dice)
        top = BODY_TOP + 1
    else:
        top = draw_title(canvas, view.title) + 1
    rows = (canvas.height - top) // LINE
    lines = fix_lines(view.fixes, rows - 2 if view.message else rows, canvas.width - INDENT)
    if view.message:
        room = rows - len(lines)
        pages = message_pages(view.message, room, canvas.width - INDENT)
        shown = view.page % len(pages)
        lines += [("", line) for line in pages[shown]]
        if len(pages) > 1:
            lines.append(("", f"page {shown + 1}/{len(pages)}"))
    for index, (marker, text) in enumerate(lines):
        y = top + 1 + index * LINE
        canvas.text(0, y, marker)
        canvas.text(INDENT, y, text)


def fix_lines(fixes: tuple[str, ...], rows: int, pixels: int) -> list[tuple[str, str]]:
    """The fixes as (marker, text) lines in ``rows``, the last counting those left out."""
    lines: list[tuple[str, str]] = []
    for done, fix in enumerate(fixes):
        parts = wrap(fix, SMALL, pixels)
        if len(lines) + len(parts) > rows or (
                len(lines) + len(parts) == rows and done < len(fixes) - 1):
            lines = lines[: rows - 1]
            lines.append(("", f"… and {len(fixes) - done} more"))
            break
        lines.extend(("▶" if i == 0 else "", part) for i, part in enumerate(parts))
    return lines
