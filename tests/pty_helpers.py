"""The installed ``table-companion`` command in a pseudo-terminal, as a user's terminal runs
it: a size, keys typed, what it draws read back, a resize."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

COMMAND = str(Path(sys.executable).with_name("table-companion"))


class Terminal:
    """``table-companion ARGS`` in a pseudo-terminal of a given size."""

    def __init__(self, columns: int, rows: int, *args: str) -> None:
        self.master, self.slave = os.openpty()
        self.set_size(columns, rows)
        self.child = subprocess.Popen([COMMAND, *args], stdin=self.slave, stdout=self.slave,
                                      stderr=self.slave, start_new_session=True)
        self.shown = bytearray()

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        os.close(self.master)
        os.close(self.slave)

    def set_size(self, columns: int, rows: int) -> None:
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def read(self, seconds: float, until: bytes | None = None) -> bytes:
        start = len(self.shown)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and (until is None or until not in self.shown[start:]):
            if select.select([self.master], [], [], 0.05)[0]:
                self.shown.extend(os.read(self.master, 65536))
        return bytes(self.shown[start:])

    def wait_for(self, text: str, seconds: float = 30) -> None:
        start = len(self.shown)
        self.read(seconds, text.encode())
        assert text.encode() in self.shown[start:], self.shown.decode(errors="replace")

    def resize(self, columns: int, rows: int) -> str:
        """The screen drawn anew after the terminal becomes ``columns`` x ``rows`` (the pty is
        not the child's controlling terminal, so the SIGWINCH is sent here)."""
        self.read(0.2)
        self.set_size(columns, rows)
        self.child.send_signal(signal.SIGWINCH)
        return self.read(5.0, b"\x1b[J").decode(errors="replace")

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def wait(self, seconds: float = 20) -> int:
        """The exit status, reading on meanwhile: a child blocked on a full pty never ends."""
        deadline = time.monotonic() + seconds
        while self.child.poll() is None and time.monotonic() < deadline:
            self.read(0.1)
        return self.child.wait(timeout=1)
