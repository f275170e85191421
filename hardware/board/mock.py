"""A simulated reed-switch board on gpiozero's mock pins, for the tests and the simulator.

Put a magnet on a cell and its column reads low while its row is driven low, exactly as the
real matrix of :mod:`hardware.board.matrix` behaves. Build the board on the factory *before* the
:class:`~hardware.board.matrix.ReedMatrix` that uses the same pins: the column pins must be this
module's kind, and gpiozero hands an existing pin to whoever asks next. Moving a magnet fires
a column pin's edge callback when it changes that column's level, as a real board does.

With ``diodes=False`` the board behaves like one built without its diodes: current flows
back through any closed switch, so a column reads low whenever closed switches link it to the
driven row through other rows and columns. Three magnets at the corners of a rectangle then
make the fourth corner read occupied too (ghosting).

The columns' levels are worked out again only when a magnet or a row's drive changed, so
reading a column costs about what reading a plain mock pin does: the simulation is not the
matrix's own cost, which the benches measure (a real pin's read has no board to work out).
Change the magnets with :meth:`MockBoard.place`, :meth:`~MockBoard.lift` and
:meth:`~MockBoard.set`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin


class _ColumnPin(MockPin):  # type: ignore[misc]  # gpiozero is untyped
    """A column input whose level the board computes from the magnets and the row pins."""

    def __init__(self, factory: Any, info: Any, board: MockBoard, col: int) -> None:
        super().__init__(factory, info)
        self.board = board
        self.col = col

    def _get_state(self) -> Any:
        level = super()._get_state()  # read as any pin is, whatever the board does to it
        return False if self.function == "input" and self.board.pulls_low(self.col) else level

    def changed_from(self, level: bool) -> None:
        """Fire the edge callback, as a real pin would, if the board moved the level."""
        now = bool(self._get_state())
        if now != level and self.when_changed is not None \
                and self.edges in ("both", "rising" if now else "falling"):
            PiPin._call_when_changed(self, time.monotonic(), now)


class _RowPin(MockPin):  # type: ignore[misc]  # gpiozero is untyped
    """A row output that tells its board when its drive changes."""

    def __init__(self, factory: Any, info: Any, board: MockBoard) -> None:
        self.board = board
        self.low = False  # driven low as an output
        super().__init__(factory, info)

    def _set_function(self, value: Any) -> None:
        super()._set_function(value)
        self.low = value == "output" and not self.state
        self.board.rows_changed()

    def _set_state(self, value: Any) -> None:
        super()._set_state(value)
        self.low = not value
        self.board.rows_changed()


class MockBoard:
    """Magnets on a ``len(rows)`` x ``len(cols)`` board wired to pins of ``factory``."""

    def __init__(self, factory: MockFactory, rows: Sequence[int], cols: Sequence[int], *,
                 diodes: bool = True) -> None:
        self.shape = (len(rows), len(cols))
        self.diodes = diodes
        self.magnets: set[tuple[int, int]] = set()
        self._low: frozenset[int] | None = None  # the columns pulled low, until a change
        self._rows = [factory.pin(pin, pin_class=_RowPin, board=self) for pin in rows]
        self._cols = [factory.pin(pin, pin_class=_ColumnPin, board=self, col=index)
                      for index, pin in enumerate(cols)]
        for pin, made in (*zip(cols, self._cols, strict=True),
                          *zip(rows, self._rows, strict=True)):
            if not isinstance(made, _ColumnPin | _RowPin) or made.board is not self:
                raise ValueError(f"GPIO{pin} was already made by this factory; build the "
                                 "MockBoard before any device on its pins")

    def place(self, row: int, col: int) -> None:
        """Put a magnet (a piece) on the cell."""
        self._check(row, col)
        with self._edges():
            self.magnets.add((row, col))

    def lift(self, row: int, col: int) -> None:
        """Take the magnet off the cell (nothing happens if there was none)."""
        self._check(row, col)
        with self._edges():
            self.magnets.discard((row, col))

    def set(self, cells: Iterable[tuple[int, int]]) -> None:
        """Replace every magnet on the board."""
        cells = set(cells)
        for cell in cells:
            self._check(*cell)
        with self._edges():
            self.magnets = cells

    def pulls_low(self, col: int) -> bool:
        """Whether some driven-low row reaches column ``col`` through closed switches."""
        low = self._low
        if low is None:
            low = self._low = self._pulled_columns()
        return col in low

    def rows_changed(self) -> None:
        """A row's drive changed: the columns' levels are worked out again."""
        self._low = None

    def _pulled_columns(self) -> frozenset[int]:
        if self.diodes:
            return frozenset(c for r, c in self.magnets if self._rows[r].low)
        reached_cols: set[int] = set()
        frontier = {r for r in range(self.shape[0]) if self._rows[r].low}
        seen_rows = set(frontier)
        while frontier:
            cols = {c for r, c in self.magnets if r in frontier} - reached_cols
            reached_cols |= cols
            frontier = {r for r, c in self.magnets if c in cols} - seen_rows
            seen_rows |= frontier
        return frozenset(reached_cols)

    @contextmanager
    def _edges(self) -> Iterator[None]:
        """Column edges for what the magnets changed under the rows driven now."""
        levels = [bool(pin.state) for pin in self._cols]
        yield
        self._low = None
        for pin, level in zip(self._cols, levels, strict=True):
            pin.changed_from(level)

    def _check(self, row: int, col: int) -> None:
        rows, cols = self.shape
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(f"no cell ({row}, {col}) on a {rows}x{cols} board")
