"""The host end of the TC1 serial line: a board scanner or dice reader on a USB serial port.

:class:`SerialBridge` owns the port's life: it opens it through the given opener
(``serial.serial_for_url``, so tests use a pty or ``loop://``), greets the device, turns
its lines into :class:`~hardware.events.DiceRolled` (source ``"serial"``),
:class:`~hardware.events.CellChanged` and :class:`~hardware.events.DeviceStatus` events,
and when the device vanishes (``SerialException``, an ``OSError``) reopens it as soon as
its node is back (:mod:`hardware.reopen`). It never blocks and starts no thread: the
daemon calls :meth:`SerialBridge.poll` with the time from its loop, the port is read with
``timeout=0``, and replies are written only as far as the device takes them.

A line that cannot be taken is counted in :attr:`SerialBridge.bad_lines`, logged (as a
count per minute when there are many), and answered with ``ERR <code>``; the firmware
answers an ERR with a full BOARD snapshot, so a cell change lost to a corrupted line is
recovered from the snapshot.

A device that sends more lines than ``lines_per_second``, or than the loop has ``room`` for,
floods: its newest :data:`BACKLOG` lines wait for their turn and older ones are dropped
unread (said once, with a count when it ends), so the table stays current and memory flat,
and when it is calm again the bridge asks for a snapshot so a board's cells are right again.
A throw made just after a flood is among the newest lines, so it is handled, never dropped.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from functools import cache, partial
from typing import Any, Protocol

from hardware.backoff import Backoff
from hardware.events import CellChanged, DiceRolled
from hardware.pins.driver_types import Emit
from hardware.reopen import Reopening
from hardware.serial.flow import BadLineTally, Outgoing, Throttle
from hardware.serial.framing import (
    TOOLONG,
    VERSION_MISMATCH,
    LineSplitter,
    ProtocolError,
    decode_line,
    encode_line,
)
from hardware.serial.messages import Board, Cell, Dice, ErrorReply, Hello, parse_message
from hardware.status_reporter import StatusReporter

log = logging.getLogger(__name__)

DEVICE = "serial"
HOST_NAME = "table-companion"
READ_CHUNK = 4096
WRITE_TIMEOUT = 0.5
"""For a port with no file descriptor (a network URL), whose writes cannot be checked for
room first: how long a write may wait before the device is taken as gone."""
LINES_PER_SECOND = 200
"""More than any dice reader or board sends (a snapshot after each ERR included)."""
BACKLOG = 64
"""Lines read but not yet taken (a third of a second at the line rate): the newest win."""
CALM_S = 1.0
"""A flood is over after this long without a dropped line."""


class SerialPort(Protocol):
    """What the bridge uses of a pyserial port."""

    def read(self, size: int) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[..., SerialPort]
"""``serial.serial_for_url``, or a test's wrapper of it."""


def serial_for_url(url: str, **options: Any) -> SerialPort:
    """pyserial's opener, imported on first use: a daemon without a serial device (and its
    cold start) never loads pyserial. pyserial's ``SerialException`` is an ``OSError``."""
    import serial

    port: SerialPort = serial.serial_for_url(url, **options)
    return port


@cache
def host_version() -> str:
    """This program's installed version, for HELLO; looked up once, when first greeting."""
    from importlib.metadata import version

    return version(HOST_NAME)


