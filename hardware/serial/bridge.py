"""The host end of the TC1 serial line: a board scanner or dice reader on a USB serial port.

:class:`SerialBridge` owns the port's life: it opens it through the given opener
(``serial.serial_for_url``, so tests use a pty or ``loop://``), greets the device, turns
its lines into :class:`~hardware.events.DiceRolled` (source ``"serial"``),
:class:`~hardware.events.CellChanged` and :class:`~hardware.events.DeviceStatus` events,
and when the device vanishes (``SerialException``, an ``OSError``) reopens it on a back-off
schedule. It never blocks and starts no thread: the daemon calls :meth:`SerialBridge.poll`
with the time from its loop, and the port is read with ``timeout=0``.

A line that cannot be taken is counted in :attr:`SerialBridge.bad_lines`, logged, and
answered with ``ERR <code>``; the firmware answers an ERR with a full BOARD snapshot, so a
cell change lost to a corrupted line is recovered from the snapshot.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from typing import Any, Protocol

from hardware.backoff import Backoff
from hardware.events import CellChanged, DiceRolled
from hardware.pins.driver_types import Emit
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
"""A device that has not drained its input for this long is taken as gone."""


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
    so and greets it again (a Pico takes a moment after it is plugged in).
    """

    def __init__(
        self,
        url: str,
        emit: Emit,
        opener: Opener = serial_for_url,
        baudrate: int = 115200,
        backoff: Backoff | None = None,
        hello_timeout: float = 2.0,
    ) -> None:
        self.url = url
        self.bad_lines = 0
        self.device_errors = 0
        self.device: Hello | None = None
        self._emit = emit
        self._opener = opener
        self._baudrate = baudrate
        self._backoff = backoff or Backoff(first=0.5, ceiling=30.0)
        self._hello_timeout = hello_timeout
        self._status = StatusReporter(DEVICE, emit)
        self._port: SerialPort | None = None
        self._splitter = LineSplitter()
        self._retry_at: float | None = None  # None: open at the next poll
        self._hello_due = 0.0
        self._occupied: set[tuple[int, int]] = set()  # kept across reconnects

    @property
    def connected(self) -> bool:
        """The port is open (the device may not have said HELLO yet)."""
        return self._port is not None

    def occupied(self) -> frozenset[tuple[int, int]]:
        """The cells the device last reported occupied, as (row, column); kept while it is
        unplugged, so a board snapshot survives a reconnection."""
        return frozenset(self._occupied)

    def poll(self, now: float) -> None:
        """Open the port if due, then take every complete line that has arrived."""
        if self._port is None and not self._open(now):
            return
        try:
            data = self._require_port().read(READ_CHUNK)
        except OSError as err:
            self._lost(now, err)
            return
        for line in self._splitter.feed(data):
            self._take(line, now)
            if self._port is None:
                return
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
        if self._retry_at is not None and now < self._retry_at:
            return False
        try:
            self._port = self._opener(self.url, baudrate=self._baudrate, timeout=0,
                                      write_timeout=WRITE_TIMEOUT, exclusive=True)
        except (OSError, ValueError) as err:
            self._retry_at = now + self._backoff.next_delay()
            self._status.report(False, f"serial device on {self.url} cannot be opened ({err}); "
                                       "retrying")
            return False
        self._retry_at = None
        self._splitter = LineSplitter()
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
        self._retry_at = now + self._backoff.next_delay()
        self._status.report(False, f"serial device on {self.url} vanished ({err}); retrying")

    def _send(self, now: float, *words: str) -> None:
        if self._port is None:
            return
        try:
            self._port.write(encode_line(list(words)))
        except OSError as err:
            self._lost(now, err)

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
                self._backoff.reset()
                self._status.report(True, f"{name} {version} on {self.url}")
            case Dice(values):
                self._emit(DiceRolled(values, "serial"))
            case Cell(row, col, occupied):
                self._settle({(row, col)} if occupied else set(), {(row, col)})
            case Board(occupied=occupied):
                # the snapshot is the whole truth: any other cell known occupied is now empty
                self._settle(set(occupied), self._occupied | occupied)
            case ErrorReply(code, detail):
                self.device_errors += 1
                log.warning("serial device on %s refused a line: %s %s", self.url, code, detail)

    def _settle(self, occupied: set[tuple[int, int]], cells: set[tuple[int, int]]) -> None:
        """Make ``occupied`` the truth for ``cells``, emitting each cell that changed."""
        for cell in sorted(cells):
            now_occupied = cell in occupied
            if now_occupied != (cell in self._occupied):
                self._occupied ^= {cell}
                self._emit(CellChanged(cell[0], cell[1], now_occupied))

    def _refuse(self, line: bytes | None, err: ProtocolError, now: float) -> None:
        self.bad_lines += 1
        shown = b"(too long)" if line is None else line[:60]
        log.warning("serial device on %s sent a bad line %r: %s", self.url, shown, err)
        if err.code == VERSION_MISMATCH:
            self._status.report(False, f"serial device on {self.url} {err.detail}; update its "
                                       "firmware or table-companion")
        self._send(now, "ERR", err.code)
