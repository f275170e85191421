"""A table that speaks into a recorder: a referee with a game started in a journal, wrapped
in :class:`~firmware_host.voice.spoken.Spoken`, and a way to play its game to the end as the
service loop drives it (an event, a frame, the tick)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from firmware_host.config import Config, GameConfig
from firmware_host.journal import Journal
from firmware_host.referee import Referee
from firmware_host.referee.parts import DiceRoller
from firmware_host.voice.spoken import Spoken
from games import game_class, new_game
from games.core import Phase
from hardware.events import Control, ControlPressed, DiceRolled, Event

NAMES = ("Ann", "Ben", "Cy", "Di")


class Recorder:
    """A sink that keeps what it was told to say, and what to make ahead."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.prepared: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def prepare(self, texts: Sequence[str]) -> None:
        self.prepared.extend(texts)


def spoken_table(path: Path, name: str, sink: Recorder, roller: DiceRoller | None = None
                 ) -> Spoken:
    journal = Journal.open(path)
    players = NAMES[:max(2, game_class(name).MIN_PLAYERS)]
    journal.start(new_game(name, len(players), list(players)))
    referee = Referee(Config(players=players, game=GameConfig(name)), journal,
                      game=journal.resume(), render=lambda view: None,
                      board=lambda: frozenset(), roller=roller)
    table = Spoken(referee, sink)
    table.tick(0.0)
    return table


def step(table: Spoken, event: Event, now: float) -> None:
    table.handle(event)
    table.frame()
    table.tick(now)


def play_out(table: Spoken, seed: int) -> None:
    """Throw the dice due, else SELECT the highlighted move, to the game's end."""
    rng = random.Random(seed)
    for n in range(5000):
        game = table.referee.game
        assert game is not None
        if game.is_over:
            return
        event: Event = (DiceRolled(tuple(rng.randint(1, 6) for _ in range(game.dice_wanted)),
                                   "manual")
                        if game.phase is Phase.ROLL else ControlPressed(Control.SELECT))
        step(table, event, float(n))
    raise AssertionError("the game did not end")
