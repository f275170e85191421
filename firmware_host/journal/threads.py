"""The journal's helpers off the loop's thread: the checkpointer, and the watch on another
program's lock.

The checkpointer copies the write-ahead log into the main file with its own connection (a
PASSIVE checkpoint, which never blocks a writer) when a game ends and after the journal has
been idle a while, so the ``.sqlite3`` file alone holds every finished game: a lost ``-wal``
or a backup of the main file alone then loses at most the game in progress.

It also checkpoints every :data:`CHECKPOINT_WRITES` commits, in a long game too. Once a
checkpoint has copied all of the log, the next commit writes the log from its start again,
over blocks the file already has; a log that grows instead makes every fsync commit the
filesystem's own journal as well (the new size, the new blocks), which makes each commit
dearer, the more so on an SD card. The log then stays under about 64 pages.

A write transaction that began before a checkpoint ended cannot start the log over (SQLite
decides where a commit's frames go when its transaction begins): so a checkpoint waits for an
open write to end, and one during which a write began is followed by another, once, which
copies that write's frames and lets the next commit start the log over.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager

log = logging.getLogger(__name__)

IDLE_CHECKPOINT_S = 20.0
CHECKPOINT_WRITES = 64  # commits (a page of the log each, as a rule) between checkpoints


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
        self._writes = 0  # commits in the log that no checkpoint has copied yet
        self._writing = False  # a write transaction is open
        self._awaits_write = False  # a due checkpoint waits for it to end
        self._overlapped = False  # a write began while the running checkpoint copied
        self._copying = 0  # of which the running checkpoint copies
        self._again = False  # the running checkpoint copies what came during the last

    def wrote(self, ended: bool) -> None:
        """A commit is durable; ``ended``: it finished or abandoned a game.

        The thread is woken only when its next checkpoint comes sooner (a game ended, the
        log has :data:`CHECKPOINT_WRITES` commits, or nothing was waiting): one already
        waiting out the idle time finds the later write when it wakes. A wake on every
        commit would take the GIL on the way to the frame."""
        with self._wake:
            self._writes += 1
            full = self._writes == CHECKPOINT_WRITES
            sooner = ended or full or self._written_at is None
            self._written_at = time.monotonic()
            self._due = self._due or ended or full
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="journal-checkpoint",
                                                 daemon=True)
                self._thread.start()
            if sooner:
                self._wake.notify()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Around each write transaction, from its BEGIN to its COMMIT or ROLLBACK."""
        with self._wake:
            self._writing = True
            self._overlapped = self._overlapped or self._running
        try:
            yield
        finally:
            with self._wake:
                self._writing = False
                if self._awaits_write:
                    self._wake.notify()

    def close(self) -> None:
        with self._wake:
            self._closing = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def wait_quiet(self, timeout: float) -> bool:
        """Wait until no checkpoint is due or running, as the pauses at a table let it."""
        with self._wake:
            return self._wake.wait_for(lambda: not (self._due or self._running), timeout)

    def wait_caught_up(self, timeout: float) -> bool:
        """Wait until every write so far has been checkpointed (for tests)."""
        with self._wake:
            return self._wake.wait_for(
                lambda: self._written_at is None and not (self._due or self._running), timeout)

    def _next(self) -> bool:
        """Wait for the next checkpoint to be due; False once closing."""
        with self._wake:
            while not self._closing:
                idle_left = (None if self._written_at is None
                             else self._written_at + self._idle_s - time.monotonic())
                due = self._due or (idle_left is not None and idle_left <= 0)
                if due and self._writing:
                    self._awaits_write = True
                    self._wake.wait()  # woken as the write ends
                    self._awaits_write = False
                elif due:
                    self._due = False
                    self._copying = self._writes
                    self._written_at = None
                    self._running = True
                    return True
                else:
                    self._wake.wait(idle_left)
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
                    self._writes -= self._copying
                    # the log starts over only once a checkpoint has copied all of it: a
                    # write that began while this one copied is copied now, once (a move is
                    # far off)
                    self._again = self._overlapped and not self._again
                    self._overlapped = False
                    self._due = self._due or self._again
                    self._wake.notify_all()
        finally:
            if db is not None:
                db.close()


class LockWatch:
    """Waits on a thread of its own until no other program holds the journal's write lock
    (a sqlite3 shell left in a transaction, a backup), so the loop never waits on it:
    :attr:`free` is set once the lock has gone. Each try waits in SQLite's own busy
    handler for up to ``patience`` seconds, then tries again until :meth:`close`."""

    def __init__(self, uri: str, patience: float = 1.0) -> None:
        self.free = threading.Event()
        self._uri = uri
        self._patience = patience
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-lock-watch",
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closing.set()
        self._thread.join()

    def _run(self) -> None:
        """Try until the lock is had; any other trouble ends the watch too, so that the
        write tried again says what it is."""
        try:
            with closing(sqlite3.connect(self._uri, uri=True, timeout=self._patience,
                                         isolation_level=None)) as db:
                while not self._closing.is_set():
                    try:
                        db.execute("BEGIN IMMEDIATE")
                    except sqlite3.OperationalError as err:
                        code = getattr(err, "sqlite_errorcode", 0) & 0xFF
                        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                            continue  # still held: SQLite waited ``patience`` already
                        raise
                    db.execute("ROLLBACK")
                    break
        except sqlite3.Error as err:
            log.warning("watching the journal's lock: %s", err)
        if not self._closing.is_set():
            self.free.set()
