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

A switch failing slowly for a few seconds changes too seldom for the matrix's chatter rule
(8 changes within 8 s) and may stop before a fix left unmade names it (8 s after the last
change). The game tells it from hands: a hand's change at a cell makes a move, or an offer,
or follows the screen (a marker moved where it says, a chip taken away), and only a mistake
puts a piece where the rules refuse it; a switch's changes on a free cell are refused (or
offered as a rival, or taken back) over and over. A sensor whose changes strayed from the
game twice since its last move or offer (:meth:`BoardMoves.restless`), while it changed by
itself :data:`~firmware_host.sensing.base.RESTLESS` times within the matrix's window, seems
to be failing: hands look like that only if they put a piece twice on the same wrong cell
within 8 s. A change shorter than the time a put takes to settle is no change to the
referee, so the matrix also says how often a cell some of whose changes by itself came back
unsettled changed by itself: one such change that strayed is enough
(:meth:`BoardMoves.unheard`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.sensing.base import RESTLESS, attempt
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
        self.instead: Instead | None = None  # offered until the next press, or until its
        # square changes again
        self._aimless: dict[Square, int] = {}  # changes that strayed since a move or offer

    def made(self, game: GameState[Any], square: Square) -> None:
        """The change at ``square`` made the game's last action."""
        self._made.append((len(game.history), square))

    def restless(self, square: Square, alone: int, *, made: bool, strays: bool) -> bool:
        """A change at ``square`` that ``made`` a move or an offer, or else ``strays``: left
        the square disagreeing with the game where it agreed (a chip or a lift the rules
        refuse; a change that puts a disagreement right, a marker moved where the screen
        says or a refused chip taken away, is neither), the cell having changed by itself
        ``alone`` times of late. Whether its sensor seems to be failing (see the module
        docstring). It is said once: the count starts again."""
        aimless = 0 if made else self._aimless.get(square, 0) + strays
        failing = aimless >= 2 and alone >= RESTLESS
        self._aimless[square] = 0 if failing else aimless
        return failing

    def unheard(self, square: Square, alone: int) -> bool:
        """The sensor at ``square`` changed by itself ``alone`` times of late, some of them
        too brief to be reported, and one of its changes strayed since its last move or
        offer: whether it seems to be failing. It is said once: the count starts again."""
        failing = alone >= RESTLESS and self._aimless.get(square, 0) >= 1
        if failing:
            self._aimless[square] = 0
        return failing

    def clear(self) -> None:
        """A new game, or an undo from the menu: the board is looked at afresh."""
        self._made.clear()
        self.instead = None

    def last_made_at(self, game: GameState[Any], square: Square | None = None) -> bool:
        """Whether the game's last action was made by the board (at ``square``, if given)."""
        return bool(self._made) and self._made[-1][0] == len(game.history) \
            and square in (None, self._made[-1][1])

    def taken_back(self) -> None:
        """The game's last action, made by the board, was undone: the change that made it
        strayed."""
        square = self._made.pop()[1]
        self._aimless[square] = self._aimless.get(square, 0) + 1

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
