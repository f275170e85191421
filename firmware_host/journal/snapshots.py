"""Copies of the current game every few actions, so undo and a refused event replay little.

A game's position is its setup plus its actions, and the rules offer undo only as a replay
of the whole game (20 µs an action). Keeping a copy of the position every
:data:`SNAPSHOT_EVERY` actions bounds what a take-back replays, whatever the game's length. A
copy holds the position but not the action list (the actions are frozen values the game
still holds), so a 50,000-action game costs no more memory per copy than a short one.
"""

from __future__ import annotations

import copy
from typing import Any

from games.core import GameState

SNAPSHOT_EVERY = 64
SNAPSHOTS_KEPT = 8  # 512 actions of undo at snapshot speed; further back replays from the start


class Snapshots:
    """The current game's recent positions, by how many actions each had seen.

    What a new game of the same setup holds as the very same object as the played one (a
    board or a table the rules load once and share) is shared by the copies too: the rules
    never change it, or a new game would start from a changed one.
    """

    def __init__(self) -> None:
        self._kept: dict[int, GameState[Any]] = {}
        self._shared: dict[int, Any] | None = None

    def clear(self) -> None:
        self._kept.clear()
        self._shared = None

    def _memo(self, state: GameState[Any], history: list[Any]) -> dict[int, Any]:
        if self._shared is None:
            fresh = type(state)(state.setup).__dict__
            self._shared = {id(value): value for key, value in fresh.items()
                            if state.__dict__.get(key) is value}
        return {**self._shared, id(state.history): history}

    def note(self, state: GameState[Any]) -> None:
        """Keep a copy of ``state`` if :data:`SNAPSHOT_EVERY` actions passed since the last."""
        count = len(state.history)
        if count - max(self._kept, default=0) < SNAPSHOT_EVERY:
            return
        self._kept[count] = copy.deepcopy(state, self._memo(state, []))
        for old in sorted(self._kept)[:-SNAPSHOTS_KEPT]:
            del self._kept[old]

    def rewind(self, state: GameState[Any], count: int) -> None:
        """Bring ``state`` back to its first ``count`` actions, in place."""
        actions = state.history
        for later in [n for n in self._kept if n > count]:
            del self._kept[later]
        start = max(self._kept, default=0)
        if start:
            saved = self._kept[start]
            base = copy.deepcopy(saved, self._memo(saved, list(actions[:start])))
        else:
            base = type(state)(state.setup)
        for action in actions[start:count]:
            base.apply(action)
        state.__dict__.clear()
        state.__dict__.update(base.__dict__)
