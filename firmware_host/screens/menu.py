"""A list to choose from: the game menu, a player count, an option, a confirmation."""

from __future__ import annotations

from firmware_host.screens.banner import draw_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.choices import draw_choices
from firmware_host.views import MenuView


def draw_menu(canvas: Canvas, view: MenuView) -> int:
    """The title band and the items; returns the top of the body (for a message)."""
    top = draw_title(canvas, view.title) + 1
    draw_choices(canvas, (0, top, canvas.width, canvas.height - top), view.items, view.cursor,
                 view.values, view.greyed, view.scroll)
    return top
