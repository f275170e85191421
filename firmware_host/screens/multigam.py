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
        draw_opening(canvas, game, game.opening, view.rolling or ())
        return
    dice = view.rolling or (game.dice if game.dice_to_play is not None else None) or ()
    double = len(dice) == 2 and dice[0] == dice[1]
    note = ("double:", "4 moves") if double else () if dice else ("b: on bar", "o: off")
    draw_banner(canvas, turn_title(game), note, dice)
    _draw_points(canvas, game)
    _draw_players(canvas, game)
    bottom = canvas.height - ROW
    if view.choices:
        draw_pointed(canvas, (0, bottom, canvas.width, ROW), view.choices, view.cursor,
                     view.scroll)
    else:
        canvas.text(0, bottom + 1, fit(_last(game), SMALL, canvas.width))


def _draw_points(canvas: Canvas, game: MultiGam) -> None:
    canvas.stamp(0, BODY_TOP, canvas.width, _points(game.points))


@lru_cache(maxsize=64)
def _points(points: tuple[tuple[int | None, int], ...]) -> tuple[int, ...]:
    """The points' rows for who holds each and how many, drawn once and kept: a move
    changes them, a turn of the knob or a roll does not."""
    canvas = Canvas()
    for index, (owner, count) in enumerate(points):
        x = index * COLUMN + 1
        canvas.text(x + 8, 0, str(index + 1))
        if owner is None:
            canvas.hline(x + 5, LINE + 4, 9)
            continue
        prime = count >= 2
        if prime:
            canvas.fill(x, LINE, COLUMN - 2, LINE + 1)
        draw_chip(canvas, x + 3, LINE + 2, owner, on=not prime)
        canvas.text(x + 3 + CHIP + 2, LINE + 1, str(count), on=not prime)
    return canvas.cut(0, 0, canvas.width, 2 * LINE + 1)


def _draw_players(canvas: Canvas, game: MultiGam) -> None:
    names = tuple(game.name(player) for player in range(game.players))
    canvas.stamp(0, PLAYERS_TOP, canvas.width, _players(names, game.bar, game.off, game.turn))


@lru_cache(maxsize=64)
def _players(names: tuple[str, ...], bar: tuple[int, ...], off: tuple[int, ...],
             turn: int | None) -> tuple[int, ...]:
    """Two by two: mark, name, checkers on the bar and off; the player to move inverted.
    Drawn once for each of those and kept."""
    canvas = Canvas()
    width = canvas.width // 2
    for player, name in enumerate(names):
        x = (player % 2) * width
        y = (player // 2) * LINE
        counts = f"b{bar[player]} o{off[player]}"
        draw_chip(canvas, x, y + 1, player)
        name_x = x + CHIP + 2
        room = width - CHIP - 4 - SMALL.width(counts) - 4
        name = fit(name, SMALL, room)
        if player == turn:
            canvas.fill(name_x - 1, y, SMALL.width(name) + 2, LINE)
        canvas.text(name_x, y + 1, name, on=player != turn)
        canvas.text_right(x + width - 6, y + 1, counts)
    return canvas.cut(0, 0, canvas.width, (len(names) + 1) // 2 * LINE)


def _last(game: MultiGam) -> str:
    """What happened last: the play made, or a roll that allowed none."""
    if game.no_play is not None and (game.last_play is None or game.no_play[0] != game.turn):
        player, dice = game.no_play
        return f"{game.name(player)} {dice[0]}-{dice[1]}: no play"
    if game.last_play is not None:
        player, play = game.last_play
        return f"{game.name(player)}: {play}"
    return ""
