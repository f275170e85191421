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
- **Debounce.** A cell changes only once its reading has held for ``debounce`` seconds (60 ms by
  default) by the injected clock, whatever the scan rate, and the readings of the cells
  around it for twice that; then one ``CellChanged`` is emitted. A reed bounces for a few
  milliseconds and a hand's fumble lasts tens, so neither outlasts the debounce time. The
  neighbours count because a piece slid across the board closes each cell it crosses for a
  moment, with the cells before and after it changing meanwhile: no cell on its path is
  still long enough to count until the piece stops, and where it stops settles once its
  path is still. A piece put down waits twice the debounce time in any case: a hand that
  lands a piece and slides it on leaves it on that first cell for up to 100 ms, with no
  neighbour changing before. So does a piece put down soon after the matrix woke from its
  idle: a row holding pieces may have changed unseen between two looks of the patrol
  (a brief touch on the way), so a change first seen on waking is judged as if a
  neighbour had changed then. A lift waits for the debounce time alone (and its neighbours).
- **Chatter.** A cell that never holds a reading for ``debounce`` over ``unsettled`` seconds,
  or whose settled state changes ``chatter_changes`` times within ``chatter_window``, or
  whose reading changes by itself (after a steady one, the cells around it steady)
  ``slow_chatter``'s count of times within its seconds, more often than hands move pieces
  there, is a failing switch, not a hand: it is reported once as
  ``CellFault(reason="chattering: ...")``, takes no part in moves nor in its neighbours'
  settling, and is heard again once it has not changed for ``quiet`` seconds (a change it
  settled in then counts); if it starts again, it is reported again. Each ``CellChanged``
  says how often its cell changed by itself of late (``alone``), and
  :meth:`ReedMatrix.changes_by_itself` tells of cells a close of which came back open before
  it settled (no hand puts a piece down and takes it away that quickly), so that the
  referee, which knows what the changes did in the game, can judge a switch failing too
  slowly for these rules.

Between changes the matrix idles (:meth:`poll`): every row that holds no piece is driven low
and the rows that hold one are left high, so every column reads high. A piece put on a free
row pulls its column low and the edge wakes the loop, which then scans until the change has
settled. A change on a row that holds a piece cannot show that way (its column is low
whenever that row is driven, so a second piece or the lift of one of two would not move it),
so while any row holds a piece the matrix patrols: it drives each such row in turn and
compares the columns with what the settled board says, which costs a row's reads instead of
a whole scan. Only a difference starts the scans; the change it found is dated half-way back
to the look before (at most half the debounce time), the likeliest moment, so a chip lifted
for a swap and seen late in the 80 ms before the new one is put down still counts as lifted.

The patrol follows the table. While hands are busy (for ``rest_after`` seconds after the
last edge, change or ``hands_seen`` poll: a button, the knob, the dice, a piece) it looks every
``patrol`` seconds, so a piece put beside another shows within that and a quick lift and
put back is still seen. Once the table has been still that long it looks every
``rest_patrol`` seconds, as often, nearly: a player who has been thinking moves a piece as
quickly as one who has not, and a swap made 80 ms after a still spell must be seen as
surely. A look reads each held row's columns until one differs from the levels worked out
when the matrix idled, then only the columns its drives pulled low: 7 pin reads with one
piece on the board, and no list built. That costs the idle daemon about half a percent of a
core here (``bench/idle.py``), most of it the forty wake-ups a second themselves: a bare
25 ms wait on the loop's queue costs 0.2 to 0.28% alone on this machine.
``bench/rest_patrol.py`` weighs the rate: every 50 ms puts the latency at rest over
150 ms, every 100 ms misses swaps, and waiting on edges alone (``rest_patrol=None``) cannot
see a change on a row that holds a piece at all.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gpiozero import DigitalOutputDevice, InputDevice

from hardware.errors import building
from hardware.events import CellChanged, CellFault, Event
from hardware.pins.driver_types import Emit, PinFactory, Ticks

