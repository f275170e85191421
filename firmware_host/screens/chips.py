"""Chips told apart by pattern, not colour: filled, hollow, cross, diamond.

A one-bit screen has no green, blue or red, so each colour gets a shape that survives a
glance from across the table; the legend beside the board says which is whose.
"""

from __future__ import annotations

from functools import cache

from firmware_host.screens.canvas import Canvas

CHIP = 6  # pixels square


def draw_chip(canvas: Canvas, x: int, y: int, colour: int, on: bool = True) -> None:
    """Colour 0 filled, 1 hollow, 2 a cross, 3 (and any other) a filled diamond."""
    canvas.stamp(x, y, CHIP, chip_bitmap(colour), on)


@cache
def chip_bitmap(colour: int) -> tuple[int, ...]:
    """The lit pixels of one pattern, drawn once and kept as a bitmap."""
    canvas = Canvas()
    if colour == 0:
        canvas.fill(0, 0, CHIP, CHIP)
    elif colour == 1:
        canvas.frame(0, 0, CHIP, CHIP)
    elif colour == 2:
        for i in range(CHIP):
            canvas.dot(i, i)
            canvas.dot(CHIP - 1 - i, i)
            canvas.dot(i + (1 if i < CHIP - 1 else -1), i)
            canvas.dot(CHIP - 1 - i + (-1 if i < CHIP - 1 else 1), i)
    else:  # a filled diamond: as bold as the filled square, told apart by its corners
        for row, (left, width) in enumerate(((2, 2), (1, 4), (0, 6), (0, 6), (1, 4), (2, 2))):
            canvas.fill(left, row, width, 1)
    return canvas.cut(0, 0, CHIP, CHIP)
