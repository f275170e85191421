"""A full-screen notice: the night's standings, shutting down, a fault."""

from __future__ import annotations

from firmware_host.screens.banner import draw_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, fit, wrap
from firmware_host.screens.qr import draw_qr, qr_size
from firmware_host.views import NoticeView

LINE = 9


def draw_notice(canvas: Canvas, view: NoticeView) -> None:
    """The title band, then the lines, each wrapped; what does not fit ends in ``…``.
    With a QR code, the code takes the right of the screen and the rest the left."""
    side = qr_size(view.qr, canvas.height) if view.qr else 0
    if side:
        width = canvas.width - side - 1
        draw_qr(canvas, canvas.width - side, (canvas.height - side) // 2, view.qr)
        canvas.fill(0, 0, width, 9)
        canvas.text(1, 1, fit(view.title, SMALL, width - 2), on=False)
        top = 10
    else:
        width = canvas.width
        top = draw_title(canvas, view.title) + 1
    rows = (canvas.height - top) // LINE
    lines = [part for line in view.lines for part in (wrap(line, SMALL, width) or [""])]
    if len(lines) > rows:
        lines = [*lines[: rows - 1], fit(lines[rows - 1] + " …", SMALL, width)]
    for index, line in enumerate(lines):
        canvas.text(0, top + 1 + index * LINE, line)
