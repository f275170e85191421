"""Each game as the table plays it: the table its kit names (:mod:`firmware_host.kits`),
:class:`GameTable` for a game played with the controls and the dice as the rules see them, a
subclass here for a game whose table works otherwise."""

from __future__ import annotations

from typing import Any

from firmware_host.kits import kit_for
from firmware_host.referee.parts import Recogniser
from firmware_host.referee.tables.base import Choice, GameTable
from games.core import GameState


def table_for(game: GameState[Any], recogniser: Recogniser | None = None) -> GameTable:
    """The table for ``game``, its board read by ``recogniser`` (None: no sensors)."""
    return kit_for(game.NAME).table_class()(game, recogniser)


__all__ = ["Choice", "GameTable", "table_for"]
