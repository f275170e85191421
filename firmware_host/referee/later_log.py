"""INFO log lines held back until the frame is out.

Under systemd a log line is a write to the journal's socket, which a move's frame need not
wait for: the referee notes the lines of an event here and writes them at the tick after
the frame. Warnings and errors are logged at once, not here.
"""

from __future__ import annotations

import logging


class LaterLog:
    """INFO lines for ``log``, written by :meth:`write`."""

    def __init__(self, log: logging.Logger) -> None:
        self._log = log
        self._lines: list[tuple[str, tuple[object, ...]]] = []

    def info(self, message: str, *args: object) -> None:
        if self._log.isEnabledFor(logging.INFO):
            self._lines.append((message, args))

    def write(self) -> None:
        for message, args in self._lines:
            self._log.info(message, *args)
        self._lines.clear()
