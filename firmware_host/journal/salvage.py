"""A journal SQLite itself finds damaged: move it aside, keep every game that checks out.

When the main file is damaged (a page torn, zeroed or flipped, the file cut short, so
``quick_check`` fails, or no database header at all) nothing written into it can be trusted.
The daemon does not refuse to start over it, and never writes it: closing a connection that
may write folds the ``-wal`` into the file (a checkpoint) and SQLite deletes the log beside
a file cut short of its header as it opens it, so SQLite's first word on the file comes from
a read-only look that writes nothing (:func:`first_look`), and the connection that will
write checks it again while another holds the file (:func:`holding`). A damaged file, its
``-wal`` and ``-shm`` are renamed, byte for byte, to a dated name and kept for whoever wants
to look. SQLite then reads copies of them, read-only: the file with its ``-wal``, as any
reader reads them, and the file with the log's pages written in by hand (for a log SQLite
will not replay); every game whose rows read and whose hashes check out is copied into a
new journal at the same path as it was (its number, times and hashes), at least what a
plain reader gets of it. A game whose row checks out but whose actions do not (one could
not be read, or reads changed) is kept as read, set aside. Each game that cannot be kept
whole is one :class:`~firmware_host.journal.records.Problem`.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.journal.records import (
    Damaged,
    GameRow,
    Problem,
    check_chain,
    check_results,
    decode_game,
)
from firmware_host.journal.wal import WAL_HEADER, applied

ResultsOf = Callable[[GameRow, list[str]], list[tuple[int, int, int]] | None]
HEADER = 100  # a database file's header, in bytes
PROBE_MISSES = 50  # game numbers tried past the last one found, when the list cannot be read


@dataclass(frozen=True)
class Saved:
    """One game read back whole and checked: its rows as they were."""

    game: tuple[Any, ...]  # id, setup, started_at, ended_at, outcome, hash, seal, damage
    actions: list[tuple[Any, ...]]  # seq, action, at, hash, source
    results: list[tuple[Any, ...]]  # seat, score, place
    settings: str | None = None  # the table's settings kept with the game (schema 3)


def first_look(path: Path) -> str | None:
    """SQLite's ``quick_check`` of the file at ``path`` ("ok", or what it finds damaged)
    through a read-only connection that writes nothing beside it either (an ``-shm``
    found is only read: SQLite then reads the ``-wal`` itself). None: no file yet, or
    SQLite cannot say (the caller's own open tells why)."""
    if not path.is_file():
        return None
    cut = _cut_before_its_log(path)  # before SQLite opens it: opening it deletes the log
    if cut is not None:
        return cut
    shm = "&readonly_shm=1" if path.with_name(path.name + "-shm").exists() else ""
    try:
        look = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro{shm}", uri=True,
                               timeout=5.0)
    except sqlite3.Error:
        return None
    with closing(look):
        try:
            return one_line(str(look.execute("PRAGMA quick_check").fetchone()[0]))
        except sqlite3.Error as err:
            code = getattr(err, "sqlite_errorcode", 0) & 0xFF
            return (" ".join(str(err).split())
                    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) else None)


@contextmanager
def holding(path: Path) -> Iterator[None]:
    """A read-only connection to ``path`` kept open inside: the last connection that may
    write folds the ``-wal`` into the file when it closes (a checkpoint), and does not
    while another holds the file, so a writing connection that finds the file damaged
    can be closed without rewriting it."""
    if not path.is_file():
        yield
        return
    try:
        holder = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=5.0)
        holder.execute("SELECT 1 FROM sqlite_schema LIMIT 1").fetchall()  # takes its lock
    except sqlite3.Error:
        yield  # the writing connection's own open tells why
        return
    with closing(holder):
        yield


def one_line(check: str) -> str:
    """SQLite's first finding on one line (``quick_check`` heads its list with the
    database's name), and how many more there are."""
    lines = [line for line in check.splitlines() if not line.startswith("***")]
    if len(lines) <= 1:
        return " ".join((lines or [check])[0].split())
    return f"{lines[0]} (and {len(lines) - 1} more)"


def _cut_before_its_log(path: Path) -> str | None:
    """A file cut short of its header beside a log with frames in it: SQLite takes it for
    a new, empty database and deletes the log as it opens it, even read-only. A journal
    never leaves its file so (its header is written before anything goes to the log)."""
    try:
        size = path.stat().st_size
        logged = path.with_name(path.name + "-wal").stat().st_size
    except OSError:
        return None
    if size < HEADER and logged > WAL_HEADER:
        return f"the file holds {size} bytes, no whole header, beside a log of {logged} bytes"
    return None


def move_aside(path: Path, aside: Path) -> None:
    """Rename the journal and the files beside it (``-wal``, ``-shm``) to ``aside`` (and
    its ``-wal``, ``-shm``): kept byte for byte as they were found."""
    for suffix in ("", "-wal", "-shm"):
        found = path.with_name(path.name + suffix)
        if found.exists():
            os.replace(found, aside.with_name(aside.name + suffix))


