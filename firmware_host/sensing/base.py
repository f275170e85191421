"""What every recogniser shares: the sensed board, the outcome value, a trial of an action.

The sensors report occupancy only, so a recogniser keeps its own picture of the physical
board (fed by settled :class:`~hardware.events.CellChanged` events) and compares it with the
position the game says is true. The game is never changed here: an action is proposed as
notation and the referee applies it through ``game.apply``, the checked path.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Self, TypeVar

from games.core import GameState
from games.errors import GameError
from hardware.events import CellChanged

Square = tuple[int, int]
"""A sensed square as (row, column) of the matrix."""

G = TypeVar("G", bound=GameState[Any])

RESTLESS = 4
"""Changes by itself within the matrix's slow-chatter window (``CellChanged.alone``) from
which a sensor is not heard again: hands make one or two a move, so a cell changed that
often is worked over and over or failing."""


@dataclass(frozen=True)
class Outcome:
    """What one sensed change (or a fresh scan) means for the game.

    ``action`` is notation for ``game.apply``; ``fixes`` are what the players must do so the
    board agrees with the game (after ``action``, when there is one); empty means it agrees.
    ``message`` says in player words why a physical move was not accepted, or what
    ``offer`` is: an action the board cannot tell from no move (a chip lifted and put
    back: the sensors see no colour), for the players to confirm with SELECT.
    ``refused``: the action the change would have made, which the rules refused.
    """

    action: str | None
    fixes: tuple[str, ...]
    message: str | None = None
    offer: str | None = None
    refused: str | None = None


def attempt(game: G, text: str) -> G | str:
    """The game after ``text`` (played on a copy), or the rules' own refusal.

    Trying on a copy lets the rule module decide legality and word the refusal, so the
    recogniser never second-guesses the rules and the referee's game stays untouched.
    """
    trial = game.copy()
    try:
        trial.apply(text)
    except GameError as refusal:
        return str(refusal)
    return trial


class Recogniser(ABC):
    """Turns settled square changes into actions of one game on one matrix layout.

    A square in :attr:`ignored` has a sensor the players have given up on (it seems dead,
    stuck or chattering): it is taken to hold what the game says, its changes make no
    action, and it is heard again once a change it reports agrees with the game (and it
    has not changed by itself :data:`RESTLESS` times of late). The set is the table's,
    handed to each game's recogniser in turn."""

    def __init__(self) -> None:
        self._readings: set[Square] = set()  # what the sensors report
        self._board: set[Square] = set()  # the same, ignored squares as the game has them
        self.ignored: set[Square] = set()

    @classmethod
    def on_matrix(cls, columns: int) -> Self:
        """A recogniser for a matrix of ``columns`` columns (the pin map's
        ``len(matrix.cols)``), which only a track's numbering needs."""
        return cls()

    @property
    def board(self) -> frozenset[Square]:
        """The squares sensed occupied, as the recogniser last heard (an ignored square as
        the game has it)."""
        return frozenset(self._board)

    @abstractmethod
    def expected(self, game: GameState[Any]) -> frozenset[Square]:
        """The squares the game says are occupied now."""

    @abstractmethod
    def fixes(self, game: GameState[Any]) -> tuple[str, ...]:
        """What to do so the sensed board agrees with ``game``; pending lifts are excused."""

    def missing(self, game: GameState[Any]) -> frozenset[Square]:
        """Squares the game says hold a piece that the sensors do not see, a lift the game
        is waiting on excused."""
        return self.expected(game) - self._board - self._excused(game)

    def extra(self, game: GameState[Any]) -> frozenset[Square]:
        """Squares the sensors see occupied where the game has no piece."""
        return frozenset(self._board - self.expected(game))

    def _excused(self, game: GameState[Any]) -> frozenset[Square]:
        """Hook: squares lifted for a move still due (nothing by default)."""
        return frozenset()

    def hint(self, game: GameState[Any]) -> str | None:
        """Hook: how to make the move due on the board, when the board alone does not say
        (nothing by default)."""
        return None

    def reset(self, game: GameState[Any], occupied: Iterable[Square]) -> Outcome:
        """Take the board as scanned now (start, resume, after an undo); report differences."""
        self._readings = set(occupied)
        self._restart(game)
        return self.review(game)

    def changed(self, game: GameState[Any], event: CellChanged) -> Outcome:
        """One settled change of one square."""
        square = (event.row, event.col)
        if event.occupied == (square in self._readings):
            return self.review(game)  # nothing new: a repeated report
        if event.occupied:
            self._readings.add(square)
        else:
            self._readings.discard(square)
        if square in self.ignored:
            if event.occupied == (square in self.expected(game)) and event.alone < RESTLESS:
                self.ignored.discard(square)  # it agrees with the game: it works again
            return self.review(game)
        self._trust(game)
        return self._sensed(game, square, event.occupied)

    def review(self, game: GameState[Any]) -> Outcome:
        """The sensed board against ``game`` as it is now, e.g. after the referee applied a
        throw or a move entered with the controls; never an action."""
        self._trust(game)
        self._note_arrivals(game)
        return Outcome(None, self.fixes(game))

    def _trust(self, game: GameState[Any]) -> None:
        """The board the rules read: the readings, ignored squares as the game has them."""
        ignored = self.ignored
        self._board = set(self._readings) if not ignored else \
            (self._readings - ignored) | (self.expected(game) & ignored)

    @abstractmethod
    def _restart(self, game: GameState[Any]) -> None:
        """Forget pending lifts: the board was just scanned whole."""

    @abstractmethod
    def _sensed(self, game: GameState[Any], square: Square, occupied: bool) -> Outcome:
        """Interpret a change already recorded in the sensed board."""

    def _note_arrivals(self, game: GameState[Any]) -> None:  # noqa: B027  # optional hook
        """Hook: note what the board now shows done (markers that reached their box)."""

    def _try(self, game: GameState[Any], text: str, *, quiet: bool = False) -> Outcome:
        """``text`` as the action when the rules allow it, else their refusal and the fixes.

        ``quiet`` drops the refusal: a lifted piece put back once its move is no longer due
        is a piece back where it was, not a wrong move.
        """
        after = attempt(game, text)
        if isinstance(after, str):
            if quiet:
                return Outcome(None, self.fixes(game))
            return Outcome(None, self.fixes(game), after, refused=text)
        return Outcome(text, self.fixes(after))
