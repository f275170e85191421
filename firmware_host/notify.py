"""Tell systemd how the service is doing (the sd_notify protocol), without libsystemd.

Under a ``Type=notify`` unit systemd sets ``$NOTIFY_SOCKET`` (a path, or an abstract socket
name written with a leading ``@``) and, with ``WatchdogSec=``, ``$WATCHDOG_USEC``. Each
message is one datagram of ``KEY=value`` lines. Off systemd the variables are absent and
every call does nothing, so the same daemon runs from a terminal or in tests.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends state changes to the service manager; a no-op without a socket."""

    def __init__(self, address: str | None = None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self.watchdog_usec = watchdog_usec

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """A Notifier for what systemd put in the environment (``os.environ`` by default)."""
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        if address is not None and not address.startswith(("/", "@")):
            log.warning("ignoring NOTIFY_SOCKET=%r: neither a path nor an @abstract name", address)
            address = None
        return cls(address, _watchdog_usec(env))

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between WATCHDOG=1 pings: half the timeout, as systemd advises."""
        return None if self.watchdog_usec is None else self.watchdog_usec / 2_000_000

    def ready(self, status: str | None = None) -> None:
        self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def status(self, text: str) -> None:
        """One line for ``systemctl status``; newlines would end the field, so they go."""
        self.send("STATUS=" + " ".join(text.splitlines()))

    def send(self, *fields: str) -> None:
        """One datagram with ``fields``; a failure is logged, never raised (the game goes on)."""
        if self.address is None or not fields:
            return
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto("\n".join(fields).encode(), target)
        except OSError as err:
            log.warning("could not notify the service manager at %s: %s", self.address, err)


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """WATCHDOG_USEC when it is meant for this process (WATCHDOG_PID absent or ours)."""
    usec, pid = env.get("WATCHDOG_USEC"), env.get("WATCHDOG_PID")
    if usec is None or (pid is not None and pid != str(os.getpid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a number of microseconds", usec)
        return None
    return value if value > 0 else None
