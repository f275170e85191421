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

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from firmware_host.journal import UNKNOWN_SOURCE, Journal, PlayedGame, Throw
from firmware_host.night.published import Kept, Record
from firmware_host.night.topics import (
    MAX_PAYLOAD,
    Game,
    Live,
    Luck,
    Player,
    Thrown,
    game_payload,
)
from games import game_class
from games.core import GameState, Roll
from games.dalmatian import Dalmatian
from games.dalmatian_luck import by_player, turns
from games.errors import GameError


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
