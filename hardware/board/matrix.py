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
surely. That costs the idle daemon about half a percent of a core, nearly all of it the
wake-ups; ``bench/rest_patrol.py`` weighs it: every 50 ms puts the latency at rest over
150 ms, every 100 ms misses swaps, and waiting on edges alone (``rest_patrol=None``) cannot
see a change on a row that holds a piece at all.
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
        if not 0 < debounce < unsettled or chatter_changes < 2 or scan_interval <= 0:
            raise ValueError("debounce must be above 0 and below unsettled, scan_interval above 0 "
                             "and chatter_changes at least 2")
        self.shape = (len(rows), len(cols))
        self._emit = emit
        self._ticks = ticks
        self._debounce = debounce
        self._scan_interval = scan_interval
        self._patrol = patrol
        self.rest_patrol = rest_patrol  # None: a still table is read only on an edge
        self._rest_after = rest_after
        self._hands_seen_at = -math.inf  # the last sign of hands at the table
        self._next_look: float | None = None  # the next patrol, while idle with pieces
        self._looked_at = -math.inf  # the last patrol that found the board as settled
        self._unsettled = unsettled
        self._chatter_changes = chatter_changes
        self._chatter_window = chatter_window
        self._slow_changes, self._slow_window = slow_chatter
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
        self._cols_pins = [col.pin for col in self._cols]
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
        self._bursts: list[deque[float]] = [deque() for _ in range(size)]  # after steady readings
        self._left_alone = [False] * size  # the reading left its settled state by itself
        self._unreported = [-math.inf] * size  # when a close of it last came back open
        # before it settled
        self._chattering: set[int] = set()
        self._idle_rows = False  # the free rows are driven low, the rows with pieces high
        self._watching = False  # idle, and a column's falling edge wakes the loop
        self._edged = False  # a column fell while watching: the next poll scans
        self._held_rows: list[int] = []  # the rows that held a piece when the matrix idled
        # the patrol's looks: each held row's pin and its columns' expected levels, and the
        # column pins those drives pull low (read again after the look)
        self._looks: list[tuple[Any, tuple[bool, ...]]] = []
        self._pulled: list[Any] = []
        self._heard = False  # an edge of a column no drive pulls came during a look
        self._woke_at = -math.inf  # when the last change was first seen while idle

    def read(self) -> list[bool]:
        """One raw pass over the matrix, row by row: True where a switch is closed.

        The devices' pins are driven and read directly: this loop is the hot path, and the
        device layer above a pin costs more than the pin itself.
        """
        if self._idle_rows:
            self._idle_rows = self._watching = False
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

    def scan(self, since: float | None = None) -> list[Event]:
        """Read the matrix once; emit and return the changes and faults that settled.
        ``since``: when a reading found changed now most likely changed (the patrol's
        estimate, for a change it found between two looks)."""
        now = self._ticks()
        raw = self.read()
        settled = self._settled
        if settled is None:
            self._settled, self._reading = raw, list(raw)
            events: list[Event] = [CellFault(*self._cells[i], STUCK)
                                   for i, closed in enumerate(raw)
                                   if closed and self._start_empty]
        else:
            at = now if since is None else min(since, now)
            events = [fault for i, closed in enumerate(raw) if closed != self._reading[i]
                      and (fault := self._changed(i, closed, at)) is not None]
            events += [event for i in range(len(raw))
                       if (event := self._debounce_cell(i, now, settled)) is not None]
        for event in events:
            self._emit(event)
        return events

    def poll(self, *, hands_seen: bool = False) -> float | None:
        """Patrol or scan when due; say when the matrix must be read again (None: when a
        column's edge says so). While nothing is settling it idles (see the module's
        docstring). ``hands_seen``: another input moved, so hands are at the table; that alone
        reads no pin, it only brings the next look forward."""
        edged, self._edged = self._edged, False
        now = self._ticks()
        if hands_seen:
            self._hands_seen_at = now
        if self._watching and not edged:
            if self._next_look is None or now < self._next_look:
                if hands_seen and self._held_rows:
                    self._next_look = min(self._next_look or math.inf, now + self._patrol)
                return self._next_look
            if self._patrol_rows():
                return self._plan_patrol(now)
            # found by a look: on average it came half-way since the look before
            since = max(now - (now - self._looked_at) / 2, now - self._debounce / 2)
        else:
            since = now
        if self._idle_rows:  # a change first seen while idle: what came before it is unknown
            self._woke_at = now
        self.scan(since)
        now = self._hands_seen_at = self._ticks()
        if self._busy():
            return now + self._scan_interval
        self._idle()
        return self._plan_patrol(now)

    def _plan_patrol(self, now: float) -> float | None:
        """When to look at the rows holding pieces next (None: there are none, or the
        table is still and only an edge wakes the matrix); ``now`` the board was as settled."""
        self._looked_at = now
        resting = now - self._hands_seen_at >= self._rest_after
        every = self.rest_patrol if resting else self._patrol
        self._next_look = None if not self._held_rows or every is None else now + every
        return self._next_look

    def _idle(self) -> None:
        """Drive the free rows low and leave the rows with pieces high; arm the edges."""
        settled = self._settled or []
        n_cols = self.shape[1]
        self._held_rows = [r for r in range(self.shape[0])
                           if any(settled[r * n_cols:(r + 1) * n_cols])]
        for index, row in enumerate(self._rows):
            row.pin.state = index in self._held_rows
        cols = self._cols_pins
        self._looks = [(self._rows[r].pin, tuple(not settled[r * n_cols + c]
                                                 for c in range(n_cols)))
                       for r in self._held_rows]
        self._pulled = [pin for c, pin in enumerate(cols)
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
        cols = self._cols_pins
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
        settled = self._settled or []
        return any(reading != state for i, (reading, state)
                   in enumerate(zip(self._reading, settled, strict=False))
                   if i not in self._chattering)

    def changes_by_itself(self) -> dict[tuple[int, int], int]:
        """The cells one of whose closes by itself (after a steady open reading, the cells
        around it steady) came back open before it settled, so no ``CellChanged`` told of
        it, within the slow-chatter window: how often each changed by itself then, as of
        now. A hand cannot put a piece down and take it away that quickly; it can lift a
        piece for less than the debounce time (a tap, a chip straightened), so an open that
        came back is not listed. Only cells that read as they settled, unchanged for twice
        the debounce time: a change still settling is reported first."""
        now = self._ticks()
        settled = self._settled or []
        found = {}
        for i, bursts in enumerate(self._bursts):
            if now - self._unreported[i] <= self._slow_window \
                    and self._reading[i] == settled[i] \
                    and now - self._changed_at[i] >= 2 * self._debounce:
                found[self._cells[i]] = sum(now - at <= self._slow_window for at in bursts)
        return found

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
        """A column pin's callback (any thread): wake the loop if a piece came.

        At idle every column reads high, so only a fall means something. The column is read
        again because a callback can arrive after the level it reports has gone, as for the
        patrol's own drive of a row; a piece put down keeps its column low.
        """
        pin = self._cols_pins[col]
        if not self._watching:  # during a look: the column is read after it unless pulled
            self._heard = self._heard or (self._idle_rows and pin not in self._pulled)
        elif self._waker is not None and not level and not pin.state:
            self._edged = True
            self._waker()

    def _busy(self) -> bool:
        settled = self._settled or []
        return bool(self._chattering) or any(
            reading != state for reading, state in zip(self._reading, settled, strict=True))

    def _changed(self, i: int, closed: bool, now: float) -> Event | None:
        """The raw reading of cell ``i`` changed: note when, and whether it never rests or
        changes more often than hands make it."""
        bursts = self._bursts[i]
        if now - self._changed_at[i] >= self._debounce:
            self._burst_from[i] = now
            alone = self._alone(i, now)
            back = self._settled is not None and closed == self._settled[i]
            if back and self._left_alone[i] and not closed:  # a close came back open
                self._unreported[i] = now  # before it settled: too brief for a hand's put
            self._left_alone[i] = alone and not back
            if alone:  # a hand crossing makes the cells around change too
                bursts.append(now)
                while now - bursts[0] > self._slow_window:
                    bursts.popleft()
        self._changed_at[i] = now
        self._reading[i] = closed
        if i in self._chattering:
            return None
        if len(bursts) >= self._slow_changes:
            return self._start_chatter(
                i, f"{len(bursts)} changes within {self._slow_window:g} s")
        if now - self._burst_from[i] < self._unsettled:
            return None
        return self._start_chatter(i, f"no steady reading for {self._unsettled:g} s")

    def _alone(self, i: int, now: float) -> bool:
        """Whether no cell around ``i`` changed for twice the debounce time."""
        return all(now - self._changed_at[j] >= 2 * self._debounce for j in self._neighbours[i])

    def _debounce_cell(self, i: int, now: float, settled: list[bool]) -> Event | None:
        if i in self._chattering:
            if now - self._changed_at[i] < self._quiet:
                return None
            self._chattering.discard(i)
        if self._reading[i] == settled[i]:
            return None
        if now - self._changed_at[i] < self._debounce:
            return None
        nearby = max((self._changed_at[j] for j in self._neighbours[i]
                      if j not in self._chattering), default=-math.inf)
        if self._reading[i]:  # a piece put down: it may be a slide's first cell, and a
            nearby = max(nearby, self._woke_at, self._changed_at[i])  # neighbour may have
            # changed unseen before the matrix woke
        if now - nearby < 2 * self._debounce:
            return None
        accepted = self._accepted[i]
        accepted.append(now)
        while now - accepted[0] > self._chatter_window:
            accepted.popleft()
        if len(accepted) >= self._chatter_changes:
            return self._start_chatter(
                i, f"{len(accepted)} changes within {self._chatter_window:g} s")
        settled[i] = self._reading[i]
        alone = sum(now - at <= self._slow_window for at in self._bursts[i])
        return CellChanged(*self._cells[i], settled[i], alone)

    def _start_chatter(self, i: int, why: str) -> CellFault:
        self._chattering.add(i)
        self._accepted[i].clear()
        self._bursts[i].clear()
        return CellFault(*self._cells[i], f"chattering: {why}; ignored until quiet for "
                                          f"{self._quiet:g} s; {CHECK}", chattering=True)
