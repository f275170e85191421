"""Scores and places: who leads, by how much, and who won.

Used by every game's last screen and by the screens that show a running score. Players who
tie share a place, as :class:`games.core.Result` ranks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firmware_host.screens.banner import BODY_TOP, draw_banner
from firmware_host.screens.canvas import Box, Canvas
from firmware_host.screens.font import SMALL
from firmware_host.screens.names import shown_name
from games.core import GameState, Result

LINE = 9


def placings(result: Result) -> list[tuple[int, int]]:
    """(place, player) for every player, best first; tied players share the place."""
    found: list[tuple[int, int]] = []
    for group in result.ranking:
        place = len(found) + 1
        found.extend((place, player) for player in group)
    return found


def winners_title(game: GameState[Any], result: Result) -> str:
    """``P1 wins``, ``P1+P3 win``; every player tied reads ``a tie``."""
    winners = result.winners
    if len(winners) == game.players and game.players > 1:
        return "a tie"
    names = "+".join(game.name(p) for p in winners)
    return f"{names} {'wins' if len(winners) == 1 else 'win'}"


def draw_ranking(
    canvas: Canvas, box: Box, game: GameState[Any], result: Result, labels: Sequence[str] = ()
) -> None:
    """Place, name and score a line each, in as many columns as the box needs.

    ``labels`` replaces the score numbers (Centennial shows where each marker stands).
    """
    left, top, width, height = box
    rows = max(1, height // LINE)
    entries = placings(result)
    columns = -(-len(entries) // rows)
    column_width = width // columns
    for index, (place, player) in enumerate(entries):
        x = left + (index // rows) * column_width
        y = top + (index % rows) * LINE
        score = labels[player] if labels else str(result.scores[player])
        winner = place == 1
        if winner:
            canvas.fill(x, y, column_width - 2, LINE)
        name_room = column_width - 2 - SMALL.width(f"{place} ") - SMALL.width(score) - 8
        canvas.text(x + 1, y + 1, f"{place} {shown_name(game, player, name_room)}",
                    on=not winner)
        canvas.text_right(x + column_width - 4, y + 1, score, on=not winner)


def draw_final(
    canvas: Canvas, game: GameState[Any], result: Result, labels: Sequence[str] = ()
) -> None:
    """The end of any game: the winners big, then everyone's place and score."""
    draw_banner(canvas, winners_title(game, result), ("game", "over"))
    draw_ranking(canvas, (0, BODY_TOP + 1, canvas.width, canvas.height - BODY_TOP - 1),
                 game, result, labels)
