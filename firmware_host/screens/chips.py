"""Sequence Dice chips told apart by pattern, not colour: filled, hollow, cross.

A one-bit screen has no green, blue or red, so each colour gets a shape that survives a
glance from across the table; the legend beside the board says which is whose.
"""

from __future__ import annotations

from firmware_host.screens.canvas import Canvas

CHIP = 6  # pixels square


def draw_chip(canvas: Canvas, x: int, y: int, colour: int, on: bool = True) -> None:
    """Colour 0 filled, 1 hollow, 2 a cross (any other: a small centre block)."""
    if colour == 0:
        canvas.fill(x, y, CHIP, CHIP, on)
    elif colour == 1:
        canvas.frame(x, y, CHIP, CHIP, on)
    elif colour == 2:
        for i in range(CHIP):
            canvas.dot(x + i, y + i, on)
            canvas.dot(x + CHIP - 1 - i, y + i, on)
            canvas.dot(x + i + (1 if i < CHIP - 1 else -1), y + i, on)
            canvas.dot(x + CHIP - 1 - i + (-1 if i < CHIP - 1 else 1), y + i, on)
    else:
        canvas.fill(x + 2, y + 2, CHIP - 4, CHIP - 4, on)
