"""A thread that draws the frame while the loop's own thread commits the journal.

SQLite lets go of the GIL while it commits (the fsync: about 0.2 ms here, about 5 ms on a
Pi's SD card), so the new frame can be drawn and diffed in that time. The loop hands the
drawing over just before it commits; the drawing starts as the commit lets go of the GIL, and
the loop takes the prepared frame once the commit is done. When the commit is the longer of
the two, the frame is ready by then and goes out at once, with no thread to wake; the loop
waits for the drawing only when the drawing is the longer.

The handoffs are bare locks, not Events or Conditions: each of those runs Python code and
makes a lock of its own per wait, on the very path the frame waits on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
U = TypeVar("U")


class Beside(Generic[T]):
    """Runs one piece of work at a time on a thread of its own, beside the caller's."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._go = _taken()  # released: run the work once
        self._done = _taken()  # released by the thread when the work is done
        self._work: Callable[[], T] | None = None
        self._result: T | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def run(self, work: Callable[[], T], meanwhile: Callable[[], U]) -> tuple[T, U]:
        """``work()`` on the thread while ``meanwhile()`` runs here; both results once both
        are done. An exception from either is raised here, after both have ended."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
            self._thread.start()
        self._work = work
        self._go.release()
        try:
            other = meanwhile()
        finally:
            self._done.acquire()
        error, result = self._error, self._result
        self._error = self._result = None
        if error is not None:
            raise error
        return result, other  # type: ignore[return-value]  # work() returned it

    def close(self) -> None:
        """End the thread (it is idle between two :meth:`run` calls)."""
        if self._thread is not None:
            self._work = None
            self._go.release()
            self._thread.join()
            self._thread = None

    def _serve(self) -> None:
        while True:
            self._go.acquire()
            work = self._work
            if work is None:
                return
            try:
                self._result = work()
            except BaseException as err:  # raised again in the caller's thread
                self._error = err
            self._done.release()


def _taken() -> threading.Lock:
    """A lock already held: one thread's release lets another's acquire through."""
    lock = threading.Lock()
    lock.acquire()
    return lock
