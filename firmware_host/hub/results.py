"""The night's results as CSV (one row per player per finished game) and as JSON.

``table-companion export`` writes them from a table's journal and the hub serves them as
``/night.csv`` and ``/night.json``; both make them here from the hub's record of a finished
game (:class:`~firmware_host.hub.league.finished.FinishedGame`, read from the message a
publisher sends), so one program reads both: the same fields and the game's title as the
screen shows it ("Sequence Dice"). The CSV numbers seats as the screen does (P1, P2, ...);
the JSON keeps the messages' seat 0 for P1
(``docs/schema/records-1.schema.json``). A text a spreadsheet would run as a formula (a
player called ``=HYPERLINK(...)``) gets a ``'`` before it in the CSV, which makes it text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from firmware_host.hub.league.finished import FinishedGame
from firmware_host.journal import Standing

COLUMNS = ("night", "table", "game_id", "game", "started", "ended", "seat", "player",
           "score", "place")
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # how a cell a spreadsheet computes starts


def seat_label(seat: int) -> str:
    """Seat 0 is P1, as the screen calls the first player."""
    return f"P{seat + 1}"


def rows(game: FinishedGame) -> list[list[str | int]]:
    """A finished game's rows, its players in seat order."""
    return [[cell(value) for value in (game.night, game.name, game.id, game.game, game.started,
                                       game.ended, seat_label(p.seat), p.name, p.score,
                                       p.place)]
            for p in game.players]


def cell(value: str | int) -> str | int:
    """A text as a spreadsheet shows it, never as a formula; numbers as they are."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


def csv_text(games: Iterable[FinishedGame]) -> str:
    """The header and every row of ``games``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for game in games:
        writer.writerows(rows(game))
    return out.getvalue()


def night_record(night: str, games: Iterable[FinishedGame], standings: Sequence[Standing]
                 ) -> dict[str, Any]:
    """A night as JSON: its date, its finished games and its standings."""
    return {"night": night, "games": [asdict(game) for game in games],
            "standings": [asdict(row) for row in standings]}
