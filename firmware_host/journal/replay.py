"""A journaled game played again through its rules, from its stored setup and actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from firmware_host.journal.played import result_rows
from firmware_host.journal.records import Damaged, GameRow
from games import game_class
from games.core import GameState
from games.errors import GameError


def replay(game: GameRow, actions: Sequence[str], note_from: int = 0,
           note: Callable[[GameState[Any]], None] | None = None) -> GameState[Any]:
    """The game played again through its rules from its setup (``note`` is handed the state
    after each action from number ``note_from`` on); Damaged when the rules refuse it."""
    setup = game.setup
    try:
        cls = game_class(setup["game"])
        state = cls(cls.make_setup(None, setup["names"], setup["options"]))
    except GameError as err:
        raise Damaged(f"its setup is refused ({err})") from None
    for seq, text in enumerate(actions, start=1):
        try:
            state.apply(text)
        except (GameError, ValueError, KeyError, IndexError, TypeError) as err:
            raise Damaged(f"action {seq} ({text!r}) is refused by the rules ({err})",
                          seq) from None
        if note is not None and seq >= note_from:
            note(state)
    return state


def results_by_rules(game: GameRow, actions: list[str]) -> list[tuple[int, int, int]] | None:
    """A finished game's results worked out by its rules from its actions: for a salvaged
    game whose results rows cannot be read (its seal then checks them); None if they
    cannot be."""
    try:
        return result_rows(replay(game, actions))
    except Damaged:
        return None
