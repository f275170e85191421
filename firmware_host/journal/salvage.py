"""A journal SQLite itself finds damaged: move it aside, keep every game that checks out.

When the main file is damaged (a page zeroed or flipped, so ``quick_check`` fails, or no
database header at all) nothing written into it can be trusted. The daemon does not refuse to
start over it: the file (and its ``-wal``) is moved aside under a dated name and kept for
whoever wants to look, a new journal is made at the same path, and every game whose rows can
still be read and whose hashes check out is copied into it as it was (its number, times and
hashes). Each game that cannot be is one :class:`~firmware_host.journal.records.Problem`.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.journal.records import (
    Damaged,
    Problem,
    check_chain,
    check_results,
    decode_game,
)

PROBE_MISSES = 50  # game numbers tried past the last one found, when the list cannot be read


@dataclass(frozen=True)
class Saved:
    """One game read back whole and checked: its rows as they were."""

    game: tuple[Any, ...]  # id, setup, started_at, ended_at, outcome, hash, seal, damage
    actions: list[tuple[Any, ...]]  # seq, action, at, hash, source
    results: list[tuple[Any, ...]]  # seat, score, place


def move_aside(path: Path, stamp: str) -> Path:
    """Rename the journal and its log to ``NAME.damaged-STAMP``; returns the new name."""
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    os.replace(path, aside)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        os.replace(wal, aside.with_name(aside.name + "-wal"))
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return aside


def read_back(aside: Path) -> tuple[list[Saved], list[Problem]]:
    """Every game of the damaged file that can be read and checks out, and one problem for
    each that cannot."""
    saved: list[Saved] = []
    problems: list[Problem] = []
    try:
        db = sqlite3.connect(f"{aside.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as err:
        return [], [Problem(None, f"nothing could be read back ({err})")]
    db.text_factory = lambda raw: raw.decode("utf-8", "replace")  # a bad byte fails a hash
    with closing(db):
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as err:
            return [], [Problem(None, f"nothing could be read back ({err})")]
        hashes = "hash, seal, damage" if version >= 2 else "NULL, NULL, NULL"
        action_hash = "hash" if version >= 2 else "NULL"
        source = "source" if version >= 4 else "NULL"
        for game_id in _game_ids(db):
            try:
                row = db.execute(f"SELECT id, setup, started_at, ended_at, outcome, {hashes} "
                                 "FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    continue
                actions = db.execute(f"SELECT seq, action, at, {action_hash}, {source} "
                                     "FROM actions WHERE game_id = ? ORDER BY seq",
                                     (game_id,)).fetchall()
                results = db.execute("SELECT seat, score, place FROM results WHERE "
                                     "game_id = ? ORDER BY seat", (game_id,)).fetchall()
                if row[4] not in (None, "finished", "abandoned"):  # outside the hashes
                    raise Damaged(f"its outcome {row[4]!r} is unreadable")
                game = decode_game(row[:6])
                last = check_chain(game, [action[:4] for action in actions])
                if row[4] == "finished":
                    check_results(game, last, results, row[6])
            except (Damaged, sqlite3.DatabaseError) as err:
                problems.append(Problem(game_id, f"{err}; not recovered"))
                continue
            saved.append(Saved(tuple(row), [tuple(a) for a in actions],
                               [tuple(r) for r in results]))
    return saved, problems


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


def restore(db: sqlite3.Connection, saved: list[Saved]) -> None:
    """Write the games read back into a new journal's open transaction."""
    for game in saved:
        db.execute("INSERT INTO games (id, setup, started_at, ended_at, outcome, hash, seal, "
                   "damage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", game.game)
        db.executemany("INSERT INTO actions (game_id, seq, action, at, hash, source) "
                       "VALUES (?, ?, ?, ?, ?, ?)", [(game.game[0], *a) for a in game.actions])
        db.executemany("INSERT INTO results VALUES (?, ?, ?, ?)",
                       [(game.game[0], *r) for r in game.results])
