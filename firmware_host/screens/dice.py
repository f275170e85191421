"""Dice faces as pips in squares: a player reads a die's shape quicker than a digit.

A die is 15 pixels square with 3x3 pips one pixel apart; ``solid`` draws it lit with dark
pips, for a die drawn on a lit band or one that is held (kept back from the next throw).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache

from firmware_host.screens.canvas import Canvas

SIZE = 15
GAP = 2
PIP = 3
_PIP_AT = (2, 6, 10)  # pip offsets inside the square, per column and per row
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {  # face -> (column, row) of its pips
    1: ((1, 1),),
    2: ((2, 0), (0, 2)),
    3: ((2, 0), (1, 1), (0, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}


def draw_die(canvas: Canvas, x: int, y: int, face: int, solid: bool = False) -> None:
    """One die with its top-left corner at (x, y); a face outside 1-6 shows a question mark."""
    canvas.blit(x, y, SIZE, face_bitmap(face if face in _PIPS else 0, solid))


@cache
def face_bitmap(face: int, solid: bool) -> tuple[int, ...]:
    """The whole square of one face, drawn once with rectangles and kept as a bitmap."""
    canvas = Canvas()
    canvas.fill(0, 0, SIZE, SIZE, on=solid)
    if not solid:
        canvas.frame(0, 0, SIZE, SIZE)
    for cx, cy in ((0, 0), (SIZE - 1, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1)):
        canvas.dot(cx, cy, on=False)  # rounded corners
    pips = _PIPS.get(face)
    if pips is None:
        canvas.text(5, 4, "?", on=not solid)
    for column, row in pips or ():
        canvas.fill(_PIP_AT[column], _PIP_AT[row], PIP, PIP, on=not solid)
    return canvas.cut(0, 0, SIZE, SIZE)


def dice_width(count: int) -> int:
    return count * SIZE + max(0, count - 1) * GAP


def draw_dice(
    canvas: Canvas, x: int, y: int, faces: Sequence[int], solid: Collection[int] = (),
    marked: Collection[int] = (),
) -> int:
    """A row of dice from (x, y); ``solid`` indexes are drawn lit, ``marked`` ones get a bar
    underneath. Returns the x just after the row."""
    for index, face in enumerate(faces):
        draw_die(canvas, x, y, face, solid=index in solid)
        if index in marked:
            canvas.hline(x + 2, y + SIZE + 1, SIZE - 4)
        x += SIZE + GAP
    return x - GAP if faces else x
