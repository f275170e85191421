"""Center Point: where each player's four markers are, the die, the moves it allows.

A row a player: the name (a small pointer at the player to move), then markers 1-4 in order, so
``m2+5`` points at the second: a hollow box is a marker still at its beginning, a filled
box one in the centre, a digit the circle a marker is on (a legend underneath says so).
The moves take the right.
"""

from __future__ import annotations

from functools import lru_cache

from firmware_host.screens.banner import BODY_TOP, draw_banner, turn_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL, fit
from firmware_host.screens.names import shown_name
from firmware_host.screens.opening import draw_opening
from firmware_host.screens.pointed import MARK, draw_mark, draw_pointed
from firmware_host.screens.standings import draw_final
from firmware_host.views import GameView
from games.centerpoint import SIX, CenterPoint
from games.centerpoint_board import Off

LINE = 9
NAME_W = 32  # five letters of a name: the moves and the reminder keep their room
SLOT = 9  # pixels a marker takes in a row
NAME_X = MARK + 1  # the name's left edge, right of the pointer
MARKS_X = NAME_X + NAME_W - 1  # the first marker's left edge: two pixels after a name
PANEL = NAME_W + 4 * SLOT + 4  # left edge of the moves


def draw(canvas: Canvas, view: GameView) -> None:
    game = view.game
    assert isinstance(game, CenterPoint)
    result = game.result()
    if result is not None:
        draw_final(canvas, game, result)
        return
    if game.opening.winner is None:
        draw_opening(canvas, game, game.opening, view.rolling or (), view.thrower)
        return
    die = view.rolling or ((game.die,) if game.die is not None else ())
    note = () if die else ("roll", "1 die")
    if game.carried and not die:
        note = ("roll;", f"{game.carried // SIX}x6 kept")
    draw_banner(canvas, turn_title(game, view.thrower), note, die)
    _draw_markers(canvas, game)
    width = canvas.width - PANEL
    reminder = _reminder(game)
    top = canvas.height - len(reminder) * LINE
    for index, line in enumerate(reminder):  # always there: a move shown or taken moves nothing
        canvas.text(PANEL + 2, top + index * LINE, fit(line, SMALL, width - 2))
    draw_pointed(canvas, (PANEL, BODY_TOP, width, top - BODY_TOP), view.choices, view.cursor,
                 view.scroll)


def _reminder(game: CenterPoint) -> tuple[str, str]:
    """What a die does besides moving: a 1 (or a 6 with that option) enters a marker, a 6
    throws again."""
    return ("1,6 enter" if game.setup.options["six_enters"] else "1 enters"), "6: again"


def _draw_markers(canvas: Canvas, game: CenterPoint) -> None:
    for player, row in enumerate(game.markers):
        marks = tuple(where if isinstance(where, Off) else where.circle for where in row)
        bitmap = _marker_row(shown_name(game, player, NAME_W - 2), player == game.turn,
                             marks)
        canvas.stamp(0, BODY_TOP + player * LINE, PANEL, bitmap)
    legend = canvas.height - 8
    _draw_marker(canvas, 0, legend, Off.BEGINNING)
    x = canvas.text(9, legend, "out") + 4
    _draw_marker(canvas, x, legend, Off.CENTRE)
    canvas.text(x + 9, legend, "in")


@lru_cache(maxsize=256)
def _marker_row(name: str, current: bool, marks: tuple[Off | int, ...]) -> tuple[int, ...]:
    """A player's row (the name, a pointer before it for the player to move, then each
    marker: off the board, or its circle's number), drawn once and kept: a move changes one
    row, and a turn's end moves the pointer rather than an inverted name."""
    canvas = Canvas()
    if current:
        draw_mark(canvas, 0, 1)
    canvas.text(NAME_X, 1, name)
    for index, where in enumerate(marks):
        _draw_marker(canvas, MARKS_X + index * SLOT, 1, where)
    return canvas.cut(0, 0, PANEL, LINE)


def _draw_marker(canvas: Canvas, x: int, y: int, where: Off | int) -> None:
    """A hollow box at the beginning, a filled one in the centre, else the circle's number."""
    if where is Off.BEGINNING:
        canvas.frame(x, y, 7, 7)
    elif where is Off.CENTRE:
        canvas.fill(x, y, 7, 7)
    else:
        canvas.text(x + 1, y, str(where))
