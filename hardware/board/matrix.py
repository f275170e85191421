"""The reed-switch matrix under the board: rows driven, columns read, one scan at a time.

Wiring: each row is an output held high; each column an input with its pull-up. A cell is a
reed switch in series with a diode (anode on the column, cathode on the row). :meth:`scan`
drives one row low at a time and reads every column: a closed switch on that row pulls its
column low. The diodes stop current flowing back through other closed switches, which would
otherwise make a phantom cell read closed ("ghosting", see ``wiring/README.md``).

- **Baseline.** The first scan sets the board's state and emits no ``CellChanged``; the daemon
  reads it with :meth:`ReedMatrix.occupied`. When the game starts on an empty board
  (``start_empty``, the default: every game here starts with its pieces off the board), each
  cell closed at that first scan is reported ``CellFault(reason="stuck: ...")``.
- **Settle.** A cell changes only once its reading has held for ``settle`` seconds (60 ms by
  default) by the injected clock, whatever the scan rate, and the readings of the cells
  around it for twice that; then one ``CellChanged`` is emitted. A reed bounces for a few
  milliseconds and a hand's fumble lasts tens, so neither outlasts the settle time. The
  neighbours count because a piece slid across the board closes each cell it crosses for a
  moment, with the cells before and after it changing meanwhile: no cell on its path is
  still long enough to count until the piece stops, and where it stops settles once its
  path is still. Pieces put down apart, or lifted, wait for the settle time alone.
- **Chatter.** A cell that never holds a reading for ``settle`` over ``unsettled`` seconds,
  or whose settled state changes ``chatter_changes`` times within ``chatter_window``, is a
  failing switch, not a hand: it is reported once as ``CellFault(reason="chattering: ...")``,
  takes no part in moves nor in its neighbours' settling, and is heard again once it has not
  changed for ``quiet`` seconds (a change it settled in then counts); if it starts again, it
  is reported again.

Between changes the matrix idles (:meth:`poll`): every row is driven low, so a change to a
column with no piece pulls it low and its edge wakes the loop, which then scans until the
change has settled. A column that already holds a piece cannot show a second one by its
level, so while one does the matrix looks again every ``patrol`` seconds.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from gpiozero import DigitalOutputDevice, InputDevice

from hardware.errors import building
from hardware.events import CellChanged, CellFault, Event
from hardware.pins.driver_types import Emit, PinFactory, Ticks

MAX_SIZE = 8
SETTLE_S = 0.06
SCAN_S = 0.005  # while a change settles: twelve looks within the settle time
PATROL_S = 0.02  # idle with pieces on the board: a lift and put back 110 ms apart is still seen
UNSETTLED_S = 1.0
CHATTER_CHANGES = 6  # settled changes within CHATTER_WINDOW_S: three lifts and puts, or a switch
CHATTER_WINDOW_S = 1.5
QUIET_S = 2.0
STUCK = "stuck: closed at start; lift the piece, or the reed switch is stuck closed"
CHECK = "check the reed switch, its diode and the wiring"


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def cell_name(row: int, col: int) -> str:
    """The name printed on the board and the screen: column letter, row number ("B3")."""
    return f"{column_letter(col)}{row + 1}"


class ReedMatrix:
    """A ``len(rows)`` x ``len(cols)`` matrix of reed switches (each 1 to 8).

    ``waker`` is called from the column pins' edge callbacks while the matrix idles; without
    one the matrix is only read when :meth:`scan` or :meth:`poll` is called.
    """

    def __init__(self, rows: Sequence[int], cols: Sequence[int], factory: PinFactory,
                 emit: Emit, *, ticks: Ticks = time.monotonic, settle: float = SETTLE_S,
                 scan_interval: float = SCAN_S, patrol: float = PATROL_S,
                 unsettled: float = UNSETTLED_S, chatter_changes: int = CHATTER_CHANGES,
                 chatter_window: float = CHATTER_WINDOW_S, quiet: float = QUIET_S,
                 start_empty: bool = True, waker: Callable[[], None] | None = None) -> None:
        for what, pins in (("rows", rows), ("columns", cols)):
            if not 1 <= len(pins) <= MAX_SIZE:
                raise ValueError(f"a matrix has 1 to {MAX_SIZE} {what}, not {len(pins)}")
        if not 0 < settle < unsettled or chatter_changes < 2 or scan_interval <= 0:
            raise ValueError("settle must be above 0 and below unsettled, scan_interval above 0 "
                             "and chatter_changes at least 2")
        self.shape = (len(rows), len(cols))
        self._emit = emit
        self._ticks = ticks
        self._settle = settle
        self._scan_interval = scan_interval
        self._patrol = patrol
        self._unsettled = unsettled
        self._chatter_changes = chatter_changes
        self._chatter_window = chatter_window
        self._quiet = quiet
        self._start_empty = start_empty
        self._waker = waker
        self._rows: list[DigitalOutputDevice] = []
        self._cols: list[InputDevice] = []
        self._edge_handlers: list[Callable[[Any, bool], None]] = []  # pins hold weak refs
        try:
            for index, pin in enumerate(rows):
                with building(f"matrix row {index + 1}", pin):
                    self._rows.append(DigitalOutputDevice(
                        pin, active_high=False, initial_value=False, pin_factory=factory))
            for index, pin in enumerate(cols):
                with building(f"matrix column {column_letter(index)}", pin):
                    self._cols.append(InputDevice(pin, pull_up=True, pin_factory=factory))
        except BaseException:
            self.close()
            raise
        n_rows, n_cols = self.shape
        size = n_rows * n_cols
        self._cells = [(r, c) for r in range(n_rows) for c in range(n_cols)]
        self._neighbours = [
            [i2 for i2, (r2, c2) in enumerate(self._cells)
             if i2 != i and abs(r2 - r) <= 1 and abs(c2 - c) <= 1]
            for i, (r, c) in enumerate(self._cells)]
        self._settled: list[bool] | None = None  # None until the baseline scan
        self._reading = [False] * size  # the latest raw reading
        self._changed_at = [-math.inf] * size  # when the reading last changed
        self._burst_from = [-math.inf] * size  # when the cell last began to change after a rest
        self._accepted: list[deque[float]] = [deque() for _ in range(size)]
        self._chattering: set[int] = set()
        self._watching = False  # idle: every row low, column edges wake the loop
        self._idle_levels: list[bool] = []  # each column's level while idle, as last settled

    def read(self) -> list[bool]:
        """One raw pass over the matrix, row by row: True where a switch is closed.

        The devices' pins are driven and read directly: this loop is the hot path, and the
        device layer above a pin costs more than the pin itself.
        """
        if self._watching:
            self._watching = False
            for row in self._rows:
                row.pin.state = True
        cols = [col.pin for col in self._cols]
        closed: list[bool] = []
        for row in self._rows:
            pin = row.pin
            pin.state = False
            closed.extend(not col.state for col in cols)
            pin.state = True
        return closed

    def scan(self) -> list[Event]:
        """Read the matrix once; emit and return the changes and faults that settled."""
        now = self._ticks()
        raw = self.read()
        settled = self._settled
        if settled is None:
            self._settled, self._reading = raw, list(raw)
            events: list[Event] = [CellFault(*self._cells[i], STUCK)
                                   for i, closed in enumerate(raw)
                                   if closed and self._start_empty]
        else:
            events = [fault for i, closed in enumerate(raw) if closed != self._reading[i]
                      and (fault := self._changed(i, closed, now)) is not None]
            events += [event for i in range(len(raw))
                       if (event := self._settle_cell(i, now, settled)) is not None]
        for event in events:
            self._emit(event)
        return events

    def poll(self) -> float | None:
        """Scan once; say when the matrix must be read again (None: when a column's edge
        says so). While nothing is settling it idles with every row driven low."""
        self.scan()
        now = self._ticks()
        if self._busy():
            return now + self._scan_interval
        settled = self._settled or []
        n_cols = self.shape[1]
        self._idle_levels = [not any(settled[c::n_cols]) for c in range(n_cols)]
        for row in self._rows:
            row.pin.state = False
        self._watching = self._waker is not None
        if self._watching and not self._edge_handlers:
            for index, col in enumerate(self._cols):
                handler = partial(self._edge, index)
                self._edge_handlers.append(handler)
                col.pin.edges = "both"
                col.pin.when_changed = handler
        return now + self._patrol if not all(self._idle_levels) else None

    def occupied(self) -> frozenset[tuple[int, int]]:
        """The cells settled closed, as (row, column); empty before the first scan."""
        settled = self._settled or []
        return frozenset(cell for cell, closed in zip(self._cells, settled, strict=False)
                         if closed)

    def close(self) -> None:
        self._watching = False
        for device in (*self._rows, *self._cols):
            device.close()

    def _edge(self, col: int, _ticks: Any, level: bool) -> None:
        """A column pin's callback (any thread): wake the loop if the board changed."""
        if self._watching and self._waker is not None and level != self._idle_levels[col]:
            self._waker()

    def _busy(self) -> bool:
        settled = self._settled or []
        return bool(self._chattering) or any(
            reading != state for reading, state in zip(self._reading, settled, strict=True))

    def _changed(self, i: int, closed: bool, now: float) -> Event | None:
        """The raw reading of cell ``i`` changed: note when, and whether it never rests."""
        if now - self._changed_at[i] >= self._settle:
            self._burst_from[i] = now
        self._changed_at[i] = now
        self._reading[i] = closed
        if i in self._chattering or now - self._burst_from[i] < self._unsettled:
            return None
        return self._start_chatter(i, f"no steady reading for {self._unsettled:g} s")

    def _settle_cell(self, i: int, now: float, settled: list[bool]) -> Event | None:
        if i in self._chattering:
            if now - self._changed_at[i] < self._quiet:
                return None
            self._chattering.discard(i)
        if self._reading[i] == settled[i]:
            return None
        if now - self._changed_at[i] < self._settle:
            return None
        nearby = max((self._changed_at[j] for j in self._neighbours[i]
                      if j not in self._chattering), default=-math.inf)
        if now - nearby < 2 * self._settle:
            return None
        accepted = self._accepted[i]
        accepted.append(now)
        while now - accepted[0] > self._chatter_window:
            accepted.popleft()
        if len(accepted) >= self._chatter_changes:
            return self._start_chatter(
                i, f"{len(accepted)} changes within {self._chatter_window:g} s")
        settled[i] = self._reading[i]
        return CellChanged(*self._cells[i], settled[i])

    def _start_chatter(self, i: int, why: str) -> CellFault:
        self._chattering.add(i)
        self._accepted[i].clear()
        return CellFault(*self._cells[i], f"chattering: {why}; ignored until quiet for "
                                          f"{self._quiet:g} s; {CHECK}")
