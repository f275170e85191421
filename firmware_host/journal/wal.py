"""The journal's write-ahead log read by hand when SQLite drops part of it: no action lost
silently.

SQLite replays the ``-wal`` up to the last commit before the first frame whose salts or
cumulative checksum do not match, and silently drops the rest, whole transactions that were
committed and shown included. One bad block on an SD card then takes every later action of
the game in progress with it. So when the file is damaged, or SQLite's index of the log
counts fewer frames than the log holds under its salts (:func:`unreplayed`, asked before
anything is written), :func:`inspect` reads the log as SQLite's file format documents it
(a 32-byte header, then frames: a 24-byte header and one page each; big-endian fields;
checksums over 32-bit words in the byte order the magic number gives, each frame's seeded
with the one before). A frame is *intact* when its salts match the header and its checksum,
seeded with the checksum the frame before it stores, matches its own: that holds for the
frames after a damaged one too, which SQLite no longer reads. A log SQLite replays whole (a
pulled plug's) is not read again by hand: that reading costs about six times the rest of
the open (``bench/journal.py``'s ``open``).

When intact frames follow a bad one, the files are copied aside (``NAME.damaged-STAMP`` and
its ``-wal``) and the actions rows in those frames' pages are kept as candidates. Once SQLite
has opened the journal, :func:`recover` adds to the game in progress every candidate that the
hash chain links to its last action read back, one after another (a row that does not chain
is never used), and says how many actions of which game could not be read back: the most
that any frame after the damage, or the table's own note of what it showed
(:class:`Shown`), says the game had. A log cut short (a truncated or deleted ``-wal``) has no
bad frame to see, and is found by that note alone.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.journal.records import Problem, action_hash, game_hash

WAL_HEADER = 32
FRAME_HEADER = 24
MAGIC_LITTLE, MAGIC_BIG = 0x377F0682, 0x377F0683
LEAF_INDEX, LEAF_TABLE = 0x0A, 0x0D  # b-tree leaf pages: WITHOUT ROWID tables are indexes
Candidate = tuple[str, str, str, str | None]  # action, at, hash, source (schema 4)


def checksum(data: bytes, seed: tuple[int, int], big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) continued from ``seed``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    s0, s1 = seed
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


@dataclass(frozen=True)
class Frame:
    index: int
    page_number: int
    commit: bool  # the last frame of a transaction
    intact: bool
    page: bytes
    pages_after: int = 0  # a commit's: the database's size in pages after it


@dataclass(frozen=True)
class Log:
    """A ``-wal`` as read by hand: its frames, and how far SQLite will replay it."""

    frames: tuple[Frame, ...]
    replayed: int  # frames SQLite replays: up to the last commit before the first bad frame
    header_ok: bool

    @property
    def first_bad(self) -> int | None:
        return next((f.index for f in self.frames if not f.intact), None)

    @property
    def damaged(self) -> bool:
        """An intact frame follows a bad one (a torn last write has nothing after it)."""
        bad = self.first_bad
        return bad is not None and any(f.intact for f in self.frames[bad + 1:])


def read_log(data: bytes) -> Log | None:
    """The frames of a ``-wal``'s bytes; None when there is no log to speak of."""
    if len(data) < WAL_HEADER:
        return None
    magic, _version, page_size, _seq, salt1, salt2 = struct.unpack(">6I", data[:24])
    big = magic == MAGIC_BIG
    stored = struct.unpack(">2I", data[24:32])
    header_ok = magic in (MAGIC_LITTLE, MAGIC_BIG) and checksum(data[:24], (0, 0), big) == stored
    if not 512 <= page_size <= 65536 or page_size & (page_size - 1):
        return Log((), 0, False)  # no page size to read frames by
    frames: list[Frame] = []
    replayed, in_run = 0, header_ok
    seed = stored
    size = FRAME_HEADER + page_size
    for index, offset in enumerate(range(WAL_HEADER, len(data) - size + 1, size)):
        head = data[offset:offset + FRAME_HEADER]
        page = data[offset + FRAME_HEADER:offset + size]
        number, commit_size, s1, s2, c1, c2 = struct.unpack(">6I", head)
        own = (c1, c2)
        intact = (number != 0 and (s1, s2) == (salt1, salt2)
                  and checksum(head[:8] + page, seed, big) == own)
        frames.append(Frame(index, number, commit_size != 0, intact, page, commit_size))
        in_run = in_run and intact
        if in_run and commit_size:
            replayed = index + 1
        seed = own
    cut = (len(data) - WAL_HEADER) % size  # a frame cut short at the end
    if cut:
        frames.append(Frame(len(frames), 0, False, False, b""))
    return Log(tuple(frames), replayed, header_ok)


