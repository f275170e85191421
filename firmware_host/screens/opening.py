"""Who starts: everyone throws, the highest starts, tied players throw again.

Every game's opening looks alike, so one panel serves them: each player's latest throw,
every die of it and its total, the players still in contention marked, the one to throw
named. Six players take six rows of 8 pixels, so nobody's throw goes off the screen.
"""

from __future__ import annotations

from typing import Any

from firmware_host.screens.banner import BODY_TOP, draw_banner
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.font import SMALL
from firmware_host.screens.names import shown_name
from games.core import GameState, Opening

LINE = 9
TIGHT = 8  # the line height when a row a player needs it


FACE_PITCH = 9  # a face digit and a 4-pixel gap: five faces and a total beside a long name


def draw_throw(canvas: Canvas, right: int, y: int, dice: tuple[int, ...]) -> int:
    """``6 6 6 6 5=29`` ending at column ``right`` (the face alone for one die), the faces
    set close so a name of eight letters keeps its room; returns the left edge. The last
    face and the total are one run of text, spaced as letters are."""
    total = f"={sum(dice)}" if len(dice) > 1 else ""
    left = canvas.text_right(right, y, f"{dice[-1]}{total}")
    for face in reversed(dice[:-1]):
        left -= FACE_PITCH
        canvas.text(left, y, str(face))
    return left


def draw_opening(canvas: Canvas, game: GameState[Any], opening: Opening,
                 shown: tuple[int, ...] = (), thrower: int | None = None) -> None:
    """Banner for the next thrower (``thrower`` while their throw tumbles), then every
    player's latest opening throw."""
    roller = opening.roller if thrower is None else thrower
    title = game.name(roller) if roller is not None else "opening"
    tied = set(opening.contenders) <= set(opening.latest)  # all have thrown: a tie, again
    draw_banner(canvas, title, ("tie: roll" if tied else "who starts", "again" if tied else
                                f"roll {opening.dice}"), shown)
    # once a tied player has thrown again, the others' throws of the tie are out of date
    stale = set(opening.to_roll) if tied and len(opening.to_roll) < len(
        opening.contenders) else set()
    top = BODY_TOP + 1
    line = LINE if game.players * LINE <= canvas.height - top else TIGHT
    top = BODY_TOP + (line == LINE)
    for player in range(game.players):
        y = top + player * line
        throw = None if player in stale else opening.latest.get(player)
        if throw is None:
            left = canvas.text_right(canvas.width - 1, y, "-")
        else:
            left = draw_throw(canvas, canvas.width - 1, y, throw)
        out = player not in opening.contenders
        canvas.text(0, y, "▶" if player == roller else ("·" if out else " "))
        name_room = left - SMALL.advance - 3
        canvas.text(SMALL.advance, y, shown_name(game, player, name_room))
