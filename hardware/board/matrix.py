"""The reed-switch matrix under the board: rows driven, columns read, one scan at a time.

Wiring: each row is an output held high; each column an input with its pull-up. A cell is a
reed switch in series with a diode (anode on the column, cathode on the row). :meth:`scan`
drives one row low at a time and reads every column: a closed switch on that row pulls its
column low. The diodes stop current flowing back through other closed switches, which would
otherwise make a phantom cell read closed ("ghosting", see ``wiring/README.md``).

Nothing happens on its own: the daemon calls :meth:`ReedMatrix.scan` every few milliseconds.

- **Baseline.** The first scan sets the board's state and emits no ``CellChanged``; the daemon
  reads it with :meth:`ReedMatrix.occupied`. When the game starts on an empty board
  (``start_empty``, the default: every game here starts with its pieces off the board), each
  cell closed at that first scan is reported ``CellFault(reason="stuck: ...")``: a piece left
  behind or a switch stuck closed. A switch stuck open cannot be told from an empty cell;
  the daemon notices that a piece it expected never arrived.
- **Debounce.** A cell changes only after ``stable_scans`` consecutive scans agree on the new
  state; then one ``CellChanged`` is emitted.
- **Chatter.** A cell whose raw reading flips ``chatter_flips`` times within
  ``chatter_window`` seconds (by the injected clock) is reported once as
  ``CellFault(reason="chattering: ...")``; this also covers a cell that never settles. It
  emits nothing more until it has been quiet for a whole window, then debounces as before.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence

from gpiozero import DigitalOutputDevice, InputDevice

from hardware.errors import building
from hardware.events import CellChanged, CellFault, Event
from hardware.pins.driver_types import Emit, PinFactory, Ticks

MAX_SIZE = 8
STABLE_SCANS = 3
CHATTER_FLIPS = 8
CHATTER_WINDOW_S = 1.0
STUCK = "stuck: closed at start; lift the piece, or the reed switch is stuck closed"


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def cell_name(row: int, col: int) -> str:
    """The name printed on the board and the screen: column letter, row number ("B3")."""
    return f"{column_letter(col)}{row + 1}"


class ReedMatrix:
    """A ``len(rows)`` x ``len(cols)`` matrix of reed switches (each 1 to 8)."""

    def __init__(self, rows: Sequence[int], cols: Sequence[int], factory: PinFactory,
                 emit: Emit, *, ticks: Ticks = time.monotonic, stable_scans: int = STABLE_SCANS,
                 chatter_flips: int = CHATTER_FLIPS, chatter_window: float = CHATTER_WINDOW_S,
                 start_empty: bool = True) -> None:
        for what, pins in (("rows", rows), ("columns", cols)):
            if not 1 <= len(pins) <= MAX_SIZE:
                raise ValueError(f"a matrix has 1 to {MAX_SIZE} {what}, not {len(pins)}")
        if stable_scans < 1 or chatter_flips < 2:
            raise ValueError("stable_scans must be at least 1 and chatter_flips at least 2")
        self.shape = (len(rows), len(cols))
        self._emit = emit
        self._ticks = ticks
        self._stable_scans = stable_scans
        self._chatter_flips = chatter_flips
        self._chatter_window = chatter_window
        self._start_empty = start_empty
        self._rows: list[DigitalOutputDevice] = []
        self._cols: list[InputDevice] = []
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
        size = len(rows) * len(cols)
        self._cells = [(r, c) for r in range(len(rows)) for c in range(len(cols))]
        self._settled: list[bool] | None = None  # None until the baseline scan
        self._last = [False] * size  # the previous raw reading
        self._streak = [0] * size  # consecutive scans that disagreed with the settled state
        self._flips: list[deque[float]] = [deque() for _ in range(size)]
        self._chattering: set[int] = set()

    def read(self) -> list[bool]:
        """One raw pass over the matrix, row by row: True where a switch is closed.

        The devices' pins are driven and read directly: this loop is the hot path, and the
        device layer above a pin costs more than the pin itself.
        """
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
            self._settled, self._last = raw, list(raw)
            events: list[Event] = [CellFault(*self._cells[i], STUCK)
                                   for i, closed in enumerate(raw)
                                   if closed and self._start_empty]
        else:
            events = [event for i, closed in enumerate(raw)
                      if (event := self._update(i, closed, now, settled)) is not None]
        for event in events:
            self._emit(event)
        return events

    def occupied(self) -> frozenset[tuple[int, int]]:
        """The cells settled closed, as (row, column); empty before the first scan."""
        settled = self._settled or []
        return frozenset(cell for cell, closed in zip(self._cells, settled, strict=False)
                         if closed)

    def close(self) -> None:
        for device in (*self._rows, *self._cols):
            device.close()

    def _update(self, i: int, closed: bool, now: float, settled: list[bool]) -> Event | None:
        flips = self._flips[i]
        if closed != self._last[i]:
            self._last[i] = closed
            flips.append(now)
            while now - flips[0] > self._chatter_window:
                flips.popleft()
            if len(flips) >= self._chatter_flips and i not in self._chattering:
                self._chattering.add(i)
                self._streak[i] = 0
                return CellFault(*self._cells[i],
                                 f"chattering: {len(flips)} changes within "
                                 f"{self._chatter_window:g} s; check the reed switch, its "
                                 "diode and the wiring")
        if i in self._chattering:
            if now - flips[-1] < self._chatter_window:
                return None
            self._chattering.discard(i)
        if closed == settled[i]:
            self._streak[i] = 0
            return None
        self._streak[i] += 1
        if self._streak[i] < self._stable_scans:
            return None
        settled[i] = closed
        self._streak[i] = 0
        return CellChanged(*self._cells[i], closed)