def applied(main: bytes, data: bytes) -> bytes | None:
    """The main file's bytes with the pages SQLite would replay from the ``-wal``'s
    ``data`` written in, as a checkpoint would write them: what SQLite reads of a log it
    will not replay itself (beside a main file with no whole first page). None: no
    transaction in the log to replay."""
    log = read_log(data)
    if log is None or not log.replayed:
        return None
    replayed = log.frames[:log.replayed]
    size = len(replayed[0].page)
    pages = replayed[-1].pages_after
    image = bytearray(main[:pages * size].ljust(pages * size, b"\0"))
    for frame in replayed:
        if frame.page_number <= pages:
            image[(frame.page_number - 1) * size:frame.page_number * size] = frame.page
    return bytes(image)


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = buf[pos + i]
        if i == 8:
            return (value << 8) | byte, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos + i + 1
    raise ValueError("varint")  # pragma: no cover  # the loop returns


def _record(payload: bytes) -> tuple[Any, ...]:
    """The values of one SQLite record (NULL, integers and text; anything else raises)."""
    header_size, pos = _varint(payload, 0)
    types = []
    while pos < header_size:
        kind, pos = _varint(payload, pos)
        types.append(kind)
    values: list[Any] = []
    pos = header_size
    for kind in types:
        if kind == 0:
            values.append(None)
        elif kind in (8, 9):
            values.append(kind - 8)
        elif 1 <= kind <= 6:
            width = (1, 2, 3, 4, 6, 8)[kind - 1]
            values.append(int.from_bytes(payload[pos:pos + width], "big", signed=True))
            pos += width
        elif kind >= 13 and kind % 2:
            width = (kind - 13) // 2
            values.append(payload[pos:pos + width].decode())
            pos += width
        else:
            raise ValueError(f"serial type {kind}")
        if pos > len(payload):
            raise ValueError("record runs past its cell")
    return tuple(values)


def page_rows(page: bytes, page_number: int) -> Iterator[tuple[int | None, tuple[Any, ...]]]:
    """The records on a leaf page that read whole, with their rowid (None on an index's
    page, as a WITHOUT ROWID table's); a damaged cell is skipped."""
    base = 100 if page_number == 1 else 0
    if len(page) < base + 8 or page[base] not in (LEAF_INDEX, LEAF_TABLE):
        return
    cells = int.from_bytes(page[base + 3:base + 5], "big")
    for i in range(cells):
        at = base + 8 + 2 * i
        try:
            pos = int.from_bytes(page[at:at + 2], "big")
            size, pos = _varint(page, pos)
            rowid = None
            if page[base] == LEAF_TABLE:
                rowid, pos = _varint(page, pos)
            if pos + size > len(page):
                continue
            yield rowid, _record(page[pos:pos + size])
        except (IndexError, ValueError, UnicodeDecodeError):
            continue


Row = tuple[int | None, tuple[Any, ...]]


def action_row(row: Row) -> tuple[int, int, Candidate] | None:
    """A row shaped as the actions table's, as (game, seq, (action, at, hash, source));
    a row written before schema 4 has no source."""
    rowid, values = row
    source = values[5] if len(values) == 6 else None
    if (rowid is None and len(values) in (5, 6) and isinstance(values[0], int)
            and isinstance(values[1], int) and all(isinstance(v, str) for v in values[2:5])
            and (source is None or isinstance(source, str))):
        return values[0], values[1], (values[2], values[3], values[4], source)
    return None


def game_row(row: Row) -> tuple[int, tuple[Any, ...]] | None:
    """A row shaped as the games table's whose hash checks, as (id, (setup, started_at,
    ended_at, outcome, hash, seal, damage)); the settings column (schema 3) is left to
    the table's defaults."""
    rowid, values = row
    if (rowid is not None and len(values) in (8, 9) and values[0] is None
            and isinstance(values[1], str) and isinstance(values[2], str)
            and values[5] == game_hash(rowid, values[1], values[2])):
        return rowid, values[1:8]
    return None


