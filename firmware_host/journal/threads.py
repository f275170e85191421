"""The journal's two helpers off the loop's thread: the committer and the checkpointer.

The committer runs a transaction's COMMIT (the fsync, 1-5 ms here, more on an SD card) on its
own thread while the loop draws the frame; the loop waits for it before the frame's bytes go
out, so nothing unsaved is ever shown. sqlite3 releases the GIL while SQLite works, so both
really overlap. The connection is the journal's own: the journal never touches it while a
commit is in flight.

The checkpointer copies the write-ahead log into the main file with its own connection (a
PASSIVE checkpoint, which never blocks a writer) when a game ends and after the journal has
been idle a while, so the ``.sqlite3`` file alone holds every finished game: a lost ``-wal``
or a backup of the main file alone then loses at most the game in progress.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

log = logging.getLogger(__name__)

IDLE_CHECKPOINT_S = 20.0


class Committer:
    """Runs ``COMMIT`` on ``db`` in a thread of its own, one transaction at a time.

    The handoffs are bare locks, not Events or Semaphores: each of those runs Python code
    and makes a lock of its own per wait, on the very path the frame waits on."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._go = _taken()  # released: commit once
        self._entered = _taken()  # released by the committer as it starts
        self._busy = threading.Lock()  # held while a commit is in flight
        self._error: sqlite3.Error | None = None
        self._closing = False
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin committing the open transaction; :meth:`wait` for the outcome."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="journal-commit", daemon=True)
            self._thread.start()
        self._error = None
        self._busy.acquire()
        self._go.release()
        # Hand over the GIL until the committer is inside SQLite (which lets go of it): left
        # to the interpreter, the drawing thread would keep it for its whole switch interval
        # (5 ms) and the commit would start only when the frame is done.
        self._entered.acquire()

    def wait(self) -> sqlite3.Error | None:
        """Block until the commit in flight (if any) is done; its error, or None."""
        with self._busy:
            return self._error

    def close(self) -> None:
        self.wait()
        if self._thread is not None:
            self._closing = True
            self._go.release()
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while True:
            self._go.acquire()
            if self._closing:
                return
            self._entered.release()
            try:
                self.commit()
            except sqlite3.Error as err:
                self._error = err
            self._busy.release()

    def commit(self) -> None:
        """The work of one commit, on the committer's thread."""
        self._db.execute("COMMIT")


def _taken() -> threading.Lock:
    """A lock already held: one thread's release lets another's acquire through."""
    lock = threading.Lock()
    lock.acquire()
    return lock


class Checkpointer:
    """Checkpoints the journal at ``uri`` when asked, and after ``idle_s`` without a write."""

    def __init__(self, uri: str, idle_s: float = IDLE_CHECKPOINT_S) -> None:
        self._uri = uri
        self._idle_s = idle_s
        self._wake = threading.Condition()
        self._due = False  # a game ended: checkpoint now
        self._written_at: float | None = None  # the last commit not yet checkpointed
        self._closing = False
        self._thread: threading.Thread | None = None
        self._running = False

    def wrote(self, ended: bool) -> None:
        """A commit is durable; ``ended``: it finished or abandoned a game.

        The thread is woken only when its next checkpoint comes sooner (a game ended, or
        nothing was waiting): one already waiting out the idle time finds the later write
        when it wakes. A wake on every commit would take the GIL on the way to the frame."""
        with self._wake:
            sooner = ended or self._written_at is None
            self._written_at = time.monotonic()
            self._due = self._due or ended
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="journal-checkpoint",
                                                 daemon=True)
                self._thread.start()
            if sooner:
                self._wake.notify()

    def close(self) -> None:
        with self._wake:
            self._closing = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def wait_caught_up(self, timeout: float) -> bool:
        """Wait until every write so far has been checkpointed (for tests)."""
        with self._wake:
            return self._wake.wait_for(
                lambda: self._written_at is None and not self._running, timeout)

    def _next(self) -> bool:
        """Wait for the next checkpoint to be due; False once closing."""
        with self._wake:
            while not self._closing:
                if self._written_at is not None:
                    left = self._written_at + self._idle_s - time.monotonic()
                    if self._due or left <= 0:
                        self._due = False
                        self._written_at = None
                        self._running = True
                        return True
                    self._wake.wait(left)
                else:
                    self._wake.wait()
            return False

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        try:
            while self._next():
                try:
                    if db is None:
                        db = sqlite3.connect(self._uri, uri=True, timeout=5.0)
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error as err:
                    log.warning("journal checkpoint failed (%s); the log keeps the actions", err)
                with self._wake:
                    self._running = False
                    self._wake.notify_all()
        finally:
            if db is not None:
                db.close()
