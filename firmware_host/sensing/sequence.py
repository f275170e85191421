"""Sequence Dice on the 6x6 reed-switch grid: square (row, col) is ``Cell(row, col)``.

A chip put on an empty cell is ``place``; a chip lifted is ``remove`` on a defensive 10. A
``replace`` is a lift and a put on the same cell, so a lift from a cell that may be replaced
waits for the put instead of counting as a mistake. The sensors cannot tell colours apart,
so the put is no move by itself: a chip lifted and put back (a change of mind) and one
replaced by another look alike. The replacement is offered (highlighted in the list, SELECT
plays it), as it is when a chip stacked on the other and the one below pulled out changed
nothing the sensors can see.

Anything else is refused in the rules' own words, with the fixes that undo it.
"""

from __future__ import annotations

from typing import Any

from firmware_host.sensing.base import Outcome, Recogniser, Square, attempt
from games.core import GameState
from games.sequence import COLOURS, Cell, SequenceDice, Verb, on_board
from hardware.board.matrix import cell_name


def _sequence(game: GameState[Any]) -> SequenceDice:
    if not isinstance(game, SequenceDice):
        raise TypeError(f"a Sequence Dice recogniser cannot read {type(game).__name__}")
    return game


class SequenceRecogniser(Recogniser):
    """Chips on the Sequence Dice board; see the module docstring."""

    def __init__(self) -> None:
        super().__init__()
        self._lifted: set[Cell] = set()  # chips lifted for a replacement, awaiting the put

    def expected(self, game: GameState[Any]) -> frozenset[Square]:
        return frozenset((cell.row, cell.col) for cell in _sequence(game).taken)

    def fixes(self, game: GameState[Any]) -> tuple[str, ...]:
        state = _sequence(game)
        expected = self.expected(state)
        waiting = self._excused(state)
        found = []
        for square in sorted((expected ^ self._board) - waiting):
            if square in expected:
                colour = state.chip(Cell(*square))
                assert colour is not None
                found.append(f"put a {COLOURS[colour]} chip on {cell_name(*square)}")
            else:
                found.append(f"lift the chip from {cell_name(*square)}")
        return tuple(found)

    def _excused(self, game: GameState[Any]) -> frozenset[Square]:
        """Chips lifted for a replacement the rules still allow."""
        return frozenset((cell.row, cell.col) for cell in self._lifted
                         if not isinstance(attempt(game, f"replace {cell}"), str))

    def _restart(self, game: GameState[Any]) -> None:
        self._lifted.clear()

    def _sensed(self, game: GameState[Any], square: Square, occupied: bool) -> Outcome:
        state = _sequence(game)
        name = cell_name(*square)
        if not on_board(*square):
            return Outcome(None, self.fixes(state), f"{name} is not a cell of the board")
        cell = Cell(*square)
        expected = square in self.expected(state)
        if occupied:
            if cell in self._lifted:
                self._lifted.discard(cell)
                return self._offer(state, f"replace {cell}")
            if expected:  # a missing chip put back
                return self.review(state)
            return self._try(state, f"place {cell}")
        if not expected:  # a stray chip taken away
            return self.review(state)
        if not isinstance(attempt(state, f"replace {cell}"), str):
            self._lifted.add(cell)
            return self.review(state)
        legal = state.legal_actions()
        verb = Verb.REPLACE if legal and legal[0].verb is Verb.REPLACE else Verb.REMOVE
        return self._try(state, f"{verb.value} {cell}")

    def _offer(self, state: SequenceDice, text: str) -> Outcome:
        """A chip put back where one was lifted for a replacement: the replacement for the
        players to confirm, while the rules allow it (else a chip back where it was)."""
        if isinstance(attempt(state, text), str):
            return self.review(state)
        cell = text.split()[-1]
        return Outcome(None, self.fixes(state),
                       f"{cell}: if your chip is on it now, SELECT replaces; if theirs went "
                       "back, lift the chip to replace", offer=text)

    def hint(self, game: GameState[Any]) -> str | None:
        """How a replacement is made on the board, when one is due."""
        legal = _sequence(game).legal_actions()
        if legal and all(action.verb is Verb.REPLACE for action in legal):
            return "to replace: lift their chip, put yours on, SELECT"
        return None
