"""The hub's copy of every night: each table's status and live game, and every finished game.

Kept in SQLite so a restarted hub shows the night at once. The latest night's games are
also in memory for the live page; older nights are read from the file when asked for.
Games are keyed by night, table id and game id, so a message received twice (a publisher
that reconnected, the broker's retained copies after the hub restarts) changes nothing.
The host's seating of the next round is kept too: a restarted hub whose broker lost its
retained copy still shows it.

Only the latest night the hub holds a game in is open. There, a table's live state names
the games it has finished, and only those are shown: a game arrives just before the live
state that lists it, and a retained game the table has since taken back (an undone last
move) is never listed again, so it is dropped with the next live state. No clock is
compared across processes for that; a live state older than the one held (by its
publisher's clock) is ignored. An older night is read-only: what it holds is never changed
or dropped (a table lists only its own latest night's games, so not being listed there
means nothing), and it only takes a game it does not hold yet, one that ended after a
later night had begun (a game started at 05:50 that ended at 06:10), and only while the
night is open (:attr:`Store.first_open`: until noon the day after, by the hub's clock);
a closed night takes nothing, even as the latest. Each table's games, player names and
changes to finished games of a night are bounded (:class:`~firmware_host.hub.league.shares.Bounds`):
past them a message is refused with :class:`~firmware_host.hub.league.shares.OverBound`.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from firmware_host.hub.league.finished import FinishedGame, Luck, Seat, Throw
from firmware_host.hub.league.roster import Roster
from firmware_host.hub.league.shares import Bounds, OverBound, closed_words
from firmware_host.journal import PlayedGame, PlayerResult, Standing, standings
from firmware_host.night import topics
from firmware_host.night.topics import (
    NO_SEATING,
    BadMessage,
    Cleared,
    Game,
    Live,
    Message,
    NightRoster,
    Seating,
    Status,
    moment,
)

Each = Callable[[FinishedGame], FinishedGame]  # what a reader does to each game it reads
# a reader given each game without its throws, and their texts (``0:button:1-2-3``)
Count = Callable[[FinishedGame, list[str]], None]
# the games the host removed (`table-companion league remove`), for the running hub to see
REMOVED = ("CREATE TABLE IF NOT EXISTS removed (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, "
           "night TEXT NOT NULL, table_id TEXT NOT NULL, game_id INTEGER NOT NULL)")
# a closed night's games as the league reads them (without their throws, JSON payloads) and
# their dice counted: what the league needs of a night that no longer changes, read fast
CLOSED = ("CREATE TABLE IF NOT EXISTS closed (night TEXT PRIMARY KEY, games BLOB NOT NULL, "
          "dice BLOB NOT NULL) WITHOUT ROWID")
# each closed night's game's ratings after it (league.rated_json), its place in the order of
# the games and the roster it was rated with: a restarted hub rates none of them again
RATINGS = ("CREATE TABLE IF NOT EXISTS ratings (night TEXT NOT NULL, table_id TEXT NOT NULL, "
           "game_id INTEGER NOT NULL, place INTEGER NOT NULL, roster TEXT NOT NULL, "
           "rated TEXT NOT NULL, PRIMARY KEY (night, table_id, game_id)) WITHOUT ROWID")
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, online INTEGER NOT NULL, "
    "live BLOB)",
    "CREATE TABLE IF NOT EXISTS played (night TEXT NOT NULL, table_id TEXT NOT NULL, "
    "game_id INTEGER NOT NULL, payload BLOB NOT NULL, "
    "PRIMARY KEY (night, table_id, game_id)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS seating (one INTEGER PRIMARY KEY CHECK (one = 1), "
    "payload BLOB NOT NULL)",
    REMOVED,
    CLOSED,
    RATINGS,
)
PLAYING = ("roll", "move")  # a live state's phases while a game is on
# a hub before every night was kept had one night's games by table and game id
OLD_GAMES = ("INSERT OR IGNORE INTO played SELECT json_extract(payload, '$.night'), table_id, "
             "game_id, payload FROM games", "DROP TABLE games")


@dataclass
class HeardTable:
    """A table as the hub last heard it (online or not, its live game, how long it has been
    quiet): what its card on the page shows."""

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
    """What a night's page shows: its games, its standings, the tables (only on today's
    page: the latest night, or the host's choice), and what is wrong with the hub's link
    to the broker ('' when nothing is)."""

    night: str
    tables: tuple[HeardTable, ...]
    games: tuple[FinishedGame, ...]
    standings: tuple[Standing, ...]
    trouble: str = ""
    seating: Seating = NO_SEATING  # the next round, as the host last published it
    over: bool = False  # tonight has ended, as far as the hub can tell (:meth:`Store.over`)


@dataclass(frozen=True)
class NightSummary:
    """A line of the night list."""

    night: str
    games: int
    tables: int


@dataclass
class Store:
    """Every night in ``db``; :meth:`apply` says whether a message changed anything."""

    db: sqlite3.Connection
    tables: dict[str, HeardTable] = field(default_factory=dict)
    latest: str = ""  # the latest night the hub holds a game in: the open one
    # the latest night's games, by table id and game id (a table's live state touches its own)
    games: dict[str, dict[int, FinishedGame]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    tonight: str = ""  # the night the host chose to show, '' for the latest
    heard: dict[str, float] = field(default_factory=dict)  # table id: clock() when last heard
    clock: Callable[[], float] = time.monotonic
    quiet_after: float = 10.0
    version: int = 0  # counts the changes of any night's games, and of the roster
    roster: Roster = field(default_factory=Roster)
    seating: Seating = NO_SEATING  # the next round, as the host last published it
    changes: Counter[str] = field(default_factory=Counter)  # a night's, since the hub started
    ended_after: float = 900.0  # seconds without a game in play before the night is over
    played_at: float | None = None  # clock() when a table was last seen in a game
    bounds: Bounds = field(default_factory=Bounds)
    # the first night (ISO date) that takes games; older ones are closed ('': none is)
    first_open: Callable[[], str] = str
    changed: Counter[tuple[str, str]] = field(default_factory=Counter)  # night, table
    removed_seq: int = 0  # the last of the host's removals the store has taken in

    def __post_init__(self) -> None:
        if self.played_at is None:  # a hub that starts cannot tell how long play has stopped
            self.played_at = self.clock()

    @classmethod
    def open(cls, path: Path) -> Store:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        # a cache of the nights, not their record (the tables' journals are, and the
        # publishers send everything again): no fsync per live update on the hub's SD card
        db.execute("PRAGMA synchronous=NORMAL")
        for statement in SCHEMA:
            db.execute(statement)
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
            with db:
                db.execute("BEGIN")
                for statement in OLD_GAMES:
                    db.execute(statement)
        store = cls(db)
        for table_id, online, live in db.execute("SELECT id, online, live FROM tables"):
            parsed = _kept(topics.live_topic(table_id), live) if live else None
            store.tables[table_id] = HeardTable(table_id, bool(online),
                                           parsed if isinstance(parsed, Live) else None)
        store._load_latest()
        (store.removed_seq,) = db.execute("SELECT coalesce(max(seq), 0) FROM removed"
                                          ).fetchone()
        for (payload,) in db.execute("SELECT payload FROM seating"):
            kept = _kept(topics.SEATING, payload)
            store.seating = kept if isinstance(kept, Seating) else NO_SEATING
        return store

    def close(self) -> None:
        """Close the file once no one is reading it (a page may still be built in another
        thread: it then finds the file closed, an error, rather than crashing the hub)."""
        with self.lock:
            self.db.close()

    def apply(self, message: Message) -> Change:
        """Take ``message`` in; what it changed on the page (nothing for a repeat)."""
        if isinstance(message, NightRoster):  # the hub's own, for the tables
            return Change()
        with self.lock:
            if isinstance(message, Seating):  # the host's, not a table's
                if message == self.seating:
                    return Change()
                self.seating = message
                if message.tables:
                    self.db.execute("INSERT OR REPLACE INTO seating VALUES (1, ?)",
                                    (topics.seating_payload(message),))
                else:  # taken down
                    self.db.execute("DELETE FROM seating")
                return Change(seating=True)
            self.heard[message.table] = self.clock()
            table = self.tables.get(message.table) or HeardTable(message.table)
            card = results = False
            match message:
                case Status(online=online):
                    card = table.online != online or message.table not in self.tables
                    if card and _playing(table):  # gone, or back, in the middle of a game
                        self.played_at = self.clock()
                    table.online = online
                case Live():
                    card, results = self._live(table, message)
                case Game():
                    results = self._game(table, finished(message))
                case Cleared(id=game_id):
                    results = self._drop(message.table, game_id)
            if card:
                self.tables[table.id] = table
                live = None if table.live is None else topics.live_payload(table.live)
                self.db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?)",
                                (table.id, table.online, live))
            if results:
                self.version += 1
            return Change(table.id if card else "", results)

    def removed(self) -> list[tuple[str, str, int]]:
        """The games the host removed from the file since last asked (night, table id, game
        id), now gone from the store too: their nights count as changed, so the league
        reads them again and rates anew."""
        with self.lock:
            rows = self.db.execute("SELECT seq, night, table_id, game_id FROM removed "
                                   "WHERE seq > ? ORDER BY seq", (self.removed_seq,)).fetchall()
            if not rows:
                return []
            self.removed_seq = rows[-1][0]
            for night in {row[1] for row in rows}:
                self.changes[night] += 1
            self._load_latest()
            self.version += 1
            return [(night, table_id, game_id) for _, night, table_id, game_id in rows]

    def use(self, roster: Roster) -> None:
        """Name players by ``roster`` from now on (the host changed its file)."""
        with self.lock:
            self.roster = roster
            self.version += 1

    def all_offline(self) -> list[str]:
        """Forget who is online (a new session with the broker tells it afresh); the ids of
        the tables that were."""
        with self.lock:
            were = [table.id for table in self.tables.values() if table.online]
            for table_id in were:
                self.tables[table_id].online = False
            self.db.execute("UPDATE tables SET online = 0")
            return were

    def _live(self, table: HeardTable, live: Live) -> tuple[bool, bool]:
        """The live state taken in (unless older than the one held); the latest night's
        games it does not list are dropped. Whether the card and the results changed."""
        if table.live is not None and moment(live.at) < moment(table.live.at):
            return False, False
        card = table.live is None or _without_time(table.live) != _without_time(live)
        if live.phase in PLAYING or _playing(table):  # in play, or it just stopped
            self.played_at = self.clock()
        shown = self._shown(table)
        table.live = live
        dropped = False
        for game_id in [i for i in self.games.get(table.id, {}) if i not in live.finished]:
            dropped |= self._drop(table.id, game_id)
        return card, dropped or self._shown(table) != shown

    def _shown(self, table: HeardTable) -> dict[int, FinishedGame]:
        """The latest night's games of ``table`` that its live state lists (every one it
        holds, once the night is closed)."""
        held = self.games.get(table.id, {})
        if not self._open():
            return dict(held)
        listed = () if table.live is None else table.live.finished
        return {game_id: game for game_id, game in held.items() if game_id in listed}

    def _game(self, table: HeardTable, game: FinishedGame) -> bool:
        """Kept; a change of the results once the table's live state lists it (or at once
        in an older night, which takes only games it does not hold). OverBound for a game
        of a closed night the store does not hold as it is, or past a bound of its table's."""
        self._check(game)
        if game.night < self.latest:
            added = self.db.execute("INSERT OR IGNORE INTO played VALUES (?, ?, ?, ?)",
                                    (game.night, game.table, game.id,
                                     payload(game))).rowcount
            self.db.execute("DELETE FROM closed WHERE night = ?", (game.night,))
            self.changes[game.night] += added
            return added > 0
        if game.night > self.latest:
            self.latest, self.games = game.night, {}
        held = self.games.setdefault(game.table, {})
        if held.get(game.id) == game:
            return False
        held[game.id] = game
        self.changes[game.night] += 1
        self.db.execute("INSERT OR REPLACE INTO played VALUES (?, ?, ?, ?)",
                        (game.night, game.table, game.id, payload(game)))
        return table.live is not None and game.id in table.live.finished

    def _check(self, game: FinishedGame) -> None:
        """OverBound if ``game`` would open a closed night, or take its table past a bound
        of the night (a game held as it is takes nothing: a retained copy sent again)."""
        first_open = self.first_open()
        held = self._table_games(game.night, game.table)
        if held.get(game.id) == game:
            return
        bounds = self.bounds
        if game.night < first_open:
            raise OverBound(game.table, "closed", closed_words(game.night, first_open))
        if game.id in held:
            if game.night < self.latest:
                return  # an older night changes nothing it holds: ignored, not counted
            if self.changed[(game.night, game.table)] >= bounds.changes:
                raise OverBound(game.table, "changes", f"{bounds.changes} changes to its "
                                f"finished games of {game.night} already")
            self.changed[(game.night, game.table)] += 1
            return
        if len(held) >= bounds.games:
            raise OverBound(game.table, "games", f"{bounds.games} games of {game.night} "
                            "already")
        names = {p.name for g in held.values() for p in g.players}
        if len(names | {p.name for p in game.players}) > bounds.names:
            raise OverBound(game.table, "names", f"{bounds.names} player names in its games "
                            f"of {game.night} already")

    def _table_games(self, night: str, table_id: str) -> dict[int, FinishedGame]:
        """The games ``table_id`` has in ``night`` (shown or not)."""
        if night == self.latest:
            return self.games.get(table_id, {})
        if night > self.latest:
            return {}
        return {g.id: g for g in self._read("night = ? AND table_id = ?", night, table_id)}

    def _open(self) -> bool:
        """Whether the latest night still takes games (a closed one is read-only)."""
        return self.latest >= self.first_open()

    def _drop(self, table_id: str, game_id: int) -> bool:
        """A game of the latest night taken back; if it was the night's last, the night
        before is the latest again."""
        held = self.games.get(table_id, {})
        if game_id not in held or not self._open():
            return False
        del held[game_id]
        if not held:
            del self.games[table_id]
        self.changes[self.latest] += 1
        self.db.execute("DELETE FROM played WHERE night = ? AND table_id = ? AND game_id = ?",
                        (self.latest, table_id, game_id))
        if not self.games:
            self._load_latest()
        return True

    def _load_latest(self) -> None:
        (self.latest,) = self.db.execute("SELECT coalesce(max(night), '') FROM played").fetchone()
        self.games = {}
        for game in self._read("night = ?", self.latest):
            self.games.setdefault(game.table, {})[game.id] = game

    def _read(self, where: str, *values: str | int,
              each: Each | None = None) -> list[FinishedGame]:
        """The games of the file ``where`` says (through ``each``), as they ended."""
        return _parsed(self._rows(where, *values), each)

    def _rows(self, where: str, *values: str | int) -> list[tuple[str, int, bytes]]:
        return self.db.execute(
            f"SELECT table_id, game_id, payload FROM played WHERE {where}", values).fetchall()

    def table(self, table_id: str) -> HeardTable | None:
        """A copy of one table as it is now."""
        with self.lock:
            table = self.tables.get(table_id)
            return None if table is None else self._copy(table)

    def _copy(self, table: HeardTable) -> HeardTable:
        quiet = self.clock() - self.heard.get(table.id, self.clock())
        return HeardTable(table.id, table.online, table.live,
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

    def night(self, night: str = "") -> Night:
        """A night's games (by default tonight's: the host's choice, or the latest night),
        its standings and, for tonight, every table by name."""
        with self.lock:
            tonight = self.tonight or self.latest
            shown = night or tonight
            games = self._games_of(shown)
            tables = sorted(self.tables.values(), key=_shown_order) if (
                shown == tonight) else []
            names = self.roster.shown_as(p.name for g in games for p in g.players)
            return Night(shown, tuple(self._copy(t) for t in tables), tuple(games),
                         tuple(standings([played(g, names, self.roster) for g in games])),
                         seating=self.seating if shown == tonight else NO_SEATING,
                         over=shown == tonight and self._over(bool(games)))

    def over(self) -> bool:
        """Whether tonight has ended, as far as the hub can tell: a game has finished, no
        table that is online is in a game, no next round is published, and none has been for
        :attr:`ended_after` seconds (counted by the hub's own clock from the last it saw of a
        game in play, or of a table leaving one; so a pause between rounds is no end). A new
        game, or a seating, opens it again."""
        with self.lock:
            return self._over(bool(self._games_of(self.tonight or self.latest)))

    def _over(self, any_game: bool) -> bool:
        playing = any(t.online and _playing(t) for t in self.tables.values())
        assert self.played_at is not None
        return (any_game and not playing and not self.seating.tables
                and self.clock() - self.played_at >= self.ended_after)

    def _games_of(self, night: str, each: Each | None = None) -> list[FinishedGame]:
        if night != self.latest:
            return self._read("night = ?", night, each=each)
        tables = (self.tables.values() if self._open() else
                  [self.tables.get(i) or HeardTable(i) for i in self.games])
        shown = [each(game) if each else game
                 for table in tables for game in self._shown(table).values()]
        return sorted(shown, key=lambda g: moment(g.ended))

    def games_of(self, night: str, each: Each | None = None) -> list[FinishedGame]:
        """One night's games as the pages show them, in the order they ended; each through
        ``each`` as it is read, if given. An older night's are checked and passed through
        ``each`` after the lock is let go: the broker's thread and the page wait only for
        the file to be read."""
        with self.lock:
            if night == self.latest:
                return self._games_of(night, each)
            rows = self._rows("night = ?", night)
        return _parsed(rows, each)

    def counted_games_of(self, night: str, count: Count) -> list[FinishedGame]:
        """One night's games as :meth:`games_of` reads them but without their throws, which
        each game gives ``count`` as their texts: an older night's are checked as a whole
        list each (:func:`~firmware_host.night.topics.parse_counted`), not read into a
        record apiece, for the league only counts them."""
        def each(game: FinishedGame) -> FinishedGame:
            without = replace(game, throws=())
            count(without, [str(throw) for throw in game.throws])
            return without

        with self.lock:
            if night == self.latest:
                return self._games_of(night, each)
            rows = self._rows("night = ?", night)
        games = []
        for table_id, game_id, kept in rows:
            try:
                message, throws = topics.parse_counted(topics.game_topic(table_id, game_id),
                                                       kept)
            except BadMessage:
                continue  # as _kept: a game a stricter hub refuses is forgotten
            if isinstance(message, Game):
                game = finished(message)
                count(game, throws)
                games.append(game)
        return sorted(games, key=lambda g: moment(g.ended))

    def closed_night(self, night: str) -> tuple[list[FinishedGame], bytes] | None:
        """A closed night's games (lean) and its dice counts (JSON) as :meth:`keep_closed`
        kept them; None if the night is open or was not kept (or was changed since)."""
        with self.lock:
            if night >= self.first_open():
                return None
            row = self.db.execute("SELECT games, dice FROM closed WHERE night = ?",
                                  (night,)).fetchone()
        if row is None:
            return None
        try:
            kept = json.loads(row[0])
            games = [topics.parse(topics.game_topic(table, game_id), payload.encode())
                     for table, game_id, payload in kept]
        except (ValueError, TypeError, BadMessage):
            return None  # an earlier hub's, or a stricter hub's: read the night again
        return [finished(g) for g in games if isinstance(g, Game)], row[1]

    def keep_closed(self, night: str, games: list[FinishedGame], dice: bytes) -> None:
        """Keep a closed night's lean games and dice counts (not an open one's: it may
        still change). They are written out before the lock is taken: the page waits on
        it."""
        kept = json.dumps([[g.table, g.id, payload(g).decode()] for g in games])
        with self.lock:
            if night >= self.first_open():
                return
            self.db.execute("INSERT OR REPLACE INTO closed VALUES (?, ?, ?)",
                            (night, kept, dice))

    def kept_ratings(self, roster: str) -> dict[tuple[str, str, int], tuple[int, str]]:
        """The closed nights' games' ratings kept with ``roster`` (its fingerprint): by a
        game's night, table id and game id, its place in the order and its ratings (JSON)."""
        with self.lock:
            rows = self.db.execute("SELECT night, table_id, game_id, place, rated FROM ratings "
                                   "WHERE roster = ?", (roster,)).fetchall()
        return {(night, table, game_id): (place, rated)
                for night, table, game_id, place, rated in rows}

    def keep_ratings(self, roster: str,
                     rows: list[tuple[tuple[str, str, int], int, str]]) -> None:
        """Keep closed nights' games' ratings: (night, table id, game id), place, JSON."""
        with self.lock:
            first_open = self.first_open()
            with self.db:
                self.db.execute("BEGIN")
                self.db.executemany("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?)",
                                    [(*k, place, roster, rated) for k, place, rated in rows
                                     if k[0] < first_open])

    def older_nights(self) -> tuple[str, dict[str, int]]:
        """The latest night, and each older one with the count of changes to its games
        since the hub started (:attr:`changes`): a reader that keeps an older night's games
        reads them again only when that count has changed."""
        with self.lock:
            rows = self.db.execute("SELECT DISTINCT night FROM played WHERE night < ?",
                                   (self.latest,))
            return self.latest, {night: self.changes[night] for (night,) in rows}

    def nights(self) -> list[NightSummary]:
        """Every night with a game, the latest first."""
        with self.lock:
            rows = self.db.execute(
                "SELECT night, count(*), count(DISTINCT table_id) FROM played "
                "GROUP BY night ORDER BY night DESC").fetchall()
            summaries = [NightSummary(*row) for row in rows]
            if summaries and summaries[0].night == self.latest:  # shown ones only
                games = self._games_of(self.latest)
                summaries[0] = NightSummary(self.latest, len(games),
                                            len({g.table for g in games}))
            return [s for s in summaries if s.games]

    def game(self, night: str, table_id: str, game_id: int) -> FinishedGame | None:
        """One finished game as the pages show it, or None."""
        with self.lock:
            if night == self.latest:
                table = self.tables.get(table_id) or HeardTable(table_id)
                return self._shown(table).get(game_id)
            return next(iter(self._read("night = ? AND table_id = ? AND game_id = ?",
                                        night, table_id, game_id)), None)

    def every_game(self, each: Each | None = None) -> list[FinishedGame]:
        """Every game of every night as the pages show them, in the order they ended; each
        through ``each`` as it is read, if given (so a caller may keep less of it than a
        whole night's file holds)."""
        with self.lock:
            older = self._read("night < ?", self.latest, each=each)
            latest = [each(g) if each else g for g in self._games_of(self.latest)]
            return sorted(older + latest, key=lambda g: moment(g.ended))


def played(game: FinishedGame, names: Mapping[str, str], roster: Roster) -> PlayedGame:
    """A finished game as the journal's standings take it, its players by ``names`` (a
    table's name for a player: the page's), or by the roster's name of the id a player
    carries, so one person is one line of the standings whatever the table wrote."""
    def shown(player: Seat) -> str:
        person = roster.person(player.id) if player.id else None
        return person.name if person is not None else names.get(player.name, player.name)

    return PlayedGame(game.id, game.game, {}, datetime.fromisoformat(game.started),
                      datetime.fromisoformat(game.ended),
                      tuple(PlayerResult(p.seat, shown(p), p.score, p.place, p.id)
                            for p in game.players))


def _parsed(rows: list[tuple[str, int, bytes]], each: Each | None = None
            ) -> list[FinishedGame]:
    """The games of ``rows`` of the file (through ``each``), as they ended."""
    messages = (_kept(topics.game_topic(table_id, game_id), kept)
                for table_id, game_id, kept in rows)
    games = [each(game) if each else game
             for game in (finished(m) for m in messages if isinstance(m, Game))]
    return sorted(games, key=lambda g: moment(g.ended))


def _kept(topic: str, payload: bytes) -> Message | None:
    """A message kept by an earlier hub, checked again: one a stricter hub refuses is
    forgotten (its table sends it again) rather than stopping the hub from starting."""
    try:
        return topics.parse(topic, payload)
    except BadMessage:
        return None


def _name(table: HeardTable) -> str:
    return table.live.name if table.live is not None else table.id


def _shown_order(table: HeardTable) -> list[tuple[int, str]]:
    """Tables by name as people count them: "Table 2" before "Table 10", case aside."""
    return [(int(run), "") if run.isdigit() else (-1, run)
            for run in re.findall(r"\d+|\D+", _name(table).lower())]


def _playing(table: HeardTable) -> bool:
    """Whether ``table``'s live state is a game in play."""
    return table.live is not None and table.live.phase in PLAYING


def _without_time(live: Live) -> Live:
    return replace(live, at="")


def stored_games(path: Path) -> list[FinishedGame]:
    """Every game a hub keeps in ``path``, read without changing the file (the hub may be
    running), in the order they ended; sqlite3.Error if it is not a hub's file."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT table_id, game_id, payload FROM played").fetchall()
    finally:
        db.close()
    return _parsed(rows)


def remove_games(path: Path, night: str, table_id: str, game_id: int | None = None
                 ) -> list[int]:
    """Remove from the hub's file ``path`` table ``table_id``'s game ``game_id`` of
    ``night``, or all its games of that night; the ids removed (none: nothing matched).
    Each is noted in the file's ``removed`` table, which a running hub reads within a
    second. sqlite3.Error if ``path`` is not a hub's file."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=rw", uri=True, isolation_level=None)
    try:
        db.execute("PRAGMA busy_timeout = 5000")  # the hub may be writing
        db.execute("SELECT 1 FROM played LIMIT 1")  # not a hub's file: an error here
        db.execute("BEGIN IMMEDIATE")
        db.execute(REMOVED)
        where = "night = ? AND table_id = ?"
        values: list[str | int] = [night, table_id]
        if game_id is not None:
            where, values = where + " AND game_id = ?", [*values, game_id]
        ids = [row[0] for row in db.execute(
            f"SELECT game_id FROM played WHERE {where} ORDER BY game_id", values)]
        db.execute(f"DELETE FROM played WHERE {where}", values)
        db.execute(CLOSED)
        db.execute("DELETE FROM closed WHERE night = ?", (night,))
        db.execute(RATINGS)
        db.execute(f"DELETE FROM ratings WHERE {where}", values)
        at = datetime.now().astimezone().isoformat(timespec="seconds")
        db.executemany("INSERT INTO removed (at, night, table_id, game_id) VALUES (?, ?, ?, ?)",
                       [(at, night, table_id, i) for i in ids])
        db.execute("COMMIT")
        return ids
    finally:
        db.close()


def finished(game: Game) -> FinishedGame:
    """The hub's record of a table's finished game, read from the wire's message once."""
    return FinishedGame(game.table, game.name, game.id, game.game, game.started, game.ended,
                        game.night, tuple(Seat(p.seat, p.name, p.score, p.place, p.id)
                                          for p in game.players),
                        tuple(Luck(x.seat, x.luck, x.decisions) for x in game.luck),
                        tuple(Throw(x.seat, x.source, x.dice) for x in game.throws), game.starter)


def payload(game: FinishedGame) -> bytes:
    """``game`` as its table sent it: the file keeps the wire's message."""
    return topics.game_payload(Game(
        game.table, game.name, game.id, game.game, game.started, game.ended, game.night,
        tuple(topics.Player(p.seat, p.name, p.score, p.place, p.id) for p in game.players),
        tuple(topics.Luck(x.seat, x.luck, x.decisions) for x in game.luck),
        tuple(topics.Thrown(x.seat, x.source, x.dice) for x in game.throws), game.starter))
