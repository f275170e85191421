"""The journal: every accepted action on disk before the table sees it, and the night's results.

One SQLite file (WAL, ``synchronous=FULL``) holds each game's setup and its actions in order.
A game is fully determined by those (dice are actions too), so resuming after a pulled plug
is a replay, and a replay is exact. :meth:`Journal.apply` is the only way an action enters a
game that is being journaled: it applies through the game's checked path, commits in one
transaction, and only then returns, so the screen never shows an action that a power cut
would take back. The actions of one event go in one transaction, all checked before any is
written: a refused event, or one whose write fails, leaves no trace in the file or the game.

A finished game's result is committed in the same transaction as its last action; those
results make the night's standings and the export. Every row is hash-chained
(:mod:`~firmware_host.journal.records`), so damage is found, named and set aside instead of
being replayed or exported: each finding is a :class:`Problem` in :attr:`Journal.problems`.

The journal's current game is its latest one, kept in memory (its number, setup, action
count and last hash; checked once, at resume), so :meth:`~Journal.apply` costs the same in
a game's 50,000th action as in its first; :meth:`~Journal.undo` acts on it as well.

Errors a person can meet (an unreadable file, a journal from a newer version) are
:class:`JournalError` with one line saying what to do.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, closing, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from firmware_host.journal.clock import system_clock
from firmware_host.journal.errors import Failure, JournalError, journal_error, sqlite_errors
from firmware_host.journal.held import Held, HeldFile
from firmware_host.journal.played import (
    PlayedGame,
    PlayerResult,
    Throw,
    night_of,
    player_ids,
    result_rows,
)
from firmware_host.journal.records import (
    Damaged,
    GameRow,
    Problem,
    action_hash,
    check_chain,
    check_results,
    decode_game,
    game_hash,
    seal_hash,
)
from firmware_host.journal.replay import replay, results_by_rules
from firmware_host.journal.salvage import (
    Saved,
    first_look,
    holding,
    move_aside,
    one_line,
    read_back,
    restore,
)
from firmware_host.journal.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    SOURCES,
    UNKNOWN_SOURCE,
    hash_existing_rows,
)
from firmware_host.journal.snapshots import SNAPSHOT_EVERY, Snapshots
from firmware_host.journal.threads import IDLE_CHECKPOINT_S, Checkpointer, LockWatch
from firmware_host.journal.wal import (
    LogDamage,
    Shown,
    aside_name,
    inspect,
    recover,
    unreplayed,
)
from firmware_host.players import Player, clean, clean_id
from games.core import GameState, Roll, Setup
from games.errors import GameError, GameOverError

Clock = Callable[[], datetime]

GAME_COLUMNS = "id, setup, started_at, ended_at, outcome, hash"
RECENT_GAMES = 50  # games whose players a new game offers again
PLAY_BUSY_MS = 50  # how long a write waits for another program's lock while a game is played


@dataclass
class _Current:
    """The latest game as the file holds it: what :meth:`Journal.apply` checks a state by."""

    id: int
    setup: dict[str, Any]  # as stored
    seed: str  # the game row's hash: what action 1 chains to
    count: int
    last: str  # the last action's hash (the seed before any)
    finished: bool
    matched: Setup | None = None  # the state's Setup once found equal to ``setup``


INSERT_ACTION = ("INSERT INTO actions (game_id, seq, action, at, hash, source) "
                 "VALUES (?, ?, ?, ?, ?, ?)")
ActionRow = tuple[int, int, str, str, str, str | None]


def _chained(game_id: int, last: str, first: int, actions: Sequence[Any], now: str,
             source: str | None = None) -> tuple[list[ActionRow], str]:
    """The rows of ``actions`` as numbers ``first``..., each hash chained from the one
    before (``last`` before the first), a throw's with its ``source``, and the chain's last
    hash after them."""
    rows = []
    for seq, action in enumerate(actions, start=first):
        text = str(action)
        last = action_hash(last, seq, text, now)
        rows.append((game_id, seq, text, now, last, source if isinstance(action, Roll) else None))
    return rows, last


class Journal:
    """An open journal file. Use :meth:`open` (or :meth:`open_existing` to read one)."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Clock,
                 checkpointer: Checkpointer | None = None) -> None:
        self._db = db
        self.path = path
        self.clock = clock
        self.problems: list[Problem] = []
        """Damage found so far, one line each, in the order found."""
        self._current: _Current | None = None
        self._snapshots = Snapshots()
        self._checkpointer = checkpointer
        self._shown: Shown | None = None  # the note of the last commit shown (the daemon's)
        self._held = HeldFile(path)
        self._the_table = False  # the daemon's own journal: it settles what a lock held
        self.notices: list[str] = []
        """What a start has to tell about moves held for a lock before it (not damage)."""

    # -- opening and closing --------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, clock: Clock = system_clock,
             idle_checkpoint: float = IDLE_CHECKPOINT_S, salvage: bool = False) -> Journal:
        """Open the journal at ``path``, creating it (not its folder) when absent.

        ``salvage`` (the daemon): a file SQLite finds damaged is moved aside and every game
        in it that can be read and checked is copied into a new journal at ``path``
        (:mod:`~firmware_host.journal.salvage`); what happened is in :attr:`problems`.
        Either way actions SQLite would drop from its log are recovered or named
        (:mod:`~firmware_host.journal.wal`): the log is read by hand when the file is
        damaged or SQLite did not replay all of the log, before anything is written."""
        def stamp() -> str:  # for copies of damaged files, made only when there is damage
            return clock().strftime("%Y%m%dT%H%M%S")

        shown = Shown(path)
        last_shown = shown.read()
        looked: list[LogDamage | None] = []

        def look() -> None:  # SQLite has read the file and its log, and found it sound
            looked.append(inspect(path, stamp) if unreplayed(path) else None)

        try:
            journal = cls._connect(path, "rwc", clock, idle_checkpoint, look=look)
        except JournalError as err:
            if not salvage or err.failure is not Failure.DAMAGED:
                raise
            damage = err.damage
        else:
            journal._recover_log(looked[0] if looked else None, last_shown, shown, stamp)
            journal._the_table = salvage
            return journal
        log_damage = inspect(path, stamp)  # nothing has written to the files as found
        aside = (log_damage.aside if log_damage is not None and log_damage.aside is not None
                 else aside_name(path, stamp))
        move_aside(path, aside)  # onto the copies the log's inspection made, if it did
        saved, lost = read_back(aside, results_by_rules)
        journal = cls._connect(path, "rwc", clock, idle_checkpoint)
        try:
            refused = journal._restore(saved)
        except BaseException:
            journal.close()
            raise
        kept = [game for game in saved if game.game[0] not in {p.game_id for p in refused}]
        whole = sum(game.game[7] is None for game in kept)
        aside_too = len(kept) - whole
        journal.problems = [Problem(None, f"SQLite finds the journal damaged ({damage}): the "
                                          f"file is moved aside as {aside.name} and {whole} "
                                          "games that check out are copied into a new "
                                          "journal" + (f" ({aside_too} more set aside, as "
                                                       "read)" if aside_too else "")),
                            *lost, *refused]
        journal._recover_log(log_damage, last_shown, shown, stamp, aside)
        journal._the_table = True
        return journal

    def _recover_log(self, damage: LogDamage | None, last_shown: dict[int, int], shown: Shown,
                     stamp: Callable[[], str], aside: Path | None = None) -> None:
        """Add what :func:`~firmware_host.journal.wal.recover` reads back from a damaged
        log, name what it cannot, and note each commit from now on in ``shown``."""
        try:
            with sqlite_errors(self.path):
                for problem in recover(self._db, self.path, damage, last_shown, stamp,
                                       aside):
                    self._report(problem)
                holds = {game: self._db.execute("SELECT count(*) FROM actions WHERE "
                                                "game_id = ?", (game,)).fetchone()[0]
                         for game in last_shown}
                if any(holds[game] < count for game, count in last_shown.items()):
                    shown.settle(holds)  # the loss is told once, not at every start
                self._current = self._load_current()
        except JournalError:
            self.close()
            raise
        self._shown = shown
        # from now on the table waits for the file: another program holding it (a sqlite3
        # shell left open, a backup) makes an action refused at once, not a frozen loop
        self._db.execute(f"PRAGMA busy_timeout={PLAY_BUSY_MS}")

    def _restore(self, saved: list[Saved]) -> list[Problem]:
        with sqlite_errors(self.path):
            with self._transaction() as tx:
                refused = restore(tx, saved)
                if any(game.game[5] is None for game in saved):  # from a journal before hashes
                    hash_existing_rows(tx)
            self._current = self._load_current()
        return refused

    @classmethod
    def open_existing(cls, path: Path, clock: Clock = system_clock) -> Journal:
        """Open a journal that must already exist (for export: never create an empty one).
        A file SQLite finds damaged is still opened, for what can be read of it: the damage
        is the first of :attr:`problems`."""
        if not path.exists():
            raise JournalError(f"{path}: no journal there; give the right --journal PATH "
                               "(the service keeps it in /var/lib/table-companion)")
        return cls._connect(path, "rw", clock, IDLE_CHECKPOINT_S, strict=False)

    @classmethod
    def open_reader(cls, path: Path, clock: Clock = system_clock) -> Journal:
        """Open a journal only to read it beside the referee that writes it (the game-night
        publisher): it never creates, upgrades or writes; JournalError until the referee
        has made the file ready. :meth:`reload` takes in what the referee wrote since."""
        if not path.exists():
            raise JournalError(f"{path}: no journal there yet")
        return cls._connect(path, "ro", clock, IDLE_CHECKPOINT_S)

    @classmethod
    def _connect(cls, path: Path, mode: str, clock: Clock, idle_checkpoint: float,
                 strict: bool = True, look: Callable[[], None] | None = None) -> Journal:
        """Open the file; a damaged one is never written: it raises (``strict``), or is
        opened read-only. SQLite's word on the file comes first from a read-only look
        (:func:`~firmware_host.journal.salvage.first_look`), then, for a file to be written,
        from the connection that will write (it checks more: CHECK constraints) while
        another holds the file (:func:`~firmware_host.journal.salvage.holding`), so that
        closing it over a damaged file folds nothing into it. ``look`` is called once that
        connection finds the file sound, before it writes anything."""
        if mode == "ro":
            return cls._reading(path, "ro", clock, None)
        check = first_look(path)
        if check in (None, "ok"):
            with holding(path):
                journal = cls._opened(path, mode, clock, idle_checkpoint)
                try:
                    with sqlite_errors(path):
                        check = one_line(journal._db.execute("PRAGMA quick_check")
                                         .fetchone()[0])
                        if check == "ok":
                            if look is not None:
                                look()
                            journal._prepare()
                            return journal
                except BaseException:  # a JournalError, or the log's copies not made
                    journal.close()
                    raise
                journal.close()
        if strict:
            raise JournalError(f"{path}: the journal is damaged ({check}); move the file "
                               "aside and the companion starts a new one",
                               Failure.DAMAGED, check)
        shm = path.with_name(path.name + "-shm").exists()  # read as found, as first_look does
        return cls._reading(path, "ro&readonly_shm=1" if shm else "ro", clock, check)

    @classmethod
    def _opened(cls, path: Path, mode: str, clock: Clock, idle_checkpoint: float) -> Journal:
        uri = f"{path.absolute().as_uri()}?mode={mode}"
        with sqlite_errors(path):
            db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5.0,
                                 check_same_thread=False)
        db.text_factory = _decode
        checkpointer = None if mode.startswith("ro") else Checkpointer(uri, idle_checkpoint)
        return cls(db, path, clock, checkpointer)

    @classmethod
    def _reading(cls, path: Path, mode: str, clock: Clock, check: str | None) -> Journal:
        journal = cls._opened(path, mode, clock, IDLE_CHECKPOINT_S)
        try:
            with sqlite_errors(path):
                journal._prepare_to_read(check)
        except JournalError:
            journal.close()
            raise
        return journal

    def _prepare_to_read(self, check: str | None) -> None:
        """Read a file only: the publisher's, or one SQLite finds damaged (``check``)."""
        db = self._db
        damaged = check not in (None, "ok")
        if damaged:
            self._report(Problem(None, f"SQLite finds the file damaged ({check}); what can "
                                       "still be read and checked is used"))
        found = (db.execute("PRAGMA application_id").fetchone()[0],
                 db.execute("PRAGMA user_version").fetchone()[0])
        if found != (APPLICATION_ID, SCHEMA_VERSION) and damaged:
            raise JournalError(f"{self.path}: the journal is damaged ({check}) and from an "
                               "older version; start the companion once: it moves the "
                               "file aside and keeps every game that checks out")
        if found != (APPLICATION_ID, SCHEMA_VERSION):
            raise JournalError(f"{self.path}: not a ready journal of this version (yet)")
        self._current = self._load_current()

    def _prepare(self) -> None:
        """Ready a file that checks out for writing: WAL, the schema brought up to date."""
        db = self._db
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise JournalError(f"{self.path}: SQLite refused write-ahead logging here "
                               f"(journal_mode={mode}); keep the journal on a local disk")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
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
                for step in MIGRATIONS[upgrade]:
                    if isinstance(step, str):
                        tx.execute(step)
                    else:
                        step(tx)
                tx.execute(f"PRAGMA application_id={APPLICATION_ID}")
                tx.execute(f"PRAGMA user_version={upgrade + 1}")
        self._current = self._load_current()

    def _load_current(self) -> _Current | None:
        row = self._db.execute("SELECT id, setup, outcome, hash FROM games "
                               "ORDER BY id DESC LIMIT 1").fetchone()
        if row is None or row[2] == "abandoned":
            return None
        game_id, setup, outcome, seed = row
        last = self._db.execute("SELECT seq, hash FROM actions WHERE game_id = ? "
                                "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        try:
            stored = _bare(json.loads(setup))
        except ValueError:
            stored = {}  # resume finds and names the damage
        count, last_hash = last if last is not None else (0, seed)
        return _Current(game_id, stored, seed, count, last_hash, outcome == "finished")

    def close(self) -> None:
        """Close the file; the last close folds the write-ahead log back into it."""
        if self._checkpointer is not None:
            self._checkpointer.close()
        if self._shown is not None:
            self._shown.close()
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction that takes the write lock at once, so it cannot fail halfway."""
        with self._writing():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def _writing(self) -> AbstractContextManager[None]:
        """Around every write, so the checkpointer knows when one is open."""
        return nullcontext() if self._checkpointer is None else self._checkpointer.writing()

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    def _wrote(self, ended: bool) -> None:
        if self._shown is not None:
            current = self._current
            self._shown.note(*((current.id, current.count) if current else (0, 0)))
        if self._checkpointer is not None:
            self._checkpointer.wrote(ended)
        self._held.clear()  # what waited for a lock is written now, or dropped with its game

    def _report(self, problem: Problem) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    @property
    def game_id(self) -> int | None:
        """The number of the latest game (being played or just finished), None if none."""
        return None if self._current is None else self._current.id

    # -- playing --------------------------------------------------------------------------

    def start(self, state: GameState[Any], ids: Sequence[str] = ()) -> int:
        """Record a new game (with any actions it already holds); returns its number.
        ``ids`` are the players' roster ids seat by seat ('' for none), kept in the setup
        (and so under its hash) when there is one."""
        current = self._current
        if current is not None and not current.finished:
            raise JournalError(f"game #{current.id} is unfinished: abandon it first")
        now = self._now()
        stored = state.setup.to_json()
        if any(ids):
            if len(ids) != len(state.setup.names) or not all(map(_is_id, ids)):
                raise ValueError(f"player ids must be one roster id or '' a seat: {ids!r}")
            stored["ids"] = list(ids)
        setup = json.dumps(stored)
        with sqlite_errors(self.path), self._transaction() as tx:
            game_id = tx.execute("INSERT INTO games (setup, started_at) VALUES (?, ?)",
                                 (setup, now)).lastrowid
            assert game_id is not None
            seed = game_hash(game_id, setup, now)
            tx.execute("UPDATE games SET hash = ? WHERE id = ?", (seed, game_id))
            last = self._insert(tx, game_id, seed, 1, state.history, now)
            self._finish_if_over(tx, game_id, state, now, last)
        self._current = _Current(game_id, state.setup.to_json(), seed, len(state.history),
                                 last, state.is_over, state.setup)
        self._snapshots.clear()
        self._wrote(state.is_over)
        return game_id

    def apply(self, state: GameState[Any], *actions: Any,
              source: str | None = None) -> tuple[Any, ...]:
        """Play ``actions`` on the current game and commit them together; returns them as
        played. A throw among them is noted as coming from ``source`` (one of
        :data:`SOURCES`; None: not known). An illegal one raises the game's IllegalAction
        and a failed write raises JournalError; either way neither the state nor the file
        has changed."""
        if source is not None and source not in SOURCES:
            raise ValueError(f"dice come from one of {', '.join(SOURCES)}, not {source!r}")
        # a finished game passes the check: its own rules refuse more actions
        current = self._check(state, expect=len(state.history), finished_ok=True)
        before = len(state.history)
        played = []
        try:
            for action in actions:
                played.append(state.apply(action))
            now = self._now()
            rows, last = _chained(current.id, current.last, before + 1, played, now, source)
            self._write(rows, state, now, last)
        except BaseException as err:
            self._snapshots.rewind(state, before)
            if isinstance(err, sqlite3.Error):
                raise journal_error(self.path, err) from None
            raise
        current.count = len(state.history)
        current.last = last
        current.finished = state.is_over
        self._snapshots.note(state)
        self._wrote(state.is_over)
        return tuple(played)

    def _write(self, rows: list[ActionRow], state: GameState[Any],
               now: str, last: str) -> None:
        """Write an event's action rows to disk: on disk once it returns. One action that
        does not end the game is a single INSERT, its own transaction (the connection
        commits each statement); several, or a game's last with its result, are one
        transaction."""
        if len(rows) == 1 and not state.is_over:
            with self._writing():
                self._db.execute(INSERT_ACTION, rows[0])
            return
        with self._transaction() as tx:
            tx.executemany(INSERT_ACTION, rows)
            self._finish_if_over(tx, rows[0][0], state, now, last)

    def undo(self, state: GameState[Any]) -> Any:
        """Take back the current game's last action (reopening it if that action ended it)."""
        current = self._check(state, expect=len(state.history), finished_ok=True)
        count = len(state.history)
        if not count:
            raise GameOverError("nothing to undo: no action has been played")
        with sqlite_errors(self.path), self._transaction() as tx:
            row = tx.execute("SELECT hash FROM actions WHERE game_id = ? AND seq = ?",
                             (current.id, count - 1)).fetchone()
            tx.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?",
                       (current.id, count))
            tx.execute("DELETE FROM results WHERE game_id = ?", (current.id,))
            tx.execute("UPDATE games SET ended_at = NULL, outcome = NULL, seal = NULL "
                       "WHERE id = ?", (current.id,))
        undone = state.history[-1]
        self._snapshots.rewind(state, count - 1)
        current.count = count - 1
        current.last = current.seed if row is None else row[0]
        current.finished = False
        self._wrote(False)
        return undone

    def abandon(self) -> None:
        """Close the current game unfinished (it stays in the file, out of the standings)."""
        with sqlite_errors(self.path), self._transaction() as tx:
            tx.execute("UPDATE games SET ended_at = ?, outcome = 'abandoned' "
                       "WHERE ended_at IS NULL", (self._now(),))
        self._current = None
        self._snapshots.clear()
        self._wrote(True)

    def table_settings(self) -> dict[str, object]:
        """The settings kept with the latest game (empty: none kept, or none readable)."""
        current = self._current
        if current is None:
            return {}
        with sqlite_errors(self.path):
            row = self._db.execute("SELECT settings FROM games WHERE id = ?",
                                   (current.id,)).fetchone()
        try:
            kept = json.loads(row[0]) if row is not None and row[0] is not None else {}
        except ValueError:
            return {}
        return kept if isinstance(kept, dict) else {}

    def keep_settings(self, settings: Mapping[str, object]) -> None:
        """Keep the table's ``settings`` with the current game, on disk once it returns."""
        current = self._current
        if current is None:
            return
        with sqlite_errors(self.path), self._writing():
            self._db.execute("UPDATE games SET settings = ? WHERE id = ?",
                             (json.dumps(dict(settings), sort_keys=True), current.id))

    def resume(self) -> GameState[Any] | None:
        """The unfinished game rebuilt exactly from its journaled actions, or None.

        A game whose record is damaged (a bad value, a broken chain, an action the rules
        refuse) is set aside instead: marked abandoned with the reason, reported in
        :attr:`problems`, and None is returned so a new game can start."""
        current = self._current
        if current is None or current.finished:
            self._settle_held(None)
            return None
        try:
            row = self._db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?",
                                   (current.id,)).fetchone()
            actions = self._actions(current.id)
            game = decode_game(row)
            last = check_chain(game, actions)
            state = self._replay(game, [action for _, action, _, _ in actions])
        except (Damaged, sqlite3.DatabaseError) as err:
            self._set_aside(current.id, str(err))
            self._settle_held(None)
            return None
        current.setup, current.matched = _bare(game.setup), state.setup
        current.count, current.last = len(state.history), last or current.seed
        self._settle_held(state)
        return state

    def hold(self, state: GameState[Any], actions: Sequence[Any],
             source: str | None = None) -> LockWatch:
        """Keep ``actions``, refused for another program's lock (JournalError BUSY), on
        disk until they are written (:mod:`~firmware_host.journal.held`): a power cut
        meanwhile loses them no more silently; and watch for the lock to go."""
        current = self._check(state, expect=len(state.history), finished_ok=True)
        with suppress(OSError):  # no room for it: the table still holds them till written
            self._held.write(Held(current.id, current.count, current.last,
                                  tuple(str(action) for action in actions), source))
        return self.watch_lock()

    def _settle_held(self, state: GameState[Any] | None) -> None:
        """Moves a start finds held for a lock before it: played on ``state`` (the game
        resumed) when they follow it exactly, else told lost; in :attr:`notices`. Only
        the table's own journal (opened to salvage) does: a command reading the journal
        beside a table still waiting for the lock must not play its moves."""
        if not (self._held.present and self._the_table):  # none, or not the table's to play
            return
        held, current = self._held.read(), self._current
        if held is None:
            self._held.clear()
            return
        if current is not None and current.id == held.game:
            if state is not None and (current.count, current.last) == (held.after, held.last):
                try:
                    self.apply(state, *held.actions, source=held.source)
                except (GameError, JournalError, ValueError):
                    pass  # refused, or the lock is still held: told lost below
                else:
                    self.notices.append(f"{held.named()} made while the journal was locked "
                                        "is saved now")
                    return
            elif current.count >= held.after + len(held.actions):
                written = [action for _, action, _, _ in self._actions(held.game)]
                if written[held.after:held.after + len(held.actions)] == list(held.actions):
                    self._held.clear()  # written before the power cut; the record was not
                    return
        self.notices.append(f"{held.named()} made while the journal was locked was not "
                            "saved: " + ("throw again" if held.actions[-1].startswith("roll ")
                                         else "play it again"))
        self._held.clear()

    def _replay(self, game: GameRow, actions: Sequence[str]) -> GameState[Any]:
        """The game played again through its rules, noting snapshots near its end."""
        self._snapshots.clear()
        keep_from = len(actions) - SNAPSHOT_EVERY + 1  # one copy, near the end: copies cost
        return replay(game, actions, keep_from, self._snapshots.note)

    def _set_aside(self, game_id: int, reason: str) -> None:
        self._report(Problem(game_id, f"{reason}; the game is set aside"))
        try:
            with self._transaction() as tx:
                tx.execute("UPDATE games SET ended_at = ?, outcome = 'abandoned', damage = ? "
                           "WHERE id = ?", (self._now(), reason, game_id))
        except sqlite3.Error as err:
            self._report(Problem(game_id, f"could not be marked set aside ({err})"))
        self._current = None
        self._snapshots.clear()
        self._wrote(True)

    def _check(self, state: GameState[Any], expect: int, finished_ok: bool = False) -> _Current:
        """The current game, checking that ``state`` is the game the journal holds."""
        current = self._current
        if current is None or (current.finished and not finished_ok):
            raise JournalError("no game is being played: start one first")
        if current.matched is not state.setup:
            if state.setup.to_json() != current.setup:
                expect = -1  # another game altogether
            else:
                current.matched = state.setup
        if current.count != expect:
            raise JournalError(f"game #{current.id} in {self.path} holds {current.count} "
                               f"actions but this game has {len(state.history)}: it was not "
                               "started or resumed here")
        return current

    def _insert(self, tx: sqlite3.Connection, game_id: int, last: str, first: int,
                actions: Sequence[Any], now: str) -> str:
        """Write ``actions`` as numbers ``first``... chained from ``last``; the new last hash."""
        rows, last = _chained(game_id, last, first, actions, now)
        tx.executemany(INSERT_ACTION, rows)
        return last

    def _finish_if_over(self, tx: sqlite3.Connection, game_id: int,
                        state: GameState[Any], now: str, last: str) -> None:
        rows = result_rows(state)
        if rows is None:
            return
        tx.execute("UPDATE games SET ended_at = ?, outcome = 'finished', seal = ? WHERE id = ?",
                   (now, seal_hash(last, now, rows), game_id))
        tx.executemany("INSERT INTO results VALUES (?, ?, ?, ?)",
                       [(game_id, *row) for row in rows])

    def _actions(self, game_id: int) -> list[Any]:
        return self._db.execute("SELECT seq, action, at, hash FROM actions WHERE game_id = ? "
                                "ORDER BY seq", (game_id,)).fetchall()

    # -- the record -----------------------------------------------------------------------

    def finished_games(self, night: date | None = None, after: int = 0) -> list[PlayedGame]:
        """Finished games in the order played, all of them or those of one night, numbered
        above ``after``.

        Each is checked against its hashes first; a damaged one is left out and reported
        in :attr:`problems`."""
        where = "outcome = 'finished' AND id > ?"
        args: list[int | str] = [after]
        if night is not None:  # a night's start is stamped on its date or the next (to 06:00):
            # only those rows are read, so a night's games cost the same after a year of nights
            where += " AND substr(started_at, 1, 10) IN (?, ?)"
            args += [night.isoformat(), (night + timedelta(days=1)).isoformat()]
        with sqlite_errors(self.path):
            rows = self._db.execute(f"SELECT {GAME_COLUMNS}, seal FROM games WHERE {where} "
                                    "ORDER BY id", args).fetchall()
        played = []
        for *columns, seal in rows:
            try:
                game = decode_game(columns)
                if night is not None and night_of(game.started) != night:
                    continue
                last = check_chain(game, self._actions(game.id))
                results = self._db.execute("SELECT seat, score, place FROM results WHERE "
                                           "game_id = ? ORDER BY seat", (game.id,)).fetchall()
                checked = check_results(game, last, results, seal)
            except (Damaged, sqlite3.DatabaseError) as err:
                self._report(Problem(columns[0], f"{err}; left out of the results"))
                continue
            assert game.ended is not None
            ids = player_ids(game.setup)
            players = tuple(PlayerResult(seat, game.names[seat], score, place, ids[seat])
                            for seat, score, place in checked)
            played.append(PlayedGame(game.id, game.setup["game"], game.setup["options"],
                                     game.started, game.ended, players))
        return played

    def seals(self, after: int = 0) -> list[tuple[int, str | None]]:
        """The finished games numbered above ``after``, each with its seal (the hash over its
        last action and results), in order, unchecked: a reader that kept what it read of
        them learns from these alone which games are new or changed since."""
        with sqlite_errors(self.path):
            return self._db.execute("SELECT id, seal FROM games WHERE outcome = 'finished' "
                                    "AND id > ? ORDER BY id", (after,)).fetchall()

    def recent_players(self, games: int = RECENT_GAMES) -> list[tuple[Player, ...]]:
        """The players of the latest ``games`` games (finished, abandoned or being played),
        the latest first, each name checked as untrusted text (a game with a name that is
        not one is left out)."""
        with sqlite_errors(self.path):
            rows = self._db.execute("SELECT setup FROM games ORDER BY id DESC LIMIT ?",
                                    (games,)).fetchall()
        found = []
        for (text,) in rows:
            try:
                setup = json.loads(text)
            except (ValueError, RecursionError):
                continue
            names = setup.get("names") if isinstance(setup, dict) else None
            if not isinstance(names, list) or not names:
                continue
            cleaned = [clean(name) for name in names]
            ids = player_ids(setup)
            if all(cleaned):
                found.append(tuple(Player(str(name), player_id)
                                   for name, player_id in zip(cleaned, ids, strict=False)))
        return found

    def actions(self, game: PlayedGame) -> list[str]:
        """A finished game's actions in order, as text: what a report replays through the
        rules (:meth:`finished_games` has checked them against their hashes)."""
        with sqlite_errors(self.path):
            return [str(action) for _, action, _, _ in self._actions(game.id)]

    def throws(self, game: PlayedGame) -> list[Throw]:
        """A finished game's throws in order, each with where its dice came from
        (:data:`UNKNOWN_SOURCE` for a throw journaled before sources were noted)."""
        with sqlite_errors(self.path):
            rows = self._db.execute("SELECT action, source FROM actions WHERE game_id = ? "
                                    "AND action LIKE 'roll%' ORDER BY seq",
                                    (game.id,)).fetchall()
        found = []
        for text, source in rows:
            roll = Roll.parse(text)
            if roll is not None:
                found.append(Throw(roll.dice, source if source in SOURCES else UNKNOWN_SOURCE))
        return found

    def data_version(self) -> int:
        """A number that changes whenever another connection commits to the file: a reader
        polls it to learn cheaply that something happened, then calls :meth:`reload`."""
        with sqlite_errors(self.path):
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def reload(self) -> None:
        """Read the current game's place in the file again: a reader's copy in memory is
        the one it opened with, and the referee has played on since."""
        with sqlite_errors(self.path):
            self._current = self._load_current()

    def nights(self) -> list[date]:
        """The nights with at least one finished game, earliest first."""
        with sqlite_errors(self.path):
            rows = self._db.execute("SELECT started_at FROM games "
                                    "WHERE outcome = 'finished'").fetchall()
        found = set()
        for (started,) in rows:
            try:
                found.add(night_of(datetime.fromisoformat(started)))
            except (TypeError, ValueError):
                continue  # finished_games names it
        return sorted(found)

    def set_aside(self) -> list[tuple[int, str]]:
        """Games set aside as damaged: (number, reason)."""
        with sqlite_errors(self.path):
            return self._db.execute("SELECT id, damage FROM games WHERE damage IS NOT NULL "
                                    "ORDER BY id").fetchall()

    def backup(self, target: Path) -> None:
        """Write a consistent copy of the journal to ``target`` with SQLite's backup API
        (what the write-ahead log holds included, a page never half-written), checked, then
        moved into place: ``target`` is never a partial copy."""
        partial = target.with_name(f".{target.name}.partial")
        try:
            partial.touch()
        except OSError as err:  # the place of the copy is the trouble, not the journal
            raise JournalError(f"{target}: cannot write the copy there "
                               f"({err.strerror or err}); name a file in a folder you may "
                               "write in") from None
        try:
            with closing(sqlite3.connect(partial)) as copy:
                self._db.backup(copy, pages=256)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
                check = copy.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise JournalError(f"{target}: the copy does not check out ({check}); "
                                   "try again")
            with open(partial, "rb") as written:
                os.fsync(written.fileno())
            os.replace(partial, target)
        except (sqlite3.Error, OSError) as err:
            raise JournalError(f"copying {self.path} to {target} failed ({err}); check the "
                               f"room left in {target.parent}, then try again") from None
        finally:
            partial.unlink(missing_ok=True)

    def locked(self) -> bool:
        """Whether another program holds the journal's write lock now (a sqlite3 shell left
        in a transaction): an action would be refused. Waits at most as long as a write."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            refused = journal_error(self.path, err)
            if refused.failure is Failure.BUSY:
                return True
            raise refused from None
        self._db.execute("ROLLBACK")
        return False

    def watch_lock(self) -> LockWatch:
        """A thread that tells when another program's lock on the journal has gone."""
        return LockWatch(f"{self.path.absolute().as_uri()}?mode=rw")

    def wait_quiet(self, timeout: float = 30.0) -> bool:
        """Wait until no checkpoint is due or running: the pause a table gives the journal's
        helper between two gestures (for tests and the bench, which play without pauses)."""
        return self._checkpointer is None or self._checkpointer.wait_quiet(timeout)

    def wait_checkpointed(self, timeout: float = 30.0) -> bool:
        """Wait until all written so far is checkpointed into the main file (for tests)."""
        return self._checkpointer is not None and self._checkpointer.wait_caught_up(timeout)



def _is_id(text: str) -> bool:
    return text == "" or clean_id(text) == text


def _bare(setup: Any) -> Any:
    """A stored setup as its game's :meth:`~games.core.Setup.to_json` gives it: the ids
    set apart."""
    if isinstance(setup, dict) and "ids" in setup:
        return {key: value for key, value in setup.items() if key != "ids"}
    return setup


def _decode(raw: bytes) -> str:
    """Text as stored; a damaged byte becomes U+FFFD, so its row fails its hash check
    instead of failing the whole query."""
    return raw.decode("utf-8", "replace")
