"""What the referee is handed besides the config and the journal, as the referee sees it: the
dice button, the buzzer, the board sensors and their recogniser, the way to stop, the
screens. Each is optional, since a table may lack it (and a test may leave it out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from firmware_host.views import View
from games.core import GameState
from hardware.board.matrix import cell_name
from hardware.events import CellChanged
from hardware.sound.buzzer import Note

Renderer = Callable[[View], Image.Image]
Occupancy = Callable[[], frozenset[tuple[int, int]]]


class DiceRoller(Protocol):
    """The part of :class:`hardware.controls.dice_button.DiceButton` the referee uses: the dice per
    throw it sets, and the faces of the roll animation."""

    count: int

    def tumble(self, final: tuple[int, ...]) -> tuple[tuple[int, ...], ...]: ...


class Sounder(Protocol):
    """The part of :class:`hardware.sound.buzzer.Buzzer` the referee uses."""

    def play(self, notes: Sequence[Note]) -> None: ...


class Sensed(Protocol):
    """What a recogniser reports: :class:`firmware_host.sensing.Outcome`."""

    @property
    def action(self) -> str | None: ...

    @property
    def fixes(self) -> tuple[str, ...]: ...

    @property
    def message(self) -> str | None: ...

    @property
    def offer(self) -> str | None: ...

    @property
    def refused(self) -> str | None: ...


class Recogniser(Protocol):
    """What :mod:`firmware_host.sensing` provides for a sensed game."""

    def reset(self, game: Any, occupied: frozenset[tuple[int, int]]) -> Sensed: ...

    def changed(self, game: Any, event: CellChanged) -> Sensed: ...

    def review(self, game: Any) -> Sensed: ...

    def missing(self, game: Any) -> frozenset[tuple[int, int]]: ...

    def extra(self, game: Any) -> frozenset[tuple[int, int]]: ...

    def hint(self, game: Any) -> str | None: ...

    @property
    def board(self) -> frozenset[tuple[int, int]]: ...

    ignored: set[tuple[int, int]]


Recognise = Callable[[GameState[Any]], Recogniser | None]
Restless = Callable[[], Mapping[tuple[int, int], int]]
"""The cells a close by itself of which came back before it settled of late, and how often
each changed by itself (:meth:`hardware.board.matrix.ReedMatrix.changes_by_itself`)."""


def _nothing() -> None:
    pass


@dataclass
class Parts:
    """``roller`` is told how many dice to throw; ``recognise`` gives the board sensors'
    recogniser for a game (None: that game is played with the controls) and ``board``
    reads which cells hold a piece now, for the check when a game starts or resumes.
    ``shutdown`` is what the menu's "Shut down" runs. ``label`` names a sensor's cell in
    messages and the log ("B3", or "box 7" on a track: the pin map's ``matrix.label``).
    ``restless`` says which sensors' changes by themselves went unreported, too brief
    to settle (None: the board's scanner does not say)."""

    roller: DiceRoller | None = None
    sounder: Sounder | None = None
    recognise: Recognise | None = None
    board: Occupancy | None = None
    shutdown: Callable[[], None] = _nothing
    label: Callable[[int, int], str] = cell_name
    restless: Restless | None = None
