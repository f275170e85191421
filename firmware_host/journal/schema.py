"""The journal's tables and the steps that bring an older journal up to date.

``MIGRATIONS[i]`` upgrades a journal from schema version ``i`` to ``i + 1``, in the same
transaction as the new ``user_version``. Append a step; never edit a shipped one. A step is
SQL, or a function for what SQL cannot do (version 2 hashes the rows already written).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from firmware_host.journal.records import action_hash, game_hash, seal_hash

Step = str | Callable[[sqlite3.Connection], None]

SCHEMA_VERSION = 4
APPLICATION_ID = 0x54434A4C  # "TCJL" in PRAGMA application_id: this file is ours


def hash_existing_rows(db: sqlite3.Connection) -> None:
    """Version 2: chain the games and actions written before hashes existed, as they are."""
    games = db.execute("SELECT id, setup, started_at, ended_at, outcome FROM games").fetchall()
    for game_id, setup, started_at, ended_at, outcome in games:
        last = game_hash(game_id, setup, started_at)
        db.execute("UPDATE games SET hash = ? WHERE id = ?", (last, game_id))
        actions = db.execute("SELECT seq, action, at FROM actions WHERE game_id = ? "
                             "ORDER BY seq", (game_id,)).fetchall()
        for seq, action, at in actions:
            last = action_hash(last, seq, action, at)
            db.execute("UPDATE actions SET hash = ? WHERE game_id = ? AND seq = ?",
                       (last, game_id, seq))
        if outcome == "finished":
            results = db.execute("SELECT seat, score, place FROM results WHERE game_id = ?",
                                 (game_id,)).fetchall()
            db.execute("UPDATE games SET seal = ? WHERE id = ?",
                       (seal_hash(last, ended_at, results), game_id))


MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    (
        """CREATE TABLE games (
            id          INTEGER PRIMARY KEY,
            setup       TEXT NOT NULL,   -- Setup.to_json(): game, names, options
            started_at  TEXT NOT NULL,   -- ISO 8601 local time with its UTC offset
            ended_at    TEXT,            -- NULL while the game is being played
            outcome     TEXT CHECK (outcome IN ('finished', 'abandoned')),
            CHECK ((ended_at IS NULL) = (outcome IS NULL))
        )""",
        """CREATE TABLE actions (
            game_id  INTEGER NOT NULL REFERENCES games(id),
            seq      INTEGER NOT NULL CHECK (seq >= 1),  -- 1, 2, 3, ... in the order played
            action   TEXT NOT NULL,                      -- the game's own notation
            at       TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        """CREATE TABLE results (
            game_id  INTEGER NOT NULL REFERENCES games(id),
            seat     INTEGER NOT NULL,  -- index into the setup's names
            score    INTEGER NOT NULL,
            place    INTEGER NOT NULL,  -- 1 = winner; tied players share a place
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID""",
    ),
    (
        "ALTER TABLE games ADD COLUMN hash TEXT",  # over id, setup and started_at
        "ALTER TABLE games ADD COLUMN seal TEXT",  # a finished game's end and results
        "ALTER TABLE games ADD COLUMN damage TEXT",  # why it was set aside, if it was
        "ALTER TABLE actions ADD COLUMN hash TEXT",  # chained to the action before
        hash_existing_rows,
    ),
    (
        # the table's settings (hint, sound) while the game is played, as JSON; outside the
        # game's hash: a preference of the table, not part of the record
        "ALTER TABLE games ADD COLUMN settings TEXT",
    ),
    (
        # where a throw's dice came from (SOURCES); NULL for other actions and for throws
        # written before version 4. Outside the action's hash: a note about the dice, not
        # part of the game, so the chains of older rows stay as they were
        "ALTER TABLE actions ADD COLUMN source TEXT",
    ),
)

SOURCES = ("button", "manual", "serial", "pixels")
"""The button roller, dice typed in by hand, a roller on the serial line, Pixels dice read
over Bluetooth."""
UNKNOWN_SOURCE = "unknown"  # a throw journaled before sources were
