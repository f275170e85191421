"""Who starts: everyone throws, the highest starts, tied players throw again.

Every game but Multi-Gam's opening looks alike, so one panel serves them: each player's
latest throw as a total, the players still in contention marked, the one to throw named.
"""

from __future__ import annotations

from typing import Any

from firmware_host.screens.banner import BODY_TOP, draw_banner
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, fit
from games.core import GameState, Opening

LINE = 9


def draw_opening(canvas: Canvas, game: GameState[Any], opening: Opening,
                 shown: tuple[int, ...] = ()) -> None:
    """Banner for the next thrower, then every player's latest opening total."""
    roller = opening.roller
    title = game.name(roller) if roller is not None else "opening"
    tied = len(opening.contenders) < game.players
    draw_banner(canvas, title, ("tie: roll" if tied else "who starts", "again" if tied else
                                f"roll {opening.dice}"), shown)
    top = BODY_TOP + 1
    rows = (canvas.height - top) // LINE
    columns = -(-game.players // rows)
    width = canvas.width // columns
    for player in range(game.players):
        x, y = (player // rows) * width, top + (player % rows) * LINE
        throw = opening.latest.get(player)
        total = "-" if throw is None else str(sum(throw))
        out = player not in opening.contenders
        mark = "▶" if player == roller else (" " if not out else "·")
        name = fit(game.name(player), SMALL, width - 36)
        canvas.text(x, y, f"{mark}{name}")
        canvas.text_right(x + width - 6, y, total)
