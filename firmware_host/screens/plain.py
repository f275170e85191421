"""A game's screen before it has one of its own: whose turn, the choices, the scores.

A new game's kit may name this module until the game's own screen exists.
"""

from __future__ import annotations

from firmware_host.screens.banner import BODY_TOP, draw_banner, turn_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.choices import draw_choices
from firmware_host.screens.names import shown_name
from firmware_host.screens.standings import draw_final
from firmware_host.views import GameView

LINE = 9


def draw(canvas: Canvas, view: GameView) -> None:
    game = view.game
    result = game.result()
    if result is not None:
        draw_final(canvas, game, result)
        return
    wanted = game.dice_wanted
    draw_banner(canvas, turn_title(game), (f"roll {wanted}",) if wanted else (),
                view.rolling or ())
    top = BODY_TOP + 1
    if view.choices:
        draw_choices(canvas, (0, top, canvas.width, canvas.height - top), view.choices,
                     view.cursor)
        return
    scores = game.scores()
    for player in range(min(game.players, (canvas.height - top) // LINE)):
        y = top + player * LINE
        canvas.text(0, y, shown_name(game, player, 90))
        canvas.text_right(canvas.width - 1, y, str(scores[player]))
