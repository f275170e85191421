"""The journal: every accepted action on disk before the table sees it, and the night's results.

One SQLite file (WAL, ``synchronous=FULL``) holds each game's setup and its actions in order.
A game is fully determined by those (dice are actions too), so resuming after a pulled plug
is a replay, and a replay is exact. :meth:`Journal.apply` is the only way an action enters a
game that is being journaled: it applies through the game's checked path, commits in one
transaction, and only then returns, so the screen can never show an action that a power cut
would take back. A finished game's result is committed in the same transaction as its last
action; those results make the night's standings and the export.

The journal's current game is its latest one: :meth:`~Journal.apply` and
:meth:`~Journal.undo` act on it, :meth:`~Journal.resume` rebuilds it while it is unfinished.

Errors a person can meet (a damaged or unreadable file, a journal from a newer version)
are :class:`JournalError` with one line saying what to do.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from firmware_host.errors import UsageError
from games import from_json
from games.core import GameState, Result
from games.errors import GameError

Clock = Callable[[], datetime]

SCHEMA_VERSION = 1
APPLICATION_ID = 0x54434A4C  # "TCJL" in PRAGMA application_id: this file is ours
NIGHT_TURNS_AT = timedelta(hours=6)  # a game started at 01:30 belongs to the evening before

# Index i upgrades a journal from schema version i to i + 1. Append; never edit a shipped one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
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
)


class JournalError(UsageError):
    """The journal cannot be used or written; the message names the file and the remedy."""


def system_clock() -> datetime:
    """Local wall-clock time with its offset: what players would read on a watch."""
    return datetime.now().astimezone()


def night_of(moment: datetime) -> date:
    """The evening a moment belongs to: the night turns at 06:00, not at midnight."""
    return (moment - NIGHT_TURNS_AT).date()


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    name: str
    score: int
    place: int


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as the export and the standings see it."""

    id: int
    game: str
    options: dict[str, Any]
    started: datetime
    ended: datetime
    players: tuple[PlayerResult, ...]

    @property
    def night(self) -> date:
        return night_of(self.started)


@dataclass(frozen=True)
class Standing:
    """One player's evening: games played, games won (shared wins count) and opponents beaten."""

    name: str
    played: int
    wins: int
    beaten: int


def standings(games: Sequence[PlayedGame]) -> list[Standing]:
    """Players across ``games`` by wins, then opponents beaten, then name.

    Games differ in what a point is worth, so only places are compared across games.
    """
    tally: dict[str, list[int]] = {}
    for game in games:
        for player in game.players:
            beaten = sum(1 for other in game.players if other.place > player.place)
            played, wins, total = tally.setdefault(player.name, [0, 0, 0])
            tally[player.name] = [played + 1, wins + (player.place == 1), total + beaten]
    rows = [Standing(name, *counts) for name, counts in tally.items()]
    return sorted(rows, key=lambda s: (-s.wins, -s.beaten, s.name))


def places(result: Result) -> dict[int, int]:
    """Seat -> place in competition style: two tied winners are both 1st, the next is 3rd."""
    placed: dict[int, int] = {}
    for group in result.ranking:
        place = len(placed) + 1
        placed.update(dict.fromkeys(group, place))
    return placed


