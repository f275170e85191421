"""The board sensors disagree with the game: what to put right, one line a cell.

Players look at this screen while their hands are on the board, so each fix has a line of
its own, and a count says how many more wait beyond the screen.
"""

from __future__ import annotations

from firmware_host.screens.banner import draw_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, wrap
from firmware_host.views import BoardFixView

LINE = 9
INDENT = 7


def draw_board_fix(canvas: Canvas, view: BoardFixView) -> None:
    """Each fix behind a marker, wrapped; a last line counts the fixes that did not fit."""
    top = draw_title(canvas, view.title) + 1
    rows = (canvas.height - top) // LINE
    lines: list[tuple[str, str]] = []  # (marker, text)
    for shown, fix in enumerate(view.fixes):
        parts = wrap(fix, SMALL, canvas.width - INDENT)
        if len(lines) + len(parts) > rows or (
                len(lines) + len(parts) == rows and shown < len(view.fixes) - 1):
            lines = lines[: rows - 1]
            lines.append(("", f"… and {len(view.fixes) - shown} more"))
            break
        lines.extend(("▶" if i == 0 else "", part) for i, part in enumerate(parts))
    for index, (marker, text) in enumerate(lines):
        y = top + 1 + index * LINE
        canvas.text(0, y, marker)
        canvas.text(INDENT, y, text)
