"""Stop a night process the way systemd and a terminal ask: SIGTERM or Ctrl-C."""

from __future__ import annotations

import signal
import threading


def stop_event() -> threading.Event:
    """An event set by SIGTERM or SIGINT (install from the main thread)."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    return stop
