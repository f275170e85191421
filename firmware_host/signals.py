"""Stop a process the way systemd and a terminal ask: SIGTERM or Ctrl-C, for every program.

Python runs a signal's handler in the main thread between two bytecodes, which may be while
that thread holds a lock: a handler that takes one (``threading.Event.set`` takes the lock
``Event.wait`` holds around its sleep) then waits for its own thread, forever, and every
later SIGTERM with it. So a handler here takes no lock. The table's daemon sleeps on its
event queue, and its loop's ``stop`` puts an end mark there (a ``queue.SimpleQueue``'s
``put`` is safe in a handler): :func:`stop_on_signals`. The night's processes sleep on a
:class:`StopFlag`, whose handler sets a flag while the waiter sleeps in ``select`` on the pipe
Python's own handler writes the signal's number to (:func:`signal.set_wakeup_fd`), so it
wakes at once wherever the signal found it.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any, Protocol

STOPS = (signal.SIGTERM, signal.SIGINT)


def catch(stop: Callable[[], None], signals: Sequence[signal.Signals] = STOPS
          ) -> dict[signal.Signals, Any]:
    """Call ``stop`` (which takes no lock) on each of ``signals``; the handlers it replaced."""

    def handler(signum: int, frame: FrameType | None) -> None:
        stop()

    return {sig: signal.signal(sig, handler) for sig in signals}


@contextlib.contextmanager
def stop_on_signals(stop: Callable[[], None], signals: Sequence[signal.Signals] = STOPS
                    ) -> Iterator[None]:
    """While inside, SIGTERM (systemd's stop) and SIGINT (Ctrl-C) call ``stop``."""
    previous = catch(stop, signals)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class Stopping(Protocol):
    """What a loop that runs until stopped asks: a :class:`StopFlag` or a
    ``threading.Event``."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float) -> bool: ...


class StopFlag:
    """Set by SIGTERM or SIGINT (see :meth:`on_signals`) or :meth:`set`; :meth:`wait` sleeps
    until then, or for ``timeout`` seconds, and is woken at once."""

    def __init__(self) -> None:
        self._set = False
        self._awake, self._wake = os.pipe()
        for end in (self._awake, self._wake):
            os.set_blocking(end, False)

    @classmethod
    def on_signals(cls) -> StopFlag:
        """A flag SIGTERM and SIGINT set (call from the main thread, once)."""
        flag = cls()
        signal.set_wakeup_fd(flag._wake, warn_on_full_buffer=False)
        catch(flag._signalled)
        return flag

    def _signalled(self) -> None:
        self._set = True  # nothing more: no lock (see the module's docstring)

    def set(self) -> None:
        """Stop, waking every waiter (the pipe stays readable)."""
        self._set = True
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake, b"\0")

    def is_set(self) -> bool:
        return self._set

    def wait(self, timeout: float) -> bool:
        """Whether stopped, after at most ``timeout`` seconds."""
        if not self._set and select.select([self._awake], [], [], timeout)[0]:
            try:
                woken_by = os.read(self._awake, 64)
            except BlockingIOError:  # another thread's wait read it
                woken_by = b""
            if any(number in woken_by for number in STOPS):
                self.set()  # the signal's handler may run a little later: stop now
        return self._set
