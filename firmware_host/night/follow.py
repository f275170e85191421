"""What a table has to tell the night, read from its journal: the live game and the results.

The journal stays the one source of truth: a :class:`Snapshot` is rebuilt from it whole
whenever it changes, so a publisher that restarts, or one that missed a change, sends the
same thing again. Only the latest night's finished games are the night's; older nights stay
in the journal and in ``export``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from firmware_host.journal import UNKNOWN_SOURCE, Journal, PlayedGame, Throw
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


def snapshot(journal: Journal, table: str, name: str, now: datetime,
             worked: WorkedOut | None = None) -> Snapshot:
    """The table ``table`` (named ``name``) as ``journal`` holds it at ``now``; what is
    worked out from its finished games is kept in ``worked`` (the publisher's) for the
    next."""
    journal.reload()
    played = journal.finished_games()
    tonight = [game for game in played if game.night == played[-1].night] if played else []
    known = worked if worked is not None else WorkedOut()
    games = tuple(known.game(journal, table, name, game) for game in tonight)
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


def last_result(table: str, name: str, game: PlayedGame, finished: tuple[int, ...],
                at: str) -> Live:
    """Between games the card shows how the last one ended."""
    return Live(table, name, title(game.game), tuple(p.name for p in game.players), "", "over",
                (), tuple(p.score for p in game.players), "", 0, finished, at)


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


class WorkedOut:
    """Each finished game's message with what is :func:`worked_out` from its actions, made
    once: a snapshot is made at every action, and a finished game's actions do not change
    (one taken back and finished again has a new end)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str, int, datetime], Game] = {}

    def game(self, journal: Journal, table: str, name: str, game: PlayedGame) -> Game:
        key = (table, name, game.id, game.ended)
        if key not in self._kept:
            self._kept[key] = as_game(table, name, game, *worked_out(
                game, journal.actions(game), journal.throws(game)))
        return self._kept[key]


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
