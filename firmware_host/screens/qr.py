"""A QR code on the 128x64 screen: the game night's page, for the players' phone cameras.

Drawn as a phone expects it, dark modules on a lit square with a quiet zone, two pixels a
module (one pixel is too small to focus on at 0.96"). Only the versions that fit the screen's
height that way are drawn: an address up to about 47 characters.

segno is imported when a code is first made: its writers bring in urllib, http.client and
ssl, which the daemon's cold start need not pay for a screen it may never show.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from firmware_host.screens.canvas import Canvas

if TYPE_CHECKING:
    import segno

MODULE = 2  # pixels a module
QUIET = 2  # lit pixels around the code


def qr_size(text: str, height: int) -> int:
    """The square's side in pixels, or 0 when the code for ``text`` does not fit."""
    side = _modules(text) * MODULE + 2 * QUIET
    return side if side <= height else 0


def draw_qr(canvas: Canvas, x: int, y: int, text: str) -> None:
    """The code for ``text`` with its quiet zone, its top left corner at (x, y)."""
    side = _modules(text) * MODULE + 2 * QUIET
    canvas.fill(x, y, side, side)
    for row, line in enumerate(_code(text).matrix):
        for column, dark in enumerate(line):
            if dark:
                canvas.fill(x + QUIET + column * MODULE, y + QUIET + row * MODULE, MODULE,
                            MODULE, on=False)


def _modules(text: str) -> int:
    return len(_code(text).matrix)


@lru_cache(maxsize=4)
def _code(text: str) -> segno.QRCode:
    import segno

    return segno.make_qr(text, error="m", boost_error=True)
