"""The night's results as CSV: one row per player per finished game.

``table-companion export`` writes it from a table's journal and the hub serves it as
``/night.csv``; both make their rows here from the :class:`~firmware_host.night.topics.Game`
a publisher sends, so one spreadsheet takes both: the same columns, the game's title as the
screen shows it ("Sequence Dice"), and seats numbered as on the screen (P1, P2, ...).
A text a spreadsheet would run as a formula (a player called ``=HYPERLINK(...)``) gets a
``'`` before it, which makes it text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from firmware_host.night.topics import Game

COLUMNS = ("night", "table", "game_id", "game", "started", "ended", "seat", "player",
           "score", "place")
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # how a cell a spreadsheet computes starts


def seat_label(seat: int) -> str:
    """Seat 0 is P1, as the screen calls the first player."""
    return f"P{seat + 1}"


def rows(game: Game) -> list[list[str | int]]:
    """A finished game's rows, its players in seat order."""
    return [[cell(value) for value in (game.night, game.name, game.id, game.game, game.started,
                                       game.ended, seat_label(p.seat), p.name, p.score,
                                       p.place)]
            for p in game.players]


def cell(value: str | int) -> str | int:
    """A text as a spreadsheet shows it, never as a formula; numbers as they are."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


def csv_text(games: Iterable[Game]) -> str:
    """The header and every row of ``games``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for game in games:
        writer.writerows(rows(game))
    return out.getvalue()
