"""The screens: how each view looks on the 128x64 one-bit OLED.

The referee decides what to show and hands over a view (:mod:`firmware_host.views`);
:func:`render` draws it and returns a frame for any :class:`hardware.display.protocol.Display`.
Rendering does no I/O and depends on nothing but the view, so the same view always gives
the same pixels (the golden-image tests rely on it). Each game's kit
(:mod:`firmware_host.kits`) names the module here that draws it.
"""

from __future__ import annotations

from types import ModuleType

from PIL import Image

from firmware_host.kits import kit_for
from firmware_host.screens.banner import BODY_TOP
from firmware_host.screens.boardfix import draw_board_fix
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.dice_entry import draw_dice_entry
from firmware_host.screens.keyboard import draw_keyboard
from firmware_host.screens.menu import draw_menu
from firmware_host.screens.message import draw_message
from firmware_host.screens.notice import draw_notice
from firmware_host.views import (
    BoardFixView,
    DiceEntryView,
    GameView,
    KeyboardView,
    MenuView,
    NoticeView,
    View,
)


def game_screen(name: str) -> ModuleType:
    """The module that draws game ``name``, as its kit says; it offers ``draw(canvas, view)``."""
    return kit_for(name).screen_module()


def render(view: View) -> Image.Image:
    """The frame for ``view``: a mode "1" image of 128x64 pixels."""
    return draw(view).to_image()


def draw(view: View) -> Canvas:
    """``view`` drawn on a fresh canvas, which also lists the text it holds."""
    canvas = Canvas()
    match view:
        case GameView():
            game_screen(view.game.NAME).draw(canvas, view)
            if view.message:
                draw_message(canvas, view.message, BODY_TOP, view.page)
        case MenuView():
            top = draw_menu(canvas, view)
            if view.message:
                draw_message(canvas, view.message, top)
        case DiceEntryView():
            draw_dice_entry(canvas, view)
        case KeyboardView():
            draw_keyboard(canvas, view)
        case BoardFixView():
            draw_board_fix(canvas, view)
        case NoticeView():
            draw_notice(canvas, view)
    return canvas


__all__ = ["draw", "game_screen", "render"]
