"""Copies of the current game every few actions, so undo and a refused event replay little.

A game's position is its setup plus its actions, and the rules offer undo only as a replay
of the whole game. Keeping a snapshot of the position every
:data:`SNAPSHOT_EVERY` actions bounds what a take-back replays, whatever the game's length. A
copy holds the position but not the action list (the actions are frozen values the game
still holds), so a 50,000-action game costs no more memory per copy than a short one.
"""

from __future__ import annotations

from typing import Any

from games.core import GameState

SNAPSHOT_EVERY = 64
SNAPSHOTS_KEPT = 8  # 512 actions of undo at snapshot speed; further back replays from the start


class Snapshots:
    """The current game's recent positions (:meth:`games.core.GameState.snapshot`), by
    how many actions each had seen."""

    def __init__(self) -> None:
        self._kept: dict[int, GameState[Any]] = {}

    def clear(self) -> None:
        self._kept.clear()

    def note(self, state: GameState[Any]) -> None:
        """Keep a snapshot of ``state`` if :data:`SNAPSHOT_EVERY` actions passed since the last."""
        count = len(state.history)
        if count - max(self._kept, default=0) < SNAPSHOT_EVERY:
            return
        self._kept[count] = state.snapshot()
        for old in sorted(self._kept)[:-SNAPSHOTS_KEPT]:
            del self._kept[old]

    def rewind(self, state: GameState[Any], count: int) -> None:
        """Bring ``state`` back to its first ``count`` actions, in place."""
        actions = state.history
        for later in [n for n in self._kept if n > count]:
            del self._kept[later]
        start = max(self._kept, default=0)
        state.restore(self._kept[start] if start else type(state)(state.setup), actions[:start])
        for action in actions[start:count]:
            state.apply(action)
