"""The referee's screen, said aloud: a :class:`~firmware_host.loop.Controller` around the
referee that looks at what it shows once each frame is out and hands what changed, as
phrases, to a sink (the speaker, the simulator's column, a test's list).

Hung on from outside, the referee knows nothing of it: the voice reads the game and the
message the screen already shows, and speaks at the tick after the frame (the loop ticks
once the frame after an event is shown), so a phrase never delays a screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from PIL import Image

from firmware_host.referee import Referee
from firmware_host.referee.game_menu import moves_notice
from firmware_host.voice import phrases
from firmware_host.voice.phrases import Glimpse
from games.core import GameState
from hardware.events import DeviceStatus, Event


class Sink(Protocol):
    """Where phrases go: :class:`firmware_host.voice.speaker.Speaker`, or a recorder."""

    def say(self, text: str) -> None: ...

    def prepare(self, texts: Sequence[str]) -> None:
        """What a game will surely say, made ahead when it starts."""


class Spoken:
    """``referee`` as the loop drives it, its news said to ``sink``."""

    def __init__(self, referee: Referee, sink: Sink) -> None:
        self.referee = referee
        self.sink = sink
        self._seen = Glimpse.of(None, None)
        self._status = False  # the last event was a device's news, not a player's try
        # the last message and, when it is the moves' list, the moves in words (made once)
        self._notice: tuple[str | None, str | None] = (None, None)

    def handle(self, event: Event) -> None:
        self._status = isinstance(event, DeviceStatus)
        self.referee.handle(event)

    def frame(self) -> Image.Image | None:
        return self.referee.frame()

    def tick(self, now: float) -> float | None:
        due = self.referee.tick(now)
        self.look()
        return due

    def look(self) -> None:
        """Say what changed on the screen since the last look; nothing while a throw
        tumbles, so the dice are said as they land, not before the screen shows them."""
        if self.referee.timers.tumble.busy:
            return
        table = self.referee.table
        glimpse = (Glimpse.of(None, None) if table is None
                   else self._asked(table.game) or Glimpse.of(table.game, table.message,
                                                              table.told))
        if glimpse.game is not None and glimpse.game is not self._seen.game:
            self.sink.prepare(phrases.vocabulary(glimpse.game.setup.names))
        for text in phrases.between(self._seen, glimpse, status=self._status):
            self.sink.say(text)
        self._seen = glimpse
        self._status = False

    def _asked(self, game: GameState[Any]) -> Glimpse | None:
        """The legal moves a player asked for (the menu's notice of them), said in words."""
        table = self.referee.table
        assert table is not None
        message = table.message
        if message is not None and message != self._notice[0]:
            self._notice = (message, phrases.legal(game) if message == moves_notice(game)
                            else None)
        said = self._notice[1]
        if message is None or said is None:
            return None
        return Glimpse.of(game, said, table.told, asked=True)
