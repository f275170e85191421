"""A full-screen notice: the night's standings, shutting down, a fault."""

from __future__ import annotations

from firmware_host.screens.banner import draw_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, fit, wrap
from firmware_host.views import NoticeView

LINE = 9


def draw_notice(canvas: Canvas, view: NoticeView) -> None:
    """The title band, then the lines, each wrapped; what does not fit ends in ``…``."""
    top = draw_title(canvas, view.title) + 1
    rows = (canvas.height - top) // LINE
    lines = [part for line in view.lines for part in (wrap(line, SMALL, canvas.width) or [""])]
    if len(lines) > rows:
        lines = [*lines[: rows - 1], fit(lines[rows - 1] + " …", SMALL, canvas.width)]
    for index, line in enumerate(lines):
        canvas.text(0, top + 1 + index * LINE, line)
