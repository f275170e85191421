"""Each game as the table plays it, found by the game's name (as its screen is): a game
with a table of its own has a module here; every other gets :class:`GameTable`."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from firmware_host.referee.parts import Recogniser
from firmware_host.referee.tables.base import Choice, GameTable
from games.core import GameState

OWN_TABLES = {"dalmatian": "DalmatianTable"}
"""Games with a table module of their own in this package (module name = game NAME)."""


def table_for(game: GameState[Any], recogniser: Recogniser | None = None) -> GameTable:
    """The table for ``game``, its board read by ``recogniser`` (None: no sensors)."""
    name = game.NAME
    if name not in OWN_TABLES:
        return GameTable(game, recogniser)
    table: type[GameTable] = getattr(import_module(f"{__name__}.{name}"), OWN_TABLES[name])
    return table(game, recogniser)


__all__ = ["Choice", "GameTable", "table_for"]
