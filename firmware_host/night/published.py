"""What a table's publisher has read of the night, kept beside the journal for a restart.

Each finished game the publisher reads is checked against its hashes and worked out once
(:class:`~firmware_host.night.follow.Tonight`); its message, as sent, is kept in a small
SQLite file beside the journal (``journal.sqlite3.published``), so that a restarted
publisher does not check and work out the whole night again.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from contextlib import closing, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.journal import Journal
from firmware_host.night.topics import BadMessage, Game, game_payload, game_topic, parse

log = logging.getLogger("table_companion.publish")


@dataclass(frozen=True)
class Kept:
    """A finished game as read: its number and seal (what the journal lists to tell a
    changed game), its night, and its message, made once."""

    id: int
    seal: str | None
    night: str
    game: Game
    payload: bytes


RECORD_VERSION = 1  # raise when what a game's message holds changes: older records are dropped


class Record:
    """The night's games a publisher has read, kept in a small SQLite file beside the
    journal (``journal.sqlite3.published``) so that a restart does not check and work out
    the whole night again. Only a cache: a record that is missing, torn, of another table
    or version, or that the journal's seals do not bear out is dropped, and the night is
    read whole once. It holds the whole night or nothing: after a record is dropped (or
    before one is read), the next save writes every game again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._whole = False  # the file holds the night as last saved or loaded

    def load(self, journal: Journal, table: str, name: str) -> list[Kept]:
        """The games kept for ``table`` (named ``name``); none when there is no record, or
        none that can be trusted (that one is removed)."""
        if not self.path.exists():
            return []
        try:
            with closing(sqlite3.connect(self.path)) as db:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                rows = db.execute("SELECT id, seal, night, payload FROM games WHERE tbl = ? "
                                  "AND name = ? ORDER BY id", (table, name)).fetchall()
            if version != RECORD_VERSION:
                raise ValueError(f"version {version}, not {RECORD_VERSION}")
            games = [self._game(table, name, *row) for row in rows]
        except (sqlite3.Error, BadMessage, TypeError, ValueError) as err:
            log.warning("%s is not a record of the night's games (%s): the night is read "
                        "whole", self.path, err)
            self._remove()
            return []
        listed = dict(journal.seals(games[0].id - 1)) if games else {}
        if any(listed.get(game.id, "") != game.seal for game in games[:-1]):  # another journal
            self._remove()
            return []
        self._whole = True
        return games

    @staticmethod
    def _game(table: str, name: str, id_: Any, seal: Any, night: Any, payload: Any) -> Kept:
        """A row as it was saved, its message checked as any message from a file is."""
        if type(payload) is not bytes or not (seal is None or isinstance(seal, str)):
            raise ValueError(f"game {id_!r} is not one the publisher saved")
        game = parse(game_topic(table, id_), payload)
        if (not isinstance(game, Game) or game_payload(game) != payload or game.name != name
                or game.night != night):
            raise ValueError(f"game {id_!r} differs from its message")
        return Kept(game.id, seal, night, game, payload)

    def save(self, table: str, name: str, games: Sequence[Kept], since: int) -> None:
        """Keep ``games`` (the night's, in order), those from number ``since`` on being new
        since the last save (all of them when the file does not hold the rest); a record
        that cannot be written is dropped."""
        night = games[-1].night if games else ""
        since = since if self._whole and self.path.exists() else 0  # removed meanwhile
        try:
            with closing(sqlite3.connect(self.path, isolation_level=None)) as db:
                db.execute("CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, "
                           "tbl TEXT NOT NULL, name TEXT NOT NULL, seal TEXT, "
                           "night TEXT NOT NULL, payload BLOB NOT NULL)")
                db.execute("BEGIN IMMEDIATE")
                db.execute("DELETE FROM games WHERE id >= ? OR night <> ? OR tbl <> ? "
                           "OR name <> ?", (since, night, table, name))
                db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                               [(game.id, table, name, game.seal, game.night, game.payload)
                                for game in games if game.id >= since])
                db.execute(f"PRAGMA user_version={RECORD_VERSION}")
                db.execute("COMMIT")
        except (sqlite3.Error, OSError) as err:
            log.warning("could not keep the night's games in %s (%s): a restart reads "
                        "the night whole", self.path, err)
            self._remove()
            return
        self._whole = True

    def _remove(self) -> None:
        self._whole = False
        for path in (self.path, self.path.with_name(self.path.name + "-journal")):
            with suppress(OSError):
                path.unlink(missing_ok=True)


def record_beside(journal: Path) -> Record:
    """The record of the publisher of the journal at ``journal``."""
    return Record(journal.with_name(journal.name + ".published"))
