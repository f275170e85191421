"""The journal's errors, and the one translation of an SQLite failure into them.

SQLite says what went wrong by its result code (``sqlite_errorcode``); the kind of failure
is read from that, never from the wording of SQLite's message, and travels as a field of
the error so a caller (the salvage of a damaged file) acts on it without reading text.
"""

from __future__ import annotations

import enum
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware_host.errors import UsageError

BUSY = "the journal is busy (another program has it open)"


class Failure(enum.Enum):
    """What kind of trouble a journal error is."""

    FOLDER = "folder"  # the path given is a folder
    CANNOT_OPEN = "cannot open"  # a folder missing, or not ours to write
    DAMAGED = "damaged"  # SQLite finds the file damaged (a page, or its header)
    READ_ONLY = "read-only"
    BUSY = "busy"  # another program holds the file
    OTHER = "other"


class JournalError(UsageError):
    """The journal cannot be used or written; the message names the file and the remedy.
    ``failure`` says what kind of trouble it is; for a damaged file ``damage`` holds what
    SQLite reported."""

    def __init__(self, message: str, failure: Failure = Failure.OTHER, damage: str = "") -> None:
        super().__init__(message)
        self.failure = failure
        self.damage = damage


_FAILURES = {
    sqlite3.SQLITE_CANTOPEN: Failure.CANNOT_OPEN,
    sqlite3.SQLITE_CORRUPT: Failure.DAMAGED,
    sqlite3.SQLITE_NOTADB: Failure.DAMAGED,
    sqlite3.SQLITE_READONLY: Failure.READ_ONLY,
    sqlite3.SQLITE_BUSY: Failure.BUSY,
    sqlite3.SQLITE_LOCKED: Failure.BUSY,
}


def journal_error(path: Path, err: sqlite3.Error) -> JournalError:
    """One line for a failed SQLite call: what happened to which file and what to do
    (SQLite's own words on one line too: a damaged schema is quoted with its line breaks)."""
    text = " ".join(str(err).split())
    code = getattr(err, "sqlite_errorcode", None)  # absent on errors of the module itself
    failure = _FAILURES.get(code & 0xFF if code is not None else -1, Failure.OTHER)
    if failure is Failure.CANNOT_OPEN and path.is_dir():
        return JournalError(f"{path} is a folder; the journal is a file: give one in it, such "
                            f"as {path / 'journal.sqlite3'}", Failure.FOLDER)
    messages = {
        Failure.CANNOT_OPEN: f"{path}: cannot open the journal ({text}); check that "
                             f"{path.parent} exists and that this user may write there",
        Failure.DAMAGED: f"{path}: the journal is damaged ({text}); move the file aside and "
                         "the companion starts a new one",
        Failure.READ_ONLY: f"{path}: the journal is read-only here ({text}); run as the user "
                           "that owns it",
        Failure.BUSY: f"{BUSY}: {path} ({text}); "
                      "nothing was written: close that program and try again",
    }
    message = messages.get(failure, f"{path}: journal error: {text}")
    return JournalError(message, failure, text if failure is Failure.DAMAGED else "")


@contextmanager
def sqlite_errors(path: Path) -> Iterator[None]:
    """Inside, a failed SQLite call raises :class:`JournalError` naming ``path``."""
    try:
        yield
    except sqlite3.Error as err:
        raise journal_error(path, err) from None
