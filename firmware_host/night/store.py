"""The hub's copy of the night: every table's status, live game and finished games.

Kept in SQLite so a restarted hub shows the night at once, and in memory for the page.
Everything is keyed by table id and game id, so a message received twice (a publisher that
reconnected, the broker's retained copies after the hub restarts) changes nothing.

A table's live state names the games it has finished, and only those are shown: a game
arrives just before the live state that lists it, and a retained game the table has since
taken back (an undone last move) is never listed again, so it is dropped with the next live
state. No clock is compared across processes for that; a live state older than the one
held (by its publisher's clock) is ignored.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from firmware_host.journal import PlayedGame, PlayerResult, Standing, standings
from firmware_host.night import topics
from firmware_host.night.topics import (
    NO_SEATING,
    BadMessage,
    Cleared,
    Game,
    Live,
    Message,
    Seating,
    Status,
    moment,
)

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, online INTEGER NOT NULL, "
    "live BLOB)",
    "CREATE TABLE IF NOT EXISTS games (table_id TEXT NOT NULL, game_id INTEGER NOT NULL, "
    "payload BLOB NOT NULL, PRIMARY KEY (table_id, game_id)) WITHOUT ROWID",
)


@dataclass
class Table:
    id: str
    online: bool = False
    live: Live | None = None
    # in a copy: seconds since the hub last heard from the table, once past the store's
    # quiet_after (tables send their status every half keep-alive)
    quiet_s: int | None = None


@dataclass(frozen=True)
class Change:
    """What a message changed: a table's card (its id, '' for none), the results, the next
    round's seating."""

    card: str = ""
    results: bool = False
    seating: bool = False


@dataclass(frozen=True)
class Night:
    """What the page shows: one night's games (the host's choice, or the latest), and what
    is wrong with the hub's link to the broker ('' when nothing is)."""

    night: str
    tables: tuple[Table, ...]
    games: tuple[Game, ...]
    standings: tuple[Standing, ...]
    trouble: str = ""
    seating: Seating = NO_SEATING  # the next round, as the host last published it