@dataclass
class LogDamage:
    """What :func:`inspect` found in a damaged log, for :func:`recover` once SQLite opened."""

    aside: Path | None  # the copy of the journal kept as it was
    frames: int
    first_bad: int
    candidates: dict[tuple[int, int], set[Candidate]] = field(default_factory=dict)
    games: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # newest row found
    seen: dict[int, int] = field(default_factory=dict)  # game -> highest action number seen


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def aside_name(path: Path, stamp: Callable[[], str]) -> Path:
    """``NAME.damaged-STAMP``, or ``NAME.damaged-STAMP.N`` when that is taken: files kept
    as found are never written over."""
    base = f"{path.name}.damaged-{stamp()}"
    aside, taken = path.with_name(base), 1
    while any(aside.with_name(aside.name + suffix).exists() for suffix in ("", "-wal", "-shm")):
        taken += 1
        aside = path.with_name(f"{base}.{taken}")
    return aside


def keep_copy(path: Path, stamp: Callable[[], str]) -> Path:
    """Copy the journal and its log to ``NAME.damaged-STAMP`` (and ``-wal``), as they are."""
    aside = aside_name(path, stamp)
    shutil.copy2(path, aside)
    if wal_path(path).exists():
        shutil.copy2(wal_path(path), wal_path(aside))
    return aside


SHM_HEADER = 48  # the wal-index header, kept twice at the start of the -shm


def unreplayed(path: Path) -> bool:
    """Whether ``path``'s ``-wal`` may hold frames SQLite did not replay, so that it is to
    be read by hand (:func:`inspect`): a frame under the log's own salts past the count
    SQLite's wal-index gives (``mxFrame`` in the ``-shm``'s header, which SQLite writes as
    it reads the log: https://www.sqlite.org/walformat.html). Asked once SQLite has read
    the file, before anything is written; reads frame headers only, no checksum. True
    whenever the index cannot say (no ``-shm``, its two header copies differing, another
    log's salts): the log is then read by hand, as every open did."""
    try:
        data = wal_path(path).read_bytes()
    except FileNotFoundError:
        return False
    if len(data) < WAL_HEADER:
        return False
    page_size, salts = struct.unpack(">I", data[8:12])[0], data[16:24]
    if not 512 <= page_size <= 65536 or page_size & (page_size - 1):
        return False  # no frames to read (:func:`read_log` reads none either)
    try:
        with open(path.with_name(path.name + "-shm"), "rb") as shm:
            index = shm.read(2 * SHM_HEADER)
    except OSError:
        return True
    if len(index) < 2 * SHM_HEADER or index[:SHM_HEADER] != index[SHM_HEADER:] or not index[12]:
        return True
    if index[32:40] != salts:  # aSalt, as the log's header holds it
        return True
    replayed = struct.unpack("=I", index[16:20])[0]  # mxFrame, in the machine's byte order
    size = FRAME_HEADER + page_size
    return any(data[offset:offset + 4] != bytes(4) and data[offset + 8:offset + 16] == salts
               for offset in range(WAL_HEADER + replayed * size, len(data) - size + 1, size))


def inspect(path: Path, stamp: Callable[[], str]) -> LogDamage | None:
    """Read ``path``'s ``-wal`` before SQLite does; when intact frames follow a bad one,
    keep a copy of both files and the action rows those frames hold."""
    try:
        data = wal_path(path).read_bytes()
    except FileNotFoundError:
        return None
    log = read_log(data)
    if log is None or not log.damaged:
        return None
    first_bad = log.first_bad
    assert first_bad is not None
    damage = LogDamage(keep_copy(path, stamp) if path.exists() else None, len(log.frames),
                       first_bad)
    for frame in log.frames[log.replayed:]:
        for row in page_rows(frame.page, frame.page_number):
            if (action := action_row(row)) is not None:
                game, seq, values = action
                damage.seen[game] = max(damage.seen.get(game, 0), seq)  # bad frames count too
                if frame.intact:
                    damage.candidates.setdefault((game, seq), set()).add(values)
            elif frame.intact and (found := game_row(row)) is not None:
                game, kept = found
                if game not in damage.games or kept[3] is not None:  # an ended row is newer
                    damage.games[game] = kept
    return damage