class Journal:
    """An open journal file. Use :meth:`open` (or :meth:`open_existing` to read one)."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Clock) -> None:
        self._db = db
        self.path = path
        self.clock = clock

    # -- opening and closing --------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, clock: Clock = system_clock) -> Journal:
        """Open the journal at ``path``, creating it (not its folder) when absent."""
        return cls._connect(path, "rwc", clock)

    @classmethod
    def open_existing(cls, path: Path, clock: Clock = system_clock) -> Journal:
        """Open a journal that must already exist (for export: never create an empty one)."""
        if not path.exists():
            raise JournalError(f"{path}: no journal there; give the right --journal PATH "
                               "(the service keeps it in /var/lib/table-companion)")
        return cls._connect(path, "rw", clock)

    @classmethod
    def _connect(cls, path: Path, mode: str, clock: Clock) -> Journal:
        uri = f"{path.absolute().as_uri()}?mode={mode}"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5.0)
        except sqlite3.Error as err:
            raise JournalError(_describe(path, err)) from None
        journal = cls(db, path, clock)
        try:
            journal._prepare()
        except sqlite3.Error as err:
            db.close()
            raise JournalError(_describe(path, err)) from None
        except JournalError:
            db.close()
            raise
        return journal

    def _prepare(self) -> None:
        db = self._db
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise JournalError(f"{self.path}: SQLite refused write-ahead logging here "
                               f"(journal_mode={mode}); keep the journal on a local disk")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise JournalError(f"{self.path}: the journal is damaged ({check}); move the file "
                               "aside and the companion starts a new one")
        application_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        if application_id not in (0, APPLICATION_ID) or (application_id == 0 and tables):
            raise JournalError(f"{self.path}: an SQLite file but not a table-companion journal; "
                               "give another --journal path or move this file aside")
        if version > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: written by a newer table-companion (journal "
                               f"version {version}, this one reads up to {SCHEMA_VERSION}); "
                               "upgrade table-companion")
        for upgrade in range(version, SCHEMA_VERSION):
            with self._transaction() as tx:
                for statement in MIGRATIONS[upgrade]:
                    tx.execute(statement)
                tx.execute(f"PRAGMA application_id={APPLICATION_ID}")
                tx.execute(f"PRAGMA user_version={upgrade + 1}")

    def close(self) -> None:
        """Close the file; the last close folds the write-ahead log back into it."""
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction that takes the write lock at once, so it cannot fail halfway."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    # -- playing --------------------------------------------------------------------------

    def start(self, state: GameState[Any]) -> int:
        """Record a new game (with any actions it already holds); returns its number."""
        try:
            with self._transaction() as tx:
                latest = self._latest(tx)
                if latest is not None and latest[1] is None:
                    raise JournalError(f"game #{latest[0]} is unfinished: abandon it first")
                now = self._now()
                game_id = tx.execute(
                    "INSERT INTO games (setup, started_at) VALUES (?, ?)",
                    (json.dumps(state.setup.to_json()), now),
                ).lastrowid
                assert game_id is not None
                for seq, action in enumerate(state.history, start=1):
                    tx.execute("INSERT INTO actions VALUES (?, ?, ?, ?)",
                               (game_id, seq, str(action), now))
                self._finish_if_over(tx, game_id, state, now)
        except sqlite3.Error as err:
            raise JournalError(_describe(self.path, err)) from None
        return game_id

    def apply(self, state: GameState[Any], action: Any) -> Any:
        """Play ``action`` on the current game and commit it; returns the action played.

        An illegal action raises the game's IllegalAction and a failed write raises
        JournalError; either way neither the state nor the file has changed.
        """
        played = state.apply(action)
        try:
            with self._transaction() as tx:
                game_id = self._current(tx, state, expect=len(state.history) - 1)
                now = self._now()
                tx.execute("INSERT INTO actions VALUES (?, ?, ?, ?)",
                           (game_id, len(state.history), str(played), now))
                self._finish_if_over(tx, game_id, state, now)
        except BaseException as err:
            state.undo()
            if isinstance(err, sqlite3.Error):
                raise JournalError(_describe(self.path, err)) from None
            raise
        return played

    def undo(self, state: GameState[Any]) -> Any:
        """Take back the current game's last action (reopening it if that action ended it)."""
        undone = None
        try:
            with self._transaction() as tx:
                game_id = self._current(tx, state, expect=len(state.history), finished_ok=True)
                tx.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?",
                           (game_id, len(state.history)))
                tx.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
                tx.execute("UPDATE games SET ended_at = NULL, outcome = NULL WHERE id = ?",
                           (game_id,))
                undone = state.undo()  # GameOverError when nothing was played: rolls back
        except sqlite3.Error as err:
            if undone is not None:  # the commit failed: the game keeps the action too
                state.apply(str(undone))
            raise JournalError(_describe(self.path, err)) from None
        return undone

    def abandon(self) -> None:
        """Close the current game unfinished (it stays in the file, out of the standings)."""
        try:
            with self._transaction() as tx:
                tx.execute("UPDATE games SET ended_at = ?, outcome = 'abandoned' "
                           "WHERE ended_at IS NULL", (self._now(),))
        except sqlite3.Error as err:
            raise JournalError(_describe(self.path, err)) from None

    def resume(self) -> GameState[Any] | None:
        """The unfinished game rebuilt exactly from its journaled actions, or None."""
        try:
            latest = self._latest(self._db)
            if latest is None or latest[1] is not None:
                return None
            game_id = latest[0]
            setup, actions = self._game_data(game_id)
        except sqlite3.Error as err:
            raise JournalError(_describe(self.path, err)) from None
        try:
            return from_json({**setup, "actions": actions})
        except GameError as err:
            raise JournalError(f"{self.path}: game #{game_id} cannot be replayed ({err}); "
                               "abandon it to go on") from None

    def _latest(self, db: sqlite3.Connection) -> tuple[int, str | None] | None:
        row = db.execute("SELECT id, ended_at FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else (row[0], row[1])

    def _current(self, tx: sqlite3.Connection, state: GameState[Any], expect: int,
                 finished_ok: bool = False) -> int:
        """The current game's id, checking that ``state`` is the game the journal holds."""
        row = tx.execute("SELECT id, setup, outcome FROM games ORDER BY id DESC LIMIT 1").fetchone()
        usable = row is not None and (row[2] is None or (finished_ok and row[2] == "finished"))
        if not usable:
            raise JournalError("no game is being played: start one first")
        count = tx.execute("SELECT count(*) FROM actions WHERE game_id = ?", (row[0],))
        held = count.fetchone()[0]
        if json.loads(row[1]) != state.setup.to_json() or held != expect:
            raise JournalError(f"game #{row[0]} in {self.path} holds {held} actions but this "
                               f"game has {expect}: it was not started or resumed here")
        game_id: int = row[0]
        return game_id

    def _finish_if_over(self, tx: sqlite3.Connection, game_id: int,
                        state: GameState[Any], now: str) -> None:
        result = state.result()
        if result is None:
            return
        tx.execute("UPDATE games SET ended_at = ?, outcome = 'finished' WHERE id = ?",
                   (now, game_id))
        placed = places(result)
        tx.executemany("INSERT INTO results VALUES (?, ?, ?, ?)",
                       [(game_id, seat, score, placed[seat])
                        for seat, score in enumerate(result.scores)])

    def _game_data(self, game_id: int) -> tuple[dict[str, Any], list[str]]:
        setup = self._db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
        rows = self._db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq",
                                (game_id,)).fetchall()
        data: dict[str, Any] = json.loads(setup[0])
        return data, [action for (action,) in rows]

    # -- the record -----------------------------------------------------------------------

    def finished_games(self, night: date | None = None) -> list[PlayedGame]:
        """Finished games in the order played, all of them or those of one night."""
        try:
            games = self._db.execute(
                "SELECT id, setup, started_at, ended_at FROM games "
                "WHERE outcome = 'finished' ORDER BY id"
            ).fetchall()
            results = self._db.execute(
                "SELECT game_id, seat, score, place FROM results ORDER BY game_id, seat"
            ).fetchall()
        except sqlite3.Error as err:
            raise JournalError(_describe(self.path, err)) from None
        by_game: dict[int, list[tuple[int, int, int]]] = {}
        for game_id, seat, score, place in results:
            by_game.setdefault(game_id, []).append((seat, score, place))
        played = []
        for game_id, setup_text, started, ended in games:
            setup = json.loads(setup_text)
            players = tuple(PlayerResult(seat, setup["names"][seat], score, place)
                            for seat, score, place in by_game.get(game_id, []))
            played.append(PlayedGame(game_id, setup["game"], setup["options"],
                                     datetime.fromisoformat(started),
                                     datetime.fromisoformat(ended), players))
        return [g for g in played if night is None or g.night == night]

    def nights(self) -> list[date]:
        """The nights with at least one finished game, earliest first."""
        return sorted({game.night for game in self.finished_games()})


def _describe(path: Path, err: sqlite3.Error) -> str:
    """One line for a failed SQLite call: what happened to which file and what to do."""
    text = str(err)
    if "unable to open" in text:
        return (f"{path}: cannot open the journal ({text}); check that {path.parent} exists "
                "and that this user may write there")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return (f"{path}: the journal is damaged ({text}); move the file aside and the "
                "companion starts a new one")
    if "readonly" in text or "read-only" in text:
        return f"{path}: the journal is read-only here ({text}); run as the user that owns it"
    if "locked" in text or "busy" in text:
        return f"{path}: the journal is in use by another program ({text}); try again"
    return f"{path}: journal error: {text}"
