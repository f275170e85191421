"""Dice thrown by hand, typed in with the controls: every die as it stands, the one being set.

The dice are the content, so they are drawn full size in a row, numbered 1..n underneath
in the order they are typed; the die being set is lit with a bar under its number. The
band says which die that is and its face in words a player can check against the table;
one short line at the foot says which control does what, below the dice, never over them.
"""

from __future__ import annotations

from firmware_host.screens.banner import BODY_TOP, draw_banner
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.dice import GAP, SIZE, dice_width, draw_dice
from firmware_host.screens.font import SMALL
from firmware_host.views import DiceEntryView

HELP = "▲▼ face  SELECT next"


def draw_dice_entry(canvas: Canvas, view: DiceEntryView) -> None:
    count = len(view.faces)
    draw_banner(canvas, f"die {view.cursor + 1}/{count}", (f"face {view.faces[view.cursor]}",))
    left = max(0, (canvas.width - dice_width(count)) // 2)
    top = BODY_TOP + 3
    draw_dice(canvas, left, top, view.faces, solid=(view.cursor,))
    for index in range(count):
        x = left + index * (SIZE + GAP)
        label = str(index + 1)
        label_x = x + (SIZE - SMALL.width(label)) // 2
        canvas.text(label_x, top + SIZE + 2, label)
        if index == view.cursor:
            canvas.hline(x + 2, top + SIZE + 10, SIZE - 4)
    canvas.text((canvas.width - SMALL.width(HELP)) // 2, canvas.height - 8, HELP)
