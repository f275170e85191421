"""Multi-Gam: the six points with who holds them, each player's bar and off, the dice.

Four players need four marks: the chip patterns of :mod:`~firmware_host.screens.chips`
(filled, hollow, cross, diamond), shown beside each name. Each player's ``b4 o0`` counts
checkers on the bar and off; the band says so while the dice are due (no room is left for a
legend of its own beside four names). A point shows its number,
then its holder's mark and count; a prime (two or more) is inverted, since nobody may land
there. The choices, or else the last play, take the bottom row.
"""

from __future__ import annotations

from functools import lru_cache

from firmware_host.screens.banner import BODY_TOP, draw_banner, turn_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.chips import CHIP, draw_chip
from firmware_host.screens.choices import ROW
from firmware_host.screens.font import SMALL, fit
from firmware_host.screens.names import shown_name
from firmware_host.screens.opening import draw_opening
from firmware_host.screens.pointed import draw_pointed
from firmware_host.screens.standings import draw_final
from firmware_host.views import GameView
from games.multigam import MultiGam

COLUMN = 21  # pixels a point takes
LINE = 9
PLAYERS_TOP = BODY_TOP + 2 * LINE + 2


def draw(canvas: Canvas, view: GameView) -> None:
    game = view.game
    assert isinstance(game, MultiGam)
    result = game.result()
    if result is not None:
        draw_final(canvas, game, result)
        return
    if game.opening.winner is None:
        draw_opening(canvas, game, game.opening, view.rolling or (), view.thrower)
        return
    dice = view.rolling or (game.dice if game.dice_to_play is not None else None) or ()
    double = len(dice) == 2 and dice[0] == dice[1]
    note = ("double:", "4 moves") if double else () if dice else ("b: on bar", "o: off")
    draw_banner(canvas, turn_title(game, view.thrower), note, dice)
    _draw_points(canvas, game)
    _draw_players(canvas, game)
    bottom = canvas.height - ROW
    if view.choices:
        draw_pointed(canvas, (0, bottom, canvas.width, ROW), view.choices, view.cursor,
                     view.scroll)
    else:
        canvas.text(0, bottom + 1, fit(_last(game), SMALL, canvas.width))


def _draw_points(canvas: Canvas, game: MultiGam) -> None:
    """Left to right, as they were drawn one after the other: a two-digit count may reach
    into the next point's first column."""
    for index, (owner, count) in enumerate(game.points):
        canvas.stamp(index * COLUMN, BODY_TOP, POINT_W, _point(index, owner, count))


POINT_W = COLUMN + 3  # a point's pixels: its column, and a two-digit count running over


@lru_cache(maxsize=256)
def _point(index: int, owner: int | None, count: int) -> tuple[int, ...]:
    """A point's rows for who holds it and how many, drawn once and kept: a move changes
    one or two points, a turn of the knob or a roll none."""
    canvas = Canvas()
    x = 1
    canvas.text(x + 8, 0, str(index + 1))
    if owner is None:
        canvas.hline(x + 5, LINE + 4, 9)
    else:
        prime = count >= 2
        if prime:
            canvas.fill(x, LINE, COLUMN - 2, LINE + 1)
        draw_chip(canvas, x + 3, LINE + 2, owner, on=not prime)
        canvas.text(x + 3 + CHIP + 2, LINE + 1, str(count), on=not prime)
    return canvas.cut(0, 0, POINT_W, 2 * LINE + 1)


def _draw_players(canvas: Canvas, game: MultiGam) -> None:
    width = canvas.width // 2
    for player in range(game.players):
        x, y = (player % 2) * width, PLAYERS_TOP + (player // 2) * LINE
        counts = f"b{game.bar[player]} o{game.off[player]}"
        room = width - CHIP - 4 - SMALL.width(counts) - 4
        bitmap = _player(player, shown_name(game, player, room), counts, player == game.turn)
        canvas.stamp(x, y, width, bitmap)


@lru_cache(maxsize=256)
def _player(player: int, name: str, counts: str, to_move: bool) -> tuple[int, ...]:
    """A player's mark, name and checkers on the bar and off (``b2 o5``), inverted for the
    player to move; two to a row. Drawn once for each of those and kept: a move changes one
    or two."""
    canvas = Canvas()
    width = canvas.width // 2
    draw_chip(canvas, 0, 1, player)
    name_x = CHIP + 2
    if to_move:
        canvas.fill(name_x - 1, 0, SMALL.width(name) + 2, LINE)
    canvas.text(name_x, 1, name, on=not to_move)
    canvas.text_right(width - 6, 1, counts)
    return canvas.cut(0, 0, width, LINE)


def _last(game: MultiGam) -> str:
    """What happened last: the play made, or a roll that allowed none."""
    if game.no_play is not None and (game.last_play is None or game.no_play[0] != game.turn):
        player, dice = game.no_play
        return f"{game.name(player)} {dice[0]}-{dice[1]}: no play"
    if game.last_play is not None:
        player, play = game.last_play
        return f"{game.name(player)}: {play}"
    return ""