@dataclass
class Store:
    """The night in ``db``; :meth:`apply` says whether a message changed anything."""

    db: sqlite3.Connection
    tables: dict[str, Table] = field(default_factory=dict)
    games: dict[tuple[str, int], Game] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    tonight: str = ""  # the night the host chose to show, '' for the latest
    heard: dict[str, float] = field(default_factory=dict)  # table id: clock() when last heard
    clock: Callable[[], float] = time.monotonic
    quiet_after: float = 10.0
    # the next round: not kept in the file, the broker's retained copy comes on every connect
    seating: Seating = NO_SEATING

    @classmethod
    def open(cls, path: Path) -> Store:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        # a cache of the night, not its record (the tables' journals are, and the publishers
        # send everything again): no fsync per live update on the hub's SD card
        db.execute("PRAGMA synchronous=NORMAL")
        for statement in SCHEMA:
            db.execute(statement)
        store = cls(db)
        for table_id, online, live in db.execute("SELECT id, online, live FROM tables"):
            parsed = _kept(topics.live_topic(table_id), live) if live else None
            store.tables[table_id] = Table(table_id, bool(online),
                                           parsed if isinstance(parsed, Live) else None)
        for table_id, game_id, payload in db.execute("SELECT * FROM games"):
            game = _kept(topics.game_topic(table_id, game_id), payload)
            if isinstance(game, Game):
                store.games[(table_id, game_id)] = game
        return store

    def close(self) -> None:
        self.db.close()

    def apply(self, message: Message) -> Change:
        """Take ``message`` in; what it changed on the page (nothing for a repeat)."""
        with self.lock:
            if isinstance(message, Seating):  # the host's, not a table's
                changed, self.seating = message != self.seating, message
                return Change(seating=changed)
            self.heard[message.table] = self.clock()
            table = self.tables.get(message.table) or Table(message.table)
            card = results = False
            match message:
                case Status(online=online):
                    card = table.online != online or message.table not in self.tables
                    table.online = online
                case Live():
                    card, results = self._live(table, message)
                case Game():
                    results = self._game(table, message)
                case Cleared(id=game_id):
                    results = self._drop(message.table, game_id)
            if card:
                self.tables[table.id] = table
                live = None if table.live is None else topics.live_payload(table.live)
                self.db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?)",
                                (table.id, table.online, live))
            return Change(table.id if card else "", results)

    def all_offline(self) -> list[str]:
        """Forget who is online (a new session with the broker tells it afresh); the ids of
        the tables that were."""
        with self.lock:
            were = [table.id for table in self.tables.values() if table.online]
            for table_id in were:
                self.tables[table_id].online = False
            self.db.execute("UPDATE tables SET online = 0")
            return were

    def _live(self, table: Table, live: Live) -> tuple[bool, bool]:
        """The live state taken in (unless older than the one held); the games it does not
        list are dropped. Whether the card and the results changed."""
        if table.live is not None and moment(live.at) < moment(table.live.at):
            return False, False
        card = table.live is None or _without_time(table.live) != _without_time(live)
        shown = self._shown(table)
        table.live = live
        for key in [key for key in self.games if key[0] == table.id]:
            if key[1] not in live.finished:
                self._drop(*key)
        return card, self._shown(table) != shown

    def _shown(self, table: Table) -> dict[int, Game]:
        listed = () if table.live is None else table.live.finished
        return {game_id: game for (table_id, game_id), game in self.games.items()
                if table_id == table.id and game_id in listed}

    def _game(self, table: Table, game: Game) -> bool:
        """Kept; a change of the results once the table's live state lists it."""
        if self.games.get((game.table, game.id)) == game:
            return False
        self.games[(game.table, game.id)] = game
        self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?)",
                        (game.table, game.id, topics.game_payload(game)))
        return table.live is not None and game.id in table.live.finished

    def _drop(self, table_id: str, game_id: int) -> bool:
        if self.games.pop((table_id, game_id), None) is None:
            return False
        self.db.execute("DELETE FROM games WHERE table_id = ? AND game_id = ?",
                        (table_id, game_id))
        return True

    def table(self, table_id: str) -> Table | None:
        """A copy of one table as it is now."""
        with self.lock:
            table = self.tables.get(table_id)
            return None if table is None else self._copy(table)

    def _copy(self, table: Table) -> Table:
        quiet = self.clock() - self.heard.get(table.id, self.clock())
        return Table(table.id, table.online, table.live,
                     int(quiet) if quiet >= self.quiet_after else None)

    def quiet(self) -> set[str]:
        """The tables not heard from for longer than :attr:`quiet_after`."""
        with self.lock:
            since = self.clock() - self.quiet_after
            return {table_id for table_id, heard in self.heard.items()
                    if heard <= since and table_id in self.tables}

    def online(self) -> bool:
        """Whether any table is online, as far as the hub knows."""
        with self.lock:
            return any(table.online for table in self.tables.values())

    def night(self) -> Night:
        """Tonight's games (the host's choice, or the latest night the hub has dated a game
        in), its standings and every table, by name."""
        with self.lock:
            tables = sorted(self.tables.values(), key=lambda t: _name(t).lower())
            games = [game for table in tables for game in self._shown(table).values()]
            latest = self.tonight or max((game.night for game in games), default="")
            tonight = sorted((g for g in games if g.night == latest),
                             key=lambda g: moment(g.ended))
            return Night(latest, tuple(self._copy(t) for t in tables),
                         tuple(tonight), tuple(standings([played(g) for g in tonight])),
                         seating=self.seating)


def played(game: Game) -> PlayedGame:
    """A finished game as the journal's standings take it."""
    return PlayedGame(game.id, game.game, {}, datetime.fromisoformat(game.started),
                      datetime.fromisoformat(game.ended),
                      tuple(PlayerResult(p.seat, p.name, p.score, p.place) for p in game.players))


def _kept(topic: str, payload: bytes) -> Message | None:
    """A message kept by an earlier hub, checked again: one a stricter hub refuses is
    forgotten (its table sends it again) rather than stopping the hub from starting."""
    try:
        return topics.parse(topic, payload)
    except BadMessage:
        return None


def _name(table: Table) -> str:
    return table.live.name if table.live is not None else table.id


def _without_time(live: Live) -> Live:
    return replace(live, at="")
