"""A name being typed: the name so far big in the band, the keyboard's keys below in a grid.

The keys are groups of letters as they would be typed next (capitals where a word
starts), then delete and OK, three to a row. The key the cursor is on is lit; once a group
is open, its letters spread apart and the letter the cursor is on is lit. A space
shows as ``_``. One line at the foot says what SELECT does now.
"""

from __future__ import annotations

from firmware_host.screens.banner import BODY_TOP, draw_banner
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL
from firmware_host.screens.message import draw_message
from firmware_host.views import KeyboardView

COLUMNS = 3
ROW = 10
PAD = 3  # pixels left of a key's text in its cell
SPREAD = SMALL.advance + 1  # a letter's room in an open group: the lit one stands apart


def draw_keyboard(canvas: Canvas, view: KeyboardView) -> None:
    shown = view.text + "_" if len(view.text) < 20 else view.text
    draw_banner(canvas, shown, (view.title,))
    cell = canvas.width // COLUMNS
    for index, key in enumerate(view.keys):
        x, y = (index % COLUMNS) * cell, BODY_TOP + 1 + (index // COLUMNS) * ROW
        text = key.replace(" ", "_")
        width = SMALL.width(text) + 2 * PAD - 1
        if index != view.key:
            canvas.text(x + PAD, y + 1, text)
        elif view.letter is None:
            canvas.fill(x, y, width, ROW - 1)
            canvas.text(x + PAD, y + 1, text, on=False)
        else:  # the group open: its letters spaced out, the one the cursor is on lit
            for at, char in enumerate(text):
                left = x + PAD + at * SPREAD
                if at == view.letter:
                    canvas.fill(left - 1, y, SMALL.advance + 1, ROW - 1)
                canvas.text(left, y + 1, char, on=at != view.letter)
    help_line = "▲▼ move  " + ("SELECT type" if view.letter is not None else "SELECT open")
    canvas.text((canvas.width - SMALL.width(help_line)) // 2, canvas.height - 8, help_line)
    if view.message:
        draw_message(canvas, view.message, BODY_TOP)