class Shown:
    """The table's note of the last commits it showed: the current game's number and action
    count, and the game's before it, in ``NAME-shown``. Written after each commit without an
    fsync (a write to the page cache): after a power cut it may be older than the journal,
    never newer, so it can only under-count a loss. A log shorter than the note lost actions."""

    FORMAT = ">4Q"

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + "-shown")
        self._fd: int | None = None
        self._games = [0, 0, 0, 0]  # game, count, game before, its count

    def read(self) -> dict[int, int]:
        """Game number -> actions shown, as the note says (nothing without a note)."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return {}
        if len(data) != struct.calcsize(self.FORMAT):
            return {}
        self._games = list(struct.unpack(self.FORMAT, data))
        game, count, before, its = self._games
        return {g: c for g, c in ((before, its), (game, count)) if g}

    def note(self, game: int, count: int) -> None:
        if game != self._games[0] and self._games[0]:
            self._games[2:] = self._games[:2]
        self._games[:2] = [game, count]
        self._write()

    def settle(self, held: dict[int, int]) -> None:
        """Note what the journal holds of the games the note names, once a loss has been
        told: told once, not again at every start."""
        game, _count, before, _its = self._games
        self._games = [game, held.get(game, 0), before, held.get(before, 0)]
        self._write()

    def _write(self) -> None:
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            os.pwrite(self._fd, struct.pack(self.FORMAT, *self._games), 0)
        except OSError:
            pass  # the note helps to name a loss; the journal itself is already on disk

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def recover(db: sqlite3.Connection, path: Path, damage: LogDamage | None,
            shown: dict[int, int], stamp: Callable[[], str],
            aside: Path | None = None) -> list[Problem]:
    """Add what ``damage`` kept and the chain accepts: the actions after the last one read
    back of the latest game if unfinished, and games started after it (their row's hash
    checks) with their actions; then name what could not be read back. ``shown`` is the
    note read before the journal opened; ``aside`` the files as found, if already kept."""
    row = db.execute("SELECT id, hash, outcome FROM games ORDER BY id DESC LIMIT 1").fetchone()
    latest: int | None = None if row is None else int(row[0])
    recovered = 0
    if damage is not None:
        db.execute("BEGIN IMMEDIATE")
        if row is not None and row[2] is None and row[1] is not None:
            recovered += _chain(db, damage, int(row[0]), row[1])
        for game in sorted(g for g in damage.games if latest is None or g > latest):
            setup, started_at, ended_at, outcome, seed, seal, reason = damage.games[game]
            db.execute("INSERT INTO games (id, setup, started_at, ended_at, outcome, hash, seal, "
                       "damage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (game, setup, started_at, ended_at, outcome, seed, seal, reason))
            recovered += _chain(db, damage, game, seed)
            latest = game
        db.execute("COMMIT")
    expected = dict(damage.seen) if damage is not None else {}
    for game, count in shown.items():
        expected[game] = max(expected.get(game, 0), count)
    problems = []
    aside = aside if damage is None or damage.aside is None else damage.aside
    for game, count in sorted(expected.items()):
        have = db.execute("SELECT count(*) FROM actions WHERE game_id = ?", (game,)).fetchone()[0]
        lost = count - have
        if lost <= 0:
            continue
        if aside is None:
            aside = keep_copy(path, stamp)
        gone = "" if have else " (the game itself could not be read back)"
        problems.append(Problem(game, f"{lost} of its {count} actions could not be read back "
                                      f"from the damaged log{gone}; {recovered} recovered "
                                      f"after the damage; the files as found are kept as "
                                      f"{aside.name}", lost))
    if damage is not None and not problems:
        problems.append(Problem(None, f"the journal's log was damaged at frame "
                                        f"{damage.first_bad + 1} of {damage.frames}; "
                                        f"{recovered} actions after it were recovered and "
                                        f"none lost; the files as found are kept as "
                                        f"{aside.name if aside else 'nothing'}"))
    return problems


def _chain(db: sqlite3.Connection, damage: LogDamage, game: int, seed: str) -> int:
    """Insert the kept actions of ``game`` that chain on from its last one (or ``seed``);
    how many."""
    last = db.execute("SELECT seq, hash FROM actions WHERE game_id = ? ORDER BY seq DESC "
                      "LIMIT 1", (game,)).fetchone()
    seq, chain = last if last is not None else (0, seed)
    rows = []
    while True:
        found = [c for c in damage.candidates.get((game, seq + 1), ())
                 if action_hash(chain, seq + 1, c[0], c[1]) == c[2]]
        if not found:
            break
        seq, chain = seq + 1, found[0][2]
        rows.append((game, seq, *found[0]))
    db.executemany("INSERT INTO actions (game_id, seq, action, at, hash, source) "
                   "VALUES (?, ?, ?, ?, ?, ?)", rows)
    return len(rows)