class SerialBridge:
    """Reads TC1 lines from ``url`` and emits events; see the module docstring.

    ``hello_timeout`` is how long a device may take to answer HELLO before the bridge says
    so and greets it again (a Pico takes a moment after it is plugged in). ``room`` says how
    many more events the loop takes now (the daemon's device lane); ``exists`` looks for the
    device node.
    """

    def __init__(
        self,
        url: str,
        emit: Emit,
        opener: Opener = serial_for_url,
        baudrate: int = 115200,
        backoff: Backoff | None = None,
        hello_timeout: float = 2.0,
        *,
        room: Callable[[], int] = lambda: READ_CHUNK,
        exists: Callable[[str], bool] = os.path.exists,
        lines_per_second: float = LINES_PER_SECOND,
    ) -> None:
        self.url = url
        self.device_errors = 0
        self.dropped_lines = 0
        self.device: Hello | None = None
        self._emit = emit
        self._opener = opener
        self._baudrate = baudrate
        self._hello_timeout = hello_timeout
        self._room = room
        self._status = StatusReporter(DEVICE, emit)
        self._node = None if "://" in url else url  # a URL such as loop:// has no node
        self._reopen = Reopening(backoff or Backoff(first=0.5, ceiling=30.0),
                                 None if self._node is None else partial(exists, self._node))
        self._throttle = Throttle(lines_per_second)
        self._bad = BadLineTally(url)
        self._port: SerialPort | None = None
        self._out = Outgoing(url)
        self._splitter = LineSplitter()
        self._backlog: deque[bytes | None] = deque()  # read, waiting for the throttle
        self._hello_due = 0.0
        self._flood: tuple[float, int] | None = None  # (last drop, lines dropped)
        self._occupied: set[tuple[int, int]] = set()  # kept across reconnects

    @property
    def connected(self) -> bool:
        """The port is open (the device may not have said HELLO yet)."""
        return self._port is not None

    @property
    def bad_lines(self) -> int:
        return self._bad.total

    def occupied(self) -> frozenset[tuple[int, int]]:
        """The cells the device last reported occupied, as (row, column); kept while it is
        unplugged, so a board snapshot survives a reconnection."""
        return frozenset(self._occupied)

    def poll(self, now: float) -> None:
        """Open the port if due, write what waits, then take the lines that have arrived as
        far as the throttle and the loop's room allow."""
        if self._port is None and not self._open(now):
            return
        self._flush(now)  # what a device that was full has room for by now
        if self._port is None:
            return
        try:
            data = self._require_port().read(READ_CHUNK)
        except OSError as err:
            self._lost(now, err)
            return
        backlog = self._backlog
        backlog.extend(self._splitter.feed(data))
        granted = self._throttle.grant(now, min(len(backlog), self._room()))
        dropped = max(0, len(backlog) - granted - BACKLOG)  # in a flood the newest lines
        for _ in range(dropped):  # are the truth
            backlog.popleft()
        for _ in range(granted):
            self._take(backlog.popleft(), now)
            if self._port is None:
                return
        self._flooding(now, dropped)
        self._bad.flush(now)
        if self.device is None and now >= self._hello_due:
            self._status.report(False, f"serial device on {self.url} does not answer HELLO; "
                                       "is the table-companion firmware on it?")
            self._greet(now)

    def close(self) -> None:
        """Close the port (the daemon calls this on shutdown)."""
        port, self._port = self._port, None
        if port is not None:
            with suppress(OSError):  # a vanished device may fail even this
                port.close()

    def _open(self, now: float) -> bool:
        if not self._reopen.due(now):
            if self._reopen.missing:
                self._status.report(False, f"serial device on {self.url} is not plugged in; "
                                           "waiting for it")
            return False
        # a device node's writes are checked for room first, so they need not wait at all
        write_timeout = 0 if self._node is not None else WRITE_TIMEOUT
        try:
            self._port = self._opener(self.url, baudrate=self._baudrate, timeout=0,
                                      write_timeout=write_timeout, exclusive=True)
        except (OSError, ValueError) as err:
            self._reopen.failed(now)
            self._status.report(False, f"serial device on {self.url} cannot be opened ({err}); "
                                       "retrying")
            return False
        self._reopen.opened()
        self._splitter = LineSplitter()
        self._out = Outgoing(self.url)
        self.device = None
        self._greet(now)
        return self._port is not None

    def _greet(self, now: float) -> None:
        self._hello_due = now + self._hello_timeout
        self._send(now, "HELLO", HOST_NAME, host_version())
        self._send(now, "SNAP")

    def _lost(self, now: float, err: BaseException) -> None:
        self.close()
        self.device = None
        self._reopen.failed(now)
        self._status.report(False, f"serial device on {self.url} vanished ({err}); retrying")

    def _send(self, now: float, *words: str) -> None:
        """Write a line as far as the device takes it now; the rest waits for a later poll."""
        self._out.send(encode_line(list(words)))
        self._flush(now)

    def _flush(self, now: float) -> None:
        if self._port is not None:
            try:
                self._out.flush(self._port)
            except OSError as err:
                self._lost(now, err)

    def _flooding(self, now: float, dropped: int) -> None:
        """Count lines dropped by the throttle; say when a flood starts and when it ends."""
        if dropped:
            self.dropped_lines += dropped
            if self._flood is None:
                self._status.report(True, f"serial device on {self.url} sends more than the "
                                          "table can take; dropping lines")
            self._flood = (now, (self._flood or (now, 0))[1] + dropped)
        elif self._flood is not None and now >= self._flood[0] + CALM_S:
            self._status.report(True, f"serial device on {self.url} is calm again; "
                                      f"{self._flood[1]:,} lines were dropped")
            self._flood = None
            self._send(now, "SNAP")  # what was dropped may have changed the board

    def _require_port(self) -> SerialPort:
        assert self._port is not None
        return self._port

    def _take(self, line: bytes | None, now: float) -> None:
        try:
            if line is None:
                raise ProtocolError(TOOLONG, "line longer than the protocol allows")
            message = parse_message(decode_line(line))
        except ProtocolError as err:
            self._refuse(line, err, now)
            return
        match message:
            case Hello(name, version):
                self.device = message
                self._reopen.backoff.reset()
                self._status.report(True, f"{name} {version} on {self.url}")
            case Dice(values):
                self._emit(DiceRolled(values, "serial"))
            case Cell(row, col, occupied):
                self._set_cells({(row, col)} if occupied else set(), {(row, col)})
            case Board(occupied=occupied):
                # the snapshot is the whole truth: any other cell known occupied is now empty
                self._set_cells(set(occupied), self._occupied | occupied)
            case ErrorReply(code, detail):
                self.device_errors += 1
                log.warning("serial device on %s refused a line: %s %s", self.url, code, detail)

    def _set_cells(self, occupied: set[tuple[int, int]], cells: set[tuple[int, int]]) -> None:
        """Make ``occupied`` the truth for ``cells``, emitting each cell that changed."""
        for cell in sorted(cells):
            now_occupied = cell in occupied
            if now_occupied != (cell in self._occupied):
                self._occupied ^= {cell}
                self._emit(CellChanged(cell[0], cell[1], now_occupied))

    def _refuse(self, line: bytes | None, err: ProtocolError, now: float) -> None:
        shown = b"(too long)" if line is None else line[:60]
        self._bad.add(now, shown, str(err))
        if err.code == VERSION_MISMATCH:
            self._status.report(False, f"serial device on {self.url} {err.detail}; update its "
                                       "firmware or table-companion")
        self._send(now, "ERR", err.code)