MAX_SIZE = 8
DEBOUNCE_S = 0.06
SCAN_S = 0.005  # while a change settles: twelve looks within the debounce time
PATROL_S = 0.02  # idle with pieces on the board: a lift and put back 110 ms apart is still seen
REST_PATROL_S = 0.025  # the table still
REST_AFTER_S = 5.0
UNSETTLED_S = 1.0
CHATTER_CHANGES = 10  # settled changes within CHATTER_WINDOW_S: five lifts and puts, more
# than a hand makes tapping or straightening a chip (three taps and the put: 7), or a switch
CHATTER_WINDOW_S = 1.5
SLOW_CHATTER = (12, 8.0)  # changes of reading after a steady one, the cells around it steady
# too, within seconds: a hand makes or breaks a cell once or twice a move, and a few times more
# when it straightens or taps a chip, or tries a replacement again and again (8 changes in a
# few seconds); a switch failing slowly every second or so
QUIET_S = 2.0
STUCK = "stuck: closed at start; lift the piece, or the reed switch is stuck closed"
CHECK = "check the reed switch, its diode and the wiring"


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def cell_name(row: int, col: int) -> str:
    """The name printed on the board and the screen: column letter, row number ("B3")."""
    return f"{column_letter(col)}{row + 1}"


@dataclass(frozen=True, slots=True)
class Limits:
    """How long a reading must hold, how often the matrix looks, and what counts as chatter
    (see the module's docstring)."""

    debounce: float = DEBOUNCE_S
    scan_interval: float = SCAN_S
    unsettled: float = UNSETTLED_S
    chatter_changes: int = CHATTER_CHANGES
    chatter_window: float = CHATTER_WINDOW_S
    slow_changes: int = SLOW_CHATTER[0]
    slow_window: float = SLOW_CHATTER[1]
    quiet: float = QUIET_S

    def __post_init__(self) -> None:
        if not 0 < self.debounce < self.unsettled or self.chatter_changes < 2 \
                or self.scan_interval <= 0:
            raise ValueError("debounce must be above 0 and below unsettled, scan_interval above 0 "
                             "and chatter_changes at least 2")


@dataclass(slots=True, eq=False)
class Cell:
    """One switch: how it settled, how it reads, and the history its chatter is judged by."""

    row: int
    col: int
    settled: bool
    reading: bool  # the latest raw reading
    neighbours: list[Cell] = field(default_factory=list)
    changed_at: float = -math.inf  # when the reading last changed
    burst_from: float = -math.inf  # when it last began to change after a rest
    accepted: deque[float] = field(default_factory=deque)  # its settled changes of late
    bursts: deque[float] = field(default_factory=deque)  # its changes after steady readings
    left_alone: bool = False  # the reading left its settled state by itself
    unreported: float = -math.inf  # when a close of it last came back open before it settled
    chattering: bool = False


@dataclass(slots=True)
class Pace:
    """When the patrol looks next: every ``busy`` seconds while hands are at the table (for
    ``rest_after`` seconds after their last sign), every ``rest`` once it is still (None: then
    only an edge wakes the matrix)."""

    busy: float
    rest: float | None
    rest_after: float
    hands_seen_at: float = -math.inf  # the last sign of hands at the table
    next_look: float | None = None  # while idle with pieces
    looked_at: float = -math.inf  # the last look that found the board as settled

    def plan(self, now: float, held: bool) -> float | None:
        """The next look (None: no row ``held`` a piece, or the table is still and only an
        edge wakes the matrix); ``now`` the board was as settled."""
        self.looked_at = now
        resting = now - self.hands_seen_at >= self.rest_after
        every = self.rest if resting else self.busy
        self.next_look = None if not held or every is None else now + every
        return self.next_look


