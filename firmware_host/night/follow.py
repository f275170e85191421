"""What a table has to tell the night, read from its journal: the live game and the results.

The journal stays the one source of truth: a :class:`Snapshot` is rebuilt from it whole
whenever it changes, so a publisher that restarts, or one that missed a change, sends the
same thing again. Only the latest night's finished games are the night's; older nights stay
in the journal and in ``export``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from firmware_host.journal import Journal, PlayedGame
from firmware_host.night.topics import Game, Live, Luck, Player
from games import game_class
from games.core import GameState, Roll
from games.dalmatian import Dalmatian
from games.dalmatian_luck import by_player, turns
from games.errors import GameError


@dataclass(frozen=True)
class Snapshot:
    live: Live
    games: tuple[Game, ...]


def snapshot(journal: Journal, table: str, name: str, now: datetime) -> Snapshot:
    """The table ``table`` (named ``name``) as ``journal`` holds it at ``now``."""
    journal.reload()
    played = journal.finished_games()
    tonight = [game for game in played if game.night == played[-1].night] if played else []
    games = tuple(as_game(table, name, game, game_luck(journal, game)) for game in tonight)
    finished = tuple(game.id for game in games)
    at = now.isoformat(timespec="milliseconds")
    state = journal.resume()
    if state is not None:
        live = live_game(table, name, state, finished, at)
    elif played:
        live = last_result(table, name, played[-1], finished, at)
    else:
        live = Live(table, name, "", (), "", "idle", (), (), "", 0, finished, at)
    return Snapshot(live, games)


def live_game(table: str, name: str, state: GameState[Any], finished: tuple[int, ...],
              at: str) -> Live:
    player = state.current_player
    return Live(table, name, state.TITLE, state.setup.names,
                "" if player is None else state.name(player), state.phase.value,
                players_dice(state), state.scores(),
                str(state.history[-1]) if state.history else "", len(state.history),
                finished, at)


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


def last_result(table: str, name: str, game: PlayedGame, finished: tuple[int, ...],
                at: str) -> Live:
    """Between games the card shows how the last one ended."""
    return Live(table, name, title(game.game), tuple(p.name for p in game.players), "", "over",
                (), tuple(p.score for p in game.players), "", 0, finished, at)


def as_game(table: str, name: str, game: PlayedGame, luck: tuple[Luck, ...] = ()) -> Game:
    return Game(table, name, game.id, title(game.game), game.started.isoformat(),
                game.ended.isoformat(), str(game.night),
                tuple(Player(p.seat, p.name, p.score, p.place) for p in game.players), luck)


def game_luck(journal: Journal, game: PlayedGame) -> tuple[Luck, ...]:
    """Each player's luck and decisions in a finished game of Dalmatian (none for other
    games), worked out once per game: a snapshot is made at every action."""
    if game.game != Dalmatian.NAME:
        return ()
    names = tuple(p.name for p in sorted(game.players, key=lambda p: p.seat))
    return _luck(names, json.dumps(game.options, sort_keys=True), tuple(journal.actions(game)))


@lru_cache(maxsize=64)
def _luck(names: tuple[str, ...], options: str, actions: tuple[str, ...]) -> tuple[Luck, ...]:
    setup = Dalmatian.make_setup(None, list(names), json.loads(options))
    try:
        players = by_player(setup, turns(setup, actions))
    except GameError:  # the journal's hashes hold, so the rules changed since: no report
        return ()
    return tuple(Luck(p.player, round(p.luck * 100), round(p.decisions * 100))
                 for p in players)


def title(game: str) -> str:
    """A game's title from its registry name (``dalmatian`` -> ``Dalmatian``)."""
    return game_class(game).TITLE
