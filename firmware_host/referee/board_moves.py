"""The actions the sensed board made, so that a failing switch's can be taken back, and a
move sensed after the board had already made the turn's move elsewhere, offered in its
place.

A switch that fails just as a player throws (stuck closed on a cell the throw allows, or
the first close of a chattering one) makes a move the sensors cannot tell from a hand's.
The player's own chip comes after it and is refused, the move being made; it is then a
rival: the rules would have taken it had the other not come first. Only the players know
which change was theirs, so the screen offers theirs and SELECT swaps them (the board's
move undone, the rival played), while it is still the game's last action. Once a chattering
switch is found, its latest moves are taken back the same way, and a rival waiting behind
one is played. Every take-back is the journal's own undo of its last action: nothing is
replayed under the moves that came after.

Which sensor is failing is :mod:`.blame`'s question; a move taken back here tells it
which cell's change strayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.sensing.base import attempt
from games.core import GameState

Square = tuple[int, int]


@dataclass(frozen=True)
class Instead:
    """``action``, sensed at ``square``, offered in place of ``taken`` (the game's last
    action, made by the board)."""

    taken: str
    action: str
    square: Square

    def text(self) -> str:
        return f"{self.taken} came first; if yours is {self.action}, SELECT plays it instead"


class BoardMoves:
    """The game's actions that sensed changes made, latest last, and the rival offered."""

    def __init__(self) -> None:
        self._made: list[tuple[int, Square]] = []  # the game's length after each, and the
        # square whose change made it
        self._lifted = False  # the change that made the game's last action was a lift
        self.instead: Instead | None = None  # offered until the next press, or until its
        # square changes again

    def made(self, game: GameState[Any], square: Square, *, lifted: bool = False) -> None:
        """The change at ``square`` (a lift, if ``lifted``) made the game's last action."""
        self._made.append((len(game.history), square))
        self._lifted = lifted

    def put_back(self, game: GameState[Any], square: Square) -> bool:
        """Whether a piece put on ``square`` is the one whose lift made the game's last
        action (a removal): a hand that touched or straightened it, or changed its mind,
        and the board is back as it was before that action."""
        return self._lifted and self.last_made_at(game, square)

    def clear(self) -> None:
        """A new game, or an undo from the menu: the board is looked at afresh."""
        self._made.clear()
        self.instead = None

    def last_made_at(self, game: GameState[Any], square: Square | None = None) -> bool:
        """Whether the game's last action was made by the board (at ``square``, if given)."""
        return bool(self._made) and self._made[-1][0] == len(game.history) \
            and square in (None, self._made[-1][1])

    def taken_back(self) -> Square:
        """The game's last action, made by the board, was undone; the square whose change
        made it (that change strayed)."""
        return self._made.pop()[1]

    def rival(self, game: GameState[Any], square: Square, refused: str) -> Instead | None:
        """``refused``, sensed at ``square``, as a rival of the board's move just before it
        at another square: the rules would have taken it had that move not come first."""
        if not self.last_made_at(game) or self.last_made_at(game, square):
            return None
        before = game.copy()
        taken = before.undo()
        if isinstance(attempt(before, refused), str):
            return None
        return Instead(str(taken), refused, square)

    def still_due(self, game: GameState[Any], instead: Instead) -> bool:
        """Whether the move ``instead`` would replace is still the game's last."""
        return self.last_made_at(game) and str(game.history[-1]) == instead.taken
