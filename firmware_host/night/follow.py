"""What a table has to tell the night, read from its journal: the live game and the results.

The journal stays the one source of truth: a :class:`Snapshot` is made from it whenever it
changes, so a publisher that restarts, or one that missed a change, sends the same thing
again. Only the latest night's finished games are the night's; older nights stay in the
journal and in ``export``. A finished game is checked against its hashes and worked out
(luck, throws) once: :class:`Tonight` keeps what was read, and reads only the games after
the last one it read (:meth:`~firmware_host.journal.Journal.seals` says which), so a
snapshot costs the same after 40 nights or 200 games as after the first.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from contextlib import closing, suppress
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from firmware_host.journal import UNKNOWN_SOURCE, Journal, PlayedGame, Throw
from firmware_host.night.topics import (
    MAX_PAYLOAD,
    BadMessage,
    Game,
    Live,
    Luck,
    Player,
    Thrown,
    game_payload,
    game_topic,
    parse,
)
from games import game_class
from games.core import GameState, Roll
from games.dalmatian import Dalmatian
from games.dalmatian_luck import by_player, turns
from games.errors import GameError

log = logging.getLogger("table_companion.publish")


@dataclass(frozen=True)
class Snapshot:
    live: Live
    games: tuple[Game, ...]
    payloads: tuple[bytes, ...]  # each game's message as sent, made once


def snapshot(journal: Journal, table: str, name: str, now: datetime,
             tonight: Tonight | None = None) -> Snapshot:
    """The table ``table`` (named ``name``) as ``journal`` holds it at ``now``; the night's
    finished games are kept in ``tonight`` (the publisher's) for the next."""
    journal.reload()
    known = tonight if tonight is not None else Tonight()
    kept = known.read(journal, table, name)
    finished = tuple(game.id for game in kept)
    at = now.isoformat(timespec="milliseconds")
    state = journal.resume()
    if state is not None:
        live = live_game(table, name, state, finished, at)
    elif kept:
        live = last_result(kept[-1].game, finished, at)
    else:
        live = Live(table, name, "", (), "", "idle", (), (), "", 0, finished, at)
    return Snapshot(live, tuple(game.game for game in kept),
                    tuple(game.payload for game in kept))


def live_game(table: str, name: str, state: GameState[Any], finished: tuple[int, ...],
              at: str) -> Live:
    player = state.current_player
    return Live(table, name, state.TITLE, state.setup.names,
                "" if player is None else state.name(player), state.phase.value,
                players_dice(state), state.scores(),
                str(state.history[-1]) if state.history else "", len(state.history),
                finished, at, detail(state))


def detail(state: GameState[Any]) -> str:
    """Where a game stands beyond whose turn, for the card: Dalmatian's round and its
    starting total to match (none until the round's two dice are thrown)."""
    if not isinstance(state, Dalmatian) or state.opening.winner is None or state.is_over:
        return ""
    target = "" if state.total is None else f" · target {state.total}"
    return f"round {state.round_number} of {state.rounds}{target}"


def players_dice(state: GameState[Any]) -> tuple[int, ...]:
    """The dice of the player the card names: their last throw while it is still theirs to
    play (a Dalmatian hand whole, after a reroll of some of it), else none. The games do
    not note who threw, so the actions are played again from the start to find out."""
    player = state.current_player
    again = type(state).replay(state.setup, ())
    thrower: int | None = None
    thrown: tuple[int, ...] = ()
    for action in state.history:
        if isinstance(action, Roll):
            thrower, thrown = again.current_player, action.dice
        again.apply(action)
    if thrower is None or thrower != player:
        return ()
    hand = getattr(state, "dice", None)  # a game that keeps the dice in play shows them all
    if isinstance(hand, tuple) and len(hand) >= len(thrown) and all(
            isinstance(face, int) for face in hand):
        return hand
    return thrown


def last_result(game: Game, finished: tuple[int, ...], at: str) -> Live:
    """Between games the card shows how the last one ended."""
    return Live(game.table, game.name, game.game, tuple(p.name for p in game.players), "",
                "over", (), tuple(p.score for p in game.players), "", 0, finished, at)


def as_game(table: str, name: str, game: PlayedGame, luck: tuple[Luck, ...] = (),
            throws: tuple[Thrown, ...] = (), starter: int | None = None) -> Game:
    """The message of a finished game; without its throws if they would make it longer
    than the hub takes (a game of thousands of throws)."""
    made = Game(table, name, game.id, title(game.game), game.started.isoformat(),
                game.ended.isoformat(), str(game.night),
                tuple(Player(p.seat, p.name, p.score, p.place, p.id) for p in game.players),
                luck, throws, starter)
    if throws and len(game_payload(made)) > MAX_PAYLOAD:
        return replace(made, throws=())
    return made


Worked = tuple[tuple[Luck, ...], tuple[Thrown, ...], int | None]


@dataclass(frozen=True)
class Kept:
    """A finished game as read: its number and seal (what the journal lists to tell a
    changed game), its night, and its message, made once."""

    id: int
    seal: str | None
    night: str
    game: Game
    payload: bytes


class Tonight:
    """The latest night's finished games, each checked against its hashes and worked out
    once. A finished game's actions do not change, and only the latest game can (taken
    back, then finished again with a new seal), so each read lists the finished games from
    the last one kept on and reads only the new ones; a new night, or one the clock went
    back to, reads that night's earlier games once. ``record`` (the publisher's) keeps the
    games beside the journal, so a restart reads only what came since."""

    def __init__(self, record: Record | None = None) -> None:
        self.record = record
        self._games: list[Kept] = []
        self._loaded = record is None
        self._refused: set[tuple[int, str | None]] = set()  # found damaged: not read again

    def read(self, journal: Journal, table: str, name: str) -> list[Kept]:
        """The night's games as ``journal`` holds them now, in order."""
        if self.record is not None and not self._loaded:
            self._loaded = True
            self._games = self.record.load(journal, table, name)
        listed = self._listed(journal, table, name)
        seals = {id_: seal for id_, seal in listed[1 if self._games else 0:]
                 if (id_, seal) not in self._refused}
        if not seals:
            return self._games
        if self._games:
            fresh = [game for game in journal.finished_games(after=min(seals) - 1)
                     if game.id in seals]
            self._refused.update(item for item in seals.items()
                                 if item[0] not in {game.id for game in fresh})
            if fresh and str(fresh[-1].night) != self._games[-1].night:
                # a new night, or one the clock went back to: read that night whole, once
                self._games = []
                return self.read(journal, table, name)
            fresh = [game for game in fresh if str(game.night) == self._games[-1].night]
        else:
            fresh = self._last_night(journal, seals)
        added = [self._kept(journal, table, name, game, seals[game.id]) for game in fresh]
        self._games += added
        if self.record is not None and added:
            self.record.save(table, name, self._games, added[0].id)
        return self._games

    @staticmethod
    def _last_night(journal: Journal, seals: dict[int, str | None]) -> list[PlayedGame]:
        """The games of the night of the last finished game that checks out, of those
        listed in ``seals``: only that night's are checked (and the damaged ones after)."""
        for id_ in sorted(seals, reverse=True):
            last = [game for game in journal.finished_games(after=id_ - 1) if game.id == id_]
            if last:
                return [game for game in journal.finished_games(last[0].night)
                        if game.id in seals]
        return []

    def _listed(self, journal: Journal, table: str, name: str) -> list[tuple[int, str | None]]:
        """The finished games from the last kept on (all without one). The last kept is
        dropped while the journal does not list it as kept: taken back, or finished
        again."""
        while True:
            since = self._games[-1] if self._games else None
            listed = journal.seals(since.id - 1 if since is not None else 0)
            if since is None or listed[:1] == [(since.id, since.seal)]:
                return listed
            self._games.pop()
            if self.record is not None:
                self.record.save(table, name, self._games, since.id)

    @staticmethod
    def _kept(journal: Journal, table: str, name: str, game: PlayedGame,
              seal: str | None) -> Kept:
        message = as_game(table, name, game, *worked_out(game, journal.actions(game),
                                                          journal.throws(game)))
        return Kept(game.id, seal, str(game.night), message, game_payload(message))


class Record:
    """The night's games a publisher has read, kept in a small SQLite file beside the
    journal (``journal.sqlite3.published``) so that a restart does not check and work out
    the whole night again. Only a cache: a record that is missing, torn, of another table,
    or that the journal's seals do not bear out is dropped, and the night is read whole
    once."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self, journal: Journal, table: str, name: str) -> list[Kept]:
        """The games kept for ``table`` (named ``name``); none when there is no record, or
        none that can be trusted (that one is removed)."""
        if not self.path.exists():
            return []
        try:
            with closing(sqlite3.connect(self.path)) as db:
                rows = db.execute("SELECT id, seal, night, payload FROM games WHERE tbl = ? "
                                  "AND name = ? ORDER BY id", (table, name)).fetchall()
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
        since the last save; a record that cannot be written is dropped."""
        night = games[-1].night if games else ""
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
                db.execute("COMMIT")
        except (sqlite3.Error, OSError) as err:
            log.warning("could not keep the night's games in %s (%s): a restart reads "
                        "the night whole", self.path, err)
            self._remove()

    def _remove(self) -> None:
        for path in (self.path, self.path.with_name(self.path.name + "-journal")):
            with suppress(OSError):
                path.unlink(missing_ok=True)


def record_beside(journal: Path) -> Record:
    """The record of the publisher of the journal at ``journal``."""
    return Record(journal.with_name(journal.name + ".published"))


def worked_out(game: PlayedGame, actions: Sequence[str], thrown: Sequence[Throw]) -> Worked:
    """What the table works out from a finished game's actions for the hub, which gets no
    actions: each player's luck in a game of Dalmatian, every throw with who threw (found
    by playing the game again) and its source, and who started (won the opening)."""
    names = [p.name for p in sorted(game.players, key=lambda p: p.seat)]
    luck = _luck(names, game.options, actions) if game.game == Dalmatian.NAME else ()
    return (luck, *_replayed(game.game, names, game.options, actions,
                             [throw.source for throw in thrown]))


def _replayed(name: str, names: list[str], options: dict[str, Any], actions: Sequence[str],
              sources: Sequence[str]) -> tuple[tuple[Thrown, ...], int | None]:
    """Every throw, and the seat that won the opening (None for a game without one)."""
    cls = game_class(name)
    try:
        state = cls.replay(cls.make_setup(None, names, options), ())
        found = []
        given = iter(sources)
        for text in actions:
            action = state.parse(text)
            if isinstance(action, Roll) and state.current_player is not None:
                found.append(Thrown(state.current_player, next(given, UNKNOWN_SOURCE),
                                    action.dice))
            elif isinstance(action, Roll):
                next(given, None)
            state.apply(action)
    except GameError:  # the journal's hashes hold, so the rules changed since: none sent
        return (), None
    opening = getattr(state, "opening", None)
    return tuple(found), getattr(opening, "winner", None)


def _luck(names: list[str], options: dict[str, Any], actions: Sequence[str]
          ) -> tuple[Luck, ...]:
    setup = Dalmatian.make_setup(None, names, options)
    try:
        players = by_player(setup, turns(setup, actions))
    except GameError:  # the journal's hashes hold, so the rules changed since: no report
        return ()
    return tuple(Luck(p.player, round(p.luck * 100), round(p.decisions * 100))
                 for p in players)


def title(game: str) -> str:
    """A game's title from its registry name (``dalmatian`` -> ``Dalmatian``)."""
    return game_class(game).TITLE