Reading = dict[int | None, tuple[Saved | None, Problem | None]]  # game -> as kept, or why not


def read_back(aside: Path, results_of: ResultsOf) -> tuple[list[Saved], list[Problem]]:
    """Every game of the damaged file that can be read and checks out, and one problem for
    each that cannot. SQLite reads copies, read-only, so the files as found are never
    touched: first the file with its ``-wal``, as any SQLite reader reads them; then the
    file with the pages of its ``-wal`` written in by hand (:func:`~firmware_host.journal.
    wal.applied`), which SQLite reads when it will not replay a log itself (beside a file
    cut short of its first page). Each game is kept as the reading that holds more of it.
    ``results_of`` gives a finished game's results by its rules, for a game whose results
    rows cannot be read: its seal checks them."""
    readings: list[Reading] = []
    with tempfile.TemporaryDirectory(prefix=".salvage-", dir=aside.parent) as folder:
        copy = Path(folder) / "journal"
        wal = aside.with_name(aside.name + "-wal")
        try:
            shutil.copyfile(aside, copy)
            if wal.exists():
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
            readings.append(_read(copy, results_of))
            written = applied(aside.read_bytes(), wal.read_bytes()) if wal.exists() else None
            if written is not None:
                by_hand = Path(folder) / "applied"
                by_hand.write_bytes(written)
                readings.append(_read(by_hand, results_of))
        except OSError as err:
            if not readings:
                return [], [Problem(None, f"nothing could be read back: no copy could be "
                                          f"made to read ({err.strerror or err})")]
    return _best(readings)


def _best(readings: list[Reading]) -> tuple[list[Saved], list[Problem]]:
    """Each game as the reading that keeps the most of its actions (the first on a tie),
    with what that reading says of it; the first reading's word on a game none keeps."""
    chosen: Reading = {}
    for reading in readings:
        for game_id, (game, note) in reading.items():
            have = chosen.get(game_id, (None, None))[0]
            if game_id not in chosen or (game is not None and (
                    have is None or len(game.actions) > len(have.actions))):
                chosen[game_id] = (game, note)
    saved = [game for _id, (game, _note) in sorted(chosen.items(), key=lambda kv: kv[0] or 0)
             if game is not None]
    problems = [note for game_id, (_game, note) in chosen.items()
                if note is not None and (game_id is not None or not saved)]
    return saved, problems


