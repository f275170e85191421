"""The key line across the top: whose turn (or who won) in big letters, on a lit band.

The band is the first thing a player looks for, so it is the same on every game screen:
big dark text on the left, an optional note of one or two small lines and optional dice on
the right. A note gives way to a title that needs its room; the dice never do. A title too
long for big letters is drawn small, whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from firmware_host.screens import dice as dice_faces
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import BIG, SMALL, fit
from games.core import GameState

HEIGHT = 16
BODY_TOP = HEIGHT + 1  # first row below the band and its one-pixel gap
PAGE_ROWS = 8
"""Rows the panel sends as one page (page N is rows 8N to 8N+7): a line of small text that
changes by itself costs one page when its capitals sit inside one, two when it straddles."""


def draw_banner(
    canvas: Canvas, title: str, note: Sequence[str] = (), dice: Sequence[int] = ()
) -> None:
    """The band with ``title`` big, ``note`` (up to two small lines) and ``dice`` at the right
    (the first thing a screen draws: the band's rows are replaced whole)."""
    canvas.blit(0, 0, canvas.width, banner_bitmap(title, tuple(note), tuple(dice)))


@lru_cache(maxsize=512)
def banner_bitmap(title: str, note: tuple[str, ...], dice: tuple[int, ...]) -> tuple[int, ...]:
    """The band's rows, drawn once for each title, note and dice and kept: the band stays
    the same over most frames (a cursor's move, a board change), and it is a tenth of a
    frame's drawing."""
    canvas = Canvas()
    canvas.fill(0, 0, canvas.width, HEIGHT)
    right = canvas.width - 1
    if dice:
        left = right + 1 - dice_faces.dice_width(len(dice))
        dice_faces.draw_dice(canvas, left, 0, dice)  # dark squares on the lit band
        for index in range(len(dice)):
            x = left + index * (dice_faces.SIZE + dice_faces.GAP)
            for cx in (x, x + dice_faces.SIZE - 1):
                canvas.dot(cx, 0)
                canvas.dot(cx, dice_faces.SIZE - 1)
        right = left - 3
    lines = list(note)[:2]
    if lines and BIG.width(title) > right - 1 - max(SMALL.width(n) for n in lines) - 4:
        lines = []  # the title matters more than the note
    if lines:
        width = max(SMALL.width(line) for line in lines)
        tops = (4,) if len(lines) == 1 else (0, 8)
        for line, top in zip(lines, tops, strict=False):
            canvas.text_right(right - 1, top, line, on=False)
        right -= width + 4
    if BIG.width(title) <= right - 1:
        canvas.text(1, 1, title, BIG, on=False)
    else:  # a long name whole in small letters rather than cut in big ones
        canvas.text(1, 4, fit(title, SMALL, right - 1), on=False)
    return canvas.cut(0, 0, canvas.width, HEIGHT)


def draw_title(canvas: Canvas, title: str) -> int:
    """A band for a menu or notice title: big when it fits, else small; returns the body top."""
    if BIG.width(title) <= canvas.width - 2:
        draw_banner(canvas, title)
        return BODY_TOP
    canvas.fill(0, 0, canvas.width, 9)
    canvas.text(1, 1, fit(title, SMALL, canvas.width - 2), on=False)
    return 10


def turn_title(game: GameState[Any], thrower: int | None = None) -> str:
    """Whose turn it is, as the band says it: ``thrower``'s while their throw tumbles."""
    player = game.current_player if thrower is None else thrower
    return "game over" if player is None else game.name(player)
