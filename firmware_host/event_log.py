"""The controller the daemon runs until the referee takes its place: it logs and shows events.

It makes the service useful for bringing up a board: every button, dice throw, sensor change
and device status goes to the log (``journalctl -u table-companion``) and the latest one is
on the screen, under the game the journal would resume. It changes no game.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from typing import Any

from PIL import Image, ImageDraw

from games.core import GameState
from hardware.display import new_frame
from hardware.events import Event

log = logging.getLogger(__name__)


def describe(event: Event) -> str:
    """``ControlPressed control=select``: the event's type and fields, short enough to read."""
    fields = " ".join(f"{f.name}={_plain(getattr(event, f.name))}"
                      for f in dataclasses.fields(event))
    return f"{type(event).__name__} {fields}".strip()


def _plain(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return "-".join(str(v) for v in value)
    return str(value)


class EventLog:
    """A :class:`~firmware_host.loop.Controller` that records and shows what came in."""

    def __init__(self, game: GameState[Any] | None = None) -> None:
        self.game = game
        self.last: str | None = None
        self._dirty = True

    def handle(self, event: Event) -> None:
        self.last = describe(event)
        self._dirty = True
        log.info("%s", self.last)

    def frame(self) -> Image.Image | None:
        if not self._dirty:
            return None
        self._dirty = False
        image = new_frame()
        draw = ImageDraw.Draw(image)
        if self.game is None:
            status = "no game in progress"
        else:
            status = f"{self.game.TITLE}: {len(self.game.history)} moves"
        lines = ["table-companion", status, "", *_wrap(self.last or "waiting for input", 21)]
        for row, line in enumerate(lines[:6]):
            draw.text((0, row * 10), line, fill=1)
        return image


def _wrap(text: str, width: int) -> list[str]:
    return [text[i:i + width] for i in range(0, len(text), width)]