def _read(copy: Path, results_of: ResultsOf) -> Reading:
    """What SQLite reads of ``copy`` (read-only), game by game."""
    try:
        db = sqlite3.connect(f"{copy.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as err:
        return {None: (None, Problem(None, f"nothing could be read back ({err})"))}
    with closing(db):
        db.text_factory = lambda raw: raw.decode("utf-8", "replace")  # a bad byte fails a hash
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as err:
            return {None: (None, Problem(None, f"nothing could be read back ({err})"))}
        hashes = "hash, seal, damage" if version >= 2 else "NULL, NULL, NULL"
        settings = "settings" if version >= 3 else "NULL"
        chained = "hash" if version >= 2 else "NULL"
        source = "source" if version >= 4 else "NULL"
        reading: Reading = {}
        # the columns outside the hashes (the table's settings, a throw's source) are read
        # on their own: a value there that cannot be read loses nothing else
        scanned, scan_unread = _as_far_as_read(db, f"SELECT game_id, seq, action, at, "
                                               f"{chained} FROM actions")
        for game_id in _game_ids(db):
            try:
                row = db.execute(f"SELECT id, setup, started_at, ended_at, outcome, "
                                 f"{hashes} FROM games WHERE id = ?", (game_id,)).fetchone()
            except sqlite3.DatabaseError as err:
                reading[game_id] = (None, Problem(game_id, f"{err}; not recovered"))
                continue
            if row is None:
                continue
            sought, unread = _as_far_as_read(db, f"SELECT seq, action, at, {chained} FROM "
                                             "actions WHERE game_id = ? ORDER BY seq", game_id)
            results, results_unread = _as_far_as_read(
                db, "SELECT seat, score, place FROM results WHERE game_id = ? ORDER BY seat",
                game_id)
            sources = dict(_as_far_as_read(db, f"SELECT seq, {source} FROM actions WHERE "
                                               "game_id = ?", game_id)[0])
            actions = [(*action, sources.get(action[0])) for action in
                       _merged([r[1:] for r in scanned if r[0] == game_id], sought)]
            try:
                game, note = _checked(tuple(row), actions, unread and scan_unread,
                                      results, results_unread, results_of)
            except Damaged as err:
                reading[game_id] = (None, Problem(game_id, f"{err}; not recovered"))
                continue
            kept = _as_far_as_read(db, f"SELECT {settings} FROM games WHERE id = ?", game_id)[0]
            reading[game_id] = (Saved(game.game, game.actions, game.results,
                                      kept[0][0] if kept else None), note)
        return reading


def _as_far_as_read(db: sqlite3.Connection, query: str,
                    *values: Any) -> tuple[list[tuple[Any, ...]], str | None]:
    """The rows of ``query`` up to the first that cannot be read, and SQLite's words for
    why it stopped (None: all were read)."""
    rows: list[tuple[Any, ...]] = []
    try:
        for row in db.execute(query, values):
            rows.append(tuple(row))
    except sqlite3.DatabaseError as err:
        return rows, " ".join(str(err).split())
    return rows, None


def _merged(scanned: list[tuple[Any, ...]], sought: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """A game's action rows read by a scan of the table and by its own key, which SQLite
    reaches by other pages (a damaged page stops one and not the other), in order; a row
    without a number and its text (a cell read as zeros) cannot be kept."""
    rows = {row[0]: row for row in (*scanned, *sought)
            if isinstance(row[0], int) and row[0] >= 1 and isinstance(row[1], str)
            and isinstance(row[2], str)}
    return [rows[seq] for seq in sorted(rows)]


def _checked(row: tuple[Any, ...], actions: list[tuple[Any, ...]], unread: str | None,
             results: list[tuple[Any, ...]], results_unread: str | None,
             results_of: ResultsOf) -> tuple[Saved, Problem | None]:
    """One game as it can be kept, and what to say about it: whole when its rows read and
    check out; its readable actions alone when the rest cannot be read (a game being played
    resumes after them, a finished one is kept set aside); its results worked out by its
    rules when they cannot be read or do not check out, and its seal agrees with those.
    Actions that do not chain (one missing or changed), or a finished game's that its seal
    does not cover, are kept as read, the game set aside (never resumed, out of the
    results). Damaged when the game's own row does not check out: without it nothing can
    be kept."""
    game_id, outcome, seal = row[0], row[4], row[6]
    if outcome not in (None, "finished", "abandoned"):  # outside the hashes
        raise Damaged(f"its outcome {outcome!r} is unreadable")
    game = decode_game(row[:6])
    try:
        last = check_chain(game, [action[:4] for action in actions])
    except Damaged as err:
        return _set_aside(row, actions, f"{err}; the {len(actions)} actions read are kept "
                                        "set aside, as read")
    if unread is not None:
        read = f"its actions after {len(actions)} could not be read ({unread})"
        if outcome is None:
            return Saved(row, actions, []), Problem(game_id, f"{read}; it resumes after "
                                                             f"action {len(actions)}")
        return _set_aside(row, actions, f"{read}; kept set aside")
    if outcome == "finished":
        try:
            if results_unread is not None:
                raise Damaged(f"its results could not be read ({results_unread})")
            check_results(game, last, results, seal)
        except Damaged as err:
            worked_out = results_of(game, [action[1] for action in actions])
            try:
                results = [*check_results(game, last, worked_out or [], seal)]
            except Damaged:
                return _set_aside(row, actions, f"{err}; the {len(actions)} actions read "
                                                "are kept set aside, as read")
    return Saved(row, actions, results), None


def _set_aside(row: tuple[Any, ...], actions: list[tuple[Any, ...]],
               reason: str) -> tuple[Saved, Problem]:
    """The game kept as read, set aside (out of the results, never resumed)."""
    ended_at = row[3] or (actions[-1][2] if actions else row[2])
    reason = row[7] or reason
    return (Saved((*row[:3], ended_at, "abandoned", row[5], None, reason), actions, []),
            Problem(row[0], reason))


def _game_ids(db: sqlite3.Connection) -> Iterator[int]:
    """The game numbers in the file: its list if that reads, else every number probed."""
    try:
        yield from [game_id for (game_id,) in db.execute("SELECT id FROM games ORDER BY id")]
        return
    except sqlite3.DatabaseError:
        pass
    game_id, misses = 0, 0
    while misses < PROBE_MISSES:
        game_id += 1
        try:
            found = db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.DatabaseError:
            found = None  # unreadable: lost with the file, as the first problem says
        misses = 0 if found else misses + 1
        if found:
            yield game_id


def restore(db: sqlite3.Connection, saved: list[Saved]) -> list[Problem]:
    """Write the games read back into a new journal's open transaction; one problem for
    each that the new journal refuses (a value read that breaks its rules)."""
    refused = []
    for game in saved:
        db.execute("SAVEPOINT game")
        try:
            db.execute("INSERT INTO games (id, setup, started_at, ended_at, outcome, hash, "
                       "seal, damage, settings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (*game.game, game.settings))
            db.executemany("INSERT INTO actions (game_id, seq, action, at, hash, source) "
                           "VALUES (?, ?, ?, ?, ?, ?)",
                           [(game.game[0], *a) for a in game.actions])
            db.executemany("INSERT INTO results VALUES (?, ?, ?, ?)",
                           [(game.game[0], *r) for r in game.results])
        except sqlite3.IntegrityError as err:
            db.execute("ROLLBACK TO game")
            refused.append(Problem(game.game[0], f"its rows as read are refused ({err}); "
                                                 "not recovered"))
        db.execute("RELEASE game")
    return refused
