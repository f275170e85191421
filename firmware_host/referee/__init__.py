"""The referee and what it wires: the pages over the game, each game as the table plays it,
the timers, the evening's settings and the table's parts; see :mod:`.referee`."""

from __future__ import annotations

from firmware_host.referee.referee import Referee

__all__ = ["Referee"]