class ReedMatrix:
    """A ``len(rows)`` x ``len(cols)`` matrix of reed switches (each 1 to 8).

    ``waker`` is called from the column pins' edge callbacks while the matrix idles; without
    one the matrix is only read when :meth:`scan` or :meth:`poll` is called.
    """

    def __init__(self, rows: Sequence[int], cols: Sequence[int], factory: PinFactory,
                 emit: Emit, *, ticks: Ticks = time.monotonic, debounce: float = DEBOUNCE_S,
                 scan_interval: float = SCAN_S, patrol: float = PATROL_S,
                 rest_patrol: float | None = REST_PATROL_S, rest_after: float = REST_AFTER_S,
                 unsettled: float = UNSETTLED_S, chatter_changes: int = CHATTER_CHANGES,
                 chatter_window: float = CHATTER_WINDOW_S,
                 slow_chatter: tuple[int, float] = SLOW_CHATTER, quiet: float = QUIET_S,
                 start_empty: bool = True, waker: Callable[[], None] | None = None) -> None:
        for what, pins in (("rows", rows), ("columns", cols)):
            if not 1 <= len(pins) <= MAX_SIZE:
                raise ValueError(f"a matrix has 1 to {MAX_SIZE} {what}, not {len(pins)}")
        self._limits = Limits(debounce, scan_interval, unsettled, chatter_changes,
                              chatter_window, *slow_chatter, quiet)
        self.shape = (len(rows), len(cols))
        self._emit = emit
        self._ticks = ticks
        self._pace = Pace(patrol, rest_patrol, rest_after)
        self._start_empty = start_empty
        self._waker = waker
        self._cells: list[Cell] = []  # row by row, from the baseline scan on
        self._idle_rows = False  # the free rows are driven low, the rows with pieces high
        self._watching = False  # idle, and a column's falling edge wakes the loop
        self._edged = False  # a column fell while watching: the next poll scans
        # the patrol's looks: the pin of each row that held a piece when the matrix idled and
        # its columns' levels then, and the column pins those drives pull low
        self._looks: list[tuple[Any, tuple[bool, ...]]] = []
        self._pulled: list[Any] = []
        self._heard = False  # an edge of a column no drive pulls came during a look
        self._woke_at = -math.inf  # when the last change was first seen while idle
        self._edge_handlers: list[Callable[[Any, bool], None]] = []  # pins hold weak refs
        self._rows: list[DigitalOutputDevice] = []
        self._cols: list[InputDevice] = []
        self._open(rows, cols, factory)
        self._col_pins = [col.pin for col in self._cols]

    @property
    def rest_patrol(self) -> float | None:
        """Seconds between looks once the table is still (None: read only on an edge)."""
        return self._pace.rest

    @rest_patrol.setter
    def rest_patrol(self, seconds: float | None) -> None:
        self._pace.rest = seconds

    def _open(self, rows: Sequence[int], cols: Sequence[int], factory: PinFactory) -> None:
        """Build the rows' outputs and the columns' inputs; a failure closes what was built."""
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

    def read(self) -> list[bool]:
        """One raw pass over the matrix, row by row: True where a switch is closed.

        The devices' pins are driven and read directly: this loop is the hot path, and the
        device layer above a pin costs more than the pin itself. They are read one by one:
        a gpiozero pin reads only itself, and lgpio's group read needs the lines claimed
        together as one group, where gpiozero claims each column alone for its edge alert.
        """
        if self._idle_rows:
            self._idle_rows = self._watching = False
            for row in self._rows:
                row.pin.state = True
        cols = self._col_pins
        closed: list[bool] = []
        for row in self._rows:
            pin = row.pin
            pin.state = False
            closed.extend(not col.state for col in cols)
            pin.state = True
        return closed

    def scan(self, since: float | None = None) -> list[Event]:
        """Read the matrix once; emit and return the changes and faults that settled.
        ``since``: when a reading found changed now most likely changed (the patrol's
        estimate, for a change it found between two looks)."""
        now = self._ticks()
        raw = self.read()
        if not self._cells:
            self._cells = self._baseline(raw)
            events: list[Event] = [CellFault(cell.row, cell.col, STUCK) for cell in self._cells
                                   if cell.settled and self._start_empty]
        else:
            at = now if since is None else min(since, now)
            events = [fault for cell, closed in zip(self._cells, raw, strict=True)
                      if closed != cell.reading
                      and (fault := self._changed(cell, closed, at)) is not None]
            events += [event for cell in self._cells
                       if (event := self._debounce_cell(cell, now)) is not None]
        for event in events:
            self._emit(event)
        return events

    def _baseline(self, raw: list[bool]) -> list[Cell]:
        """The cells as the first scan found them, each knowing the cells around it."""
        n_cols = self.shape[1]
        cells = [Cell(i // n_cols, i % n_cols, closed, closed) for i, closed in enumerate(raw)]
        for cell in cells:
            cell.neighbours = [other for other in cells if other is not cell
                               and abs(other.row - cell.row) <= 1
                               and abs(other.col - cell.col) <= 1]
        return cells

    def poll(self, *, hands_seen: bool = False) -> float | None:
        """Patrol or scan when due; say when the matrix must be read again (None: when a
        column's edge says so). While nothing is settling it idles (see the module's
        docstring). ``hands_seen``: another input moved, so hands are at the table; that alone
        reads no pin, it only brings the next look forward."""
        edged, self._edged = self._edged, False
        now = self._ticks()
        pace = self._pace
        if hands_seen:
            pace.hands_seen_at = now
        if self._watching and not edged:
            if pace.next_look is None or now < pace.next_look:
                if hands_seen and self._looks:
                    pace.next_look = min(pace.next_look or math.inf, now + pace.busy)
                return pace.next_look
            if self._patrol_rows():
                return pace.plan(now, bool(self._looks))
            # found by a look: on average it came half-way since the look before
            since = max(now - (now - pace.looked_at) / 2, now - self._limits.debounce / 2)
        else:
            since = now
        if self._idle_rows:  # a change first seen while idle: what came before it is unknown
            self._woke_at = now
        self.scan(since)
        now = pace.hands_seen_at = self._ticks()
        if self._busy():
            return now + self._limits.scan_interval
        self._idle()
        return pace.plan(now, bool(self._looks))

    def _idle(self) -> None:
        """Drive the free rows low and leave the rows with pieces high; arm the edges."""
        n_rows, n_cols = self.shape
        rows = [self._cells[r * n_cols:(r + 1) * n_cols] for r in range(n_rows)]
        held = [r for r, cells in enumerate(rows) if any(cell.settled for cell in cells)]
        for index, row in enumerate(self._rows):
            row.pin.state = index in held
        self._looks = [(self._rows[r].pin, tuple(not cell.settled for cell in rows[r]))
                       for r in held]
        self._pulled = [pin for c, pin in enumerate(self._col_pins)
                        if any(not levels[c] for _pin, levels in self._looks)]
        self._idle_rows = True
        self._watching = self._waker is not None
        if self._watching and not self._edge_handlers:
            for index, col in enumerate(self._cols):
                handler = partial(self._edge, index)
                self._edge_handlers.append(handler)
                col.pin.edges = "both"
                col.pin.when_changed = handler

    def _patrol_rows(self) -> bool:
        """Drive each row that holds a piece in turn, the free rows still driven: whether
        every column reads as the settled board says. A piece put on or lifted from that row,
        or put on a free one, makes some column read otherwise. The first column found
        otherwise ends the look: the scan that follows reads them all.

        The edges are ignored while a row is driven (the drive moves the columns itself), so
        the columns it pulled low are read once more after it, the edges armed again, and
        every column if another's edge came meanwhile: a piece put on a free row then is
        seen, or its edge comes after.
        """
        cols = self._col_pins
        self._watching = self._heard = False
        for pin, levels in self._looks:
            pin.state = False
            for col, level in zip(cols, levels, strict=True):
                if col.state != level:
                    pin.state = True
                    return False
            pin.state = True
        self._watching = True
        return all(col.state for col in (cols if self._heard else self._pulled))

    @property
    def settling(self) -> bool:
        """Whether a cell that is not chattering reads otherwise than it settled (a piece
        being put down or lifted), as of the last read."""
        return any(cell.reading != cell.settled and not cell.chattering for cell in self._cells)

    def changes_by_itself(self) -> dict[tuple[int, int], int]:
        """The cells one of whose closes by itself (after a steady open reading, the cells
        around it steady) came back open before it settled, so no ``CellChanged`` told of
        it, within the slow-chatter window: how often each changed by itself then, as of
        now. A hand cannot put a piece down and take it away that quickly; it can lift a
        piece for less than the debounce time (a tap, a chip straightened), so an open that
        came back is not listed. Only cells that read as they settled, unchanged for twice
        the debounce time: a change still settling is reported first."""
        now = self._ticks()
        window, steady = self._limits.slow_window, 2 * self._limits.debounce
        return {(cell.row, cell.col): sum(now - at <= window for at in cell.bursts)
                for cell in self._cells
                if now - cell.unreported <= window and cell.reading == cell.settled
                and now - cell.changed_at >= steady}

    def occupied(self) -> frozenset[tuple[int, int]]:
        """The cells settled closed, as (row, column); empty before the first scan."""
        return frozenset((cell.row, cell.col) for cell in self._cells if cell.settled)

    def close(self) -> None:
        self._watching = False
        for device in (*self._rows, *self._cols):
            device.close()

    def _edge(self, col: int, _ticks: Any, level: bool) -> None:
        """A column pin's callback (any thread): wake the loop if a piece came.

        At idle every column reads high, so only a fall means something. The column is read
        again because a callback can arrive after the level it reports has gone, as for the
        patrol's own drive of a row; a piece put down keeps its column low.
        """
        pin = self._col_pins[col]
        if not self._watching:  # during a look: the column is read after it unless pulled
            self._heard = self._heard or (self._idle_rows and pin not in self._pulled)
        elif self._waker is not None and not level and not pin.state:
            self._edged = True
            self._waker()

    def _busy(self) -> bool:
        return any(cell.chattering or cell.reading != cell.settled for cell in self._cells)

    def _changed(self, cell: Cell, closed: bool, now: float) -> Event | None:
        """The raw reading of ``cell`` changed: note when, and whether it never rests or
        changes more often than hands make it."""
        limits = self._limits
        bursts = cell.bursts
        if now - cell.changed_at >= limits.debounce:
            cell.burst_from = now
            alone = self._alone(cell, now)
            back = closed == cell.settled
            if back and cell.left_alone and not closed:  # a close came back open
                cell.unreported = now  # before it settled: too brief for a hand's put
            cell.left_alone = alone and not back
            if alone:  # a hand crossing makes the cells around change too
                bursts.append(now)
                while now - bursts[0] > limits.slow_window:
                    bursts.popleft()
        cell.changed_at = now
        cell.reading = closed
        if cell.chattering:
            return None
        if len(bursts) >= limits.slow_changes:
            return self._start_chatter(
                cell, f"{len(bursts)} changes within {limits.slow_window:g} s")
        if now - cell.burst_from < limits.unsettled:
            return None
        return self._start_chatter(cell, f"no steady reading for {limits.unsettled:g} s")

    def _alone(self, cell: Cell, now: float) -> bool:
        """Whether no cell around ``cell`` changed for twice the debounce time."""
        steady = 2 * self._limits.debounce
        return all(now - other.changed_at >= steady for other in cell.neighbours)

    def _debounce_cell(self, cell: Cell, now: float) -> Event | None:
        limits = self._limits
        if cell.chattering:
            if now - cell.changed_at < limits.quiet:
                return None
            cell.chattering = False
        if cell.reading == cell.settled or now - cell.changed_at < limits.debounce:
            return None
        nearby = max((other.changed_at for other in cell.neighbours if not other.chattering),
                     default=-math.inf)
        if cell.reading:  # a piece put down: it may be a slide's first cell, and a
            nearby = max(nearby, self._woke_at, cell.changed_at)  # neighbour may have
            # changed unseen before the matrix woke
        if now - nearby < 2 * limits.debounce:
            return None
        accepted = cell.accepted
        accepted.append(now)
        while now - accepted[0] > limits.chatter_window:
            accepted.popleft()
        if len(accepted) >= limits.chatter_changes:
            return self._start_chatter(
                cell, f"{len(accepted)} changes within {limits.chatter_window:g} s")
        cell.settled = cell.reading
        alone = sum(now - at <= limits.slow_window for at in cell.bursts)
        return CellChanged(cell.row, cell.col, cell.settled, alone)

    def _start_chatter(self, cell: Cell, why: str) -> CellFault:
        cell.chattering = True
        cell.accepted.clear()
        cell.bursts.clear()
        return CellFault(cell.row, cell.col, f"chattering: {why}; ignored until quiet for "
                                             f"{self._limits.quiet:g} s; {CHECK}",
                         chattering=True)
